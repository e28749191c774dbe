import { Loader } from '@mantine/core';
import { Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import LoginScreen from '../features/login/LoginScreen.tsx';
import { AdminLayout, Forbidden, HomeRedirect, NotFound } from './Layout.tsx';
import { SCREEN_COMPONENTS, SCREENS } from './screens.tsx';
import { useStaffMe } from './session.ts';

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

/** The back office's routes (under /admin/): the app's browser router and the tests' memory router. */
export const routes: RouteObject[] = [
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
