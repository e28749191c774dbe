import { LANGS, LOCALE_OF } from '@bourse/protocol';
import { Num, type Rise } from '@bourse/ui';
import {
  Button,
  Group,
  NavLink,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useChangeLanguage } from '../../../api/setLanguage.ts';
import { useLogout } from '../../../api/userLogout.ts';
import { ChevronRightIcon, IdCardIcon, LockIcon, LogoutIcon } from '../../../components/icons.tsx';
import { useLang } from '../../../lib/i18n.ts';
import { setRise, useRise } from '../../../lib/prefs.ts';

function Setting({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">
        {label}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
      {children}
    </Stack>
  );
}

/** /setting: language, theme, price colours, change password, identity verification, log out. */
export function SettingsPanel() {
  const { t } = useTranslation();
  const { t: kyc } = useTranslation('kyc');
  const lang = useLang();
  const changeLanguage = useChangeLanguage();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const rise = useRise();
  const wide = useMediaQuery('(min-width: 36em)', true, { getInitialValueInEffect: false });
  const logout = useLogout();

  return (
    <Stack gap="lg" data-testid="settings-panel">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Title order={2} size="h4" mb="md">
          {t('settings.preferences')}
        </Title>
        <Stack gap="lg">
          <Setting label={t('lang.label')}>
            <SegmentedControl
              fullWidth
              value={lang}
              onChange={(value) => {
                const next = LANGS.find((option) => option === value);
                if (next) changeLanguage(next);
              }}
              aria-label={t('lang.label')}
              data={LANGS.map((option) => ({
                value: option,
                label: (
                  <span lang={LOCALE_OF[option]} data-testid={`settings-lang-${option}`}>
                    {t(`lang.${option}`)}
                  </span>
                ),
              }))}
            />
          </Setting>
          <Setting label={t('theme.label')}>
            <SegmentedControl
              fullWidth
              value={scheme}
              onChange={(value) => setColorScheme(value === 'dark' ? 'dark' : 'light')}
              aria-label={t('theme.label')}
              data={[
                { value: 'light', label: <span data-testid="settings-theme-light">{t('theme.light')}</span> },
                { value: 'dark', label: <span data-testid="settings-theme-dark">{t('theme.dark')}</span> },
              ]}
            />
          </Setting>
          <Setting label={t('rise.label')} hint={t('rise.hint')}>
            <SegmentedControl
              fullWidth
              orientation={wide ? 'horizontal' : 'vertical'}
              value={rise}
              onChange={(value) => setRise((value === 'red' ? 'red' : 'green') satisfies Rise)}
              aria-label={t('rise.label')}
              data={[
                { value: 'green', label: <span data-testid="settings-rise-green">{t('rise.green')}</span> },
                { value: 'red', label: <span data-testid="settings-rise-red">{t('rise.red')}</span> },
              ]}
            />
            <Group gap="xl" data-testid="rise-preview">
              <Group gap={6}>
                <Text size="sm" c="dimmed">
                  {t('rise.up')}
                </Text>
                <Num value="2.35" percent signed trend="auto" fw={600} size="sm" />
              </Group>
              <Group gap={6}>
                <Text size="sm" c="dimmed">
                  {t('rise.down')}
                </Text>
                <Num value="-1.80" percent signed trend="auto" fw={600} size="sm" />
              </Group>
            </Group>
          </Setting>
        </Stack>
      </Paper>

      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'sm' }}>
        <Title order={2} size="h4" px="sm" pt="xs" pb="xs">
          {t('settings.security')}
        </Title>
        <NavLink
          component={Link}
          to="/forgetpwd?type=changepwd"
          label={t('settings.changePassword')}
          description={t('settings.changePasswordHint')}
          leftSection={<LockIcon />}
          rightSection={<ChevronRightIcon size={16} />}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
          data-testid="settings-change-password"
        />
        <NavLink
          component={Link}
          to="/sfyz"
          label={kyc('setting.entry')}
          description={kyc('setting.entryHint')}
          leftSection={<IdCardIcon />}
          rightSection={<ChevronRightIcon size={16} />}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
          data-testid="settings-verification"
        />
      </Paper>

      <Button
        variant="light"
        color="red"
        size="md"
        leftSection={<LogoutIcon size={18} />}
        loading={logout.isPending}
        onClick={() => logout.mutate()}
        data-testid="logout"
      >
        {t('settings.logout')}
      </Button>
    </Stack>
  );
}
