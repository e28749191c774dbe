// @vitest-environment happy-dom
import { catalogs } from '@bourse/i18n';
import type {
  AdminVerificationDetailData,
  AdminVerificationQueueRow,
  AdminVerificationRulesData,
} from '@bourse/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/routes.tsx';
import { type MockedApi, mockApi, Refusal, signIn } from '../../test/api.ts';
import { watchMissingKeys } from '../../test/i18n.ts';
import { fill, renderAdmin } from '../../test/render.tsx';

const HOUR = 3_600_000;

function row(over: Partial<AdminVerificationQueueRow> = {}): AdminVerificationQueueRow {
  return {
    id: 'kyc_1',
    tier: 'primary',
    customer_id: 'usr_alice',
    uid: '80012345',
    customer_name: 'Alice Chan',
    submitted_at: 1_764_000_000_000,
    age_ms: 27 * HOUR + 5 * 60_000,
    resubmissions: 1,
    flags: [
      { code: 'duplicate_id_number', params: { uid: '80099999' } },
      { code: 'resubmitted', params: { count: 1 } },
    ],
    awaiting_second: false,
    ...over,
  };
}

const DOC = {
  mime: 'image/png' as const,
  width: 1200,
  height: 800,
  size: 204_800,
  sha256: 'ab'.repeat(32),
  expires_at: 1_764_000_300_000,
  status: 'pending' as const,
  reason_code: null,
  note: '',
};

function detail(over: Partial<AdminVerificationDetailData> = {}): AdminVerificationDetailData {
  return {
    id: 'kyc_1',
    tier: 'primary',
    state: 'under_review',
    customer_id: 'usr_alice',
    uid: '80012345',
    customer_name: 'Alice Chan',
    nationality: 'HK',
    submitted_at: 1_764_000_000_000,
    decided_at: null,
    data: {
      nationality: 'HK',
      real_name: 'Alice Chan',
      id_type: '1',
      id_number_masked: 'A1******89',
      id_number: 'A123456789',
    },
    documents: [
      { ...DOC, slot: 'id_front', file_id: 'fil_front', url: '/api/files/fil_front?sig=1' },
      { ...DOC, slot: 'id_back', file_id: 'fil_back', url: '/api/files/fil_back?sig=2' },
      { ...DOC, slot: 'id_handheld', file_id: 'fil_hand', url: '/api/files/fil_hand?sig=3' },
    ],
    flags: [{ code: 'name_changed', params: { previous: 'Alicia Chan' } }],
    first_approval: null,
    four_eyes: false,
    history: [],
    ...over,
  };
}

function rules(over: Partial<AdminVerificationRulesData> = {}): AdminVerificationRulesData {
  const features = [
    { feature: 'deposit' as const, tier: 'none' as const },
    { feature: 'withdraw' as const, tier: 'primary' as const },
    { feature: 'loans' as const, tier: 'advanced' as const },
  ];
  return {
    active: 'permissive',
    profiles: [
      { id: 'permissive', editable: false, features, document_retention_days: 1825 },
      { id: 'custom', editable: true, features, document_retention_days: 365 },
    ],
    four_eyes_advanced: false,
    ...over,
  };
}

function setUp(permissions = ['verification.read', 'verification.decide', 'settings.write']): MockedApi {
  const api = mockApi({
    'verification/queue': () => ({
      list: [
        row(),
        row({
          id: 'kyc_2',
          tier: 'advanced',
          flags: [],
          resubmissions: 0,
          awaiting_second: true,
          age_ms: 50 * 60_000,
        }),
      ],
      total: 2,
      page: 1,
      page_size: 20,
    }),
    'verification/detail': () => detail(),
    'verification/rules': () => rules(),
  });
  signIn(api, permissions);
  return api;
}

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

