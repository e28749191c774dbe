// @vitest-environment happy-dom
import type {
  AdminLenderData,
  AdminLenderFundingData,
  AdminLoanData,
  AdminLoanProductData,
  AdminLoanQueueItem,
  AdminLoanRepaymentData,
  AdminScoreReviewData,
  CreditScoreData,
} from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MockedApi, mockApi, Refusal, STAFF_ID, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { watchMissingKeys } from '../../test/i18n.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import LendersScreen from './LendersScreen.tsx';
import LoansScreen from './LoansScreen.tsx';
import ProductsScreen from './ProductsScreen.tsx';
import QueueScreen from './QueueScreen.tsx';
import RepaymentsScreen from './RepaymentsScreen.tsx';
import ScoreScreen from './ScoreScreen.tsx';
import { adminLoan, TABLE } from './testing.ts';

const DAY_MS = 86_400_000;
const ALL = ['loans.read', 'loans.write', 'loans.decide'];
const READ = ['loans.read'];

const SCORE: CreditScoreData = {
  loans_tier: 'advanced',
  score_tier: 'primary',
  score: 620,
  version: 1,
  base_points: 300,
  breakdown: [
    {
      factor: 'verification',
      unit: 'tier',
      value: '2',
      points: 100,
      best_points: 150,
      next: { value: '3', points: 150 },
      hint: 'verify_address',
    },
    { factor: 'account_age', unit: 'days', value: '90', points: 50, best_points: 80, next: null, hint: null },
  ],
  limit: '3000',
  table: TABLE,
  review: null,
};

function application(overrides: Partial<AdminLoanQueueItem> = {}): AdminLoanQueueItem {
  return {
    ...adminLoan({
      loan_id: 'lon_app',
      state: 'unreviewed',
      amount: '1500',
      disbursed_at: null,
      due_at: null,
      days_past_due: null,
      outstanding: null,
      charged: '0',
      decided_by: null,
      decided_at: null,
      proof_ids: ['upl_a', 'upl_b'],
      created_at: NOW - DAY_MS,
    }),
    score: SCORE,
    above_threshold: false,
    ...overrides,
  };
}

const BIG = application({
  loan_id: 'lon_big',
  amount: '20000',
  above_threshold: true,
  score: { ...SCORE, limit: '50000' },
  applicant: {
    uid: '80099999',
    name: 'Bob Lee',
    country: 'HK',
    verification_level: 3,
    account_age_days: 400,
  },
});

function queueApi(permissions: string[], items: AdminLoanQueueItem[]): MockedApi {
  const api = mockApi({
    'loans/queue': () => ({ total: items.length, page: 1, page_size: 50, items }),
    'loans/settings': () => ({
      approval_threshold: '10000',
      agreement_version: '2026-11',
      updated_at: NOW,
      updated_by: null,
    }),
  });
  signIn(api, permissions);
  return api;
}

const cardOf = async (id: string) => {
  const cards = await screen.findAllByTestId('loans-application');
  const card = cards.find((c) => c.dataset.loan === id);
  if (!card) throw new Error(`no application ${id}`);
  return card;
};

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

