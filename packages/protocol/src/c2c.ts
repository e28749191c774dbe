import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import type { RequiredTier } from './verification.ts';

/**
 * C2C (modules/c2c): buying and selling coins against a merchant by bank transfer, the spec's
 * `/c2c_index`, `/c2c_create`, `/c2c_order`, `/c2c_submit`, `/c2c_account`, `/c2c_rule`. The coin
 * seller's coins are escrowed in the ledger at match, before the payer sees where to pay; an unpaid
 * order expires at its deadline (the job) and its escrow returns at once; a paid order never
 * expires — at its confirm deadline it becomes a dispute. Amounts are decimal strings (coins in the
 * coin, fiat in the fiat currency with 2 decimals, prices per whole coin); times are epoch ms.
 * The state machine is `@bourse/risk` `c2c.ts` (`C2C_TRANSITIONS`).
 */

const lit = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));
const id = Type.String({ minLength: 1, maxLength: 64 });
const amount = Type.String({ minLength: 1, maxLength: 40 });
const paging = {
  page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
  page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
};

export const C2C_STATES = [
  'pending_match',
  'matched',
  'paid',
  'disputed',
  'completed',
  'expired',
  'cancelled',
  'rejected',
] as const;
export type C2cState = (typeof C2C_STATES)[number];

/** `buy`: the customer buys coins from a merchant's sell offer; `sell`: the customer sells to a buy offer. */
export const C2C_SIDES = ['buy', 'sell'] as const;
export type C2cOrderSide = (typeof C2C_SIDES)[number];

export const C2C_METHODS = ['bank', 'alipay', 'wechat'] as const;
export type C2cMethod = (typeof C2C_METHODS)[number];

export const C2C_MERCHANT_STATES = ['pending', 'approved', 'suspended'] as const;
export type C2cMerchantState = (typeof C2C_MERCHANT_STATES)[number];

export const C2C_OFFER_STATES = ['active', 'paused'] as const;
export type C2cOfferState = (typeof C2C_OFFER_STATES)[number];

/** Why a dispute is opened (a catalogue; the note says the rest). */
/** The name a demo account's C2C payments and collection accounts carry (play money; it has no verified name). */
export const C2C_DEMO_NAME = 'Demo Trader';

export const C2C_DISPUTE_REASONS = [
  'paid_not_confirmed',
  'payment_not_received',
  'wrong_amount',
  'third_party_payment',
  'other',
] as const;
export type C2cDisputeReason = (typeof C2C_DISPUTE_REASONS)[number];

/** Who resolved a dispute and how: staff (`release` / `return`) or the published auto rule. */
export const C2C_OUTCOMES = ['release', 'return'] as const;
export type C2cOutcome = (typeof C2C_OUTCOMES)[number];

export const C2C_LIMITS = {
  pageSizeMax: 100,
  openOrdersPerCustomerMax: 5,
  accountsPerCustomerMax: 10,
  evidencePerDisputeMax: 5,
  messageMax: 1_000,
  messagesPerOrderMax: 500,
  noteMax: 500,
  nameMax: 100,
  termsMax: 2_000,
  methodsPerOfferMax: 3,
  paymentWindowMinutesMin: 15,
  paymentWindowMinutesMax: 24 * 60,
} as const;

// ================================================================ customer calls

/** `GET web/c2cOffers`: active offers of approved merchants (no login needed). */
export const C2cOffersQuery = Type.Object(
  {
    ...CommonFields,
    side: Type.Optional(lit(C2C_SIDES)),
    coin: Type.Optional(Type.String({ maxLength: 10 })),
    fiat: Type.Optional(Type.String({ maxLength: 10 })),
    method: Type.Optional(lit(C2C_METHODS)),
    ...paging,
  },
  { additionalProperties: false },
);
export type C2cOffersQuery = Static<typeof C2cOffersQuery>;

/**
 * `POST web/c2cCreateOrder` (login, idempotent): `amount` in coins, the `method` the payer will use;
 * selling, `account_id` is my collection account for that method (the merchant pays into it).
 */
export const C2cCreateOrderBody = Type.Object(
  {
    ...CommonFields,
    offer_id: id,
    amount,
    method: lit(C2C_METHODS),
    account_id: Type.Optional(id),
  },
  { additionalProperties: false },
);
export type C2cCreateOrderBody = Static<typeof C2cCreateOrderBody>;

/** `GET web/c2cOrders`: my orders, newest first; `role=merchant` the orders on my offers. */
export const C2cOrdersQuery = Type.Object(
  {
    ...CommonFields,
    state: Type.Optional(lit(C2C_STATES)),
    role: Type.Optional(lit(['customer', 'merchant'] as const)),
    ...paging,
  },
  { additionalProperties: false },
);
export type C2cOrdersQuery = Static<typeof C2cOrdersQuery>;

