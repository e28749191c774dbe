import { Grid, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AccountHeader } from '../../features/account/components/AccountHeader.tsx';
import { ApiKeysLink } from '../../features/apikeys/components/ApiKeysLink.tsx';
import { SecurityCentre } from '../../features/profile/components/SecurityCentre.tsx';
import { SettingsPanel } from '../../features/settings/components/SettingsPanel.tsx';
import { SigninLink } from '../../features/signin/components/SigninLink.tsx';
import { RiskLinks } from '../../features/suitability/components/RiskLinks.tsx';

/**
 * /setting, which is also the mobile "Me" tab: the user-centre header (account feature) beside the
 * settings (settings feature). Composed here because features never import each other.
 */
export function SettingScreen() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 40 }} data-testid="setting-page">
      <Title order={1} size="h2" visibleFrom="sm">
        {t('settings.title')}
      </Title>
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
          <Stack gap="lg">
            <AccountHeader />
            {/* Risk assessment (issue 15, suitability): /fengxian and /questionnaire. */}
            <RiskLinks />
            {/* API keys for bots (issue 21): /botKeys. */}
            <ApiKeysLink />
            {/* The daily sign-in reward (issue 20 item 2): /signRule. */}
            <SigninLink />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
          <Stack gap="lg">
            {/* The security centre: score, contacts, security settings, devices (profile feature). */}
            <SecurityCentre />
            <SettingsPanel />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