describe('the application queue', () => {
  it('shows applicant, amount, term, product, score breakdown and proofs opened through the audited link', async () => {
    const api = queueApi(ALL, [application({ previous_id: 'lon_old' })]);
    api.on({
      'loans/documentLink': () => ({
        file_id: 'upl_b',
        url: 'https://files.test/b',
        expires_at: NOW,
        mime: 'image/png',
      }),
    });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    const { user } = await renderAdmin(<QueueScreen />, { route: '/loans/queue' });
    const card = await cardOf('lon_app');
    const facts = within(card).getByTestId('loans-application-facts');
    expect(card).toHaveTextContent('Alice Chan (UID 80012345) · lon_app');
    expect(facts).toHaveTextContent('Level 2');
    expect(facts).toHaveTextContent('90 days');
    expect(facts).toHaveTextContent('1,500.00 USDT');
    expect(facts).toHaveTextContent('30 days');
    expect(facts).toHaveTextContent('Quick loan');
    expect(facts).toHaveTextContent('3,000.00 USDT');
    expect(within(card).getByTestId('loans-previous')).toHaveTextContent('lon_old');
    expect(within(card).getByTestId('loans-score')).toHaveTextContent(
      'Score today 620 (table v1); 620 when applying',
    );
    const breakdown = within(card).getByTestId('loans-score-breakdown');
    expect(breakdown.querySelector('[data-factor="verification"]')).toHaveTextContent(
      'Verification tier2 (tier)100 / 150',
    );
    expect(api.callsTo('loans/documentLink')).toHaveLength(0);
    await user.click(within(card).getAllByTestId('loans-document')[1] as HTMLElement);
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://files.test/b', '_blank', 'noopener'));
    expect(api.callsTo('loans/documentLink')[0]?.query).toMatchObject({
      loan_id: 'lon_app',
      file_id: 'upl_b',
    });
    expect(screen.getByTestId('loans-threshold')).toHaveTextContent('10,000 USDT');
  });

  it('approves after a confirmation naming customer, amount and what is paid, with a reason', async () => {
    const api = queueApi(ALL, [application()]);
    api.on({ 'loans/applications/lon_app/approve': () => adminLoan({ loan_id: 'lon_app' }) });
    const { user } = await renderAdmin(<QueueScreen />, { route: '/loans/queue' });
    await user.click(within(await cardOf('lon_app')).getByTestId('loans-approve'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Approve the loan of Alice Chan (UID 80012345)');
    expect(dialog).toHaveTextContent(
      'This pays 1,500 USDT from the lender “Main lender” into the spot balance of Alice Chan (UID 80012345) now, for 30 days; they will owe 513.5 USDT',
    );
    await fill(user, within(dialog).getByTestId('reason-input'), 'ok');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent('at least 3 characters');
    expect(api.callsTo('loans/applications/lon_app/approve')).toHaveLength(0);
    await fill(user, within(dialog).getByTestId('reason-input'), 'documents consistent');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('loans/applications/lon_app/approve')).toHaveLength(1));
    expect(api.callsTo('loans/applications/lon_app/approve')[0]?.body).toMatchObject({
      reason: 'documents consistent',
    });
    expect(await screen.findByTestId('loans-note')).toHaveTextContent(
      'Loan to Alice Chan (UID 80012345) approved and paid out',
    );
  });

  it('above the threshold: needs a second approver, names the first, and never lets the same person confirm', async () => {
    const byOther = { ...BIG, loan_id: 'lon_other', first_approved_by: 'stf_other', awaiting_second: true };
    const byMe = { ...BIG, loan_id: 'lon_mine', first_approved_by: STAFF_ID, awaiting_second: true };
    const api = queueApi(ALL, [BIG, byOther, byMe]);
    api.on({
      'loans/applications/lon_big/approve': () => ({
        ...BIG,
        awaiting_second: true,
        first_approved_by: STAFF_ID,
      }),
    });
    const { user } = await renderAdmin(<QueueScreen />, { route: '/loans/queue' });
    const fresh = await cardOf('lon_big');
    expect(within(fresh).getByTestId('loans-four-eyes')).toHaveTextContent('needs a second approver');
    expect(within(fresh).queryByTestId('loans-first-approver')).toBeNull();
    const other = await cardOf('lon_other');
    expect(within(other).getByTestId('loans-first-approver')).toHaveTextContent(
      'First approved by stf_other.',
    );
    expect(within(other).getByTestId('loans-approve')).toHaveTextContent('Confirm (second approval)');
    expect(within(other).getByTestId('loans-approve')).toBeEnabled();
    const mine = await cardOf('lon_mine');
    expect(within(mine).getByTestId('loans-first-approver')).toHaveTextContent('You approved first');
    expect(within(mine).getByTestId('loans-approve')).toBeDisabled();

    await user.click(within(fresh).getByTestId('loans-approve'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'This records the first of two approvals for 20,000 USDT to Bob Lee (UID 80099999)',
    );
    expect(dialog).toHaveTextContent('Nothing is paid until another staff member confirms');
    await fill(user, within(dialog).getByTestId('reason-input'), 'large but within limit');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await screen.findByTestId('loans-note')).toHaveTextContent('another staff member must confirm');
  });

  it('cannot approve above the credit limit shown', async () => {
    queueApi(ALL, [application({ amount: '5000' })]);
    await renderAdmin(<QueueScreen />, { route: '/loans/queue' });
    const card = await cardOf('lon_app');
    expect(within(card).getByTestId('loans-over-limit')).toHaveTextContent(
      'above the customer’s credit limit',
    );
    expect(within(card).getByTestId('loans-approve')).toBeDisabled();
  });

  it('rejects with a reason code and a reason; a refusal stays in the dialog', async () => {
    const api = queueApi(ALL, [application()]);
    let refuse = true;
    api.on({
      'loans/applications/lon_app/reject': () =>
        refuse
          ? new Refusal('The application is no longer unreviewed', 'LOAN_NOT_REVIEWABLE')
          : adminLoan({ state: 'rejected' }),
    });
    const { user } = await renderAdmin(<QueueScreen />, { route: '/loans/queue' });
    await user.click(within(await cardOf('lon_app')).getByTestId('loans-reject'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'This rejects the application of Alice Chan (UID 80012345) for 1,500 USDT (30 days)',
    );
    await fill(user, within(dialog).getByTestId('reason-input'), 'income statement missing');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent('Choose a reason code');
    await user.click(within(dialog).getByTestId('loans-reject-code'));
    await user.click(await screen.findByRole('option', { name: 'Income insufficient' }));
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent('no longer unreviewed');
    refuse = false;
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('loans/applications/lon_app/reject')).toHaveLength(2));
    expect(api.callsTo('loans/applications/lon_app/reject')[1]?.body).toMatchObject({
      reason_code: 'income_insufficient',
      reason: 'income statement missing',
    });
  });

  it('without loans.decide: read only, the proofs still open', async () => {
    queueApi(READ, [application(), BIG]);
    await renderAdmin(<QueueScreen />, { route: '/loans/queue' });
    const card = await cardOf('lon_app');
    expect(screen.getByTestId('loans-no-permission')).toHaveTextContent('loans.decide');
    expect(screen.queryAllByTestId('loans-approve')).toEqual([]);
    expect(screen.queryAllByTestId('loans-reject')).toEqual([]);
    expect(within(card).getAllByTestId('loans-document')).toHaveLength(2);
  });
});

