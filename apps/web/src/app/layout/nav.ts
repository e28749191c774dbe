import type { MouseEvent } from 'react';
import { NAV_PATHS } from '../../config/app.ts';

export type NavKey = keyof typeof NAV_PATHS;

/** Paths under each navigation entry, to mark it active. */
const SECTIONS: Record<NavKey, readonly string[]> = {
  home: ['/', '/index'],
  market: ['/market', '/ldcoin', '/info'],
  trade: ['/preciousMetal', '/currencyTrade', '/currency', '/currencyRecord', '/options', '/optionRecord'],
  assets: ['/asset', '/table1', '/table2', '/record', '/transfer', '/address', '/proof'],
  me: ['/setting', '/forgetpwd'],
};

export function activeNav(pathname: string): NavKey | null {
  for (const key of Object.keys(SECTIONS) as NavKey[]) {
    if (SECTIONS[key].includes(pathname)) return key;
  }
  return null;
}

/** Reopening Market while on it reloads the page (spec 2), for fresh market data. */
export function onNavClick(key: NavKey, pathname: string) {
  return (event: MouseEvent) => {
    if (key === 'market' && pathname === NAV_PATHS.market) {
      event.preventDefault();
      window.location.reload();
    }
  };
}
