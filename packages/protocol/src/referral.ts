import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * Invitations and referral income (modules/referral): the spec's `/invite`. Income is only ever a
 * share of trading fees an invitee actually paid, moved from fee revenue by a ledger entry that names
 * the fee it came from; depth and shares per level are programme data held to the jurisdiction
 * profile's maximum depth. Amounts are decimal strings, times epoch ms.
 */

const page = Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' }));
const uidText = Type.String({ minLength: 1, maxLength: 32, pattern: '^[0-9A-Za-z_]+$' });
const reasonText = Type.String({ minLength: 3, maxLength: 500 });

export const REFERRAL_LIMITS = {
  pageSizeDefault: 20,
  pageSizeMax: 100,
  /** Fee lines one job run reads per market (it runs again at once while a market has more). */
  feesPerRunMax: 500,
  reasonMax: 500,
} as const;

/** Why a pair (inviter, invitee) is flagged and its income excluded. */
export const REFERRAL_FLAG_REASONS = ['self', 'same_device', 'same_payout'] as const;
export type ReferralFlagReason = (typeof REFERRAL_FLAG_REASONS)[number];

// ================================================================ customer calls

export const PromotionEmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

export type PromotionLevelData = {
  level: number;
  share_bps: number;
  headcount: number;
  /** Income paid at this level, per currency (decimal strings). */
  income: { currency: string; amount: string }[];
};

/** `GET web/getMyPromotion`. */
export type MyPromotionData = {
  /** False when the programme is off or the profile allows depth 0: no referral income is paid. */
  offered: boolean;
  /** Levels paid now: min(programme depth, the jurisdiction profile's maximum). */
  depth: number;
  invitation_code: string;
  invite_link: string;
  /** One row per level paid (headcount and income of levels beyond it still count in `levels_all`). */
  levels: PromotionLevelData[];
  /** Income in total per currency, every level. */
  total: { currency: string; amount: string }[];
  /** What is excluded (shown as rules): self-referral, a shared device, shared payout details. */
  exclusions: ReferralFlagReason[];
};

export const PromotionInviteesQuery = Type.Object(
  {
    ...CommonFields,
    level: Type.Optional(Type.String({ pattern: '^[1-4]$' })),
    page,
    page_size: page,
  },
  { additionalProperties: false },
);
export type PromotionInviteesQuery = Static<typeof PromotionInviteesQuery>;

export type PromotionInviteeData = {
  uid: string;
  /** Masked: first character and stars. */
  name: string;
  /** Masked phone or e-mail. */
  contact: string;
  registered_at: number;
  level: number;
};

export const PromotionIncomeQuery = Type.Object(
  { ...CommonFields, page, page_size: page },
  { additionalProperties: false },
);
export type PromotionIncomeQuery = Static<typeof PromotionIncomeQuery>;

export type PromotionIncomeData = {
  id: string;
  amount: string;
  currency: string;
  level: number;
  share_bps: number;
  fee: string;
  fee_currency: string;
  /** The spot trade the fee was paid on. */
  trade_id: string;
  /** "20 % of the 0.12 USDT fee on trade …", in the request's language. */
  remark: string;
  created_at: number;
};

// ================================================================ staff calls

export const AdminReferralEmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/** `POST admin/referral/settings`: shares as comma-separated basis points, one per level. */
export const AdminReferralSettingsBody = Type.Object(
  {
    ...CommonFields,
    enabled: Type.Union([Type.Literal('0'), Type.Literal('1')]),
    depth: Type.String({ pattern: '^[0-4]$' }),
    /** Absent or empty at depth 0. */
    shares_bps: Type.Optional(Type.String({ maxLength: 40, pattern: '^$|^[0-9]{1,5}(,[0-9]{1,5}){0,3}$' })),
    reason: reasonText,
  },
  { additionalProperties: false },
);
export type AdminReferralSettingsBody = Static<typeof AdminReferralSettingsBody>;

export type AdminReferralSettingsData = {
  enabled: boolean;
  depth: number;
  shares_bps: number[];
  profile_max_depth: number;
  effective_depth: number;
  updated_at: number | null;
  updated_by: string | null;
  /** What a 1 USDT fee pays per level under these settings (decimal strings). */
  preview: { level: number; amount: string }[];
};

export const AdminReferralIncomeQuery = Type.Object(
  {
    ...CommonFields,
    inviter: Type.Optional(uidText),
    invitee: Type.Optional(uidText),
    status: Type.Optional(Type.Union([Type.Literal('paid'), Type.Literal('excluded')])),
    page,
    page_size: page,
  },
  { additionalProperties: false },
);
export type AdminReferralIncomeQuery = Static<typeof AdminReferralIncomeQuery>;

export type AdminReferralIncomeData = {
  id: string;
  inviter_uid: string;
  invitee_uid: string;
  level: number;
  status: 'paid' | 'excluded';
  excluded_reason: ReferralFlagReason | null;
  source: 'spot_trade';
  source_id: string;
  fee_entry_id: string;
  fee: string;
  fee_currency: string;
  share_bps: number;
  amount: string;
  income_entry_id: string | null;
  created_at: number;
};

export const AdminReferralFlagsQuery = Type.Object(
  {
    ...CommonFields,
    state: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('cleared'), Type.Literal('all')])),
    page,
    page_size: page,
  },
  { additionalProperties: false },
);
export type AdminReferralFlagsQuery = Static<typeof AdminReferralFlagsQuery>;

export type AdminReferralFlagData = {
  id: string;
  inviter_uid: string;
  invitee_uid: string;
  reason: ReferralFlagReason;
  detail: string;
  flagged_at: number;
  cleared_at: number | null;
  cleared_by: string | null;
  clear_reason: string | null;
};

export const AdminReferralClearBody = Type.Object(
  { ...CommonFields, reason: reasonText },
  { additionalProperties: false },
);
export type AdminReferralClearBody = Static<typeof AdminReferralClearBody>;

export type AdminReferralTotalsData = {
  paid: { currency: string; amount: string; lines: number }[];
  excluded: { currency: string; amount: string; lines: number }[];
  flags_open: number;
  inviters: number;
};
