import { NavLink, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronRightIcon, ShieldIcon } from '../../../components/icons.tsx';

/** The settings screen's link to /botKeys. */
export function ApiKeysLink() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'sm' }}>
      <NavLink
        component={Link}
        to="/botKeys"
        label={t('apiKeys.settingsLink')}
        description={t('apiKeys.settingsHint')}
        leftSection={<ShieldIcon />}
        rightSection={<ChevronRightIcon size={16} />}
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        data-testid="settings-apikeys"
      />
    </Paper>
  );
}
