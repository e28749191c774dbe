import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import { JURISDICTION_PROFILES, type JurisdictionProfileId } from './derivatives.ts';

/**
 * Identity verification (KYC tiers) and the document upload pipeline (docs/api.md, "Documents" and
 * "Identity verification"). Times are ms since the epoch. Labels for every code below live in the
 * i18n namespace `verification` (`verification:<group>.<code>`).
 */

// ================================================================ uploads (modules/uploads)

export const UPLOAD_LIMITS = {
  /** 8 MB as the spec says it: 8 MiB. One byte more is UPLOAD_TOO_LARGE. */
  maxBytes: 8 * 1024 * 1024,
  /** Width × height, read from the header before anything is decoded. */
  maxPixels: 40_000_000,
  /** A signed file link is good this long. */
  linkSeconds: 300,
  /** A file nothing claimed within this many hours is deleted. */
  unattachedHours: 24,
} as const;

/**
 * What an uploaded file is for; the module that attaches it names its purpose (more come with C2C,
 * loans, support). `deposit_proof`: a bank deposit's remittance proof (modules/deposits); `loan_proof`:
 * a loan application's proof (credit report, housing, income, bank statement, ID photo) and
 * `loan_voucher`: a bank-transfer repayment's voucher (modules/loans). `remittance_proof`: a C2C order's
 * remittance proof, dispute evidence or chat attachment (modules/c2c). `support`: an attachment in a customer-service conversation (modules/support).
 */
export const UPLOAD_PURPOSES = [
  'verification',
  'deposit_proof',
  'loan_proof',
  'loan_voucher',
  'remittance_proof',
  'support',
] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

export const UPLOAD_MIME_TYPES = ['image/jpeg', 'image/png'] as const;
export type UploadMimeType = (typeof UPLOAD_MIME_TYPES)[number];

const fileId = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_]+$' });

/**
 * `POST web/uploadDocument` — multipart/form-data with the fields `purpose` and `file` (auth required,
 * `rtoken` in the query). The schema below is the query; the parts are read by the route.
 */
export const UploadDocumentQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/** The stored file: re-encoded (metadata stripped), so `size`/`sha256` are of the stored image, not the upload. */
export type UploadDocumentData = {
  file_id: string;
  purpose: UploadPurpose;
  mime: UploadMimeType;
  width: number;
  height: number;
  size: number;
  sha256: string;
  created_at: number;
};

/**
 * `GET web/documentLink?file_id` (the owner only) and `GET admin/documents/link?file_id` (`verification.read`).
 * A bank deposit's proof is shown to finance staff by `GET admin/deposits/proofLink?id` (`deposits.read`).
 */
export const DocumentLinkQuery = Type.Object(
  { ...CommonFields, file_id: fileId },
  { additionalProperties: false },
);
export type DocumentLinkQuery = Static<typeof DocumentLinkQuery>;

/** `url` is `/api/files/<id>?…` (no session needed, refused after `expires_at` or if altered). */
export type DocumentLinkData = { file_id: string; url: string; expires_at: number; mime: UploadMimeType };

// ================================================================ verification (modules/verification)

export const VERIFICATION_TIERS = ['primary', 'advanced', 'address'] as const;
export type VerificationTier = (typeof VERIFICATION_TIERS)[number];

/** A tier's requirement for a feature: `none` means open to every real account. */
export const REQUIRED_TIERS = ['none', 'primary', 'advanced', 'address'] as const;
export type RequiredTier = (typeof REQUIRED_TIERS)[number];

/** `not_submitted` before the first submission; a tier whose prerequisite is missing says so in `available`. */
export const VERIFICATION_STATES = [
  'not_submitted',
  'under_review',
  'approved',
  'rejected',
  'revision_requested',
] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];

/** What a tier can unlock (operator data per jurisdiction profile). */
export const VERIFICATION_FEATURES = [
  'deposit',
  'withdraw',
  'loans',
  'credit_score',
  'c2c',
  'earn',
  'launchpad',
] as const;
export type VerificationFeature = (typeof VERIFICATION_FEATURES)[number];

/**
 * The spec's ID types (3): 1 ID card, 2 passport, 3 driver's licence, 4 residence permit, 5 other.
 * The number is compared after normalisation (upper case, spaces and `-` removed) against `pattern`;
 * `back` says whether the back photo is required.
 */
