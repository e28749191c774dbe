// @vitest-environment happy-dom
import { catalogs } from '@bourse/i18n';
import { LANGS, LOCALE_OF } from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, signIn } from '../test/api.ts';
import { adjustment, DETAIL, RULES, withdrawal } from '../test/fixtures.ts';
import { watchMissingKeys } from '../test/i18n.ts';
import { renderAdmin } from '../test/render.tsx';
import { i18n } from './i18n.ts';
import { routes } from './routes.tsx';

const EVERYTHING = [
  'withdrawals.read',
  'withdrawals.decide',
  'deposits.read',
  'settings.write',
  'customers.read',
  'customers.disable',
  'adjustments.create',
  'adjustments.approve',
  'outbox.read',
  'ledger.verify',
  'audit.read',
  'staff.manage',
  'markets.write',
  'risk.read',
];

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

describe('the missing-key watch', () => {
  it('sees a key the language lacks even when English has it', async () => {
    i18n.addResource('en', 'admin', 'onlyInEnglish', 'Only in English');
    await i18n.changeLanguage('zh');
    watch = watchMissingKeys();
    i18n.t('onlyInEnglish' as never);
    expect(watch.missing).toEqual(['zh:admin:onlyInEnglish']);
  });
});

describe.each(LANGS.map((lang) => [lang, LOCALE_OF[lang]] as const))('the back office in %s (%s)', (lang) => {
  const admin = catalogs[lang].admin;
  const withdraw = catalogs[lang].withdraw;

  it('renders the login screen with its own labels and no missing key', async () => {
    mockApi();
    watch = watchMissingKeys();
    await renderAdmin(null, { routes, route: '/login', lang });
    expect(await screen.findByText(admin.login.title)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: admin.login.next })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe(LOCALE_OF[lang]);
    expect(watch.missing).toEqual([]);
  });

  it('renders the menu and the main screens, their tables and dialogs, with no missing key', async () => {
    const api = mockApi({
      'withdrawals/queue': () => ({ list: [withdrawal()], total: 1 }),
      'withdrawals/rules': () => ({ rules: RULES }),
      getAdjustments: () => ({
        list: [adjustment({}), adjustment({ adjustment_id: 'adj_2', status: 'posted', checker_id: 'stf_x' })],
        staff_names: {},
        threshold_usdt: '10000',
      }),
      getCustomer: () => DETAIL,
    });
    signIn(api, EVERYTHING);
    watch = watchMissingKeys();
    const { router, user } = await renderAdmin(null, { routes, route: '/withdrawals', lang });

    const row = await screen.findByTestId('withdrawal-row');
    expect(screen.getByTestId('nav-customers')).toHaveTextContent(admin.nav.customers);
    expect(screen.getByTestId('nav-withdrawals')).toHaveTextContent(withdraw.admin.queueTitle);
    expect(screen.getByTestId('nav-withdrawals/rules')).toHaveTextContent(withdraw.admin.rulesTitle);
    expect(screen.getByRole('heading', { name: withdraw.admin.queueTitle })).toBeInTheDocument();
    await user.click(within(row).getByTestId('withdrawal-approve'));
    expect(await screen.findByRole('dialog')).toHaveTextContent(withdraw.admin.confirm.approveTitle);

    await router.navigate('/withdrawals/rules');
    expect(await screen.findByTestId('rule-fee')).toBeInTheDocument();

    await router.navigate('/adjustments');
    expect(await screen.findByRole('heading', { name: admin.adjustments.title })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('adjustment-row').length).toBeGreaterThan(0));

    await router.navigate('/customers/detail?id=usr_alice');
    expect(await screen.findByTestId('customer-balances')).toBeInTheDocument();
    expect(screen.getByText(admin.customers.detail.balances)).toBeInTheDocument();

    expect(watch.missing).toEqual([]);
  });
});
