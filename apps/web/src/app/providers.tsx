import { LOCALE_OF } from '@bourse/protocol';
import { NumProvider } from '@bourse/ui';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n, useLang } from '../lib/i18n.ts';
import { useRise } from '../lib/prefs.ts';
import { colorSchemeManager, theme } from './theme.ts';

/**
 * The API client shows every failure itself (toast or dialog, API.md), so queries never retry into a
 * second toast and never refetch just because the window got focus.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/** Numbers follow the language's locale and the customer's rise colour. */
function NumbersProvider({ children }: { children: ReactNode }) {
  const lang = useLang();
  const rise = useRise();
  return (
    <NumProvider locale={LOCALE_OF[lang]} rise={rise}>
      {children}
    </NumProvider>
  );
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
        <QueryClientProvider client={queryClient}>
          <NumbersProvider>
            <ModalsProvider>
              <Notifications position="top-center" limit={4} />
              {children}
            </ModalsProvider>
          </NumbersProvider>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