describe('the loan book', () => {
  const book = [
    adminLoan(),
    adminLoan({
      loan_id: 'lon_late',
      state: 'overdue',
      days_past_due: 45,
      outstanding: { principal: '300', interest: '20.25', fees: '10', total: '330.25' },
      charged: '40.25',
      repaid: '210',
    }),
    adminLoan({ loan_id: 'lon_done', state: 'cleared', outstanding: null, charged: '13.5', repaid: '513.5' }),
  ];

  function bookApi() {
    const api = mockApi({
      'loans/loans': (call) => {
        const items = call.query.state ? book.filter((l) => l.state === call.query.state) : book;
        return { total: items.length, page: 1, page_size: Number(call.query.page_size), items };
      },
      'loans/loans/lon_late': () => ({
        loan: book[1],
        days: [
          { day: 4, kind: 'interest', interest: '0.5', fee: '0', capped: false, posted_at: NOW },
          { day: 31, kind: 'overdue', interest: '0.6', fee: '10', capped: false, posted_at: NOW },
        ],
        repayments: [
          {
            repayment_id: 'lrp_1',
            loan_id: 'lon_late',
            method: 'balance',
            state: 'confirmed',
            amount: '210',
            paid: { fees: '0', interest: '10', principal: '200' },
            voucher_id: null,
            created_at: NOW,
            decided_at: NOW,
            decision_reason: null,
          },
        ],
      }),
    });
    signIn(api, READ);
    return api;
  }

  it('sums what is owed, the overdue buckets and the income from the list', async () => {
    bookApi();
    await renderAdmin(<LoansScreen />, { route: '/loans/loans' });
    const owed = await screen.findByTestId('loans-portfolio-owed');
    expect(screen.getByTestId('loans-portfolio')).toHaveTextContent('Owed on 2 open loans');
    expect(owed.querySelector('[data-part="principal"]')).toHaveTextContent('800.00 USDT');
    expect(owed.querySelector('[data-part="total"]')).toHaveTextContent('830.75 USDT');
    const buckets = screen.getByTestId('loans-portfolio-buckets');
    expect(buckets.querySelector('[data-bucket="current"]')).toHaveAttribute('data-count', '1');
    expect(buckets.querySelector('[data-bucket="d31_60"]')).toHaveAttribute('data-count', '1');
    expect(buckets.querySelector('[data-bucket="d31_60"]')).toHaveTextContent('330.25');
    const income = screen.getByTestId('loans-portfolio-income');
    expect(income.querySelector('[data-part="charged"]')).toHaveTextContent('54.25 USDT');
    expect(income.querySelector('[data-part="received"]')).toHaveTextContent('23.50 USDT');
    expect(screen.queryByTestId('loans-portfolio-partial')).toBeNull();
  });

  it('filters by state and opens a loan with every charged day and repayment', async () => {
    const api = bookApi();
    const { user } = await renderAdmin(<LoansScreen />, { route: '/loans/loans' });
    await screen.findAllByTestId('loans-loan');
    await user.click(screen.getByTestId('loans-filter-state'));
    await user.click(await screen.findByRole('option', { name: 'Overdue' }));
    await waitFor(() =>
      expect(screen.getAllByTestId('loans-loan').map((r) => r.dataset.loan)).toEqual(['lon_late']),
    );
    expect(api.callsTo('loans/loans').at(-1)?.query).toMatchObject({ state: 'overdue', page: '1' });
    expect(screen.getByTestId('loans-loan-dpd')).toHaveTextContent('45');
    await user.click(screen.getByTestId('loans-loan-open'));
    const days = await screen.findByTestId('loans-detail-days');
    expect(within(days).getAllByTestId('loans-detail-day')).toHaveLength(2);
    expect(days).toHaveTextContent('Overdue');
    expect(screen.getByTestId('loans-detail-repayments')).toHaveTextContent('0 · 10 · 200');
    expect(screen.getByTestId('loans-detail-terms')).toHaveTextContent(
      '0.1 % a day, first 3 days free; overdue 0.2 % a day',
    );
  });
});

