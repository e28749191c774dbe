import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import { JURISDICTION_PROFILES, type JurisdictionProfileId } from './derivatives.ts';
import type { Lang } from './langs.ts';
import { RISK_RATINGS, type RiskRating } from './suitability.ts';
import type { RequiredTier, VerificationTier } from './verification.ts';

/**
 * New-coin subscription (modules/launchpad): the spec's `/subscription`, `/subscriptionBuy`,
 * `/subscriptionRecord`. A project is data fixed when it is announced; subscribing freezes the full
 * cost plus the fee in the customer's own spot USDT; eligibility is reviewed by rules with reason
 * codes at close; the allocation is a published formula over the commitments, published as two
 * Merkle sum trees (commitments, allocations) that each customer can check in the browser
 * (`@bourse/proof` `launchpad.ts`). Quantities are counted in lots (the project's `lot_size` coins):
 * the smallest unit any rule hands out. Amounts are decimal strings (coins in the coin, costs in
 * USDT); rates are percent strings; times are epoch ms.
 */

const lit = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));

/**
 * draft: staff are preparing it (not public). announced: public, every rule fixed, not yet open.
 * open: inside its subscription window. closed: window over, review and allocation pending.
 * allocating: the allocation run is in progress (resumes after a crash). distributed: allocations
 * paid and tokens credited (locked until release). failed: soft cap missed or issuer withdrew;
 * refunds in progress. refunded: every frozen amount returned.
 */
export const LAUNCHPAD_PROJECT_STATES = [
  'draft',
  'announced',
  'open',
  'closed',
  'allocating',
  'distributed',
  'failed',
  'refunded',
] as const;
export type LaunchpadProjectState = (typeof LAUNCHPAD_PROJECT_STATES)[number];

/**
 * pro_rata: at close, every passed commitment shares the supply in proportion, capped per customer,
 * the excess redistributed by commitment (water-filling), remainders one lot each by the published
 * rule. first_come: each subscription takes its lots from what is left at once; at zero the project
 * is sold out and further subscriptions are refused.
 */
export const LAUNCHPAD_MODES = ['pro_rata', 'first_come'] as const;
export type LaunchpadMode = (typeof LAUNCHPAD_MODES)[number];

/**
 * The spec's subscription states. under_review: frozen, waiting for the close's eligibility review.
 * passed / not_passed: the review's result (not_passed names its rule; the money is released at once).
 * allocated: paid for its allocation (possibly zero lots), the rest released. issuance_failed: the
 * project failed; refund pending. refunded: every frozen amount returned (with the reason).
 */
export const LAUNCHPAD_SUBSCRIPTION_STATES = [
  'under_review',
  'passed',
  'not_passed',
  'allocated',
  'issuance_failed',
  'refunded',
] as const;
export type LaunchpadSubscriptionState = (typeof LAUNCHPAD_SUBSCRIPTION_STATES)[number];

/** Why a project failed (shown to every subscriber). */
export const LAUNCHPAD_FAILURE_REASONS = ['soft_cap_missed', 'issuer_withdrew'] as const;
export type LaunchpadFailureReason = (typeof LAUNCHPAD_FAILURE_REASONS)[number];

/** Why a subscription did not pass the review at close (each a rule shown on the project page). */
export const LAUNCHPAD_REVIEW_REASONS = ['tier', 'jurisdiction', 'rating'] as const;
export type LaunchpadReviewReason = (typeof LAUNCHPAD_REVIEW_REASONS)[number];

/** Where the tokens of an allocation are: locked until `release_at`, then in the customer's spot account. */
export const LAUNCHPAD_TOKEN_STATES = ['none', 'locked', 'released'] as const;
export type LaunchpadTokenState = (typeof LAUNCHPAD_TOKEN_STATES)[number];

export const LAUNCHPAD_LIMITS = {
  coinPattern: '^[A-Z][A-Z0-9]{1,9}$',
  coinScaleMax: 18,
  nameMax: 80,
  textMax: 4000,
  urlMax: 300,
  /** Fee in percent of the cost; above this the project is refused. */
  feeRateMax: '5',
  /** The margin frozen is the whole cost: nobody is allocated on credit (docs/architecture.md, "Launchpad"). */
  marginRatio: '100',
  lockupDaysMax: 3650,
  refundHoursMin: 1,
  refundHoursMax: 168,
  lotsMax: '1000000000000',
  reasonMin: 3,
  reasonMax: 500,
  pageSizeMax: 100,
} as const;

type Localized = Record<Lang, string>;

/** The rules that decide who may subscribe; each refusal names one (LAUNCHPAD_* reasons). */
export type LaunchpadEligibilityRules = {
  min_tier: VerificationTier | null;
  min_rating: RiskRating;
  jurisdictions: JurisdictionProfileId[];
};

