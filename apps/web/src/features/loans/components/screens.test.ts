// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, Refusal } from '../../../shared/testing/api.ts';
import {
  CLEARED,
  creditScore,
  detail,
  LEND_LIST,
  lendMy,
  loan,
  OVERDUE,
  quote,
  REJECTED,
} from '../test/fixtures.ts';
import { renderLoans } from '../test/render.tsx';

describe('/xinyongfen: my credit score', () => {
  it('shows the score, each factor with its points, best and hint, the limit, the table version; asks for a review', async () => {
    const api = mockApi({
      getCreditScore: () => creditScore(),
      requestScoreReview: () => ({
        review_id: 'lsr_1',
        state: 'open',
        score: 530,
        version: 1,
        note: '',
        created_at: 0,
      }),
    });
    const { user } = await renderLoans({ route: '/xinyongfen' });
    expect(await screen.findByTestId('score-value')).toHaveTextContent('530');
    expect(screen.getByTestId('score-limit')).toHaveTextContent('3,000.00 USDT');
    expect(screen.getByTestId('score-version')).toHaveTextContent('version 1');
    const deposits = screen
      .getAllByTestId('score-factor')
      .find((r) => r.dataset.factor === 'deposits') as HTMLElement;
    expect(within(deposits).getByTestId('factor-points')).toHaveTextContent('30');
    expect(within(deposits).getByTestId('factor-best')).toHaveTextContent('80');
    expect(within(deposits).getByTestId('factor-hint')).toHaveTextContent('Deposit more USDT');
    await user.click(screen.getByTestId('score-review-ask'));
    await screen.findByTestId('score-review-done');
    expect(api.callsTo('requestScoreReview')).toHaveLength(1);
  });

  it('an open review is shown, not asked twice', async () => {
    mockApi({
      getCreditScore: () => creditScore({ review: { review_id: 'lsr_1', state: 'open', created_at: 0 } }),
    });
    await renderLoans({ route: '/xinyongfen', viewport: 'phone' });
    expect(await screen.findByTestId('score-review-state')).toHaveAttribute('data-state', 'open');
    expect(screen.queryByTestId('score-review-ask')).toBeNull();
    expect(screen.getByTestId('score-factors-cards')).toBeInTheDocument();
  });

  it('refused for want of real-name verification: says so, with the way to fix it', async () => {
    mockApi({
      getCreditScore: () =>
        new Refusal('VERIFICATION_PRIMARY_REQUIRED', { feature: 'credit_score', tier: 'primary' }),
    });
    await renderLoans({ route: '/xinyongfen' });
    expect(await screen.findByTestId('score-verify')).toHaveTextContent(
      'the credit score needs primary (real-name) verification approved',
    );
    expect(screen.getByTestId('score-verify-link')).toHaveAttribute('href', '/authentication');
  });

  it('a profile asking advanced for the score: names advanced (the refusal’s tier), links to it', async () => {
    mockApi({
      getCreditScore: () =>
        new Refusal('VERIFICATION_ADVANCED_REQUIRED', { feature: 'credit_score', tier: 'advanced' }),
    });
    await renderLoans({ route: '/xinyongfen' });
    const verify = await screen.findByTestId('score-verify');
    expect(verify).toHaveAttribute('data-tier', 'advanced');
    expect(verify).toHaveTextContent('the credit score needs advanced verification approved');
    expect(verify).not.toHaveTextContent('primary');
    expect(screen.getByTestId('score-verify-link')).toHaveAttribute('href', '/authenticationhigh');
  });

  it('the score page names the loans rule the data carries', async () => {
    mockApi({ getCreditScore: () => creditScore({ loans_tier: 'address' }) });
    await renderLoans({ route: '/xinyongfen' });
    expect(await screen.findByTestId('score-loans-tier')).toHaveTextContent(
      'loans need proof-of-address verification approved',
    );
  });

  it('no loans rule (none): no verification step is named', async () => {
    mockApi({ getCreditScore: () => creditScore({ loans_tier: 'none' }) });
    await renderLoans({ route: '/xinyongfen' });
    await screen.findByTestId('score-value');
    expect(screen.queryByTestId('score-loans-tier')).toBeNull();
  });
});

function applyApi(over: Record<string, () => unknown> = {}) {
  return mockApi({
    lendList: () => LEND_LIST,
    lendMy: () => lendMy(),
    getCreditScore: () => creditScore(),
    getLoanQuote: () => quote(),
    applyLoan: () => loan({ loan_id: 'lon_9', state: 'unreviewed' }),
    ...over,
  });
}