describe('write-off in the loan drawer (four eyes)', () => {
  const running = adminLoan({ loan_id: 'lon_w', state: 'overdue', days_past_due: 40 });
  const requested = (by: string) =>
    adminLoan({
      ...running,
      write_off: {
        reason_code: 'deceased',
        reason: 'death certificate received',
        requested_by: by,
        requested_at: NOW,
        written_off_by: null,
        written_off_at: null,
        amount: null,
      },
    });

  function writeOffApi(loan: AdminLoanData, permissions = ALL) {
    const api = mockApi({
      'loans/loans': () => ({ total: 1, page: 1, page_size: 50, items: [loan] }),
      'loans/loans/lon_w': () => ({ loan, days: [], repayments: [] }),
      'loans/loans/lon_w/write-off': (call) =>
        loan.write_off === null
          ? { ...loan, write_off: { ...requested(STAFF_ID).write_off, reason_code: call.body?.reason_code } }
          : {
              ...loan,
              state: 'written_off',
              outstanding: null,
              write_off: {
                ...loan.write_off,
                written_off_by: STAFF_ID,
                written_off_at: NOW,
                amount: '500.5',
              },
            },
    });
    signIn(api, permissions);
    return api;
  }

  async function openDrawer() {
    const { user } = await renderAdmin(<LoansScreen />, { route: '/loans/loans' });
    await screen.findAllByTestId('loans-loan');
    await user.click(screen.getByTestId('loans-loan-open'));
    await screen.findByTestId('loans-write-off');
    return user;
  }

  const dialogTitled = async (title: string) =>
    (await screen.findByText(title)).closest('[role="dialog"]') as HTMLElement;

  it('requests a write-off after a dialog naming customer, what is owed and the consequence', async () => {
    const api = writeOffApi(running);
    const user = await openDrawer();
    await user.click(await screen.findByTestId('loans-write-off-request'));
    const dialog = await dialogTitled('Write off the loan of Alice Chan (UID 80012345)');
    expect(dialog).toHaveTextContent('what Alice Chan (UID 80012345) owes (500.5 USDT now)');
    expect(dialog).toHaveTextContent('another staff member must confirm');
    expect(dialog).toHaveTextContent('a loss of the lender “Main lender”');
    expect(dialog).toHaveTextContent('none of the customer’s balances is touched');
    await fill(user, within(dialog).getByTestId('reason-input'), 'no contact for 40 days');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent('Choose a reason code');
    await user.click(within(dialog).getByTestId('loans-write-off-code'));
    await user.click(await screen.findByRole('option', { name: 'Uncollectable' }));
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('loans/loans/lon_w/write-off')).toHaveLength(1));
    expect(api.callsTo('loans/loans/lon_w/write-off')[0]?.body).toMatchObject({
      reason_code: 'uncollectable',
      reason: 'no contact for 40 days',
    });
    expect(await screen.findByTestId('loans-write-off-note')).toHaveTextContent(
      'Write-off of the loan of Alice Chan (UID 80012345) requested: another staff member must confirm.',
    );
  });

  it('the requester cannot confirm: the button is disabled and says why', async () => {
    writeOffApi(requested(STAFF_ID));
    await openDrawer();
    expect(await screen.findByTestId('loans-write-off-state')).toHaveTextContent(
      'Write-off requested by stf_me',
    );
    expect(screen.getByTestId('loans-write-off-state')).toHaveTextContent(
      'You requested it: another staff member must confirm.',
    );
    expect(screen.getByTestId('loans-write-off-confirm')).toBeDisabled();
  });

  it('another staff member confirms, the dialog naming who asked and the loss', async () => {
    const api = writeOffApi(requested('stf_other'));
    const user = await openDrawer();
    expect(await screen.findByTestId('loans-write-off-state')).toHaveTextContent(
      'Write-off requested by stf_other',
    );
    await user.click(screen.getByTestId('loans-write-off-confirm'));
    const dialog = await dialogTitled('Confirm the write-off of the loan of Alice Chan (UID 80012345)');
    expect(dialog).toHaveTextContent('Requested by stf_other (Borrower deceased)');
    expect(dialog).toHaveTextContent('(500.5 USDT, with any loan-day ended since)');
    expect(dialog).toHaveTextContent('It cannot be undone.');
    expect(within(dialog).queryByTestId('loans-write-off-code')).toBeNull();
    await fill(user, within(dialog).getByTestId('reason-input'), 'certificate checked');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('loans/loans/lon_w/write-off')).toHaveLength(1));
    expect(api.callsTo('loans/loans/lon_w/write-off')[0]?.body).toMatchObject({
      reason_code: 'deceased',
      reason: 'certificate checked',
    });
    expect(await screen.findByTestId('loans-write-off-note')).toHaveTextContent(
      'Loan of Alice Chan (UID 80012345) written off (500.5 USDT).',
    );
  });

  it('no button without loans.decide, nor on a loan that is not running', async () => {
    writeOffApi(running, READ);
    await openDrawer();
    expect(screen.queryByTestId('loans-write-off-request')).toBeNull();
  });
});

