import type { MouseEvent } from 'react';
import { NAV_PATHS } from '../../config/app.ts';

export type NavKey = keyof typeof NAV_PATHS;
/** What the navigation can mark active: a link of NAV_PATHS, or the header's Products menu. */
export type NavSection = NavKey | 'products';

/**
 * Every screen of the finance products (the route table's `earning`, `newCoin` and `loans` areas): custody
 * and VIP products with their buying and my-orders pages, the ETF portfolios and their orders, the
 * new-coin subscription with its project, records and proof pages, and the loans area (apply, the
 * credit score, my loans and one loan), and C2C (offers, ordering, orders, accounts, rules).
 */
const PRODUCT_SCREENS: readonly string[] = [
  '/profit_index',
  '/profit_buy',
  '/profit_wdtg',
  '/vip_index',
  '/vip_wdtg',
  '/etflow_buy',
  '/etf_wdtg',
  '/etflow_wdtg',
  '/subscription',
  '/subscriptionBuy',
  '/subscriptionRecord',
  '/subscriptionProof',
  '/credit',
  '/xinyongfen',
  '/repayment2',
  '/repaymentNew',
  '/c2c_index',
  '/c2c_create',
  '/c2c_order',
  '/c2c_submit',
  '/c2c_account',
  '/c2c_rule',
];

/** Paths under each navigation entry, to mark it active. */
const SECTIONS: Record<NavSection, readonly string[]> = {
  home: ['/', '/index'],
  market: ['/market', '/ldcoin', '/info'],
  trade: ['/preciousMetal', '/currencyTrade', '/currency', '/currencyRecord', '/options', '/optionRecord'],
  assets: ['/asset', '/table1', '/table2', '/record', '/transfer', '/address', '/proof'],
  me: ['/setting', '/forgetpwd'],
  products: PRODUCT_SCREENS,
};

export function activeNav(pathname: string): NavSection | null {
  for (const key of Object.keys(SECTIONS) as NavSection[]) {
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
