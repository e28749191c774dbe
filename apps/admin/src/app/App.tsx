import { createTheme, Loader, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import LoginScreen from '../features/login/LoginScreen.tsx';
import { i18n } from './i18n.ts';
import { AdminLayout, Forbidden, HomeRedirect, NotFound } from './Layout.tsx';
import { SCREEN_COMPONENTS, SCREENS } from './screens.tsx';
import { useStaffMe } from './session.ts';

const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC", "PingFang TC", "Hiragino Sans GB", "Microsoft YaHei", "Microsoft JhengHei", "Noto Sans CJK SC", "Noto Sans CJK TC", sans-serif',
});

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
});

/** A screen opens only for staff whose permissions include its row's permission. */
function Guarded({ permission, path }: { permission: string; path: string }) {
  const me = useStaffMe();
  const row = SCREENS.find((s) => s.path === path);
  if (me.isLoading || !row) return <Loader m="xl" />;
  if (!me.data?.permissions.includes(permission)) return <Forbidden />;
  return <LazyScreen path={path} />;
}

function LazyScreen({ path }: { path: string }) {
  const Screen = SCREEN_COMPONENTS.get(path);
  if (!Screen) return <NotFound />;
  return (
    <Suspense fallback={<Loader m="xl" />}>
      <Screen />
    </Suspense>
  );
}

const routes: RouteObject[] = [
  { path: '/login', element: <LoginScreen /> },
  {
    element: <AdminLayout />,
    children: [
      { index: true, element: <HomeRedirect /> },
      ...SCREENS.map((row) => ({
        path: row.path,
        element: <Guarded permission={row.permission} path={row.path} />,
      })),
      { path: '*', element: <NotFound /> },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

const router = createBrowserRouter(routes, { basename: '/admin' });

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} defaultColorScheme="light">
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
