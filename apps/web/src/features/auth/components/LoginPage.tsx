import { Anchor, Divider, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePublicConfig } from '../../../api/publicConfig.ts';
import { AuthCard } from './AuthCard.tsx';
import { CodeLoginForm } from './CodeLoginForm.tsx';
import { DemoAccount } from './DemoAccount.tsx';
import { PasswordLoginForm } from './PasswordLoginForm.tsx';
import { WalletLogin } from './WalletLogin.tsx';

type LoginTab = 'password' | 'code' | 'wallet';

/** /login: password, code or wallet; a demo account for visitors; links to register and reset. */
export function LoginPage() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const [tab, setTab] = useState<LoginTab>('password');

  return (
    <AuthCard
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      testId="login-page"
      footer={
        <Text size="sm">
          {t('auth.login.noAccount')}{' '}
          <Anchor component={Link} to="/register" fw={600} data-testid="link-register">
            {t('auth.login.toRegister')}
          </Anchor>
        </Text>
      }
    >
      <Tabs
        value={tab}
        onChange={(value) => setTab((value as LoginTab | null) ?? 'password')}
        keepMounted={false}
      >
        <Tabs.List grow aria-label={t('auth.login.tabsLabel')} mb="lg">
          <Tabs.Tab value="password" data-testid="login-tab-password">
            {t('auth.login.tabPassword')}
          </Tabs.Tab>
          <Tabs.Tab value="code" data-testid="login-tab-code">
            {t('auth.login.tabCode')}
          </Tabs.Tab>
          <Tabs.Tab value="wallet" data-testid="login-tab-wallet">
            {t('auth.login.tabWallet')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="password">
          <PasswordLoginForm />
        </Tabs.Panel>
        <Tabs.Panel value="code">
          <CodeLoginForm />
        </Tabs.Panel>
        <Tabs.Panel value="wallet">
          <WalletLogin />
        </Tabs.Panel>
      </Tabs>
      {config.data ? (
        <Text size="xs" c="dimmed" mt="md" data-testid="login-lock-rule">
          {t('auth.login.lockRule', {
            minutes: config.data.login_lock_minutes,
            failures: config.data.login_max_failures,
          })}
        </Text>
      ) : null}
      <Divider label={t('ui.or')} labelPosition="center" my="lg" />
      <DemoAccount />
    </AuthCard>
  );
}