export const ID_TYPES = {
  '1': { code: 'id_card', pattern: '^[A-Z0-9]{5,20}$', min: 5, max: 20, back: true },
  '2': { code: 'passport', pattern: '^[A-Z0-9]{6,12}$', min: 6, max: 12, back: false },
  '3': { code: 'drivers_licence', pattern: '^[A-Z0-9]{4,20}$', min: 4, max: 20, back: true },
  '4': { code: 'residence_permit', pattern: '^[A-Z0-9]{5,20}$', min: 5, max: 20, back: true },
  '5': { code: 'other', pattern: '^[A-Z0-9]{4,30}$', min: 4, max: 30, back: false },
} as const;
export type IdType = keyof typeof ID_TYPES;
export const ID_TYPE_VALUES = Object.keys(ID_TYPES) as IdType[];

/** Normalises an ID number the way the server compares it. */
export function normaliseIdNumber(raw: string): string {
  return raw.normalize('NFKC').toUpperCase().replace(/[\s-]/g, '');
}

/** The document slots of each tier (a decision is per slot). */
export const DOCUMENT_SLOTS = {
  primary: ['id_front', 'id_back', 'id_handheld'],
  advanced: ['asset_house', 'asset_bank', 'asset_stock'],
  address: ['utility_bill'],
} as const satisfies Record<VerificationTier, readonly string[]>;
export type DocumentSlot = (typeof DOCUMENT_SLOTS)[VerificationTier][number];
export const ALL_DOCUMENT_SLOTS = [
  ...DOCUMENT_SLOTS.primary,
  ...DOCUMENT_SLOTS.advanced,
  ...DOCUMENT_SLOTS.address,
] as DocumentSlot[];

export const OCCUPATIONS = [
  'employed',
  'self_employed',
  'business_owner',
  'civil_servant',
  'student',
  'retired',
  'unemployed',
  'other',
] as const;
export type Occupation = (typeof OCCUPATIONS)[number];

/** Monthly income in USD. */
export const INCOME_BANDS = ['lt_1k', '1k_5k', '5k_20k', '20k_100k', 'gt_100k'] as const;
export type IncomeBand = (typeof INCOME_BANDS)[number];

export const WEALTH_SOURCES = [
  'salary',
  'business',
  'investments',
  'savings',
  'inheritance',
  'property_sale',
  'other',
] as const;
export type WealthSource = (typeof WEALTH_SOURCES)[number];

/** Expected investment amount in USD (the bands: $100–1,000 … over $1,000,000). */
export const INVESTMENT_BANDS = ['100_1k', '1k_10k', '10k_100k', '100k_1m', 'gt_1m'] as const;
export type InvestmentBand = (typeof INVESTMENT_BANDS)[number];

export const VERIFICATION_LIMITS = {
  realNameMin: 2,
  realNameMax: 100,
  wealthNoteMax: 300,
  addressMin: 5,
  addressMax: 300,
  noteMax: 500,
  reasonMin: 3,
  reasonMax: 500,
  retentionDaysMin: 30,
  retentionDaysMax: 3650,
  pageSizeMax: 100,
} as const;

/**
 * The reason-code catalogue staff choose from when rejecting or asking for a revision; texts in
 * three languages under `verification:reasonCode.<code>`. `other` needs a note (the customer reads it).
 * `tiers` says where a code makes sense (the back office filters by it).
 */
export const VERIFICATION_REASON_CODES = {
  blurry: { tiers: ['primary', 'advanced', 'address'], note: false },
  glare: { tiers: ['primary', 'advanced', 'address'], note: false },
  cropped: { tiers: ['primary', 'advanced', 'address'], note: false },
  expired: { tiers: ['primary'], note: false },
  name_mismatch: { tiers: ['primary', 'advanced', 'address'], note: false },
  number_mismatch: { tiers: ['primary'], note: false },
  not_handheld: { tiers: ['primary'], note: false },
  signature_missing: { tiers: ['primary'], note: false },
  wrong_document_type: { tiers: ['primary', 'advanced', 'address'], note: false },
  duplicate_identity: { tiers: ['primary'], note: false },
  bill_too_old: { tiers: ['address'], note: false },
  address_mismatch: { tiers: ['address'], note: false },
  asset_proof_insufficient: { tiers: ['advanced'], note: false },
  suspected_forgery: { tiers: ['primary', 'advanced', 'address'], note: false },
  other: { tiers: ['primary', 'advanced', 'address'], note: true },
} as const satisfies Record<string, { tiers: readonly VerificationTier[]; note: boolean }>;
export type VerificationReasonCode = keyof typeof VERIFICATION_REASON_CODES;
export const VERIFICATION_REASON_CODE_LIST = Object.keys(
  VERIFICATION_REASON_CODES,
) as VerificationReasonCode[];

