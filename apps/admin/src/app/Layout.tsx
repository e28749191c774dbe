import { LANGS, type Lang } from '@bourse/protocol';
import {
  AppShell,
  Burger,
  Button,
  Group,
  Loader,
  NavLink,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, NavLink as RouterLink, useLocation } from 'react-router';
import { api, staffToken } from './api.ts';
import { changeLang, useLang } from './i18n.ts';
import { SCREENS } from './screens.tsx';
import { useStaffMe, useStaffToken } from './session.ts';

export function LangSwitch() {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('lang.label')}
      value={lang}
      onChange={(value) => void changeLang(value as Lang)}
      data={LANGS.map((l) => ({ value: l, label: t(`lang.${l}`) }))}
      data-testid="lang-switch"
      data-lang={lang}
    />
  );
}

/** The screens this staff member may open, in registry order. */
function useNavRows() {
  const me = useStaffMe();
  return SCREENS.filter((row) => row.nav !== false && me.data?.permissions.includes(row.permission));
}

export function HomeRedirect() {
  const rows = useNavRows();
  const me = useStaffMe();
  if (me.isLoading) return <Loader m="xl" />;
  const first = rows[0];
  return first ? <Navigate to={`/${first.path}`} replace /> : <Forbidden />;
}

export function Forbidden() {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" p="xl" data-testid="forbidden">
      {t('common.forbidden')}
    </Text>
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" p="xl">
      {t('common.notFound')}
    </Text>
  );
}

export function AdminLayout() {
  const { t } = useTranslation();
  const token = useStaffToken();
  const me = useStaffMe();
  const rows = useNavRows();
  const location = useLocation();
  // One entry lit: the longest path the address is at or under (`markets/hours` over `markets`).
  const activePath = rows
    .map((row) => row.path)
    .filter((path) => location.pathname === `/${path}` || location.pathname.startsWith(`/${path}/`))
    .sort((a, b) => b.length - a.length)[0];
  const [opened, { toggle, close }] = useDisclosure(false);
  const queryClient = useQueryClient();
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname }} />;

  const logout = async () => {
    try {
      await api.post('staffLogout');
    } catch {
      // Ended already: logging out locally is all that is left.
    }
    staffToken.set(null);
    queryClient.clear();
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="menu" />
            <Title order={4} style={{ whiteSpace: 'nowrap' }}>
              {t('title')}
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap" visibleFrom="sm">
            <LangSwitch />
            <Text size="sm" c="dimmed" data-testid="signed-in-as">
              {me.data ? t('nav.signedInAs', { email: me.data.email }) : null}
            </Text>
            <Button variant="default" size="xs" onClick={logout}>
              {t('nav.logout')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <AppShell.Section grow component={ScrollArea}>
          {rows.map((row) => (
            <NavLink
              key={row.path}
              component={RouterLink}
              to={`/${row.path}`}
              // Exact: the router marks a prefix match aria-current, which Mantine styles as active
              // (on /withdrawals/rules both "Withdrawals" and "Withdrawal policy" were highlighted).
              end
              label={t(row.label.key as never, { ns: row.label.ns }) as string}
              active={row.path === activePath}
              onClick={close}
              data-testid={`nav-${row.path}`}
            />
          ))}
        </AppShell.Section>
        <AppShell.Section hiddenFrom="sm">
          <Stack gap="xs" pt="sm">
            <Text size="xs" c="dimmed">
              {me.data?.email}
            </Text>
            <LangSwitch />
            <Button variant="default" size="xs" onClick={logout}>
              {t('nav.logout')}
            </Button>
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
