// @vitest-environment happy-dom
import type {
  AdminLaunchpadProjectData,
  AdminLaunchpadRunData,
  AdminLaunchpadSubscriptionData,
  Lang,
} from '@bourse/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { watchMissingKeys } from '../../test/i18n.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import ProjectsScreen from './ProjectsScreen.tsx';
import RunsScreen from './RunsScreen.tsx';
import SubscriptionsScreen from './SubscriptionsScreen.tsx';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const zeroCounts = {
  under_review: 0,
  passed: 0,
  not_passed: 0,
  allocated: 0,
  issuance_failed: 0,
  refunded: 0,
};

function project(overrides: Partial<AdminLaunchpadProjectData> = {}): AdminLaunchpadProjectData {
  return {
    project_id: 'lpp_nova',
    coin: 'NOVA',
    coin_scale: 6,
    names: { en: 'Nova Network', zh: 'Nova 网络', ft: 'Nova 網絡' },
    descriptions: { en: 'A new chain.', zh: '新链。', ft: '新鏈。' },
    risk_warnings: { en: 'You may lose it all.', zh: '可能全部损失。', ft: '可能全部損失。' },
    issuer: 'Nova Labs Ltd',
    whitepaper_url: 'https://nova.example/wp.pdf',
    state: 'open',
    mode: 'pro_rata',
    price: '0.25',
    pay_currency: 'USDT',
    lot_size: '10',
    circulation: '100000000',
    supply: '1000000',
    soft_cap: '200000',
    per_customer_cap: '50000',
    min_subscription: '100',
    margin_ratio: '100',
    fee_rate: '0.1',
    opens_at: NOW - DAY_MS,
    closes_at: NOW + 6 * DAY_MS,
    listing_at: NOW + 8 * DAY_MS,
    lockup_days: 30,
    release_at: NOW + 38 * DAY_MS,
    refund_hours: 48,
    eligibility: { min_tier: 'primary', min_rating: 'balanced', jurisdictions: ['permissive', 'custom'] },
    subscribed: '1250000',
    subscribers: 42,
    passed: '0',
    remaining: '0',
    progress: '125',
    sold_out: false,
    failure_reason: null,
    failed_at: null,
    refund_deadline_at: null,
    announced_at: NOW - 3 * DAY_MS,
    allocation: null,
    market_symbol: null,
    market_opened_at: null,
    escrow: '0',
    paid_out: '0',
    fees: '0',
    counts: { ...zeroCounts, under_review: 42 },
    created_at: NOW - 5 * DAY_MS,
    created_by: 'stf_other',
    ...overrides,
  };
}

/** A distributed project whose listing has passed (relative to the real clock the screen reads). */
const DISTRIBUTED = project({
  project_id: 'lpp_done',
  coin: 'DONE',
  names: { en: 'Done Chain', zh: 'Done 链', ft: 'Done 鏈' },
  state: 'distributed',
  listing_at: Date.now() - DAY_MS,
  escrow: '249750.5',
  paid_out: '0',
  fees: '249.75',
  counts: { ...zeroCounts, allocated: 40, not_passed: 2 },
  allocation: {
    mode: 'pro_rata',
    supply_lots: '100000',
    cap_lots: '5000',
    commitments: 40,
    committed_lots: '125000',
    capped: 3,
    capped_committed_lots: '24000',
    fill_numerator: '85000',
    fill_denominator: '101000',
    remainder_lots: '17',
    remainder_cut: { remainder: '4500', seq: 31 },
    allocated_lots: '100000',
    commitment_root: { hash: 'c0ffee01', sum: '125000', leaf_count: 40 },
    allocation_root: { hash: 'a110c8ed', sum: '100000', leaf_count: 40 },
    published_at: NOW,
  },
});

const DRAFT = project({
  project_id: 'lpp_draft',
  coin: 'DRFT',
  state: 'draft',
  announced_at: null,
  subscribed: '0',
});

function projectsApi(permissions: string[], items = [project(), DISTRIBUTED, DRAFT]): MockedApi {
  const api = mockApi({ 'launchpad/projects': () => ({ items }) });
  signIn(api, permissions);
  return api;
}