function voucher(overrides: Partial<AdminLoanRepaymentData> = {}): AdminLoanRepaymentData {
  return {
    repayment_id: 'lrp_v',
    loan_id: 'lon_1',
    method: 'voucher',
    state: 'pending',
    amount: '250',
    paid: null,
    voucher_id: 'upl_v',
    created_at: NOW,
    decided_at: null,
    decision_reason: null,
    customer_id: 'usr_alice',
    uid: '80012345',
    ...overrides,
  };
}

describe('repayment vouchers', () => {
  it('confirms the amount received after a dialog naming amount and customer', async () => {
    const api = mockApi({
      'loans/repayments': () => ({ total: 1, page: 1, page_size: 50, items: [voucher()] }),
      'loans/repayments/lrp_v/confirm': () => voucher({ state: 'confirmed', amount: '240' }),
    });
    signIn(api, ALL);
    const { user } = await renderAdmin(<RepaymentsScreen />, { route: '/loans/repayments' });
    await screen.findByTestId('loans-repayment');
    expect(api.callsTo('loans/repayments')[0]?.query).toMatchObject({ state: 'pending' });
    await user.click(screen.getByTestId('loans-voucher-confirm'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Confirm 250 USDT from UID 80012345');
    await fill(user, within(dialog).getByTestId('loans-voucher-amount'), '240');
    expect(dialog).toHaveTextContent(
      'This records 240 USDT received by bank transfer from the customer UID 80012345 against loan lon_1',
    );
    await fill(user, within(dialog).getByTestId('reason-input'), 'bank statement line 42');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('loans/repayments/lrp_v/confirm')).toHaveLength(1));
    expect(api.callsTo('loans/repayments/lrp_v/confirm')[0]?.body).toMatchObject({
      amount: '240',
      reason: 'bank statement line 42',
    });
  });

  it('rejects a voucher with a reason; without loans.decide there is no button', async () => {
    const api = mockApi({
      'loans/repayments': () => ({ total: 1, page: 1, page_size: 50, items: [voucher()] }),
      'loans/repayments/lrp_v/reject': () => voucher({ state: 'rejected' }),
    });
    signIn(api, ALL);
    const { user, unmount } = await renderAdmin(<RepaymentsScreen />, { route: '/loans/repayments' });
    await user.click(await screen.findByTestId('loans-voucher-reject'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('nothing is repaid and charges keep running');
    await fill(user, within(dialog).getByTestId('reason-input'), 'no such transfer');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('loans/repayments/lrp_v/reject')).toHaveLength(1));
    expect(api.callsTo('loans/repayments/lrp_v/reject')[0]?.body).not.toHaveProperty('amount');
    unmount();
    signIn(api, READ);
    await renderAdmin(<RepaymentsScreen />, { route: '/loans/repayments' });
    await screen.findByTestId('loans-repayment');
    expect(screen.getByTestId('loans-no-permission')).toHaveTextContent('loans.decide');
    expect(screen.queryByTestId('loans-voucher-confirm')).toBeNull();
  });
});

const LENDERS: AdminLenderData[] = [
  {
    lender_id: 'lnl_main',
    name: 'Main lender',
    source: { en: 'Operator capital', zh: '平台资本', ft: '平台資本' },
    available: '90000',
    outstanding: '10000.5',
    funded_total: '100000',
    created_at: NOW,
  },
];

