import { Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { WRITE_PERMISSION } from './api.ts';
import { FlagsPanel } from './FlagsPanel.tsx';
import { IncomePanel } from './IncomePanel.tsx';
import { SettingsPanel } from './SettingsPanel.tsx';
import { TotalsPanel } from './TotalsPanel.tsx';

/**
 * The referral programme (modules/referral): its settings (depth held to the jurisdiction profile,
 * a share per level, a preview, a reason — audited), the income lines, linked-account flags
 * (cleared with a reason, audited) and the totals.
 */
export default function ReferralScreen() {
  const { t } = useTranslation('adminReferral');
  const me = useStaffMe();
  const canWrite = hasPermission(me.data, WRITE_PERMISSION);
  return (
    <Stack gap="md" data-testid="referral-screen">
      <Title order={2}>{t('nav.title')}</Title>
      <Tabs defaultValue="settings" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="settings" data-testid="referral-tab-settings">
            {t('tabs.settings')}
          </Tabs.Tab>
          <Tabs.Tab value="income" data-testid="referral-tab-income">
            {t('tabs.income')}
          </Tabs.Tab>
          <Tabs.Tab value="flags" data-testid="referral-tab-flags">
            {t('tabs.flags')}
          </Tabs.Tab>
          <Tabs.Tab value="totals" data-testid="referral-tab-totals">
            {t('tabs.totals')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="settings" pt="md">
          <SettingsPanel canWrite={canWrite} />
        </Tabs.Panel>
        <Tabs.Panel value="income" pt="md">
          <IncomePanel />
        </Tabs.Panel>
        <Tabs.Panel value="flags" pt="md">
          <FlagsPanel canWrite={canWrite} />
        </Tabs.Panel>
        <Tabs.Panel value="totals" pt="md">
          <TotalsPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