const rowOf = async (id: string) => {
  const rows = await screen.findAllByTestId('launchpad-project');
  const row = rows.find((r) => r.dataset.project === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

describe('launchpad projects', () => {
  it('lists the projects with escrow and progress, and says the job runs everything else', async () => {
    projectsApi(['launchpad.read', 'launchpad.write']);
    await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    const row = await rowOf('lpp_done');
    expect(within(row).getByTestId('launchpad-project-escrow')).toHaveTextContent('249,750.50');
    const open = await rowOf('lpp_nova');
    expect(within(open).getByTestId('launchpad-project-progress')).toHaveTextContent('1,250,000');
    expect(within(open).getByTestId('launchpad-project-progress')).toHaveTextContent(
      '125.00% · 42 subscribers',
    );
    expect(screen.getByTestId('launchpad-no-control')).toHaveTextContent(
      'No screen sets a quantity or an allocation',
    );
  });

  it('offers only the actions each state allows', async () => {
    const notListed = project({
      project_id: 'lpp_wait',
      state: 'distributed',
      listing_at: Date.now() + DAY_MS,
      escrow: '5',
    });
    projectsApi(['launchpad.read', 'launchpad.write'], [project(), DISTRIBUTED, DRAFT, notListed]);
    await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    const actions = async (id: string) =>
      within(await rowOf(id))
        .queryAllByRole('button')
        .map((b) => b.dataset.testid)
        .filter((id) => id?.startsWith('launchpad-action-'));
    expect(await actions('lpp_draft')).toEqual(['launchpad-action-announce']);
    expect(await actions('lpp_nova')).toEqual(['launchpad-action-withdraw']);
    expect(await actions('lpp_done')).toEqual(['launchpad-action-pay_issuer']);
    expect(await actions('lpp_wait')).toEqual([]);
  });

  it('announces a draft after a confirmation naming the coin and what becomes fixed, with a reason', async () => {
    const api = projectsApi(['launchpad.read', 'launchpad.write']);
    api.on({ 'launchpad/projects/lpp_draft/action': () => ({ ...DRAFT, state: 'announced' }) });
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    await user.click(within(await rowOf('lpp_draft')).getByTestId('launchpad-action-announce'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Announce: DRFT · Nova Network');
    expect(dialog).toHaveTextContent('nothing that changes anyone’s allocation can be edited');
    // Pro rata: one customer may ask for the whole supply, 1,000,000 × 0.25 = 250,000 USDT + 0.1 % = 250:
    // what one customer may freeze; the cap bounds the allocation only.
    expect(dialog).toHaveTextContent('freeze up to 250,250 USDT');
    await fill(user, within(dialog).getByTestId('reason-input'), 'no');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent('at least 3 characters');
    expect(api.callsTo('launchpad/projects/lpp_draft/action')).toHaveLength(0);
    await fill(user, within(dialog).getByTestId('reason-input'), 'committee approved');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('launchpad/projects/lpp_draft/action')).toHaveLength(1));
    expect(api.callsTo('launchpad/projects/lpp_draft/action')[0]?.body).toMatchObject({
      action: 'announce',
      reason: 'committee approved',
    });
    expect(await screen.findByTestId('launchpad-note')).toHaveTextContent(
      'DRFT · Nova Network is now Announced',
    );
  });

  it('withdraws with the refund promise in hours, and pays the issuer the escrow', async () => {
    const api = projectsApi(['launchpad.read', 'launchpad.write']);
    api.on({
      'launchpad/projects/lpp_nova/action': () =>
        project({ state: 'failed', failure_reason: 'issuer_withdrew' }),
      'launchpad/projects/lpp_done/action': () => ({ ...DISTRIBUTED, escrow: '0', paid_out: '249750.5' }),
    });
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    await user.click(within(await rowOf('lpp_nova')).getByTestId('launchpad-action-withdraw'));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Withdraw: NOVA · Nova Network');
    expect(dialog).toHaveTextContent('is refunded automatically within 48 hours');
    expect(dialog).toHaveTextContent('1,250,000 NOVA subscribed so far');
    await fill(user, within(dialog).getByTestId('reason-input'), 'issuer letter of 20 Nov');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('launchpad/projects/lpp_nova/action')).toHaveLength(1));
    expect(api.callsTo('launchpad/projects/lpp_nova/action')[0]?.body).toMatchObject({ action: 'withdraw' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(await rowOf('lpp_done')).getByTestId('launchpad-action-pay_issuer'));
    dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'This moves 249,750.5 USDT from the project’s escrow to the issuer “Nova Labs Ltd”',
    );
    await fill(user, within(dialog).getByTestId('reason-input'), 'listing confirmed');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('launchpad/projects/lpp_done/action')).toHaveLength(1));
    expect(api.callsTo('launchpad/projects/lpp_done/action')[0]?.body).toMatchObject({
      action: 'pay_issuer',
      reason: 'listing confirmed',
    });
  });

  it('shows every figure of the published allocation, the counts and the roots in the drawer', async () => {
    projectsApi(['launchpad.read']);
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    await user.click(within(await rowOf('lpp_done')).getByTestId('launchpad-project-open'));
    const detail = await screen.findByTestId('launchpad-project-detail');
    const allocation = within(detail).getByTestId('launchpad-detail-allocation');
    expect(allocation).toHaveTextContent('85000 / 101000');
    expect(allocation).toHaveTextContent('remainder 4500, sequence #31');
    expect(allocation).toHaveTextContent('c0ffee01');
    expect(allocation).toHaveTextContent('a110c8ed');
    expect(allocation).toHaveTextContent('Sum (lots): 125000 · leaves: 40');
    const counts = within(detail).getByTestId('launchpad-detail-counts');
    expect(counts.querySelector('[data-state="allocated"]')?.getAttribute('data-count')).toBe('40');
    expect(counts.querySelector('[data-state="not_passed"]')?.getAttribute('data-count')).toBe('2');
    expect(within(detail).getByTestId('launchpad-detail-rules')).toHaveTextContent('Nova Labs Ltd');
    expect(within(detail).getByTestId('launchpad-detail-rules')).toHaveTextContent('30 days');
    expect(within(detail).getByTestId('launchpad-detail-standing')).toHaveTextContent('249,750.50 USDT');
    // Pro rata: no "remaining (first come)" row (the server sends the supply there).
    expect(within(detail).getByTestId('launchpad-detail-standing')).not.toHaveTextContent(
      'Remaining (first come)',
    );
    expect(within(detail).queryByTestId('launchpad-action-pay_issuer')).toBeNull();
  });

  it('opens the spot market of a listed project from the drawer: defaults from the issue price, a reason', async () => {
    const api = projectsApi(['launchpad.read', 'launchpad.write']);
    api.on({
      'launchpad/projects/lpp_done/market': () => ({
        ...DISTRIBUTED,
        market_symbol: 'DONE/USDT',
        market_opened_at: NOW,
      }),
    });
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    await user.click(within(await rowOf('lpp_done')).getByTestId('launchpad-project-open'));
    const detail = await screen.findByTestId('launchpad-project-detail');
    await user.click(within(detail).getByTestId('launchpad-market-open'));
    const form = await screen.findByTestId('launchpad-market-form');
    expect(within(form).getByTestId('launchpad-market-price_tick')).toHaveValue('0.0001');
    expect(within(form).getByTestId('launchpad-market-lot_size')).toHaveValue('0.01');
    await user.clear(within(form).getByTestId('launchpad-market-taker_fee_rate'));
    await user.type(within(form).getByTestId('launchpad-market-taker_fee_rate'), '0.0015');
    await user.click(screen.getByTestId('reason-confirm'));
    expect(await screen.findByText(/at least/)).toBeInTheDocument();
    expect(api.callsTo('launchpad/projects/lpp_done/market')).toHaveLength(0);
    await user.type(screen.getByTestId('reason-input'), 'listing day reached');
    await user.click(screen.getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('launchpad/projects/lpp_done/market')).toHaveLength(1));
    expect(api.callsTo('launchpad/projects/lpp_done/market')[0]?.body).toMatchObject({
      price_tick: '0.0001',
      lot_size: '0.01',
      taker_fee_rate: '0.0015',
      reason: 'listing day reached',
    });
  });

  it('a project before its listing date says when its market may open; no button', async () => {
    projectsApi(['launchpad.read', 'launchpad.write'], [{ ...DISTRIBUTED, listing_at: Date.now() + DAY_MS }]);
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    await user.click(within(await rowOf('lpp_done')).getByTestId('launchpad-project-open'));
    const section = await screen.findByTestId('launchpad-market-section');
    expect(section).toHaveTextContent('may be opened once the project is distributed');
    expect(within(section).queryByTestId('launchpad-market-open')).toBeNull();
  });

  it('a first-come project shows what is left in the drawer', async () => {
    projectsApi(['launchpad.read'], [project({ mode: 'first_come', remaining: '250000' })]);
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    await user.click(within(await rowOf('lpp_nova')).getByTestId('launchpad-project-open'));
    const standing = within(await screen.findByTestId('launchpad-project-detail')).getByTestId(
      'launchpad-detail-standing',
    );
    expect(standing).toHaveTextContent('Remaining (first come)');
    expect(standing).toHaveTextContent('250,000 NOVA');
  });

  it('shows a failed project’s reason and refund deadline', async () => {
    const failed = project({
      state: 'failed',
      failure_reason: 'soft_cap_missed',
      failed_at: NOW,
      refund_deadline_at: NOW + 48 * HOUR_MS,
    });
    projectsApi(['launchpad.read'], [failed]);
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    await user.click(within(await rowOf('lpp_nova')).getByTestId('launchpad-project-open'));
    expect(await screen.findByTestId('launchpad-detail-failure')).toHaveTextContent(
      'Failed: Soft cap missed',
    );
    expect(screen.getByTestId('launchpad-detail-allocation-none')).toBeInTheDocument();
  });

  it('without launchpad.write: no new project, no action in the table or the drawer', async () => {
    projectsApi(['launchpad.read']);
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    await rowOf('lpp_draft');
    expect(screen.getByTestId('launchpad-no-permission')).toHaveTextContent('launchpad.write');
    expect(screen.queryByTestId('launchpad-project-new')).toBeNull();
    expect(screen.queryAllByTestId(/^launchpad-action-/)).toEqual([]);
    await user.click(within(await rowOf('lpp_draft')).getByTestId('launchpad-project-open'));
    await screen.findByTestId('launchpad-project-detail');
    expect(screen.queryAllByTestId(/^launchpad-action-/)).toEqual([]);
  });
});