function product(overrides: Partial<AdminLoanProductData> = {}): AdminLoanProductData {
  return {
    product_id: 'lnp_quick',
    names: { en: 'Quick loan', zh: '快贷', ft: '快貸' },
    descriptions: { en: 'Short', zh: '短', ft: '短' },
    state: 'active',
    amount_min: '100',
    amount_max: '1000',
    term_days: [7, 14, 30],
    daily_rate: '0.1',
    interest_free_days: 3,
    overdue_rate: '0.2',
    late_fee: '10',
    lender: { lender_id: 'lnl_main', name: 'Main lender', source: 'Operator capital' },
    created_at: NOW,
    created_by: 'stf_other',
    ...overrides,
  };
}

function productsApi(permissions: string[], active: 'eu_retail' | 'permissive' = 'eu_retail') {
  const api = mockApi({
    'loans/products': (call) =>
      call.method === 'POST' ? product({ product_id: 'lnp_new' }) : { items: [product()] },
    'loans/lenders': () => ({ items: LENDERS }),
    jurisdiction: () => ({ active, profiles: [] }),
    'loans/products/lnp_quick/state': () => product({ state: 'paused' }),
  });
  signIn(api, permissions);
  return api;
}

describe('loan products', () => {
  it('the form shows the profile caps, names what a value breaks, and previews the customer’s quote', async () => {
    const api = productsApi(ALL);
    const { user } = await renderAdmin(<ProductsScreen />, { route: '/loans/products' });
    await user.click(await screen.findByTestId('loans-product-new'));
    const form = await screen.findByTestId('loans-product-form');
    await waitFor(() =>
      expect(within(form).getByTestId('loans-form-caps')).toHaveTextContent(
        'Caps of the EU retail profile: at most 0.8 % a day, a total cost of at most 100 % of the amount, a late fee of at most 15 USDT',
      ),
    );
    expect(within(form).getByTestId('loans-form-quote')).toHaveTextContent(
      'A customer borrowing 500 USDT for 30 days reads: APR',
    );
    expect(within(form).getByTestId('loans-form-quote')).toHaveTextContent(
      'interest 13.5 USDT, total repayable 513.5 USDT',
    );
    await fill(user, within(form).getByTestId('loans-form-daily_rate'), '0.9');
    await fill(user, within(form).getByTestId('loans-form-late_fee'), '20');
    const breaks = within(form).getByTestId('loans-form-breaks');
    expect(breaks).toHaveTextContent('Daily rate (%): above the profile’s cap of 0.8 % a day.');
    expect(breaks).toHaveTextContent('Late fee (USDT): above the profile’s cap of 15 USDT.');
    expect(within(form).queryByTestId('loans-form-quote')).toBeNull();
    await fill(user, within(form).getByTestId('loans-form-daily_rate'), '0.1');
    await fill(user, within(form).getByTestId('loans-form-late_fee'), '10');
    await user.click(within(form).getByTestId('loans-form-submit'));
    expect(within(form).getByTestId('loans-form-bad')).toHaveAttribute(
      'data-fields',
      'names.en,names.zh,names.ft,descriptions.en,descriptions.zh,descriptions.ft,lender_id,reason',
    );
    for (const lang of ['en', 'zh', 'ft']) {
      await fill(user, within(form).getByTestId(`loans-form-names-${lang}`), `Quick ${lang}`);
      await fill(user, within(form).getByTestId(`loans-form-descriptions-${lang}`), `About ${lang}`);
    }
    await user.click(within(form).getByTestId('loans-form-lender_id'));
    await user.click(await screen.findByRole('option', { name: 'Main lender (lnl_main)' }));
    await fill(user, within(form).getByTestId('loans-form-reason'), 'committee approved');
    await user.click(within(form).getByTestId('loans-form-submit'));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.call === 'loans/products' && c.method === 'POST')).toHaveLength(1),
    );
    expect(api.calls.find((c) => c.call === 'loans/products' && c.method === 'POST')?.body).toMatchObject({
      lender_id: 'lnl_main',
      term_days: [7, 14, 30],
      daily_rate: '0.1',
      interest_free_days: 3,
      late_fee: '10',
      names: { en: 'Quick en', zh: 'Quick zh', ft: 'Quick ft' },
      reason: 'committee approved',
    });
    expect(await screen.findByTestId('loans-note')).toHaveTextContent('(lnp_new) created and open');
  });

  it('pauses a product with a reason; without loans.write nothing can be changed', async () => {
    const api = productsApi(ALL);
    const { user, unmount } = await renderAdmin(<ProductsScreen />, { route: '/loans/products' });
    await user.click(await screen.findByTestId('loans-product-pause'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Pause “Quick loan”');
    await fill(user, within(dialog).getByTestId('reason-input'), 'profile changing');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() =>
      expect(api.callsTo('loans/products/lnp_quick/state')[0]?.body).toMatchObject({ action: 'pause' }),
    );
    unmount();
    signIn(api, ['loans.read', 'loans.decide']);
    await renderAdmin(<ProductsScreen />, { route: '/loans/products' });
    await screen.findByTestId('loans-product');
    expect(screen.getByTestId('loans-no-permission')).toHaveTextContent('loans.write');
    expect(screen.queryByTestId('loans-product-new')).toBeNull();
    expect(screen.queryByTestId('loans-product-pause')).toBeNull();
  });
});