/** The published result of the allocation run: enough for a customer to recompute their line. */
export type LaunchpadAllocationData = {
  mode: LaunchpadMode;
  supply_lots: string;
  cap_lots: string;
  /** Passed commitments: count and total lots (= the commitment root's sum). */
  commitments: number;
  committed_lots: string;
  /** Customers held at the cap by water-filling, and their commitments' total. */
  capped: number;
  capped_committed_lots: string;
  /** The share the uncapped customers get: floor(commitment × fill_numerator / fill_denominator). */
  fill_numerator: string;
  fill_denominator: string;
  /** Lots handed out one each by the remainder rule, and the last (remainder, sequence) served. */
  remainder_lots: string;
  remainder_cut: { remainder: string; seq: number } | null;
  allocated_lots: string;
  commitment_root: { hash: string; sum: string; leaf_count: number };
  allocation_root: { hash: string; sum: string; leaf_count: number };
  published_at: number;
};

/** What the web shows of a project; the rules page is built from these fields alone. */
export type LaunchpadProjectData = {
  project_id: string;
  coin: string;
  coin_scale: number;
  name: string;
  issuer: string;
  description: string;
  whitepaper_url: string;
  risk_warning: string;
  state: LaunchpadProjectState;
  mode: LaunchpadMode;
  /** USDT per coin. */
  price: string;
  pay_currency: 'USDT';
  lot_size: string;
  /** Coins: the coin's whole circulation (the spec's "circulation"), what this project offers, the soft cap, the cap per customer, the least subscription. */
  circulation: string;
  supply: string;
  soft_cap: string;
  per_customer_cap: string;
  min_subscription: string;
  margin_ratio: string;
  fee_rate: string;
  opens_at: number;
  closes_at: number;
  listing_at: number;
  lockup_days: number;
  /** listing_at + lockup_days: when locked tokens are released. */
  release_at: number;
  /** A failed project's refunds complete within this many hours of the failure. */
  refund_hours: number;
  eligibility: LaunchpadEligibilityRules;
  /**
   * The active jurisdiction profile's `launchpad` verification rule (modules/verification), asked
   * before `eligibility.min_tier`: subscribing needs both. The back office's project data leaves it out.
   */
  profile_tier: RequiredTier;
  /** Coins asked for so far (under review or passed), the customers, and what is left in first_come. */
  subscribed: string;
  subscribers: number;
  passed: string;
  remaining: string;
  /** subscribed / supply in percent (may exceed 100 in pro_rata). */
  progress: string;
  sold_out: boolean;
  failure_reason: LaunchpadFailureReason | null;
  failed_at: number | null;
  refund_deadline_at: number | null;
  announced_at: number | null;
  allocation: LaunchpadAllocationData | null;
  /** The coin's spot market (`COIN/USDT`), once staff opened it on or after the listing date; its price is its own book's. */
  market_symbol: string | null;
  market_opened_at: number | null;
};

/** A signed-in customer's standing for one project (null refusal: may subscribe). */
export type LaunchpadEligibilityData = {
  eligible: boolean;
  refusal: { code: string; params: Record<string, string | number> } | null;
  available: string;
  /** Coins this customer may still ask for (cap, remaining, balance and rating). */
  may_subscribe: string;
  /** Coins already asked for in this project. */
  held: string;
};

/** `GET web/getSubscriptionList` (public): every project past draft, open first, then newest. */
export const GetSubscriptionListQuery = Type.Object(
  { ...CommonFields, state: Type.Optional(lit(LAUNCHPAD_PROJECT_STATES)) },
  { additionalProperties: false },
);
export type GetSubscriptionListQuery = Static<typeof GetSubscriptionListQuery>;
export type SubscriptionListData = { items: LaunchpadProjectData[] };

