import { type Lang, LOCALE_OF } from '@bourse/protocol';
import { NumProvider } from '@bourse/ui';
import '@testing-library/jest-dom/vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, Outlet, useLocation } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { afterEach, vi } from 'vitest';
import { i18n } from '../../lib/i18n.ts';
import { clearToken, setToken } from '../../lib/session.ts';

/**
 * Component tests of a feature's screens (happy-dom and Testing Library, chosen per file with
 * `// @vitest-environment happy-dom`): each screen rendered inside the providers the app uses (i18n,
 * Mantine with `env="test"`: no transitions, no portals; a fresh TanStack Query client; numbers in
 * the language's locale) and a memory router with the feature's routes (any other address renders
 * `elsewhere`), the network mocked at `fetch` (`mockApi` from ./api.ts).
 */

// A shared machine can take more than the default second to render a screen; a wrong screen still fails.
configure({ asyncUtilTimeout: 5_000 });

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {`${location.pathname}${location.search}`}
    </output>
  );
}

/** Where a screen's link leads outside the feature: just the address. */
function Elsewhere() {
  return <div data-testid="elsewhere" />;
}

/** The viewport: 1920 wide (tables) or a 390 phone (cards). */
export type Viewport = 'desktop' | 'phone';

const WIDTHS: Record<Viewport, { width: number; height: number }> = {
  desktop: { width: 1920, height: 1080 },
  phone: { width: 390, height: 844 },
};

function setViewport(viewport: Viewport): void {
  const size = WIDTHS[viewport];
  const happy = (
    window as unknown as { happyDOM?: { setViewport(s: { width: number; height: number }): void } }
  ).happyDOM;
  if (!happy) throw new Error('screen component tests run in happy-dom');
  happy.setViewport(size);
}

/**
 * The second copy of Mantine. The web build dedupes Mantine (vite.config.ts `resolve.dedupe`), so the
 * app and `@bourse/ui` share one; the root test config does not, and here `@bourse/ui` (Num, CopyField)
 * loads the repository root's copy while the screens load apps/web's own. Its provider goes inside
 * the screens' one, so both find a theme; with a single copy installed it is the same provider twice.
 */
const ROOT_MANTINE = '../../../../../node_modules/@mantine/core/esm/index.mjs';
let rootMantine: Promise<typeof import('@mantine/core')> | null = null;

function rootMantineProvider() {
  rootMantine ??= import(/* @vite-ignore */ ROOT_MANTINE) as Promise<typeof import('@mantine/core')>;
  return rootMantine.then((m) => m.MantineProvider);
}

export type ScreenOptions = { route: string; lang?: Lang; viewport?: Viewport; signedIn?: boolean };

/** Renders `options.route` among `routes` (path → screen). */
export async function renderScreens(routes: Record<string, ReactElement>, options: ScreenOptions) {
  const lang = options.lang ?? 'en';
  await i18n.changeLanguage(lang);
  setViewport(options.viewport ?? 'desktop');
  if (options.signedIn !== false) setToken('tok_test');
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Outlet />
            <LocationProbe />
          </>
        ),
        children: [
          ...Object.entries(routes).map(([path, element]) => ({ path, element })),
          { path: '*', element: <Elsewhere /> },
        ],
      },
    ],
    { initialEntries: [options.route] },
  );
  const RootMantineProvider = await rootMantineProvider();
  const user = userEvent.setup({ delay: null });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider env="test">
        <RootMantineProvider env="test">
          <QueryClientProvider client={client}>
            <NumProvider locale={LOCALE_OF[lang]} rise="green">
              <RouterProvider router={router} />
            </NumProvider>
          </QueryClientProvider>
        </RootMantineProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  return { ...view, user, router, client };
}

/**
 * Records every key a render asks for that the current language lacks, with the fallback language
 * switched off: a screen in zh or ft that would quietly show English shows up as `lang:ns:key`.
 */
export function watchMissingKeys(): { missing: string[]; stop: () => void } {
  const missing: string[] = [];
  const options = i18n.options;
  const saved = {
    saveMissing: options.saveMissing,
    missingKeyHandler: options.missingKeyHandler,
    fallbackLng: options.fallbackLng,
  };
  options.saveMissing = true;
  options.fallbackLng = false;
  options.missingKeyHandler = (lngs, ns, key) => {
    missing.push(`${[lngs].flat().join(',')}:${ns}:${key}`);
  };
  return { missing, stop: () => Object.assign(options, saved) };
}

afterEach(async () => {
  cleanup();
  clearToken();
  sessionStorage.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});