/** `datetime-local` inputs take a value by a change event (typing into them is not text). */
function setTime(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

describe('the create form', () => {
  it('shows what a customer will read, fixes the margin at 100 and sends the draft', async () => {
    const api = projectsApi(['launchpad.read', 'launchpad.write'], []);
    api.on({ 'launchpad/projects': (call) => (call.method === 'POST' ? DRAFT : { items: [] }) });
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects' });
    await user.click(await screen.findByTestId('launchpad-project-new'));
    const form = await screen.findByTestId('launchpad-project-form');
    expect(within(form).getByTestId('launchpad-form-margin_ratio')).toHaveValue('100');
    expect(within(form).getByTestId('launchpad-form-margin_ratio')).toHaveAttribute('readonly');
    expect(form).toHaveTextContent('nobody is allocated on credit');
    const type = (field: string, text: string) =>
      fill(user, within(form).getByTestId(`launchpad-form-${field}`), text);
    await type('coin', 'nova');
    for (const lang of ['en', 'zh', 'ft'] as Lang[]) {
      await type(`names-${lang}`, `Nova ${lang}`);
      await type(`descriptions-${lang}`, `About Nova ${lang}`);
      await type(`risk_warnings-${lang}`, `Risk ${lang}`);
    }
    await type('issuer', 'Nova Labs Ltd');
    await type('whitepaper_url', 'https://nova.example/wp.pdf');
    await type('price', '0.25');
    await type('lot_size', '10');
    await type('circulation', '100000000');
    await type('supply', '1000000');
    await type('soft_cap', '200000');
    await type('per_customer_cap', '50000');
    await type('min_subscription', '100');
    await type('fee_rate', '0.1');
    await type('lockup_days', '30');
    setTime('launchpad-form-opens_at', '2099-02-01T10:00');
    setTime('launchpad-form-closes_at', '2099-02-08T10:00');
    setTime('launchpad-form-listing_at', '2099-02-10T10:00');
    expect(within(form).getByTestId('launchpad-preview-cost-en')).toHaveTextContent(
      'Subscribing 100 NOVA freezes 100 × 0.25 USDT + 0.1% fee = 25.025 USDT of your spot balance (cost 25 + fee 0.025)',
    );
    expect(within(form).getByTestId('launchpad-preview-cost-zh')).toHaveTextContent('申购 100 NOVA');
    expect(within(form).getByTestId('launchpad-preview-en')).toHaveTextContent(
      'asking for all of it freezes 250,250 USDT',
    );
    const release = new Date('2099-02-10T10:00').getTime() + 30 * DAY_MS;
    expect(within(form).getByTestId('launchpad-form-release')).toHaveTextContent(
      new Date(release).toLocaleString('en-US', { hour12: false }),
    );
    await user.click(within(form).getByTestId('launchpad-form-submit'));
    expect(within(form).getByTestId('launchpad-form-bad')).toHaveAttribute('data-fields', 'reason');
    await type('reason', 'new listing approved');
    await user.click(within(form).getByTestId('launchpad-form-submit'));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.call === 'launchpad/projects' && c.method === 'POST')).toHaveLength(1),
    );
    const body = api.calls.find((c) => c.call === 'launchpad/projects' && c.method === 'POST')?.body;
    expect(body).toMatchObject({
      coin: 'NOVA',
      coin_scale: 8,
      mode: 'pro_rata',
      margin_ratio: '100',
      fee_rate: '0.1',
      lockup_days: 30,
      refund_hours: 48,
      opens_at: new Date('2099-02-01T10:00').getTime(),
      jurisdictions: ['permissive'],
      names: { en: 'Nova en', zh: 'Nova zh', ft: 'Nova ft' },
    });
    expect(await screen.findByTestId('launchpad-note')).toHaveTextContent(
      'Project DRFT (lpp_draft) created as a draft',
    );
  });
});