/** Flags the review queue shows (labels under `verification:flag.<code>`). */
export const VERIFICATION_FLAGS = [
  'duplicate_id_number',
  'duplicate_image',
  'name_changed',
  'resubmitted',
] as const;
export type VerificationFlagCode = (typeof VERIFICATION_FLAGS)[number];

export const DOCUMENT_DECISIONS = ['approve', 'reject', 'request_revision'] as const;
export type DocumentDecision = (typeof DOCUMENT_DECISIONS)[number];

/** One of `values`: a union of literals on the wire (JSON Schema `anyOf` of `const`), typed as `T`. */
const lit = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));
const text = (min: number, max: number) => Type.String({ minLength: min, maxLength: max });
const optFile = Type.Optional(fileId);

// ---------------------------------------------------------------- customer calls (/api/web)

/**
 * `POST web/submitPrimaryVerification` (idempotent). A first submission or one after `rejected`
 * names every document; after `revision_requested` only the flagged documents must be new (an
 * omitted unflagged document keeps the one under review). `back_file_id` is required for ID types
 * whose `back` is true. Nationality is the account's country, fixed at registration; `country`
 * (ISO 3166-1 alpha-2) is taken only from a customer who has none on record (`VerificationData.nationality`
 * is empty): it is then recorded once, with the submission, and fixed like any other. Sent while one is
 * on record it must equal it (else VERIFICATION_NATIONALITY_FIXED).
 */
export const SubmitPrimaryBody = Type.Object(
  {
    ...CommonFields,
    real_name: text(1, VERIFICATION_LIMITS.realNameMax),
    id_type: lit(ID_TYPE_VALUES),
    id_number: text(1, 40),
    country: Type.Optional(Type.String({ maxLength: 2 })),
    front_file_id: optFile,
    back_file_id: optFile,
    handheld_file_id: optFile,
  },
  { additionalProperties: false },
);
export type SubmitPrimaryBody = Static<typeof SubmitPrimaryBody>;

/** `POST web/submitAdvancedVerification` (idempotent; primary approved first). At least one proof of assets. */
export const SubmitAdvancedBody = Type.Object(
  {
    ...CommonFields,
    occupation: lit(OCCUPATIONS),
    monthly_income: lit(INCOME_BANDS),
    source_of_wealth: lit(WEALTH_SOURCES),
    wealth_note: Type.Optional(text(0, VERIFICATION_LIMITS.wealthNoteMax)),
    expected_investment: lit(INVESTMENT_BANDS),
    asset_house_file_id: optFile,
    asset_bank_file_id: optFile,
    asset_stock_file_id: optFile,
  },
  { additionalProperties: false },
);
export type SubmitAdvancedBody = Static<typeof SubmitAdvancedBody>;

/**
 * `POST web/submitAddressVerification` (idempotent; primary approved first): the residential address
 * and a utility bill (after `revision_requested` the bill may be omitted when it was not flagged).
 */
export const SubmitAddressBody = Type.Object(
  {
    ...CommonFields,
    residential_address: text(1, VERIFICATION_LIMITS.addressMax),
    utility_bill_file_id: optFile,
  },
  { additionalProperties: false },
);
export type SubmitAddressBody = Static<typeof SubmitAddressBody>;

export const GetVerificationQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/** A document of a submission as the customer sees it. */
export type VerificationDocumentView = {
  slot: DocumentSlot;
  file_id: string;
  /** `pending` while under review. */
  status: 'pending' | 'approved' | 'rejected' | 'revision_requested';
  reason_code: VerificationReasonCode | null;
  note: string;
};