function fundingRequest(overrides: Partial<AdminLenderFundingData> = {}): AdminLenderFundingData {
  return {
    request_id: 'lnf_1',
    lender_id: 'lnl_main',
    amount: '50000',
    reason: 'Q4 capital',
    state: 'pending',
    requested_by: 'stf_other',
    requested_at: NOW,
    decided_by: null,
    decided_at: null,
    decision_reason: null,
    ...overrides,
  };
}

describe('lenders and funding', () => {
  function lendersApi(permissions: string[]) {
    const api = mockApi({
      'loans/lenders': () => ({ items: LENDERS }),
      'loans/funding-requests': () => ({
        total: 2,
        page: 1,
        page_size: 100,
        items: [fundingRequest(), fundingRequest({ request_id: 'lnf_mine', requested_by: STAFF_ID })],
      }),
      'loans/funding-requests/lnf_1/approve': () =>
        fundingRequest({ state: 'approved', decided_by: STAFF_ID }),
      'loans/lenders/lnl_main/requests': () =>
        fundingRequest({ request_id: 'lnf_2', requested_by: STAFF_ID }),
    });
    signIn(api, permissions);
    return api;
  }

  it('shows balances; another staff member’s request can be approved, one’s own cannot', async () => {
    const api = lendersApi(ALL);
    const { user } = await renderAdmin(<LendersScreen />, { route: '/loans/lenders' });
    expect(await screen.findByTestId('loans-lender-available')).toHaveTextContent('90,000.00');
    expect(screen.getByTestId('loans-lender-outstanding')).toHaveTextContent('10,000.50');
    const rows = await screen.findAllByTestId('loans-funding-request');
    const mine = rows.find((r) => r.dataset.request === 'lnf_mine') as HTMLElement;
    expect(within(mine).getByTestId('loans-funding-own')).toHaveTextContent('another staff member decides');
    expect(within(mine).queryByTestId('loans-funding-approve')).toBeNull();
    const other = rows.find((r) => r.dataset.request === 'lnf_1') as HTMLElement;
    await user.click(within(other).getByTestId('loans-funding-approve'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'This moves 50,000 USDT of loan capital into the lender account “Main lender” (requested by stf_other)',
    );
    await fill(user, within(dialog).getByTestId('reason-input'), 'board minute 12');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('loans/funding-requests/lnf_1/approve')).toHaveLength(1));
  });

  it('requests funding with an amount and a reason', async () => {
    const api = lendersApi(ALL);
    const { user } = await renderAdmin(<LendersScreen />, { route: '/loans/lenders' });
    await user.click(await screen.findByTestId('loans-lender-fund'));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByTestId('loans-fund-amount'), '25000');
    await fill(user, within(dialog).getByTestId('reason-input'), 'more demand');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() =>
      expect(api.callsTo('loans/lenders/lnl_main/requests')[0]?.body).toMatchObject({
        amount: '25000',
        reason: 'more demand',
      }),
    );
    expect(await screen.findByTestId('loans-note')).toHaveTextContent(
      'Funding of 25,000 USDT for “Main lender” requested',
    );
  });

  it('read only: no funding, no decisions', async () => {
    lendersApi(READ);
    await renderAdmin(<LendersScreen />, { route: '/loans/lenders' });
    await screen.findAllByTestId('loans-funding-request');
    expect(screen.queryByTestId('loans-lender-fund')).toBeNull();
    expect(screen.queryByTestId('loans-lender-new')).toBeNull();
    expect(screen.queryAllByTestId('loans-funding-approve')).toEqual([]);
  });
});

const REVIEW: AdminScoreReviewData = {
  review_id: 'lsr_1',
  state: 'open',
  score: 410,
  version: 1,
  note: 'My salary is not counted',
  created_at: NOW,
  customer_id: 'usr_alice',
  uid: '80012345',
  closed_by: null,
  closed_at: null,
  closing_note: null,
};