function subscription(
  overrides: Partial<AdminLaunchpadSubscriptionData> = {},
): AdminLaunchpadSubscriptionData {
  return {
    subscription_id: 'lps_1',
    project_id: 'lpp_done',
    project_name: 'Done Chain',
    coin: 'DONE',
    seq: 7,
    state: 'allocated',
    quantity: '5000',
    price: '0.25',
    margin: '1250',
    fee_frozen: '1.25',
    frozen: '1251.25',
    review_reason: null,
    allocated: '4200',
    paid: '1050',
    fee_paid: '1.05',
    refunded: '200.2',
    failure_reason: null,
    token_state: 'locked',
    release_at: NOW + 30 * DAY_MS,
    released_at: null,
    created_at: NOW - DAY_MS,
    reviewed_at: NOW - HOUR_MS,
    allocated_at: NOW,
    refunded_at: NOW,
    uid: '80012345',
    customer_id: 'usr_alice',
    ...overrides,
  };
}

describe('launchpad subscriptions', () => {
  it('lists subscriptions from the project in the address, filters by state and uid, in pages', async () => {
    const api = mockApi({
      'launchpad/projects': () => ({ items: [DISTRIBUTED] }),
      'launchpad/subscriptions': () => ({
        total: 120,
        page: 1,
        page_size: 50,
        items: [
          subscription(),
          subscription({
            subscription_id: 'lps_2',
            state: 'not_passed',
            review_reason: 'jurisdiction',
            allocated: null,
          }),
        ],
      }),
    });
    signIn(api, ['launchpad.read']);
    const { user } = await renderAdmin(<SubscriptionsScreen />, {
      route: '/launchpad/subscriptions?project=lpp_done',
    });
    const rows = await screen.findAllByTestId('launchpad-subscription');
    expect(rows[0]).toHaveTextContent('80012345');
    expect(rows[0]).toHaveTextContent('1,251.25');
    expect(rows[0]).toHaveTextContent('margin 1,250 + fee 1.25');
    expect(rows[0]).toHaveTextContent('4,200 DONE');
    expect(rows[0]).toHaveTextContent('200.20');
    expect(rows[0]).toHaveTextContent('Locked');
    expect(rows[1]).toHaveTextContent('Jurisdiction');
    expect(screen.getByTestId('launchpad-subscriptions-total')).toHaveTextContent('120 subscriptions');
    expect(api.callsTo('launchpad/subscriptions')[0]?.query).toMatchObject({
      project_id: 'lpp_done',
      page: '1',
    });
    await fill(user, screen.getByTestId('launchpad-subscriptions-uid'), '80012345');
    await waitFor(() =>
      expect(api.callsTo('launchpad/subscriptions').at(-1)?.query).toMatchObject({
        project_id: 'lpp_done',
        uid: '80012345',
      }),
    );
    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() =>
      expect(api.callsTo('launchpad/subscriptions').at(-1)?.query).toMatchObject({ page: '2' }),
    );
  });
});

