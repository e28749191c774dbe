import { LOCALE_OF } from '@bourse/protocol';
import { NumProvider } from '@bourse/ui';
import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n, useLang } from './i18n.ts';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC", "PingFang TC", "Hiragino Sans GB", "Microsoft YaHei", "Microsoft JhengHei", "Noto Sans CJK SC", "Noto Sans CJK TC", sans-serif',
});

/** Staff see every failure where they acted: queries never retry into a second error, nor refetch on focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
}

/** Figures follow the staff member's language (grouping and decimal mark); staff screens keep green for up. */
function NumbersProvider({ children }: { children: ReactNode }) {
  const lang = useLang();
  return (
    <NumProvider locale={LOCALE_OF[lang]} rise="green">
      {children}
    </NumProvider>
  );
}

/**
 * Everything a screen renders inside: i18n, Mantine, TanStack Query and number formatting. The app
 * and the component tests (src/test/render.tsx, with `env="test"`: no transitions, no portals) share it.
 */
export function AppProviders(props: { client: QueryClient; env?: 'default' | 'test'; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} defaultColorScheme="light" env={props.env ?? 'default'}>
        <QueryClientProvider client={props.client}>
          <NumbersProvider>{props.children}</NumbersProvider>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
