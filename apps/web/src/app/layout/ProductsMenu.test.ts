// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { catalogs } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createElement as h } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, useLocation } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n.ts';
import { DesktopHeader } from './DesktopHeader.tsx';

/**
 * The desktop header's Products menu, rendered in the whole header with the app's providers (i18n,
 * Mantine with `env="test"`: no transitions, no portals) at a route of a memory router, logged out.
 */

function LocationProbe() {
  const location = useLocation();
  return h('output', { 'data-testid': 'location', hidden: true }, `${location.pathname}${location.search}`);
}

async function renderHeader(route: string, lang: Lang = 'en') {
  await i18n.changeLanguage(lang);
  const router = createMemoryRouter(
    [{ path: '*', element: h('div', null, h(DesktopHeader), h(LocationProbe)) }],
    {
      initialEntries: [route],
    },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup({ delay: null });
  render(
    h(
      I18nextProvider,
      { i18n },
      h(MantineProvider, { env: 'test' }, h(QueryClientProvider, { client }, h(RouterProvider, { router }))),
    ),
  );
  return { user };
}

afterEach(async () => {
  cleanup();
  localStorage.clear();
  await i18n.changeLanguage('en');
});

/** What each product links to, in the menu's order. */
const LINKS = {
  custody: '/profit_index',
  vip: '/vip_index',
  etf_balanced: '/etflow_buy?model=balanced',
  etf_low_risk: '/etflow_buy?model=low_risk',
  launchpad: '/subscription',
  loans: '/credit',
  c2c: '/c2c_index',
} as const;

describe('header: the Products menu', () => {
  for (const lang of LANGS) {
    it(`${lang}: lists custody, VIP, each ETF model, the new-coin subscription, loans and C2C, each with its line`, async () => {
      const texts = catalogs[lang].web.products;
      const { user } = await renderHeader('/', lang);
      const trigger = screen.getByTestId('nav-products');
      expect(trigger).toHaveTextContent(texts.title);
      expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
      expect(trigger).toHaveAttribute('aria-expanded', 'false');

      await user.click(trigger);
      const menu = await screen.findByTestId('products-menu');
      expect(trigger).toHaveAttribute('aria-expanded', 'true');
      const items = within(menu).getAllByRole('menuitem');
      expect(items.map((item) => item.dataset.testid)).toEqual(
        Object.keys(LINKS).map((key) => `product-link-${key}`),
      );
      for (const [key, to] of Object.entries(LINKS) as [keyof typeof LINKS, string][]) {
        const item = within(menu).getByTestId(`product-link-${key}`);
        expect(item).toHaveAttribute('href', to);
        expect(item).toHaveTextContent(texts.menu[key].name);
        expect(item).toHaveTextContent(texts.menu[key].description);
      }
    });
  }

  it('zh and ft show no English in the header', async () => {
    for (const lang of ['zh', 'ft'] as const) {
      await renderHeader('/', lang);
      const trigger = screen.getByTestId('nav-products');
      expect(trigger.textContent).not.toMatch(/[A-Za-z]/);
      expect(trigger.textContent).not.toBe(catalogs.en.web.products.title);
      cleanup();
    }
  });

  it('opens on hover too', async () => {
    const { user } = await renderHeader('/');
    await user.hover(screen.getByTestId('nav-products'));
    expect(await screen.findByTestId('products-menu')).toBeInTheDocument();
  });

  it('works from the keyboard: Enter opens it, arrows move, Enter follows the link, Escape closes', async () => {
    const { user } = await renderHeader('/');
    const trigger = screen.getByTestId('nav-products');
    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByTestId('products-menu');
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(within(menu).getByTestId('product-link-custody')).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getByTestId('product-link-vip')).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('products-menu')).toBeNull());
    await waitFor(() => expect(trigger).toHaveFocus());

    await user.keyboard('{Enter}');
    await screen.findByTestId('products-menu');
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByTestId('product-link-custody')).toHaveFocus());
    // The arrows wrap: up from the first product is the last.
    await user.keyboard('{ArrowUp}');
    expect(screen.getByTestId('product-link-c2c')).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/c2c_index'));
  });

  it('a click on a product opens its screen and closes the menu', async () => {
    const { user } = await renderHeader('/');
    await user.click(screen.getByTestId('nav-products'));
    await user.click(
      within(await screen.findByTestId('products-menu')).getByTestId('product-link-etf_low_risk'),
    );
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/etflow_buy?model=low_risk'),
    );
    await waitFor(() => expect(screen.queryByTestId('products-menu')).toBeNull());
    expect(screen.getByTestId('nav-products')).toHaveAttribute('data-active');
  });
});

describe('header: which entry is active', () => {
  for (const route of [
    '/subscription',
    '/profit_index',
    '/subscriptionRecord',
    '/profit_wdtg',
    '/vip_index',
  ]) {
    it(`${route}: Products, and no link`, async () => {
      await renderHeader(route);
      const trigger = screen.getByTestId('nav-products');
      expect(trigger).toHaveAttribute('data-active');
      expect(trigger).toHaveAttribute('aria-current', 'true');
      for (const key of ['home', 'market', 'trade', 'assets']) {
        expect(screen.getByTestId(`nav-${key}`)).not.toHaveAttribute('data-active');
        expect(screen.getByTestId(`nav-${key}`)).not.toHaveAttribute('aria-current');
      }
    });
  }

  it('/etflow_buy?model=balanced: Products', async () => {
    await renderHeader('/etflow_buy?model=balanced');
    expect(screen.getByTestId('nav-products')).toHaveAttribute('data-active');
  });

  it('/ and /market: their link, not Products', async () => {
    await renderHeader('/');
    expect(screen.getByTestId('nav-home')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('nav-products')).not.toHaveAttribute('data-active');
    expect(screen.getByTestId('nav-products')).not.toHaveAttribute('aria-current');
    cleanup();
    await renderHeader('/market');
    expect(screen.getByTestId('nav-market')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('nav-products')).not.toHaveAttribute('data-active');
  });

  it('sits between Trade and Assets', async () => {
    await renderHeader('/');
    const nav = screen.getByRole('navigation');
    const order = [...nav.querySelectorAll('[data-testid^="nav-"]')].map((el) =>
      el.getAttribute('data-testid'),
    );
    expect(order).toEqual(['nav-home', 'nav-market', 'nav-trade', 'nav-products', 'nav-assets']);
  });
});