describe('launchpad runs', () => {
  const runs: AdminLaunchpadRunData[] = [
    {
      run_id: 'lpr_3',
      project_id: 'lpp_done',
      kind: 'release',
      subscriptions: 40,
      lots: '100000',
      amount: '1000000',
      started_at: NOW,
      finished_at: null,
    },
    {
      run_id: 'lpr_2',
      project_id: 'lpp_done',
      kind: 'allocation',
      subscriptions: 40,
      lots: '100000',
      amount: '250000.25',
      started_at: NOW - HOUR_MS,
      finished_at: NOW - HOUR_MS + 5_000,
    },
  ];

  it('shows the job’s runs of the project in the address, amounts in USDT or the coin', async () => {
    const api = mockApi({
      'launchpad/projects': () => ({ items: [project(), DISTRIBUTED] }),
      'launchpad/projects/lpp_done/runs': () => ({ items: runs }),
    });
    signIn(api, ['launchpad.read']);
    await renderAdmin(<RunsScreen />, { route: '/launchpad/runs?project=lpp_done' });
    const rows = await screen.findAllByTestId('launchpad-run');
    expect(rows.map((r) => r.dataset.kind)).toEqual(['release', 'allocation']);
    expect(within(rows[0] as HTMLElement).getByTestId('launchpad-run-amount')).toHaveTextContent(
      '1,000,000 DONE',
    );
    expect(rows[0]).toHaveTextContent('Running');
    expect(within(rows[1] as HTMLElement).getByTestId('launchpad-run-amount')).toHaveTextContent(
      '250,000.25 USDT',
    );
    expect(api.callsTo('launchpad/projects/lpp_nova/runs')).toHaveLength(0);
  });
});

