import type {
  AdminC2cOrderData,
  AdminC2cOrderDetailData,
  C2cMerchantData,
  C2cOfferData,
} from '@bourse/protocol';
import { type MockedApi, mockApi, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';

/** What the mocked C2C back office answers in the component tests: plausible rows, overridable. */
const MINUTE_MS = 60_000;

export const ALL = ['c2c.read', 'c2c.write', 'c2c.decide'];

export function merchant(overrides: Partial<C2cMerchantData> = {}): C2cMerchantData {
  return {
    merchant_id: 'cmr_desk',
    uid: '80000001',
    name: 'Bourse Desk',
    state: 'approved',
    is_operator: true,
    completion_rate: '98.5',
    avg_release_minutes: 7,
    orders_done: 120,
    created_at: NOW - 30 * 86_400_000,
    decided_at: NOW - 29 * 86_400_000,
    reason: null,
    ...overrides,
  };
}

export const PENDING_MERCHANT = merchant({
  merchant_id: 'cmr_lee',
  uid: '80012345',
  name: 'Lee Trading',
  state: 'pending',
  is_operator: false,
  completion_rate: null,
  avg_release_minutes: null,
  orders_done: 0,
  decided_at: null,
});

export function offer(overrides: Partial<C2cOfferData> = {}): C2cOfferData {
  return {
    offer_id: 'cof_1',
    merchant_id: 'cmr_desk',
    merchant_name: 'Bourse Desk',
    is_operator: true,
    book: 'real',
    side: 'buy',
    coin: 'USDT',
    fiat: 'CNY',
    state: 'active',
    price_kind: 'spread',
    price: '7.2150',
    spread_bps: 50,
    feed: { symbol: 'USD/CNH', price: '7.179', source: 'feed', at: NOW },
    min_amount: '100',
    max_amount: '5000',
    total_amount: '50000',
    remaining: '42000.5',
    methods: [
      { method: 'bank', window_minutes: 180, max_amount: null },
      { method: 'alipay', window_minutes: 30, max_amount: '1000' },
    ],
    terms: 'Pay from your own account only.',
    completion_rate: '98.5',
    avg_release_minutes: 7,
    orders_done: 120,
    ...overrides,
  };
}

export const PAUSED_OFFER = offer({
  offer_id: 'cof_2',
  side: 'sell',
  state: 'paused',
  price_kind: 'fixed',
  price: '7.1',
  spread_bps: null,
  feed: null,
  methods: [{ method: 'wechat', window_minutes: 60, max_amount: null }],
});

export function order(overrides: Partial<AdminC2cOrderData> = {}): AdminC2cOrderData {
  return {
    order_id: 'cod_100',
    offer_id: 'cof_1',
    book: 'real',
    merchant_name: 'Bourse Desk',
    role: 'customer',
    side: 'buy',
    coin: 'USDT',
    fiat: 'CNY',
    amount: '500',
    price: '7.2',
    fiat_amount: '3600.00',
    fee: '0',
    price_kind: 'fixed',
    feed: null,
    method: 'bank',
    state: 'paid',
    i_pay: false,
    pay_to: null,
    pay_by: NOW + 180 * MINUTE_MS,
    confirm_by: NOW + 120 * MINUTE_MS,
    payer_name: 'Alice Chan',
    payer_bank: 'HSBC',
    proof_id: 'upl_proof',
    paid_at: NOW - 10 * MINUTE_MS,
    dispute: null,
    outcome: null,
    end_reason: null,
    created_at: NOW - 20 * MINUTE_MS,
    finished_at: null,
    timeline: [
      {
        seq: 1,
        event: 'match',
        from: 'pending_match',
        to: 'matched',
        actor: 'customer',
        reason: null,
        at: NOW - 20 * MINUTE_MS,
      },
      {
        seq: 2,
        event: 'mark_paid',
        from: 'matched',
        to: 'paid',
        actor: 'customer',
        reason: null,
        at: NOW - 10 * MINUTE_MS,
      },
    ],
    customer_uid: '80012345',
    merchant_uid: '80000001',
    first_decision: null,
    awaiting_second: false,
    ...overrides,
  };
}

export const DISPUTED = order({
  order_id: 'cod_200',
  state: 'disputed',
  dispute: {
    reason: 'paid_not_confirmed',
    note: 'I paid 3600 CNY at 10:02, the seller does not answer.',
    by: 'customer',
    at: NOW - 5 * MINUTE_MS,
    respond_by: NOW + 1_440 * MINUTE_MS,
  },
  timeline: [
    ...order().timeline,
    {
      seq: 3,
      event: 'dispute',
      from: 'paid',
      to: 'disputed',
      actor: 'customer',
      reason: 'paid_not_confirmed',
      at: NOW - 5 * MINUTE_MS,
    },
  ],
});

export function detail(
  o: AdminC2cOrderData = DISPUTED,
  overrides: Partial<AdminC2cOrderDetailData> = {},
): AdminC2cOrderDetailData {
  return {
    ...o,
    messages: [
      {
        seq: 1,
        from: 'customer',
        kind: 'text',
        body: 'Paid, please release.',
        file_id: null,
        at: NOW - 9 * MINUTE_MS,
      },
      {
        seq: 2,
        from: 'merchant',
        kind: 'text',
        body: 'Nothing arrived yet.',
        file_id: null,
        at: NOW - 8 * MINUTE_MS,
      },
      {
        seq: 3,
        from: 'customer',
        kind: 'evidence',
        body: 'Bank slip',
        file_id: 'upl_slip',
        at: NOW - 6 * MINUTE_MS,
      },
      {
        seq: 4,
        from: 'merchant',
        kind: 'evidence',
        body: null,
        file_id: 'upl_statement',
        at: NOW - 4 * MINUTE_MS,
      },
      {
        seq: 5,
        from: 'staff',
        kind: 'text',
        body: 'We are looking at it.',
        file_id: null,
        at: NOW - 3 * MINUTE_MS,
      },
    ],
    evidence: {
      buyer: [
        { file_id: 'upl_proof', url: 'https://files.test/upl_proof?sig=1', at: NOW - 10 * MINUTE_MS },
        { file_id: 'upl_slip', url: 'https://files.test/upl_slip?sig=1', at: NOW - 6 * MINUTE_MS },
      ],
      seller: [{ file_id: 'upl_statement', url: null, at: NOW - 4 * MINUTE_MS }],
    },
    ...overrides,
  };
}

/** The C2C back office with these answers, signed in with `permissions` (staff `stf_me`). */
export function c2cApi(
  permissions: string[],
  answers: Record<string, (c: never) => unknown> = {},
): MockedApi {
  const api = mockApi({
    'c2c/merchants': () => [merchant(), PENDING_MERCHANT],
    'c2c/offers': () => [offer(), PAUSED_OFFER],
    'c2c/orders': () => ({ total: 2, page: 1, page_size: 50, items: [order(), DISPUTED] }),
    'c2c/disputes': () => ({ total: 1, page: 1, page_size: 50, items: [DISPUTED] }),
    'c2c/orders/cod_100': () =>
      detail(order(), {
        messages: [],
        evidence: {
          buyer: [{ file_id: 'upl_proof', url: 'https://files.test/upl_proof?sig=1', at: NOW }],
          seller: [],
        },
      }),
    'c2c/orders/cod_200': () => detail(),
    ...answers,
  });
  signIn(api, permissions);
  return api;
}
