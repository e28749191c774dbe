import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import type { JurisdictionProfileId } from './derivatives.ts';

/**
 * The risk questionnaire (suitability): its questions and answer options (ids here, texts in the
 * `suitability` i18n namespace), the published scoring table, the rating, and the caps a rating
 * puts on each product class per jurisdiction profile (modules/suitability).
 */

export const RISK_RATINGS = ['not_assessed', 'conservative', 'balanced', 'aggressive'] as const;
export type RiskRating = (typeof RISK_RATINGS)[number];
/** The ratings a questionnaire can give (not_assessed only before the first one). */
export const ASSESSED_RATINGS = ['conservative', 'balanced', 'aggressive'] as const;
export type AssessedRating = (typeof ASSESSED_RATINGS)[number];
/** A ceiling a wrong knowledge answer (or a low loss capacity) puts on the rating. */
export const RATING_CEILINGS = ['conservative', 'balanced'] as const;
export type RatingCeiling = (typeof RATING_CEILINGS)[number];

/** The product classes a rating caps: contracts (leverage, margin per order), options (stake per order), and the amount per purchase of earn, launchpad and loans. */
export const PRODUCT_CLASSES = ['contracts', 'options', 'earn', 'launchpad', 'loans'] as const;
export type ProductClass = (typeof PRODUCT_CLASSES)[number];

export type QuestionKind = 'profile' | 'knowledge';

/** Questions in the order they are asked; every question is single choice. */
export const SUITABILITY_QUESTIONS = [
  {
    id: 'account_purpose',
    kind: 'profile',
    options: ['learning', 'long_term_investing', 'hedging', 'active_trading'],
  },
  {
    id: 'investment_purpose',
    kind: 'profile',
    options: ['preserve_capital', 'steady_income', 'growth', 'speculation'],
  },
  { id: 'amount_band', kind: 'profile', options: ['100_1k', '1k_10k', '10k_100k', '100k_1m', 'over_1m'] },
  { id: 'monthly_trades', kind: 'profile', options: ['5_100', '100_500', '500_1000', 'over_1000'] },
  {
    id: 'occupation',
    kind: 'profile',
    options: ['student', 'retired', 'employed', 'self_employed', 'finance_professional', 'other'],
  },
  { id: 'experience_years', kind: 'knowledge', options: ['none', 'under_1', '1_3', 'over_3'] },
  { id: 'derivatives_3y', kind: 'knowledge', options: ['none', 'under_10', 'over_10'] },
  {
    id: 'leverage_loss',
    kind: 'knowledge',
    options: ['ten_percent', 'whole_margin', 'one_percent', 'unsure'],
  },
  {
    id: 'option_expiry',
    kind: 'knowledge',
    options: ['stake_refunded', 'payout_or_stake_lost', 'keeps_running', 'unsure'],
  },
  { id: 'loss_capacity', kind: 'knowledge', options: ['none', 'under_10', '10_25', 'over_25'] },
] as const satisfies readonly { id: string; kind: QuestionKind; options: readonly string[] }[];

export type SuitabilityQuestionId = (typeof SUITABILITY_QUESTIONS)[number]['id'];
export const SUITABILITY_QUESTION_IDS = SUITABILITY_QUESTIONS.map((q) => q.id) as SuitabilityQuestionId[];

/** One answer option's line in the scoring table: its points, and the highest rating it allows (null: no ceiling). */
export type ScoringOption = { points: number; ceiling: RatingCeiling | null };

/** The published scoring table (one version). */
export type ScoringTable = {
  /** Points and ceiling per question and option. */
  questions: Record<string, Record<string, ScoringOption>>;
  /** The lowest total that rates balanced, and aggressive (conservative below `balanced`). */
  thresholds: { balanced: number; aggressive: number };
  /** Days after an assessment before the customer may take the questionnaire again. */
  cooling_off_days: number;
};

export type ScoringVersionData = ScoringTable & {
  version: number;
  created_at: number;
  /** null for the version shipped with the platform. */
  created_by: string | null;
  reason: string;
};

/** What a rating allows in one product class: `max_leverage` for contracts only; `max_amount` in USDT ('0': not allowed). */
export type CapData = { max_leverage: number | null; max_amount: string };
export type CapsByRating = Record<RiskRating, Record<ProductClass, CapData>>;