describe.each(['zh', 'ft'] as const)('the launchpad screens in %s', (lang) => {
  it('render the create form and its preview with no missing key', async () => {
    projectsApi(['launchpad.read', 'launchpad.write'], []);
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects', lang });
    await user.click(await screen.findByTestId('launchpad-project-new'));
    await screen.findByTestId('launchpad-form-preview');
    await user.click(screen.getByTestId('launchpad-form-submit'));
    await screen.findByTestId('launchpad-form-bad');
    expect(watch.missing).toEqual([]);
  });

  it('render the projects, the drawer and a dialog with no missing key', async () => {
    projectsApi(['launchpad.read', 'launchpad.write']);
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<ProjectsScreen />, { route: '/launchpad/projects', lang });
    await user.click(within(await rowOf('lpp_done')).getByTestId('launchpad-project-open'));
    const detail = await screen.findByTestId('launchpad-project-detail');
    await screen.findByTestId('launchpad-detail-allocation');
    await user.click(within(detail).getByTestId('launchpad-action-pay_issuer'));
    expect(await screen.findByTestId('launchpad-action-summary')).toHaveTextContent('Nova Labs Ltd');
    await user.click(screen.getByText(/^(Cancel|取消)$/));
    await user.click(within(detail).getByTestId('launchpad-market-open'));
    await screen.findByTestId('launchpad-market-form');
    expect(watch.missing).toEqual([]);
  });

  it('render the subscriptions and runs with no missing key', async () => {
    const api = mockApi({
      'launchpad/projects': () => ({ items: [DISTRIBUTED] }),
      'launchpad/subscriptions': () => ({ total: 1, page: 1, page_size: 50, items: [subscription()] }),
    });
    signIn(api, ['launchpad.read']);
    watch = watchMissingKeys();
    await renderAdmin(<SubscriptionsScreen />, { route: '/launchpad/subscriptions', lang });
    await screen.findByTestId('launchpad-subscription');
    expect(watch.missing).toEqual([]);
  });
});
