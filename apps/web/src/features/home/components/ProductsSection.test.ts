// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { catalogs, keyPaths, lookup, type Tree } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createElement as h } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, useLocation } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { ProductsSection } from './ProductsSection.tsx';

/** The home page's Products section in the app's i18n and Mantine (`env="test"`), at `/` of a memory router. */

function LocationProbe() {
  const location = useLocation();
  return h('output', { 'data-testid': 'location', hidden: true }, `${location.pathname}${location.search}`);
}

async function renderSection(lang: Lang = 'en') {
  await i18n.changeLanguage(lang);
  const router = createMemoryRouter(
    [{ path: '*', element: h('div', null, h(ProductsSection), h(LocationProbe)) }],
    {
      initialEntries: ['/'],
    },
  );
  const user = userEvent.setup({ delay: null });
  render(h(I18nextProvider, { i18n }, h(MantineProvider, { env: 'test' }, h(RouterProvider, { router }))));
  return { user };
}

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

/** The six tiles, in order, and where each goes (the ETF tile: the portfolios' screen, balanced first). */
const TILES = {
  custody: '/profit_index',
  vip: '/vip_index',
  etf: '/etflow_buy',
  launchpad: '/subscription',
  loans: '/credit',
  c2c: '/c2c_index',
} as const;

describe('home: the Products section', () => {
  for (const lang of LANGS) {
    it(`${lang}: six tiles, each a link with its icon, name and line`, async () => {
      const texts = catalogs[lang].web.products;
      await renderSection(lang);
      const section = screen.getByTestId('home-products');
      expect(screen.getByRole('region', { name: texts.title })).toBe(section);
      const links = within(section).getAllByRole('link');
      expect(links.map((link) => link.dataset.testid)).toEqual(
        Object.keys(TILES).map((key) => `product-link-${key}`),
      );
      for (const [key, to] of Object.entries(TILES) as [keyof typeof TILES, string][]) {
        const tile = within(section).getByTestId(`product-link-${key}`);
        expect(tile).toHaveAttribute('href', to);
        expect(tile).toHaveTextContent(texts.tiles[key].name);
        expect(tile).toHaveTextContent(texts.tiles[key].description);
        const icon = tile.querySelector('svg');
        expect(icon).toHaveAttribute('data-icon', key);
        expect(icon).toHaveAttribute('aria-hidden', 'true');
      }
    });
  }

  it('a tile opens its screen', async () => {
    const { user } = await renderSection();
    await user.click(screen.getByTestId('product-link-launchpad'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/subscription'));
  });
});

describe('the products texts', () => {
  const english = catalogs.en.web.products;
  const paths = keyPaths(english);
  const textAt = (tree: Tree, path: string) => lookup(tree, path) ?? '';

  it('exist for the header menu and the home tiles', () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        'title',
        ...['custody', 'vip', 'etf_balanced', 'etf_low_risk', 'launchpad', 'loans', 'c2c'].flatMap((k) => [
          `menu.${k}.name`,
          `menu.${k}.description`,
        ]),
        ...['custody', 'vip', 'etf', 'launchpad', 'loans', 'c2c'].flatMap((k) => [
          `tiles.${k}.name`,
          `tiles.${k}.description`,
        ]),
      ]),
    );
  });

  for (const lang of ['zh', 'ft'] as const) {
    it(`${lang}: every one is written in Chinese, none left in English`, () => {
      for (const path of paths) {
        const text = textAt(catalogs[lang].web.products, path);
        expect(text, `${lang}:products.${path}`).toMatch(/\p{Script=Han}/u);
        expect(text, `${lang}:products.${path}`).not.toBe(textAt(english, path));
        // Only the names customers read as such stay in Latin letters.
        expect(text.replace(/\b(VIP|ETF|USDT)\b/g, ''), `${lang}:products.${path}`).not.toMatch(/[A-Za-z]/);
      }
    });
  }

  it('zh is Simplified and ft Traditional', () => {
    expect(catalogs.zh.web.products.title).toBe('产品');
    expect(catalogs.ft.web.products.title).toBe('產品');
    expect(catalogs.zh.web.products.menu.launchpad.name).toBe('新币申购');
    expect(catalogs.ft.web.products.menu.launchpad.name).toBe('新幣申購');
  });
});