export const C2cOrderQuery = Type.Object({ ...CommonFields, order_id: id }, { additionalProperties: false });
export type C2cOrderQuery = Static<typeof C2cOrderQuery>;

/** `GET web/c2cOffer`: one offer of the caller's book (paused ones too, with their state). */
export const C2cOfferQuery = Type.Object({ ...CommonFields, offer_id: id }, { additionalProperties: false });
export type C2cOfferQuery = Static<typeof C2cOfferQuery>;

/** `GET web/c2cFileLink`: a short-lived link to a file of the order (proof, evidence, attachment), for either party. */
export const C2cFileQuery = Type.Object(
  { ...CommonFields, order_id: id, file_id: id },
  { additionalProperties: false },
);
export type C2cFileQuery = Static<typeof C2cFileQuery>;

export const C2cOrderBody = Type.Object({ ...CommonFields, order_id: id }, { additionalProperties: false });
export type C2cOrderBody = Static<typeof C2cOrderBody>;

/** `POST web/c2cMarkPaid`: the fiat payer's transfer; `payer_name` must equal their verified real name. */
export const C2cMarkPaidBody = Type.Object(
  {
    ...CommonFields,
    order_id: id,
    payer_name: Type.String({ minLength: 1, maxLength: C2C_LIMITS.nameMax }),
    payer_bank: Type.String({ minLength: 1, maxLength: C2C_LIMITS.nameMax }),
    /** The remittance proof (an upload); required on the real book, none with the demo desk (play money). */
    proof_id: Type.Optional(id),
  },
  { additionalProperties: false },
);
export type C2cMarkPaidBody = Static<typeof C2cMarkPaidBody>;

/** `POST web/c2cDispute`: a reason from the catalogue, a note, evidence uploads (comma-separated ids). */
export const C2cDisputeBody = Type.Object(
  {
    ...CommonFields,
    order_id: id,
    reason: lit(C2C_DISPUTE_REASONS),
    note: Type.String({ minLength: 1, maxLength: C2C_LIMITS.noteMax }),
    evidence_ids: Type.Optional(Type.String({ maxLength: C2C_LIMITS.evidencePerDisputeMax * 41 })),
  },
  { additionalProperties: false },
);
export type C2cDisputeBody = Static<typeof C2cDisputeBody>;

export const C2cMessagesQuery = Type.Object(
  { ...CommonFields, order_id: id, after: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })) },
  { additionalProperties: false },
);
export type C2cMessagesQuery = Static<typeof C2cMessagesQuery>;

/** `POST web/c2cSendMessage`: text, an attachment (upload id, purpose `remittance_proof`), or both. */
export const C2cSendMessageBody = Type.Object(
  {
    ...CommonFields,
    order_id: id,
    body: Type.Optional(Type.String({ maxLength: C2C_LIMITS.messageMax })),
    file_id: Type.Optional(id),
  },
  { additionalProperties: false },
);
export type C2cSendMessageBody = Static<typeof C2cSendMessageBody>;

/**
 * `POST web/c2cAccountSave`: a collection account. `bank`: `name`, `bank_name`, and `account_no` or
 * `iban` (+ `swift`), `bank_address` optional; `alipay` / `wechat`: `name` and the id. The name must
 * equal my verified real name.
 */
