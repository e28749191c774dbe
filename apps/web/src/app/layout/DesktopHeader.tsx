import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LanguageMenu } from '../../components/LanguageMenu.tsx';
import { Logo } from '../../components/Logo.tsx';
import { ThemeToggle } from '../../components/ThemeToggle.tsx';
import { NAV_PATHS } from '../../config/app.ts';
import { NoticeBell } from '../../features/notice/components/NoticeBell.tsx';
import { useToken } from '../../lib/session.ts';
import { DemoBadge } from './DemoBadge.tsx';
import classes from './layout.module.css';
import { activeNav, type NavSection, onNavClick } from './nav.ts';
import { ProductsMenu } from './ProductsMenu.tsx';
import { UserMenu } from './UserMenu.tsx';

/** The header's entries, left to right; Products is a menu, the others are links. */
const DESKTOP_NAV: readonly NavSection[] = ['home', 'market', 'trade', 'products', 'assets'];

/** Desktop top bar (designed at 1920 px, usable from 1280 px). */
export function DesktopHeader() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const token = useToken();
  const active = activeNav(pathname);

  return (
    <Group className={classes.headerInner} justify="space-between" wrap="nowrap">
      <Group gap={24} wrap="nowrap" h="100%">
        <Link to="/" aria-label={t('nav.home')} style={{ color: 'inherit', textDecoration: 'none' }}>
          <Logo />
        </Link>
        <nav aria-label={t('nav.mainLabel')} style={{ height: '100%' }}>
          <Group gap={4} h="100%" wrap="nowrap">
            {DESKTOP_NAV.map((key) =>
              key === 'products' ? (
                <ProductsMenu key={key} active={active === key} />
              ) : (
                <Link
                  key={key}
                  to={NAV_PATHS[key]}
                  className={classes.navLink}
                  data-active={active === key || undefined}
                  aria-current={active === key ? 'page' : undefined}
                  onClick={onNavClick(key, pathname)}
                  data-testid={`nav-${key}`}
                >
                  {t(`nav.${key}`)}
                </Link>
              ),
            )}
          </Group>
        </nav>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <DemoBadge />
        <LanguageMenu />
        <ThemeToggle />
        <NoticeBell />
        {token ? (
          <UserMenu />
        ) : (
          <Group gap="xs" wrap="nowrap" ml="xs">
            <Button component={Link} to="/login" variant="default" data-testid="header-login">
              {t('nav.login')}
            </Button>
            <Button component={Link} to="/register" data-testid="header-register">
              {t('nav.register')}
            </Button>
          </Group>
        )}
      </Group>
    </Group>
  );
}