export type PrimaryData = {
  /** The nationality recorded with the submission (ISO 3166-1 alpha-2). */
  nationality: string;
  real_name: string;
  id_type: IdType;
  /** Masked: the first and last two characters (`G1******89`). */
  id_number_masked: string;
};
export type AdvancedData = {
  occupation: Occupation;
  monthly_income: IncomeBand;
  source_of_wealth: WealthSource;
  wealth_note: string;
  expected_investment: InvestmentBand;
};
export type AddressData = { residential_address: string };

export type TierView<T extends VerificationTier = VerificationTier> = {
  tier: T;
  state: VerificationState;
  /** False while a prerequisite is missing (`requires` names it). */
  available: boolean;
  requires: VerificationTier | null;
  /** Whether a submission is accepted now (not under review, not approved, prerequisite met, real account). */
  can_submit: boolean;
  submission_id: string | null;
  submitted_at: number | null;
  decided_at: number | null;
  /** The latest submission's typed data (null before the first). */
  data: (T extends 'primary' ? PrimaryData : T extends 'advanced' ? AdvancedData : AddressData) | null;
  documents: VerificationDocumentView[];
  /** What the customer reads after `rejected` (the reason codes of the rejected documents). */
  reject_reasons: { slot: DocumentSlot; reason_code: VerificationReasonCode; note: string }[];
  /** The features this tier unlocks under the active profile. */
  unlocks: VerificationFeature[];
};

export type FeatureRequirementView = {
  feature: VerificationFeature;
  /** `none`: no verification needed. */
  tier: RequiredTier;
  /** Whether this customer may use the feature now. */
  met: boolean;
};

/** `GET web/getVerification`. */
export type VerificationData = {
  /** Demo sessions: 0 (verification is for the real account only). */
  real: 0 | 1;
  nationality: string;
  /** The highest approved tier in order primary → advanced (address counts on its own). */
  level: 0 | 1 | 2;
  primary: TierView<'primary'>;
  advanced: TierView<'advanced'>;
  address: TierView<'address'>;
  profile: JurisdictionProfileId;
  features: FeatureRequirementView[];
  /** `/authenticationrj` and `/authenticationcj`: what deposit and withdrawal require and where the customer stands. */
  deposit: FeatureRequirementView;
  withdraw: FeatureRequirementView;
};

// ---------------------------------------------------------------- back office (/api/admin, JSON)

