import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders, createQueryClient } from './providers.tsx';
import { routes } from './routes.tsx';

const queryClient = createQueryClient();

const router = createBrowserRouter(routes, { basename: '/admin' });

export function App() {
  return (
    <AppProviders client={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
