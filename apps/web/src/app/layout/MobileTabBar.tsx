import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { AssetsIcon, HomeIcon, MarketIcon, TradeIcon, UserIcon } from '../../components/icons.tsx';
import { NAV_PATHS } from '../../config/app.ts';
import classes from './layout.module.css';
import { activeNav, type NavKey, onNavClick } from './nav.ts';

const TABS: ReadonlyArray<[NavKey, ComponentType<{ size?: number }>]> = [
  ['home', HomeIcon],
  ['market', MarketIcon],
  ['trade', TradeIcon],
  ['assets', AssetsIcon],
  ['me', UserIcon],
];

/** The bottom tab bar of the mobile layout: Home, Market, Trade, Assets, Me. */
export function MobileTabBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = activeNav(pathname);
  return (
    <nav aria-label={t('nav.tabsLabel')} className={classes.tabBar}>
      {TABS.map(([key, Icon]) => (
        <Link
          key={key}
          to={NAV_PATHS[key]}
          className={classes.tab}
          data-active={active === key || undefined}
          aria-current={active === key ? 'page' : undefined}
          onClick={onNavClick(key, pathname)}
          data-testid={`tab-${key}`}
        >
          <Icon size={22} />
          <span>{t(`nav.${key}`)}</span>
        </Link>
      ))}
    </nav>
  );
}