export const AdminVerificationQueueQuery = Type.Object(
  {
    ...CommonFields,
    tier: Type.Optional(lit(VERIFICATION_TIERS)),
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export type AdminVerificationQueueQuery = Static<typeof AdminVerificationQueueQuery>;

export type VerificationFlag = {
  code: VerificationFlagCode;
  /** duplicate_id_number / duplicate_image: `{ uid }` of the other customer; name_changed: `{ previous }`; resubmitted: `{ count }`. */
  params: Record<string, string | number>;
};

export type AdminVerificationQueueRow = {
  id: string;
  tier: VerificationTier;
  customer_id: string;
  uid: string;
  /** The account's label (name, else e-mail, else phone), as in the review; the typed real name is in the review's data. */
  customer_name: string;
  submitted_at: number;
  /** ms since submission at the server's clock. */
  age_ms: number;
  /** Resubmissions before this one (0 for a first submission). */
  resubmissions: number;
  flags: VerificationFlag[];
  /** Advanced tier with four-eyes on: the first approval is recorded, a second staff member decides. */
  awaiting_second: boolean;
};

/** `GET admin/verification/queue` (`verification.read`): under review, oldest first. */
export type AdminVerificationQueueData = {
  list: AdminVerificationQueueRow[];
  total: number;
  page: number;
  page_size: number;
};

export const AdminVerificationDetailQuery = Type.Object(
  { ...CommonFields, id: fileId },
  { additionalProperties: false },
);
export type AdminVerificationDetailQuery = Static<typeof AdminVerificationDetailQuery>;

export type AdminVerificationDocument = VerificationDocumentView & {
  mime: UploadMimeType;
  width: number;
  height: number;
  size: number;
  sha256: string;
  /** A signed link (5 min); issuing it is an audited staff view. */
  url: string;
  expires_at: number;
};

export type AdminVerificationHistoryItem = {
  id: string;
  state: VerificationState;
  submitted_at: number;
  decided_at: number | null;
  decided_by: string | null;
  documents: {
    slot: DocumentSlot;
    status: VerificationDocumentView['status'];
    reason_code: string | null;
    note: string;
  }[];
};

/** `GET admin/verification/detail?id` (`verification.read`). */
export type AdminVerificationDetailData = {
  id: string;
  tier: VerificationTier;
  state: VerificationState;
  customer_id: string;
  uid: string;
  customer_name: string;
  nationality: string;
  submitted_at: number;
  decided_at: number | null;
  /** Typed data; for primary `id_number` is the decrypted number. */
  data: (PrimaryData & { id_number: string }) | AdvancedData | AddressData;
  documents: AdminVerificationDocument[];
  flags: VerificationFlag[];
  /** Four-eyes: the first approval (staff id and name), null when none is pending. */
  first_approval: { staff_id: string; staff_name: string; at: number } | null;
  four_eyes: boolean;
  /** The customer's earlier submissions of this tier, newest first. */
  history: AdminVerificationHistoryItem[];
};

export const AdminDocumentDecision = Type.Object(
  {
    slot: lit(ALL_DOCUMENT_SLOTS),
    decision: lit(DOCUMENT_DECISIONS),
    /** Required for reject / request_revision. */
    reason_code: Type.Optional(lit(VERIFICATION_REASON_CODE_LIST)),
    /** Required with `other`; the customer reads it. */
    note: Type.Optional(Type.String({ maxLength: VERIFICATION_LIMITS.noteMax })),
  },
  { additionalProperties: false },
);
export type AdminDocumentDecision = Static<typeof AdminDocumentDecision>;

/**
 * `POST admin/verification/decide` (`verification.decide`, audited, idempotent by rtoken): one decision
 * per document of the submission. All approved → approved; any rejected → rejected; otherwise
 * revision_requested.
 */
export const AdminVerificationDecideBody = Type.Object(
  {
    ...CommonFields,
    id: fileId,
    decisions: Type.Array(AdminDocumentDecision, { minItems: 1, maxItems: 8 }),
  },
  { additionalProperties: false },
);
export type AdminVerificationDecideBody = Static<typeof AdminVerificationDecideBody>;

/** The decision's outcome: `awaiting_second` when four-eyes holds a first approval. */
export type AdminVerificationDecideData = {
  id: string;
  state: VerificationState;
  awaiting_second: boolean;
};

/** `GET admin/verification/rules` (`verification.read`): the feature table per profile and the settings. */
export type AdminVerificationRulesData = {
  active: JurisdictionProfileId;
  profiles: {
    id: JurisdictionProfileId;
    editable: boolean;
    features: { feature: VerificationFeature; tier: RequiredTier }[];
    document_retention_days: number;
  }[];
  four_eyes_advanced: boolean;
};

/**
 * `POST admin/verification/rules/update` (`settings.write`, audited): the custom profile only (a
 * built-in one is refused by name, VERIFICATION_PROFILE_NOT_EDITABLE).
 */
export const AdminVerificationRuleBody = Type.Object(
  {
    ...CommonFields,
    profile: lit(JURISDICTION_PROFILES),
    features: Type.Optional(
      Type.Array(
        Type.Object(
          { feature: lit(VERIFICATION_FEATURES), tier: lit(REQUIRED_TIERS) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: VERIFICATION_FEATURES.length },
      ),
    ),
    document_retention_days: Type.Optional(
      Type.Integer({
        minimum: VERIFICATION_LIMITS.retentionDaysMin,
        maximum: VERIFICATION_LIMITS.retentionDaysMax,
      }),
    ),
    reason: text(VERIFICATION_LIMITS.reasonMin, VERIFICATION_LIMITS.reasonMax),
  },
  { additionalProperties: false },
);
export type AdminVerificationRuleBody = Static<typeof AdminVerificationRuleBody>;

/** `POST admin/verification/settings` (`settings.write`, audited): four-eyes for the advanced tier. */
export const AdminVerificationSettingsBody = Type.Object(
  {
    ...CommonFields,
    four_eyes_advanced: Type.Boolean(),
    reason: text(VERIFICATION_LIMITS.reasonMin, VERIFICATION_LIMITS.reasonMax),
  },
  { additionalProperties: false },
);
export type AdminVerificationSettingsBody = Static<typeof AdminVerificationSettingsBody>;
