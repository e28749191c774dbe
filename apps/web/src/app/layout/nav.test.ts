import { describe, expect, it } from 'vitest';
import { ETF_PATH, PRODUCT_PATHS } from '../../config/app.ts';
import { ROUTES } from '../routes.tsx';
import { activeNav } from './nav.ts';

const pathnameOf = (to: string) => new URL(to, 'http://bourse.test').pathname;

describe('activeNav', () => {
  it('marks Products on the custody and new-coin screens', () => {
    expect(activeNav('/subscription')).toBe('products');
    expect(activeNav('/profit_index')).toBe('products');
  });

  it('marks Products on every screen of the earning, new-coin, loans and C2C areas, so a new one cannot be missed', () => {
    const screens = ROUTES.filter(
      (r) => r.area === 'earning' || r.area === 'newCoin' || r.area === 'loans' || r.area === 'c2c',
    ).map((r) => r.path);
    expect(screens.length).toBeGreaterThanOrEqual(16);
    for (const path of screens) expect(activeNav(path), path).toBe('products');
  });

  it('marks Products on each product the menu links to, and every link is a built route', () => {
    const built = new Set(ROUTES.filter((r) => r.built && !r.redirect).map((r) => r.path));
    for (const to of [...Object.values(PRODUCT_PATHS), ETF_PATH]) {
      expect(built.has(pathnameOf(to)), to).toBe(true);
      expect(activeNav(pathnameOf(to)), to).toBe('products');
    }
  });

  it('leaves the other entries as they were, and marks nothing off the table', () => {
    expect(activeNav('/')).toBe('home');
    expect(activeNav('/market')).toBe('market');
    expect(activeNav('/currencyTrade')).toBe('trade');
    expect(activeNav('/table1')).toBe('assets');
    expect(activeNav('/setting')).toBe('me');
    expect(activeNav('/profit')).toBeNull();
    expect(activeNav('/subscriptions')).toBeNull();
  });
});
