import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './layout/AppLayout.tsx';
import { BootScreen, RouteError } from './RouteError.tsx';
import { type AppRoute, CATCH_ALL, ROUTES } from './routes.tsx';
import type { RouteHandle } from './routeTypes.ts';

function toRouteObject(route: AppRoute): RouteObject {
  const handle: RouteHandle = { title: route.title };
  if (route.redirect) {
    return {
      path: route.path,
      caseSensitive: true,
      handle,
      element: <Navigate to={route.redirect} replace />,
    };
  }
  const load = route.load;
  if (!load) throw new Error(`route ${route.path} has neither a screen nor a redirect`);
  return {
    path: route.path,
    caseSensitive: true,
    handle,
    lazy: async () => ({ Component: await load() }),
  };
}

export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <BootScreen />,
      // A screen that fails keeps the header and tabs around its error message.
      children: [
        { errorElement: <RouteError />, children: [...ROUTES.map(toRouteObject), toRouteObject(CATCH_ALL)] },
      ],
    },
  ]);
}