describe('the credit score', () => {
  function scoreApi(permissions: string[]) {
    const api = mockApi({
      'loans/score-table': (call) => (call.method === 'POST' ? { ...TABLE, version: 2 } : TABLE),
      'loans/score-reviews': () => ({ total: 1, page: 1, page_size: 100, items: [REVIEW] }),
      'loans/score-reviews/lsr_1/close': () => ({ ...REVIEW, state: 'closed' }),
    });
    signIn(api, permissions);
    return api;
  }

  it('shows the table in force and publishes a new version, refusing a broken one by line', async () => {
    const api = scoreApi(ALL);
    const { user } = await renderAdmin(<ScoreScreen />, { route: '/loans/score' });
    const table = await screen.findByTestId('loans-score-table');
    expect(table).toHaveTextContent('Version 1 · base 300 points');
    expect(table.querySelector('[data-factor="deposits"]')).toHaveTextContent('from 1000.5: 60 points');
    await user.click(screen.getByTestId('loans-score-new'));
    const form = await screen.findByTestId('loans-score-form');
    await fill(user, within(form).getByTestId('loans-score-bands-account_age'), '0 0\n90 50\n60 70');
    await fill(user, within(form).getByTestId('loans-score-reason'), 'annual review');
    await user.click(within(form).getByTestId('loans-score-publish'));
    expect(within(form).getByTestId('loans-score-problems')).toHaveTextContent(
      'Account age, line 3: must start above the line before.',
    );
    expect(api.calls.filter((c) => c.call === 'loans/score-table' && c.method === 'POST')).toHaveLength(0);
    await fill(user, within(form).getByTestId('loans-score-bands-account_age'), '0 0\n90 50\n180 70');
    await user.click(within(form).getByTestId('loans-score-publish'));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.call === 'loans/score-table' && c.method === 'POST')).toHaveLength(1),
    );
    expect(api.calls.find((c) => c.call === 'loans/score-table' && c.method === 'POST')?.body).toMatchObject({
      base_points: 300,
      bands: {
        account_age: [
          { from: '0', points: 0 },
          { from: '90', points: 50 },
          { from: '180', points: 70 },
        ],
      },
      reason: 'annual review',
    });
    expect(await screen.findByTestId('loans-note')).toHaveTextContent('Version 2 published');
  });

  it('closes a review request with what was found; read only without loans.write', async () => {
    const api = scoreApi(ALL);
    const { user, unmount } = await renderAdmin(<ScoreScreen />, { route: '/loans/score' });
    await user.click(await screen.findByTestId('loans-review-close'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('the score 410 of UID 80012345');
    await fill(user, within(dialog).getByTestId('reason-input'), 'salary is not a factor; explained');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('loans/score-reviews/lsr_1/close')).toHaveLength(1));
    unmount();
    signIn(api, ['loans.read', 'loans.decide']);
    await renderAdmin(<ScoreScreen />, { route: '/loans/score' });
    await screen.findByTestId('loans-review');
    expect(screen.queryByTestId('loans-review-close')).toBeNull();
    expect(screen.queryByTestId('loans-score-new')).toBeNull();
    expect(screen.getByTestId('loans-no-permission')).toHaveTextContent('loans.write');
  });
});

describe.each(['zh', 'ft'] as const)('the loan screens in %s', (lang) => {
  it('render the queue and a decision dialog with no missing key', async () => {
    queueApi(ALL, [application(), BIG]);
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<QueueScreen />, { route: '/loans/queue', lang });
    await user.click(within(await cardOf('lon_big')).getByTestId('loans-approve'));
    await screen.findByRole('dialog');
    expect(watch.missing).toEqual([]);
  });

  it('render the loan book, the product form and the score with no missing key', async () => {
    const api = productsApi(ALL);
    api.on({
      'loans/loans': () => ({
        total: 1,
        page: 1,
        page_size: 50,
        items: [adminLoan({ state: 'overdue', days_past_due: 9 })],
      }),
      'loans/score-table': () => TABLE,
      'loans/score-reviews': () => ({ total: 1, page: 1, page_size: 100, items: [REVIEW] }),
    });
    watch = watchMissingKeys();
    const first = await renderAdmin(<LoansScreen />, { route: '/loans/loans', lang });
    await screen.findByTestId('loans-portfolio');
    first.unmount();
    const { user, unmount } = await renderAdmin(<ProductsScreen />, { route: '/loans/products', lang });
    await user.click(await screen.findByTestId('loans-product-new'));
    await screen.findByTestId('loans-form-quote');
    await fill(user, screen.getByTestId('loans-form-daily_rate'), '5');
    await screen.findByTestId('loans-form-breaks');
    unmount();
    await renderAdmin(<ScoreScreen />, { route: '/loans/score', lang });
    await screen.findByTestId('loans-review');
    expect(watch.missing).toEqual([]);
  });
});
