import type { Lang } from '@bourse/protocol';
import '@testing-library/jest-dom/vitest';
import './dom.ts';
import { cleanup, configure, render } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, Outlet, type RouteObject, useLocation } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { afterEach, vi } from 'vitest';
import { staffToken } from '../app/api.ts';
import { i18n } from '../app/i18n.ts';
import { AppProviders, createQueryClient } from '../app/providers.tsx';

// A shared machine (CI beside other suites) can take more than the default second to load a lazy
// screen and render it; a wrong screen still fails, only later.
configure({ asyncUtilTimeout: 5_000 });

/** Where the router is, for tests that check navigation. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {`${location.pathname}${location.search}`}
    </output>
  );
}

type User = UserEvent;

export type RenderOptions = {
  /** The address the router starts at (under the app's basename, without `/admin`). */
  route?: string;
  lang?: Lang;
  /** A route table (the app's: `routes` of app/routes.tsx); default: `element` at every address. */
  routes?: RouteObject[];
};

/**
 * Renders inside the providers the app uses (i18n, Mantine with `env="test"`, a fresh TanStack
 * Query client, numbers) and a memory router, with a user-event session. Call `mockApi()` first.
 */
export async function renderAdmin(element: ReactNode | null, options: RenderOptions = {}) {
  await i18n.changeLanguage(options.lang ?? 'en');
  const client = createQueryClient();
  const children = options.routes ?? [{ path: '*', element }];
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Outlet />
            <LocationProbe />
          </>
        ),
        children,
      },
    ],
    { initialEntries: [options.route ?? '/'] },
  );
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AppProviders client={client} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, user, router, client };
}

/** Replaces a field's text in one input event (typing key by key re-renders a whole screen per key). */
export async function fill(user: User, element: HTMLElement, text: string): Promise<void> {
  await user.clear(element);
  if (text === '') return;
  await user.click(element);
  await user.paste(text);
}

afterEach(async () => {
  cleanup();
  staffToken.set(null);
  sessionStorage.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});