export const SUITABILITY_LIMITS = {
  pointsMax: 100,
  thresholdMax: 1000,
  coolingOffDaysMax: 365,
  /** Largest amount cap in USDT (whole units). */
  amountMax: 1_000_000_000,
  leverageMax: 100,
} as const;

export type QuestionData = { id: SuitabilityQuestionId; kind: QuestionKind; options: string[] };

/** `GET web/getQuestionnaire` (public). */
export type QuestionnaireData = {
  questions: QuestionData[];
  scoring: ScoringVersionData;
  /** The active jurisdiction profile and what each rating allows under it. */
  profile: JurisdictionProfileId;
  caps: CapsByRating;
  currency: 'USDT';
};

export const GetQuestionnaireQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/** `POST web/submitQuestionnaire` (login, idempotent): one field per question, the option id as its value. */
export const SubmitQuestionnaireBody = Type.Object(
  {
    ...CommonFields,
    ...Object.fromEntries(
      SUITABILITY_QUESTION_IDS.map((id) => [id, Type.Optional(Type.String({ maxLength: 40 }))]),
    ),
  },
  { additionalProperties: false },
);
export type SubmitQuestionnaireBody = Partial<Record<SuitabilityQuestionId, string>> & { rtoken?: string };

export type AssessmentData = {
  assessment_id: string;
  rating: AssessedRating;
  points: number;
  /** The rating the points alone give, and the ceiling that lowered it (null: none). */
  points_rating: AssessedRating;
  ceiling: RatingCeiling | null;
  scoring_version: number;
  taken_at: number;
  retake_after: number;
};

/** `GET web/getRiskRating` (login). */
export type RiskRatingData = {
  rating: RiskRating;
  assessed_at: number | null;
  /** When the questionnaire may be taken again (null: now — never taken). */
  retake_after: number | null;
  can_retake: boolean;
  profile: JurisdictionProfileId;
  allows: Record<ProductClass, CapData>;
  currency: 'USDT';
  /** The current assessment first, then earlier ones. */
  history: (AssessmentData & { answers: Record<string, string> })[];
};

export type SubmitQuestionnaireData = { assessment: AssessmentData; rating: RiskRatingData };

export const GetRiskRatingQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

// ---- Back office ----

/** `GET admin/suitability` (risk.read): every scoring version (newest first) and the caps of every profile. */
export type AdminSuitabilityData = {
  versions: ScoringVersionData[];
  active_profile: JurisdictionProfileId;
  caps: Record<JurisdictionProfileId, CapsByRating>;
  /** Assessments by current rating (for the overview). */
  counts: Record<AssessedRating, number>;
};

const ScoringOptionSchema = Type.Object(
  {
    points: Type.Integer({ minimum: -1000, maximum: 1000 }),
    ceiling: Type.Union([Type.Literal('conservative'), Type.Literal('balanced'), Type.Null()]),
  },
  { additionalProperties: false },
);

/** `POST admin/suitability/scoring` (settings.write, audited): a new scoring version. */
export const AdminScoringBody = Type.Object(
  {
    ...CommonFields,
    questions: Type.Record(
      Type.String({ maxLength: 40 }),
      Type.Record(Type.String({ maxLength: 40 }), ScoringOptionSchema),
    ),
    thresholds: Type.Object(
      { balanced: Type.Integer(), aggressive: Type.Integer() },
      { additionalProperties: false },
    ),
    cooling_off_days: Type.Integer(),
    reason: Type.String({ minLength: 3, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type AdminScoringBody = ScoringTable & { reason: string };

const CapSchema = Type.Object(
  {
    max_leverage: Type.Union([Type.Integer(), Type.Null()]),
    max_amount: Type.String({ maxLength: 24 }),
  },
  { additionalProperties: false },
);

/** `POST admin/suitability/caps` (settings.write, audited): the custom profile's caps. */
export const AdminCapsBody = Type.Object(
  {
    ...CommonFields,
    caps: Type.Record(Type.String({ maxLength: 20 }), Type.Record(Type.String({ maxLength: 20 }), CapSchema)),
    reason: Type.String({ minLength: 3, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type AdminCapsBody = { caps: CapsByRating; reason: string };

export const AdminCustomerRatingQuery = Type.Object(
  { ...CommonFields, customer_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type AdminCustomerRatingQuery = Static<typeof AdminCustomerRatingQuery>;