describe('/credit: apply', () => {
  it('shows the whole quote (APR first) before applying, then applies with the agreement version', async () => {
    const api = applyApi();
    const { user } = await renderLoans({ route: '/credit' });
    expect(await screen.findByTestId('apply-eligible')).toHaveTextContent('3,000.00 USDT');
    await user.type(screen.getByTestId('apply-amount'), '1000');
    const panel = await screen.findByTestId('loan-quote');
    expect(within(panel).getByTestId('quote-apr')).toHaveTextContent('29.87%');
    expect(within(panel).getByTestId('quote-daily')).toHaveTextContent('0.1% a day');
    expect(within(panel).getByTestId('quote-total')).toHaveTextContent('1,011.00 USDT');
    expect(within(panel).getByTestId('quote-worst')).toHaveTextContent('2,000.00 USDT');
    expect(within(panel).getByTestId('quote-late-fee')).toHaveTextContent('10.00 USDT');
    expect(api.callsTo('getLoanQuote').at(-1)?.params).toMatchObject({ amount: '1000', term_days: '7' });
    expect(api.callsTo('applyLoan')).toHaveLength(0);
    expect(screen.getByTestId('apply-submit')).toBeDisabled();
    await user.click(screen.getByTestId('apply-agreement'));
    await user.click(screen.getByTestId('apply-submit'));
    await user.click(await screen.findByTestId('apply-confirm-button'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/repaymentNew?loan_id=lon_9'),
    );
    expect(api.callsTo('applyLoan')[0]?.params).toMatchObject({
      accept_agreement: '1',
      agreement_version: '2026-12',
      amount: '1000',
    });
  });

  it('re-applies after a rejection, linked to it', async () => {
    const api = applyApi();
    const { user } = await renderLoans({ route: '/credit?reapply_of=lon_4' });
    expect(await screen.findByTestId('apply-reapply')).toHaveTextContent('lon_4');
    await user.type(screen.getByTestId('apply-amount'), '500');
    await screen.findByTestId('loan-quote');
    await user.click(screen.getByTestId('apply-agreement'));
    await user.click(screen.getByTestId('apply-submit'));
    await user.click(await screen.findByTestId('apply-confirm-button'));
    await waitFor(() => expect(api.callsTo('applyLoan')[0]?.params.reapply_of).toBe('lon_4'));
  });

  it('refusals before trying: the profile’s loans rule (advanced, as seeded), with the way to fix it', async () => {
    applyApi({ lendMy: () => lendMy({ loans_verified: false }) });
    await renderLoans({ route: '/credit' });
    const blocked = await screen.findByTestId('apply-blocked');
    expect(blocked).toHaveAttribute('data-blocker', 'verification_advanced');
    expect(blocked).toHaveTextContent('loans need advanced verification approved');
    expect(screen.getByTestId('apply-blocked-fix')).toHaveAttribute('href', '/authenticationhigh');
  });

  it('a custom profile asking primary for loans: names primary, links to it', async () => {
    applyApi({
      lendList: () => ({ ...LEND_LIST, loans_tier: 'primary' }),
      lendMy: () => lendMy({ loans_verified: false }),
    });
    await renderLoans({ route: '/credit' });
    const blocked = await screen.findByTestId('apply-blocked');
    expect(blocked).toHaveAttribute('data-blocker', 'verification_primary');
    expect(blocked).toHaveTextContent('loans need primary (real-name) verification approved');
    expect(blocked).not.toHaveTextContent('advanced');
    expect(screen.getByTestId('apply-blocked-fix')).toHaveAttribute('href', '/authentication');
  });

  it('a custom profile asking primary for loans, met by a primary-verified customer: nothing blocks in the browser', async () => {
    const low = creditScore({ loans_tier: 'primary' });
    applyApi({
      lendList: () => ({ ...LEND_LIST, loans_tier: 'primary' }),
      // The score's verification factor: primary (1), below advanced.
      getCreditScore: () => ({
        ...low,
        breakdown: low.breakdown.map((f) => (f.factor === 'verification' ? { ...f, value: '1' } : f)),
      }),
    });
    await renderLoans({ route: '/credit' });
    expect(await screen.findByTestId('apply-eligible')).toHaveTextContent('3,000.00 USDT');
    expect(screen.queryByTestId('apply-blocked')).toBeNull();
  });

  it('a custom profile asking proof of address for loans: advanced is not said to be enough', async () => {
    applyApi({
      lendList: () => ({ ...LEND_LIST, loans_tier: 'address' }),
      lendMy: () => lendMy({ loans_verified: false }),
    });
    await renderLoans({ route: '/credit' });
    const blocked = await screen.findByTestId('apply-blocked');
    expect(blocked).toHaveAttribute('data-blocker', 'verification_address');
    expect(blocked).toHaveTextContent('loans need proof-of-address verification approved');
    expect(screen.getByTestId('apply-blocked-fix')).toHaveAttribute('href', '/dzrz');
  });

  it('no verification step for loans: an unverified customer may apply; the score’s own rule is named', async () => {
    applyApi({
      lendList: () => ({ ...LEND_LIST, loans_tier: 'none' }),
      lendMy: () => lendMy({ score: null, limit: null, loans_verified: true }),
      getCreditScore: () =>
        new Refusal('VERIFICATION_PRIMARY_REQUIRED', { feature: 'credit_score', tier: 'primary' }),
    });
    await renderLoans({ route: '/credit' });
    expect(await screen.findByTestId('apply-eligible')).toHaveTextContent(
      'the application is checked against the limit your credit score gives',
    );
    expect(screen.queryByTestId('apply-blocked')).toBeNull();
    expect(screen.getByTestId('apply-score-tier')).toHaveTextContent(
      'shown once primary (real-name) verification is approved',
    );
  });

  it('one open application at a time: withdraw it before review', async () => {
    const api = applyApi({
      lendMy: () => lendMy({ open: loan({ loan_id: 'lon_5', state: 'unreviewed' }) }),
      withdrawLoan: () => loan({ loan_id: 'lon_5', state: 'withdrawn' }),
    });
    const { user } = await renderLoans({ route: '/credit' });
    expect(await screen.findByTestId('apply-blocked')).toHaveAttribute('data-blocker', 'open');
    await user.click(screen.getByTestId('apply-withdraw'));
    await waitFor(() => expect(api.callsTo('withdrawLoan')[0]?.params.loan_id).toBe('lon_5'));
  });

  it('above my limit is named while typing; a server refusal is shown in place', async () => {
    applyApi({ applyLoan: () => new Refusal('LOAN_LIMIT_EXCEEDED', { limit: '3000' }) });
    const { user } = await renderLoans({ route: '/credit' });
    await screen.findByTestId('apply-eligible');
    await user.type(screen.getByTestId('apply-amount'), '3500');
    expect(await screen.findByText('Your limit is 3,000.00 USDT.')).toBeInTheDocument();
  });
});

describe('/repayment2: my loans', () => {
  const items = [loan(), OVERDUE, CLEARED, REJECTED];
  it('every state with its figures; a rejection offers to apply again', async () => {
    mockApi({
      lendMy: () => lendMy({ open: OVERDUE, outstanding: '623.5' }),
      lendMylist: () => ({ total: items.length, page: 1, page_size: 10, items }),
    });
    await renderLoans({ route: '/repayment2' });
    expect(await screen.findByTestId('loans-table')).toBeInTheDocument();
    expect(screen.getByTestId('loans-own-funds')).toHaveTextContent('never blocks withdrawing');
    expect(screen.getByTestId('overview-owed')).toHaveTextContent('623.50 USDT');
    const rows = screen.getAllByTestId('loan-row');
    expect(rows.map((r) => r.dataset.state)).toEqual(['disbursed', 'overdue', 'cleared', 'rejected']);
    const overdue = rows[1] as HTMLElement;
    expect(within(overdue).getByTestId('loan-state')).toHaveTextContent('Overdue');
    expect(within(overdue).getByTestId('loan-past-due')).toHaveTextContent('6');
    const rejected = rows[3] as HTMLElement;
    expect(within(rejected).getByTestId('loan-reject-reason')).toHaveTextContent('income shown');
    expect(within(rejected).getByTestId('loan-reapply')).toHaveAttribute('href', '/credit?reapply_of=lon_4');
  });

  it('on a phone: cards', async () => {
    mockApi({
      lendMy: () => lendMy(),
      lendMylist: () => ({ total: 1, page: 1, page_size: 10, items: [CLEARED] }),
    });
    await renderLoans({ route: '/repayment2', viewport: 'phone' });
    expect(await screen.findByTestId('loans-cards')).toBeInTheDocument();
    expect(screen.getByTestId('loan-state')).toHaveTextContent('Cleared');
  });
});

describe('/repaymentNew: one loan and repaying', () => {
  it('an overdue loan: outstanding parts, days past due, every day; a part repayment previewed then sent', async () => {
    const api = mockApi({
      getLoan: () =>
        detail(OVERDUE, {
          days: [{ day: 15, kind: 'overdue', interest: '1.2', fee: '10', capped: false, posted_at: 0 }],
        }),
      lendBack: () => ({
        repayment: {
          repayment_id: 'lrp_1',
          loan_id: 'lon_2',
          method: 'balance',
          state: 'confirmed',
          amount: '20',
          paid: { fees: '10', interest: '10', principal: '0' },
          voucher_id: null,
          created_at: 0,
          decided_at: 0,
          decision_reason: null,
        },
        loan: OVERDUE,
      }),
    });
    const { user } = await renderLoans({ route: '/repaymentNew?loan_id=lon_2' });
    expect(await screen.findByTestId('outstanding-fees')).toHaveTextContent('10.00 USDT');
    expect(screen.getByTestId('outstanding-interest')).toHaveTextContent('13.50 USDT');
    expect(screen.getByTestId('outstanding-principal')).toHaveTextContent('600.00 USDT');
    expect(screen.getByTestId('loan-days-past-due')).toHaveTextContent('6');
    expect(screen.getByTestId('loan-day')).toHaveAttribute('data-kind', 'overdue');
    await user.type(screen.getByTestId('repay-amount'), '20');
    const preview = await screen.findByTestId('repay-preview');
    expect(within(preview).getByTestId('preview-fees')).toHaveTextContent('10.00 USDT');
    expect(within(preview).getByTestId('preview-interest')).toHaveTextContent('10.00 USDT');
    expect(within(preview).getByTestId('preview-after')).toHaveTextContent('603.50 USDT');
    await user.click(screen.getByTestId('repay-submit'));
    await user.click(await screen.findByTestId('repay-confirm-button'));
    expect(await screen.findByTestId('repay-done')).toHaveTextContent('Repaid 20.00 USDT');
    expect(api.callsTo('lendBack')[0]?.params).toMatchObject({
      loan_id: 'lon_2',
      amount: '20',
      method: 'balance',
    });
  });

  it('repaying everything uses the payoff; more than owed is named', async () => {
    mockApi({ getLoan: () => detail(loan()) });
    const { user } = await renderLoans({ route: '/repaymentNew?loan_id=lon_1' });
    await user.click(await screen.findByTestId('repay-full'));
    expect(screen.getByTestId('repay-amount')).toHaveValue('1002');
    await user.type(screen.getByTestId('repay-amount'), '1');
    expect(await screen.findByText(/That is more than you owe/)).toBeInTheDocument();
  });

  it('by bank transfer: the voucher is asked for and staff confirm it', async () => {
    mockApi({ getLoan: () => detail(loan()) });
    const { user } = await renderLoans({ route: '/repaymentNew?loan_id=lon_1' });
    await user.click(within(await screen.findByTestId('repay-method')).getByText('By bank transfer'));
    expect(screen.getByTestId('repay-voucher-note')).toHaveTextContent('Staff confirm');
    await user.type(screen.getByTestId('repay-amount'), '10');
    expect(screen.getByTestId('repay-submit')).toBeDisabled();
  });

  it('a cleared loan offers no repayment; a rejected one offers to apply again', async () => {
    mockApi({
      getLoan: (call) => (call.params.loan_id === 'lon_3' ? detail(CLEARED) : detail(REJECTED, { days: [] })),
    });
    await renderLoans({ route: '/repaymentNew?loan_id=lon_3' });
    expect(await screen.findByTestId('loan-cleared')).toBeInTheDocument();
    expect(screen.queryByTestId('loan-repay')).toBeNull();
  });

  it('a rejected application: the reason and re-apply', async () => {
    mockApi({ getLoan: () => detail(REJECTED, { days: [] }) });
    await renderLoans({ route: '/repaymentNew?loan_id=lon_4' });
    expect(await screen.findByTestId('loan-rejected')).toHaveTextContent('the income shown');
    expect(screen.getByTestId('loan-reapply')).toHaveAttribute('href', '/credit?reapply_of=lon_4');
    expect(screen.queryByTestId('loan-repay')).toBeNull();
  });
});