export const C2cAccountSaveBody = Type.Object(
  {
    ...CommonFields,
    account_id: Type.Optional(id),
    method: lit(C2C_METHODS),
    name: Type.String({ minLength: 1, maxLength: C2C_LIMITS.nameMax }),
    bank_name: Type.Optional(Type.String({ maxLength: C2C_LIMITS.nameMax })),
    account_no: Type.Optional(Type.String({ maxLength: 40 })),
    iban: Type.Optional(Type.String({ maxLength: 42 })),
    swift: Type.Optional(Type.String({ maxLength: 11 })),
    bank_address: Type.Optional(Type.String({ maxLength: 200 })),
    wallet_id: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type C2cAccountSaveBody = Static<typeof C2cAccountSaveBody>;

export const C2cAccountDeleteBody = Type.Object(
  { ...CommonFields, account_id: id },
  { additionalProperties: false },
);
export type C2cAccountDeleteBody = Static<typeof C2cAccountDeleteBody>;

export const C2cEmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/** `POST web/c2cMerchantApply`: ask to become a merchant (staff approve; advanced verification needed). */
export const C2cMerchantApplyBody = Type.Object(
  { ...CommonFields, name: Type.String({ minLength: 2, maxLength: C2C_LIMITS.nameMax }) },
  { additionalProperties: false },
);
export type C2cMerchantApplyBody = Static<typeof C2cMerchantApplyBody>;

// ================================================================ data

export type C2cMethodData = { method: C2cMethod; window_minutes: number; max_amount: string | null };

export type C2cOfferData = {
  offer_id: string;
  merchant_id: string;
  merchant_name: string;
  is_operator: boolean;
  /** `demo`: the operator's demo desk, play money on the demo book (demo accounts only). */
  book: 'real' | 'demo';
  /** The customer's side: `buy` = the merchant sells. */
  side: C2cOrderSide;
  coin: string;
  fiat: string;
  state: C2cOfferState;
  price_kind: 'fixed' | 'spread';
  /** The price now (fiat per coin); with a spread also the feed price, its source and time. */
  price: string | null;
  spread_bps: number | null;
  feed: { symbol: string; price: string; source: string; at: number } | null;
  min_amount: string;
  max_amount: string;
  total_amount: string;
  remaining: string;
  methods: C2cMethodData[];
  terms: string;
  /** The merchant's record: completed / finished orders (percent, 2 decimals) and mean release minutes. */
  completion_rate: string | null;
  avg_release_minutes: number | null;
  orders_done: number;
};

/** Where the fiat goes: the receiver's collection account, shown only once the coins are in escrow. */
export type C2cPayToData = {
  method: C2cMethod;
  name: string;
  bank_name: string | null;
  account_no: string | null;
  iban: string | null;
  swift: string | null;
  bank_address: string | null;
  wallet_id: string | null;
};

export type C2cEventData = {
  seq: number;
  event: string;
  from: C2cState | null;
  to: C2cState;
  actor: 'customer' | 'merchant' | 'staff' | 'job';
  reason: string | null;
  at: number;
};

export type C2cOrderData = {
  order_id: string;
  offer_id: string;
  /** `demo`: with the demo desk, play money; the desk confirms and pays by itself. */
  book: 'real' | 'demo';
  merchant_name: string;
  /** Mine: `customer` (I ordered) or `merchant` (on my offer). */
  role: 'customer' | 'merchant';
  side: C2cOrderSide;
  coin: string;
  fiat: string;
  amount: string;
  price: string;
  fiat_amount: string;
  fee: string;
  price_kind: 'fixed' | 'spread';
  feed: { symbol: string; price: string; source: string; at: number; spread_bps: number } | null;
  method: C2cMethod;
  state: C2cState;
  /** Whether I am the one to pay the fiat / to confirm receipt. */
  i_pay: boolean;
  pay_to: C2cPayToData | null;
  pay_by: number;
  confirm_by: number | null;
  payer_name: string | null;
  payer_bank: string | null;
  proof_id: string | null;
  paid_at: number | null;
  dispute: {
    reason: C2cDisputeReason;
    note: string;
    by: 'customer' | 'merchant' | 'job';
    at: number;
    respond_by: number;
  } | null;
  outcome: { outcome: C2cOutcome; reason: string; by: 'staff' | 'rule'; at: number } | null;
  end_reason: string | null;
  created_at: number;
  finished_at: number | null;
  timeline: C2cEventData[];
};

export type C2cMessageData = {
  seq: number;
  from: 'customer' | 'merchant' | 'staff' | 'system';
  kind: 'text' | 'evidence';
  body: string | null;
  file_id: string | null;
  at: number;
};

export type C2cAccountData = {
  account_id: string;
  method: C2cMethod;
  name: string;
  bank_name: string | null;
  account_no: string | null;
  iban: string | null;
  swift: string | null;
  bank_address: string | null;
  wallet_id: string | null;
  created_at: number;
};

/** `GET web/c2cRules`: every rule that can refuse or end an order, as data (the `/c2c_rule` screen). */
export type C2cRulesData = {
  default_window_minutes: number;
  confirm_window_minutes: number;
  dispute_response_minutes: number;
  reminder_before_minutes: number;
  fee_orderer: string;
  payer_name_rule: 'verified_real_name';
  account_name_rule: 'verified_real_name';
  merchant_tier: 'advanced';
  /**
   * The verification tier taking an order (and applying as a merchant) needs under the active
   * jurisdiction profile: its `c2c` rule (modules/verification), at least `primary` since every
   * payment carries the verified real name.
   */
  order_tier: Exclude<RequiredTier, 'none'>;
  age_bands: Array<{ age_days_from: number; max_amount: string | null }>;
  open_orders_max: number;
  four_eyes_above: string;
  auto_resolution: Array<{ when: string; outcome: C2cOutcome }>;
  dispute_reasons: readonly C2cDisputeReason[];
  limits_order: readonly string[];
  methods: readonly C2cMethod[];
  states: readonly C2cState[];
};

export type C2cMerchantData = {
  merchant_id: string;
  uid: string | null;
  name: string;
  state: C2cMerchantState;
  is_operator: boolean;
  completion_rate: string | null;
  avg_release_minutes: number | null;
  orders_done: number;
  created_at: number;
  decided_at: number | null;
  reason: string | null;
};

// ================================================================ back office

export const AdminC2cMerchantBody = Type.Object(
  {
    ...CommonFields,
    uid: Type.String({ minLength: 1, maxLength: 32 }),
    name: Type.String({ minLength: 2, maxLength: C2C_LIMITS.nameMax }),
    is_operator: Type.Optional(Type.Boolean()),
    reason: Type.String({ minLength: 3, maxLength: C2C_LIMITS.noteMax }),
  },
  { additionalProperties: false },
);
export type AdminC2cMerchantBody = Static<typeof AdminC2cMerchantBody>;

export const AdminC2cStateBody = Type.Object(
  {
    ...CommonFields,
    state: lit(['approved', 'suspended', 'active', 'paused'] as const),
    reason: Type.String({ minLength: 3, maxLength: C2C_LIMITS.noteMax }),
  },
  { additionalProperties: false },
);
export type AdminC2cStateBody = Static<typeof AdminC2cStateBody>;

const methodSchema = Type.Object(
  {
    method: lit(C2C_METHODS),
    window_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    max_amount: Type.Optional(Type.Union([amount, Type.Null()])),
  },
  { additionalProperties: false },
);

/** `POST admin/c2c/offers` (create) and `admin/c2c/offers/:id` (update: the same fields; `merchant_id`, `side`, `coin`, `fiat` fixed). */
export const AdminC2cOfferBody = Type.Object(
  {
    ...CommonFields,
    merchant_id: Type.Optional(id),
    side: Type.Optional(lit(C2C_SIDES)),
    coin: Type.Optional(Type.String({ minLength: 2, maxLength: 10 })),
    fiat: Type.Optional(Type.String({ minLength: 3, maxLength: 3 })),
    price_kind: lit(['fixed', 'spread'] as const),
    price: Type.Optional(amount),
    spread_bps: Type.Optional(Type.Integer({ minimum: -100_000, maximum: 100_000 })),
    min_amount: amount,
    max_amount: amount,
    total_amount: amount,
    methods: Type.Array(methodSchema, { minItems: 1, maxItems: C2C_LIMITS.methodsPerOfferMax }),
    terms: Type.String({ maxLength: C2C_LIMITS.termsMax }),
    /** On creation only: `demo` makes a demo-desk offer (play money, seen by demo accounts only). */
    book: Type.Optional(lit(['real', 'demo'] as const)),
    reason: Type.String({ minLength: 3, maxLength: C2C_LIMITS.noteMax }),
  },
  { additionalProperties: false },
);
export type AdminC2cOfferBody = Static<typeof AdminC2cOfferBody>;

export const AdminC2cOrdersQuery = Type.Object(
  { ...CommonFields, state: Type.Optional(lit(C2C_STATES)), ...paging },
  { additionalProperties: false },
);
export type AdminC2cOrdersQuery = Static<typeof AdminC2cOrdersQuery>;

/** `POST admin/c2c/orders/:id/decide` (`c2c.decide`): four eyes above the threshold. */
export const AdminC2cDecideBody = Type.Object(
  {
    ...CommonFields,
    outcome: lit(C2C_OUTCOMES),
    reason: Type.String({ minLength: 3, maxLength: C2C_LIMITS.noteMax }),
  },
  { additionalProperties: false },
);
export type AdminC2cDecideBody = Static<typeof AdminC2cDecideBody>;

export const AdminC2cMessageBody = Type.Object(
  { ...CommonFields, body: Type.String({ minLength: 1, maxLength: C2C_LIMITS.messageMax }) },
  { additionalProperties: false },
);
export type AdminC2cMessageBody = Static<typeof AdminC2cMessageBody>;

export type AdminC2cOrderData = C2cOrderData & {
  customer_uid: string | null;
  merchant_uid: string | null;
  first_decision: { outcome: C2cOutcome; reason: string; by: string; at: number } | null;
  awaiting_second: boolean;
};

export type AdminC2cOrderDetailData = AdminC2cOrderData & {
  messages: C2cMessageData[];
  /** Evidence side by side: each side's uploads with short-lived staff links (audited). */
  evidence: {
    buyer: Array<{ file_id: string; url: string | null; at: number }>;
    seller: Array<{ file_id: string; url: string | null; at: number }>;
  };
};

/** Websocket `c2c_private:<uid>` (authenticated): my orders' changes and their messages, live. */
export const C2C_CHANNELS = { private: 'c2c_private:' } as const;
export type C2cPrivateMessage =
  | { type: 'order'; order_id: string; state: C2cState; event: string }
  | { type: 'message'; order_id: string; message: C2cMessageData };
