import { Anchor, AppShell, Container, Group, Progress, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useMatches, useNavigation } from 'react-router';
import { AgreementNotice } from '../../features/agreement/components/AgreementNotice.tsx';
import { AccessGuard } from '../guard.tsx';
import type { RouteHandle } from '../routeTypes.ts';
import { DesktopHeader } from './DesktopHeader.tsx';
import classes from './layout.module.css';
import { MobileHeader } from './MobileHeader.tsx';
import { MobileTabBar } from './MobileTabBar.tsx';

/** 48em (768 px): below it the mobile layout (compact header, bottom tabs); from it the desktop one. */
export const DESKTOP_QUERY = '(min-width: 48em)';

function useDocumentTitle(): void {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as RouteHandle | undefined;
  const title: string | null = handle ? t(`route.${handle.title}`) : null;
  const app: string = t('app.name');
  useEffect(() => {
    document.title = title && title !== app ? `${title} · ${app}` : app;
  }, [title, app]);
}

function DesktopFooter() {
  const { t } = useTranslation();
  return (
    <footer className={classes.footer}>
      <Container size={1920} px={32} py="lg">
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            © {new Date().getFullYear()} {t('app.name')}
          </Text>
          <Anchor component={Link} to="/agrt" size="sm" c="dimmed">
            {t('route.agreement')}
          </Anchor>
        </Group>
      </Container>
    </footer>
  );
}

/** The app shell around every screen; the access guard sits between it and the screen. */
export function AppLayout() {
  const { t } = useTranslation();
  const wide = useMediaQuery(DESKTOP_QUERY, window.matchMedia(DESKTOP_QUERY).matches, {
    getInitialValueInEffect: false,
  });
  const navigation = useNavigation();
  useDocumentTitle();

  return (
    <AppShell
      header={{ height: wide ? 64 : 52 }}
      footer={wide ? undefined : { height: 'calc(60px + env(safe-area-inset-bottom))' }}
      padding={0}
      data-layout={wide ? 'desktop' : 'mobile'}
    >
      <a href="#main" className={classes.skipLink}>
        {t('app.skipToContent')}
      </a>
      <AppShell.Header>
        {wide ? <DesktopHeader /> : <MobileHeader />}
        {navigation.state === 'loading' ? (
          <Progress
            value={100}
            animated
            size={2}
            radius={0}
            pos="absolute"
            bottom={0}
            left={0}
            right={0}
            aria-label={t('app.loading')}
          />
        ) : null}
      </AppShell.Header>
      <AppShell.Main id="main" style={{ display: 'flex', flexDirection: 'column' }}>
        <Container size={1920} px={{ base: 'md', sm: 32 }} w="100%" style={{ flex: 1 }}>
          <AgreementNotice />
          <AccessGuard>
            <Outlet />
          </AccessGuard>
        </Container>
        {wide ? <DesktopFooter /> : null}
      </AppShell.Main>
      {wide ? null : (
        <AppShell.Footer style={{ paddingBottom: 'env(safe-area-inset-bottom)' }}>
          <MobileTabBar />
        </AppShell.Footer>
      )}
    </AppShell>
  );
}
