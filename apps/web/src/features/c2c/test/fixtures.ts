import type {
  C2cAccountData,
  C2cMessageData,
  C2cOfferData,
  C2cOrderData,
  C2cRulesData,
  VerificationData,
} from '@bourse/protocol';

/** What the mocked API answers in the C2C tests, built from the protocol types. */
export const MIN_MS = 60_000;
export const NOW = Date.UTC(2026, 5, 10, 8, 0, 0);
export const REAL_NAME = 'Li Wei';

export function offer(overrides: Partial<C2cOfferData> = {}): C2cOfferData {
  return {
    offer_id: 'cof_fixed',
    merchant_id: 'cmr_1',
    merchant_name: 'Harbour Desk',
    is_operator: false,
    book: 'real',
    side: 'buy',
    coin: 'USDT',
    fiat: 'USD',
    state: 'active',
    price_kind: 'fixed',
    price: '1.01',
    spread_bps: null,
    feed: null,
    min_amount: '10',
    max_amount: '5000',
    total_amount: '20000',
    remaining: '12000',
    methods: [
      { method: 'bank', window_minutes: 180, max_amount: '3000' },
      { method: 'alipay', window_minutes: 30, max_amount: null },
    ],
    terms: 'Pay from your own account only.',
    completion_rate: '98.50',
    avg_release_minutes: 7,
    orders_done: 412,
    ...overrides,
  };
}

export const SPREAD_OFFER = offer({
  offer_id: 'cof_spread',
  merchant_name: 'Kowloon OTC',
  price_kind: 'spread',
  price: '0.9950',
  spread_bps: -50,
  feed: { symbol: 'USDT/USD', price: '1.0000', source: 'feed', at: NOW - 5_000 },
});

export const SELL_OFFER = offer({ offer_id: 'cof_sell', side: 'sell', price: '0.99' });

export function account(overrides: Partial<C2cAccountData> = {}): C2cAccountData {
  return {
    account_id: 'cac_1',
    method: 'bank',
    name: REAL_NAME,
    bank_name: 'Deutsche Bank',
    account_no: null,
    iban: 'DE89370400440532013000',
    swift: 'DEUTDEFF',
    bank_address: 'Frankfurt',
    wallet_id: null,
    created_at: NOW - 10 * 86_400_000,
    ...overrides,
  };
}

const PAY_TO: NonNullable<C2cOrderData['pay_to']> = {
  method: 'bank',
  name: 'Harbour Desk Ltd',
  bank_name: 'HSBC',
  account_no: '123456789',
  iban: null,
  swift: 'HSBCHKHH',
  bank_address: '1 Queen’s Road, Hong Kong',
  wallet_id: null,
};

export function order(overrides: Partial<C2cOrderData> = {}): C2cOrderData {
  return {
    order_id: 'cod_1',
    offer_id: 'cof_fixed',
    book: 'real',
    merchant_name: 'Harbour Desk',
    role: 'customer',
    side: 'buy',
    coin: 'USDT',
    fiat: 'USD',
    amount: '100',
    price: '1.01',
    fiat_amount: '101.00',
    fee: '0',
    price_kind: 'fixed',
    feed: null,
    method: 'bank',
    state: 'matched',
    i_pay: true,
    pay_to: PAY_TO,
    pay_by: NOW + 2 * 3_600_000 + 59 * MIN_MS + 58_000,
    confirm_by: null,
    payer_name: null,
    payer_bank: null,
    proof_id: null,
    paid_at: null,
    dispute: null,
    outcome: null,
    end_reason: null,
    created_at: NOW - 2_000,
    finished_at: null,
    timeline: [
      {
        seq: 1,
        event: 'match',
        from: 'pending_match',
        to: 'matched',
        actor: 'customer',
        reason: null,
        at: NOW - 2_000,
      },
    ],
    ...overrides,
  };
}

export const PAID_AS_RECEIVER = order({
  order_id: 'cod_2',
  side: 'sell',
  state: 'paid',
  i_pay: false,
  pay_to: {
    ...PAY_TO,
    name: REAL_NAME,
    bank_name: 'Deutsche Bank',
    account_no: null,
    iban: 'DE89370400440532013000',
  },
  payer_name: 'HARBOUR DESK LTD',
  payer_bank: 'HSBC',
  proof_id: 'upl_p',
  paid_at: NOW - 10 * MIN_MS,
  confirm_by: NOW + 110 * MIN_MS,
});

export const EXPIRED = order({
  order_id: 'cod_3',
  state: 'expired',
  pay_to: null,
  end_reason: 'unpaid_at_deadline',
  finished_at: NOW - MIN_MS,
});

export const message = (seq: number, overrides: Partial<C2cMessageData> = {}): C2cMessageData => ({
  seq,
  from: 'merchant',
  kind: 'text',
  body: `Message ${seq}`,
  file_id: null,
  at: NOW - (10 - seq) * MIN_MS,
  ...overrides,
});

export const RULES: C2cRulesData = {
  default_window_minutes: 180,
  confirm_window_minutes: 120,
  dispute_response_minutes: 1440,
  reminder_before_minutes: 30,
  fee_orderer: '0',
  payer_name_rule: 'verified_real_name',
  account_name_rule: 'verified_real_name',
  merchant_tier: 'advanced',
  order_tier: 'primary',
  age_bands: [
    { age_days_from: 0, max_amount: '1000' },
    { age_days_from: 7, max_amount: '10000' },
    { age_days_from: 30, max_amount: null },
  ],
  open_orders_max: 5,
  four_eyes_above: '10000',
  auto_resolution: [
    { when: 'confirm_deadline_passed_and_receiver_silent', outcome: 'release' },
    { when: 'seller_opened_and_payer_silent', outcome: 'return' },
    { when: 'payer_opened_and_receiver_silent', outcome: 'release' },
  ],
  dispute_reasons: [
    'paid_not_confirmed',
    'payment_not_received',
    'wrong_amount',
    'third_party_payment',
    'other',
  ],
  limits_order: ['offer_min', 'offer_max', 'offer_remaining', 'method_max', 'account_age'],
  methods: ['bank', 'alipay', 'wechat'],
  states: ['pending_match', 'matched', 'paid', 'disputed', 'completed', 'expired', 'cancelled', 'rejected'],
};

/** `getVerification` with the primary tier approved under `REAL_NAME` (only the fields the screens read). */
export function verification(name: string | null = REAL_NAME): VerificationData {
  return {
    primary: {
      state: name === null ? 'none' : 'approved',
      data: name === null ? null : { real_name: name },
    },
  } as unknown as VerificationData;
}
