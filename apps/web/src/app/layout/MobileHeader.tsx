import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageMenu } from '../../components/LanguageMenu.tsx';
import { Logo } from '../../components/Logo.tsx';
import { ThemeToggle } from '../../components/ThemeToggle.tsx';
import { NoticeBell } from '../../features/notice/components/NoticeBell.tsx';
import { useToken } from '../../lib/session.ts';
import { DemoBadge } from './DemoBadge.tsx';
import classes from './layout.module.css';

/** The compact header below 48em: logo, demo badge, language sheet, theme, and log in when logged out. */
export function MobileHeader() {
  const { t } = useTranslation();
  const token = useToken();
  return (
    <Group className={classes.headerInner} justify="space-between" wrap="nowrap">
      <Link to="/" aria-label={t('nav.home')} style={{ color: 'inherit', textDecoration: 'none' }}>
        <Logo compact />
      </Link>
      <Group gap={4} wrap="nowrap">
        <DemoBadge />
        <LanguageMenu compact />
        <ThemeToggle />
        <NoticeBell />
        {token ? null : (
          <Button component={Link} to="/login" size="compact-sm" ml={4} data-testid="header-login">
            {t('nav.login')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