/** `GET web/getSubscriptionInfo` (public; eligibility when signed in). */
export const GetSubscriptionInfoQuery = Type.Object(
  { ...CommonFields, project_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type GetSubscriptionInfoQuery = Static<typeof GetSubscriptionInfoQuery>;
export type SubscriptionInfoData = {
  project: LaunchpadProjectData;
  eligibility: LaunchpadEligibilityData | null;
};

/** `GET web/getSubscriptionQuote` (public): the cost preview of `quantity` coins, exactly what subscribing freezes. */
export const GetSubscriptionQuoteQuery = Type.Object(
  {
    ...CommonFields,
    project_id: Type.String({ minLength: 1, maxLength: 64 }),
    quantity: Type.String({ minLength: 1, maxLength: 40 }),
  },
  { additionalProperties: false },
);
export type GetSubscriptionQuoteQuery = Static<typeof GetSubscriptionQuoteQuery>;
export type SubscriptionQuoteData = {
  project_id: string;
  quantity: string;
  lots: string;
  /** quantity × price, the margin (margin_ratio of it), the fee, and margin + fee: what is frozen. */
  cost: string;
  margin: string;
  fee: string;
  frozen: string;
  pay_currency: 'USDT';
};

/** `POST web/subscribe` (login, idempotent by rtoken). `accept_terms` "1": the rules and risk warning were shown. */
export const SubscribeBody = Type.Object(
  {
    ...CommonFields,
    project_id: Type.String({ minLength: 1, maxLength: 64 }),
    quantity: Type.String({ minLength: 1, maxLength: 40 }),
    accept_terms: Type.Optional(Type.String({ maxLength: 1 })),
  },
  { additionalProperties: false },
);
export type SubscribeBody = Static<typeof SubscribeBody>;

export type LaunchpadSubscriptionData = {
  subscription_id: string;
  project_id: string;
  project_name: string;
  coin: string;
  /** Order of arrival within the project (the remainder rule's tie-break and first_come's order). */
  seq: number;
  state: LaunchpadSubscriptionState;
  quantity: string;
  price: string;
  /** What was frozen at subscription: margin + fee (USDT). */
  margin: string;
  fee_frozen: string;
  frozen: string;
  review_reason: LaunchpadReviewReason | null;
  /** After allocation: coins allocated, the cost paid (`paid`), the fee paid (`fee_paid`) and what came back. */
  allocated: string | null;
  paid: string | null;
  fee_paid: string | null;
  refunded: string | null;
  failure_reason: LaunchpadFailureReason | null;
  token_state: LaunchpadTokenState;
  release_at: number;
  released_at: number | null;
  created_at: number;
  reviewed_at: number | null;
  allocated_at: number | null;
  refunded_at: number | null;
};

/** `GET web/getSubscriptionRecords` (login): my subscriptions, newest first. */
export const GetSubscriptionRecordsQuery = Type.Object(
  {
    ...CommonFields,
    project_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    state: Type.Optional(lit(LAUNCHPAD_SUBSCRIPTION_STATES)),
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export type GetSubscriptionRecordsQuery = Static<typeof GetSubscriptionRecordsQuery>;
export type SubscriptionRecordsData = {
  total: number;
  page: number;
  page_size: number;
  items: LaunchpadSubscriptionData[];
};

/** One leaf of a launchpad tree as the customer gets it; `balance` counts lots. */
export type LaunchpadLeafData = {
  id: string;
  nonce: string;
  /** The tree's tag (`LPCOMMIT` or `LPALLOT`), in the leaf hash as `currency`. */
  currency: string;
  balance: string;
  path: Array<{ side: 'left' | 'right'; hash: string; sum: string }>;
};

/** `GET web/getSubscriptionProof` (login, after allocation): my leaves, paths and the published figures. */
export const GetSubscriptionProofQuery = Type.Object(
  { ...CommonFields, project_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type GetSubscriptionProofQuery = Static<typeof GetSubscriptionProofQuery>;
export type SubscriptionProofData = {
  project_id: string;
  coin: string;
  lot_size: string;
  /** My passed commitment's arrival order (the remainder rule's tie-break). */
  seq: number;
  commitment: LaunchpadLeafData;
  allocation: LaunchpadLeafData;
  published: LaunchpadAllocationData;
};

// ================================================================ back office (/api/admin, JSON)

export type AdminLaunchpadProjectData = Omit<
  LaunchpadProjectData,
  'name' | 'description' | 'risk_warning' | 'issuer' | 'profile_tier'
> & {
  names: Localized;
  descriptions: Localized;
  risk_warnings: Localized;
  issuer: string;
  /** USDT held for the issuer (paid allocations), paid out to the issuer, fees earned. */
  escrow: string;
  paid_out: string;
  fees: string;
  /** Subscriptions per state. */
  counts: Record<LaunchpadSubscriptionState, number>;
  created_at: number;
  created_by: string;
};

const amount = Type.String({ minLength: 1, maxLength: 40 });
const reason = Type.String({ minLength: LAUNCHPAD_LIMITS.reasonMin, maxLength: LAUNCHPAD_LIMITS.reasonMax });
const localized = (max: number) =>
  Type.Object(
    {
      en: Type.String({ minLength: 1, maxLength: max }),
      zh: Type.String({ minLength: 1, maxLength: max }),
      ft: Type.String({ minLength: 1, maxLength: max }),
    },
    { additionalProperties: false },
  );

/** `POST admin/launchpad/projects` (launchpad.write, audited): a new project in draft. */
export const AdminLaunchpadProjectBody = Type.Object(
  {
    ...CommonFields,
    coin: Type.String({ pattern: LAUNCHPAD_LIMITS.coinPattern }),
    coin_scale: Type.Integer({ minimum: 0, maximum: LAUNCHPAD_LIMITS.coinScaleMax }),
    names: localized(LAUNCHPAD_LIMITS.nameMax),
    issuer: Type.String({ minLength: 1, maxLength: LAUNCHPAD_LIMITS.nameMax }),
    descriptions: localized(LAUNCHPAD_LIMITS.textMax),
    risk_warnings: localized(LAUNCHPAD_LIMITS.textMax),
    whitepaper_url: Type.String({ minLength: 8, maxLength: LAUNCHPAD_LIMITS.urlMax, pattern: '^https://' }),
    mode: lit(LAUNCHPAD_MODES),
    price: amount,
    lot_size: amount,
    circulation: amount,
    supply: amount,
    soft_cap: amount,
    per_customer_cap: amount,
    min_subscription: amount,
    margin_ratio: Type.String({ minLength: 1, maxLength: 12 }),
    fee_rate: Type.String({ minLength: 1, maxLength: 12 }),
    opens_at: Type.Integer({ minimum: 0 }),
    closes_at: Type.Integer({ minimum: 0 }),
    listing_at: Type.Integer({ minimum: 0 }),
    lockup_days: Type.Integer({ minimum: 0, maximum: LAUNCHPAD_LIMITS.lockupDaysMax }),
    refund_hours: Type.Integer({
      minimum: LAUNCHPAD_LIMITS.refundHoursMin,
      maximum: LAUNCHPAD_LIMITS.refundHoursMax,
    }),
    min_tier: Type.Union([
      Type.Literal('primary'),
      Type.Literal('advanced'),
      Type.Literal('address'),
      Type.Null(),
    ]),
    min_rating: lit(RISK_RATINGS),
    jurisdictions: Type.Array(lit(JURISDICTION_PROFILES), { minItems: 1, maxItems: 3 }),
    reason,
  },
  { additionalProperties: false },
);
export type AdminLaunchpadProjectBody = Static<typeof AdminLaunchpadProjectBody>;

/**
 * `POST admin/launchpad/projects/:id/action` (launchpad.write, audited): announce (draft → announced:
 * everything fixed and public), withdraw (issuer withdrew before allocation: failed, refunds begin),
 * pay_issuer (distributed: the escrow goes to the issuer, after the listing date). Opening, closing,
 * reviewing, allocating, refunding and releasing are done by the job on the clock, never by hand.
 */
export const AdminLaunchpadActionBody = Type.Object(
  {
    ...CommonFields,
    action: Type.Union([Type.Literal('announce'), Type.Literal('withdraw'), Type.Literal('pay_issuer')]),
    reason,
  },
  { additionalProperties: false },
);
export type AdminLaunchpadActionBody = Static<typeof AdminLaunchpadActionBody>;

const decimalText = Type.String({ minLength: 1, maxLength: 40 });

/**
 * `POST admin/launchpad/projects/:id/market` (launchpad.write, audited): on or after the listing
 * date, a distributed project's coin gets its spot market `COIN/USDT`, open at once. Its price is
 * its own book's (no feed, no market maker): the first price is the first trade. The settings are
 * the spot market's (`spotMarketCreate`).
 */
export const AdminLaunchpadMarketBody = Type.Object(
  {
    ...CommonFields,
    price_tick: decimalText,
    lot_size: decimalText,
    min_quantity: decimalText,
    min_notional: decimalText,
    max_notional: decimalText,
    maker_fee_rate: decimalText,
    taker_fee_rate: decimalText,
    price_band_bps: Type.String({ pattern: '^[0-9]{1,5}$' }),
    reason,
  },
  { additionalProperties: false },
);
export type AdminLaunchpadMarketBody = Static<typeof AdminLaunchpadMarketBody>;

export type AdminLaunchpadSubscriptionData = LaunchpadSubscriptionData & {
  uid: string;
  customer_id: string;
};

/** `GET admin/launchpad/subscriptions` (launchpad.read) → Paged; filters project, state, uid. */
export const AdminLaunchpadSubscriptionsQuery = Type.Object(
  {
    ...CommonFields,
    project_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    state: Type.Optional(lit(LAUNCHPAD_SUBSCRIPTION_STATES)),
    uid: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export type AdminLaunchpadSubscriptionsQuery = Static<typeof AdminLaunchpadSubscriptionsQuery>;

/** One run of the launchpad job over a project (review, allocation, refunds, releases), with its totals. */
export type AdminLaunchpadRunData = {
  run_id: string;
  project_id: string;
  kind: 'review' | 'allocation' | 'refund' | 'release';
  subscriptions: number;
  lots: string;
  amount: string;
  started_at: number;
  finished_at: number | null;
};

/** `GET admin/launchpad/projects/:id/runs` (launchpad.read): the job's runs of a project, newest first. */
export type AdminLaunchpadRunsData = { items: AdminLaunchpadRunData[] };
