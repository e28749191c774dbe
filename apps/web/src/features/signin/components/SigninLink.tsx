import { NavLink, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronRightIcon, NewsIcon } from '../../../components/icons.tsx';

/** The settings screen's link to /signRule (the daily sign-in reward). */
export function SigninLink() {
  const { t } = useTranslation('signin');
  return (
    <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'sm' }}>
      <NavLink
        component={Link}
        to="/signRule"
        label={t('entry.label')}
        description={t('entry.hint')}
        leftSection={<NewsIcon />}
        rightSection={<ChevronRightIcon size={16} />}
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        data-testid="settings-signin"
      />
    </Paper>
  );
}