describe('the verification queue', () => {
  it('lists what is under review with its age, tier, flags and resubmissions, and opens a review', async () => {
    const api = setUp();
    const { user } = await renderAdmin(null, { routes, route: '/verification' });
    const rows = await screen.findAllByTestId('verification-row');
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent('Alice Chan');
    expect(first).toHaveTextContent('UID 80012345');
    expect(first).toHaveTextContent('Primary verification');
    expect(within(first).getByTestId('verification-age')).toHaveTextContent('1 d 3 h');
    expect(within(first).getByTestId('flag-duplicate_id_number')).toHaveTextContent(
      'ID number also used by customer 80099999',
    );
    expect(within(first).getByTestId('flag-resubmitted')).toHaveTextContent(
      'Resubmission (1 earlier submission)',
    );
    expect(within(second).getByTestId('verification-age')).toHaveTextContent('50 min');
    expect(within(second).getByTestId('awaiting-second')).toHaveTextContent('Awaiting a second approval');
    expect(screen.getByTestId('verification-total')).toHaveTextContent('2 under review');
    expect(api.callsTo('verification/queue')[0]?.query).toMatchObject({ page: '1', page_size: '20' });
    expect(api.callsTo('verification/queue')[0]?.query.tier).toBeUndefined();

    await user.click(
      within(screen.getByTestId('verification-tier-filter')).getByText('Advanced verification'),
    );
    await waitFor(() => expect(api.callsTo('verification/queue').at(-1)?.query.tier).toBe('advanced'));

    const [again] = await screen.findAllByTestId('verification-row');
    await user.click(within(again as HTMLElement).getByTestId('verification-open'));
    expect(await screen.findByTestId('verification-detail')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/verification/detail?id=kyc_1');
  });

  it('says when nothing is waiting', async () => {
    const api = setUp();
    api.on({ 'verification/queue': () => ({ list: [], total: 0, page: 1, page_size: 20 }) });
    await renderAdmin(null, { routes, route: '/verification' });
    expect(await screen.findByTestId('verification-empty')).toHaveTextContent('Nothing to review.');
  });

  it('is in the menu only for staff with verification.read', async () => {
    const api = mockApi({ 'withdrawals/queue': () => ({ list: [], total: 0 }) });
    signIn(api, ['withdrawals.read']);
    await renderAdmin(null, { routes, route: '/withdrawals' });
    await screen.findByTestId('nav-withdrawals');
    expect(screen.queryByTestId('nav-verification')).toBeNull();
  });
});

describe('a submission under review', () => {
  it('shows the documents with zoom and rotate beside the typed data, the decrypted ID number and the flags', async () => {
    setUp();
    const { user } = await renderAdmin(null, { routes, route: '/verification/detail?id=kyc_1' });
    await screen.findByTestId('verification-typed');
    const screenEl = screen.getByTestId('verification-detail');
    expect(screenEl).toHaveTextContent('Review: Primary verification');
    expect(screen.getByTestId('typed-id-number')).toHaveTextContent('A123456789');
    expect(screen.getByTestId('typed-real-name')).toHaveTextContent('Alice Chan');
    expect(screen.getByTestId('verification-typed')).toHaveTextContent(/HK · Hong Kong/);
    expect(screen.getByTestId('flag-name_changed')).toHaveTextContent('Alicia Chan');
    expect(screen.getByTestId('viewer-id_front-image')).toHaveAttribute('src', '/api/files/fil_front?sig=1');
    expect(screen.getByTestId('viewer-id_front')).toHaveTextContent('1200 × 800 px · 200 KB');

    const image = screen.getByTestId('viewer-id_back-image');
    await user.click(screen.getByTestId('viewer-id_back-zoom-in'));
    await user.click(screen.getByTestId('viewer-id_back-rotate'));
    expect(image).toHaveAttribute('data-zoom', '1.5');
    expect(image).toHaveAttribute('data-rotation', '90');
    expect(image.style.transform).toBe('rotate(90deg)');
    await user.click(screen.getByTestId('viewer-id_back-reset'));
    expect(image).toHaveAttribute('data-zoom', '1');
    expect(image).toHaveAttribute('data-rotation', '0');
    // Another document keeps its own view.
    expect(screen.getByTestId('viewer-id_front-image')).toHaveAttribute('data-zoom', '1');
  });

  it('asks for a decision on every document and a reason for a revision, then records them', async () => {
    const api = setUp();
    api.on({
      'verification/decide': () => ({ id: 'kyc_1', state: 'revision_requested', awaiting_second: false }),
    });
    const { user } = await renderAdmin(null, { routes, route: '/verification/detail?id=kyc_1' });
    await screen.findByTestId('verification-typed');

    await user.click(screen.getByTestId('decide-submit'));
    expect(screen.getByTestId('decide-problem')).toHaveTextContent(
      'Decide every document: Front of the ID, Back of the ID, Hand-held signed photo.',
    );

    await user.click(screen.getByTestId('approve-all'));
    expect(screen.getByTestId('decide-outcome')).toHaveAttribute('data-outcome', 'approved');
    await user.click(screen.getByTestId('decide-id_handheld-request_revision'));
    expect(screen.getByTestId('decide-outcome')).toHaveAttribute('data-outcome', 'revision_requested');
    await user.click(screen.getByTestId('decide-submit'));
    expect(screen.getByTestId('decide-problem')).toHaveTextContent(
      'Choose a reason for: Hand-held signed photo.',
    );
    expect(api.callsTo('verification/decide')).toHaveLength(0);

    // Only the primary tier's codes are offered; the address codes are not.
    await user.click(screen.getByTestId('decide-id_handheld-reason'));
    expect(
      await screen.findByRole('option', {
        name: 'The hand-held photo needs a signed note with today’s date',
      }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'The bill must be from the last three months' })).toBeNull();
    await user.click(
      screen.getByRole('option', { name: 'The hand-held photo needs a signed note with today’s date' }),
    );
    await fill(user, screen.getByTestId('decide-id_handheld-note'), 'Write today’s date on the note');
    await user.click(screen.getByTestId('decide-submit'));

    expect(await screen.findByTestId('decide-notice')).toHaveTextContent(
      'Revision requested. The customer has been told which documents to replace.',
    );
    expect(api.callsTo('verification/decide')[0]?.body).toMatchObject({
      id: 'kyc_1',
      decisions: [
        { slot: 'id_front', decision: 'approve' },
        { slot: 'id_back', decision: 'approve' },
        {
          slot: 'id_handheld',
          decision: 'request_revision',
          reason_code: 'signature_missing',
          note: 'Write today’s date on the note',
        },
      ],
    });
  });

  it('needs a note with the reason “Other”, and shows a refusal in place', async () => {
    const api = setUp();
    api.on({
      'verification/decide': () =>
        new Refusal('Another staff member must approve', 'VERIFICATION_SECOND_STAFF'),
    });
    const { user } = await renderAdmin(null, { routes, route: '/verification/detail?id=kyc_1' });
    await screen.findByTestId('verification-typed');
    await user.click(screen.getByTestId('approve-all'));
    await user.click(screen.getByTestId('decide-id_front-reject'));
    expect(screen.getByTestId('decide-outcome')).toHaveAttribute('data-outcome', 'rejected');
    await user.click(screen.getByTestId('decide-id_front-reason'));
    await user.click(await screen.findByRole('option', { name: 'Other (see the note)' }));
    await user.click(screen.getByTestId('decide-submit'));
    expect(screen.getByTestId('decide-problem')).toHaveTextContent('Write a note for: Front of the ID');
    await fill(user, screen.getByTestId('decide-id_front-note'), 'The photo is of a screen');
    await user.click(screen.getByTestId('decide-submit'));
    expect(await screen.findByTestId('error-note')).toHaveTextContent('Another staff member must approve');
    expect(api.callsTo('verification/decide')[0]?.body).toMatchObject({
      decisions: [
        { slot: 'id_front', decision: 'reject', reason_code: 'other', note: 'The photo is of a screen' },
        {},
        {},
      ],
    });
  });

  it('shows the four-eyes state of an advanced submission and its typed data', async () => {
    const api = setUp();
    api.on({
      'verification/detail': () =>
        detail({
          tier: 'advanced',
          data: {
            occupation: 'business_owner',
            monthly_income: '5k_20k',
            source_of_wealth: 'business',
            wealth_note: 'Trading company',
            expected_investment: '10k_100k',
          },
          documents: [{ ...DOC, slot: 'asset_bank', file_id: 'fil_bank', url: '/api/files/fil_bank?sig=4' }],
          four_eyes: true,
          first_approval: { staff_id: 'stf_other', staff_name: 'Bob Lee', at: 1_764_000_100_000 },
          flags: [],
        }),
    });
    await renderAdmin(null, { routes, route: '/verification/detail?id=kyc_1' });
    expect(await screen.findByTestId('four-eyes')).toHaveTextContent('First approval by Bob Lee');
    expect(screen.getByTestId('verification-typed')).toHaveTextContent('Business owner');
    expect(screen.getByTestId('verification-typed')).toHaveTextContent('Business income — Trading company');
    expect(screen.getByTestId('verification-typed')).toHaveTextContent('No flags');
    expect(screen.getByTestId('decide-asset_bank')).toBeInTheDocument();
  });

  it('offers no decision without the decide permission', async () => {
    setUp(['verification.read']);
    await renderAdmin(null, { routes, route: '/verification/detail?id=kyc_1' });
    await screen.findByTestId('viewer-id_front');
    expect(screen.getByText(/deciding needs the verification.decide permission/)).toBeInTheDocument();
    expect(screen.queryByTestId('decide-submit')).toBeNull();
    expect(screen.queryByTestId('decide-id_front')).toBeNull();
  });

  it('offers no decision on a submission that is no longer under review, and shows how each document went', async () => {
    const api = setUp();
    api.on({
      'verification/detail': () =>
        detail({
          state: 'revision_requested',
          documents: detail().documents.map((d) =>
            d.slot === 'id_handheld'
              ? {
                  ...d,
                  status: 'revision_requested' as const,
                  reason_code: 'blurry' as const,
                  note: 'Hold it still',
                }
              : { ...d, status: 'approved' as const },
          ),
        }),
    });
    await renderAdmin(null, { routes, route: '/verification/detail?id=kyc_1' });
    expect(await screen.findByTestId('verification-closed')).toHaveTextContent('Revision requested');
    expect(screen.queryByTestId('decide-submit')).toBeNull();
    expect(screen.getByTestId('viewer-id_handheld')).toHaveTextContent(
      'Replace this document · The image is blurry; the text must be readable · Hold it still',
    );
  });
});

describe('the verification rules', () => {
  it('shows the built-in profiles read only and edits the custom one with a reason', async () => {
    const api = setUp();
    api.on({ 'verification/rules/update': () => rules() });
    const { user } = await renderAdmin(null, { routes, route: '/verification/rules' });
    const builtIn = await screen.findByTestId('rules-permissive');
    expect(builtIn).toHaveTextContent('Built in: read only');
    expect(builtIn).toHaveTextContent('Active');
    expect(within(builtIn).queryByTestId('rules-edit')).toBeNull();
    const custom = screen.getByTestId('rules-custom');
    expect(custom).toHaveTextContent('365 days');

    await user.click(within(custom).getByTestId('rules-edit'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('rule-deposit'));
    await user.click(await screen.findByRole('option', { name: 'Primary verification' }));
    await user.click(within(dialog).getByTestId('rule-save'));
    expect(api.callsTo('verification/rules/update')).toHaveLength(0);
    await fill(user, within(dialog).getByTestId('reason-input'), 'Regulator asks for KYC before deposits');
    await user.click(within(dialog).getByTestId('rule-save'));
    expect(await screen.findByTestId('saved-note')).toBeInTheDocument();
    expect(api.callsTo('verification/rules/update')[0]?.body).toMatchObject({
      profile: 'custom',
      features: [
        { feature: 'deposit', tier: 'primary' },
        { feature: 'withdraw', tier: 'primary' },
        { feature: 'loans', tier: 'advanced' },
      ],
      document_retention_days: 365,
      reason: 'Regulator asks for KYC before deposits',
    });
  });

  it('turns four-eyes on with a reason', async () => {
    const api = setUp();
    api.on({ 'verification/settings': () => rules({ four_eyes_advanced: true }) });
    const { user } = await renderAdmin(null, { routes, route: '/verification/rules' });
    expect(await screen.findByTestId('four-eyes-state')).toHaveTextContent('Off');
    await user.click(screen.getByTestId('four-eyes-toggle'));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Second pair of eyes on wealth checks');
    api.on({ 'verification/rules': () => rules({ four_eyes_advanced: true }) });
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(screen.getByTestId('four-eyes-state')).toHaveTextContent('On'));
    expect(api.callsTo('verification/settings')[0]?.body).toMatchObject({
      four_eyes_advanced: true,
      reason: 'Second pair of eyes on wealth checks',
    });
  });

  it('lets staff without settings.write look but not change', async () => {
    setUp(['verification.read']);
    await renderAdmin(null, { routes, route: '/verification/rules' });
    expect(await screen.findByTestId('four-eyes-toggle')).toBeDisabled();
    expect(screen.getByTestId('rules-edit')).toBeDisabled();
  });
});

describe.each(['zh', 'ft'] as const)('the verification screens in %s', (lang) => {
  it('render the queue, a review and the rules with no missing key', async () => {
    setUp();
    watch = watchMissingKeys();
    const { router } = await renderAdmin(null, { routes, route: '/verification', lang });
    expect(
      await screen.findByRole('heading', { name: catalogs[lang].adminKyc.queue.title }),
    ).toBeInTheDocument();
    await screen.findAllByTestId('verification-row');
    await router.navigate('/verification/detail?id=kyc_1');
    await screen.findByTestId('viewer-id_front');
    fireEvent.click(screen.getByTestId('approve-all'));
    await screen.findByTestId('decide-outcome');
    await router.navigate('/verification/rules');
    await screen.findByTestId('rules-custom');
    expect(watch.missing).toEqual([]);
  });
});
