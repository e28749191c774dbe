import type {
  AssessedRating,
  JurisdictionProfileId,
  ProductClass,
  RatingCeiling,
  RiskRating,
  ScoringTable,
} from '@bourse/protocol';

/** Kysely types of the suitability tables (migrations.ts). */
export type SuitabilityTables = {
  /** The published scoring tables, append-only: the newest version is in force. */
  suitability_scoring_version: {
    version: number;
    /** ScoringTable: points and ceilings per question and option, thresholds, cooling-off days. */
    scoring: ScoringTable;
    created_at: Date;
    created_by: string | null;
    reason: string;
  };
  /** What a rating allows per jurisdiction profile and product class. */
  suitability_cap: {
    profile: JurisdictionProfileId;
    rating: RiskRating;
    product: ProductClass;
    /** Contracts only: the highest leverage (0: none). */
    max_leverage: number | null;
    /** Whole USDT per order or purchase (0: not allowed). */
    max_amount: string;
    updated_at: Date;
    updated_by: string | null;
  };
  /** Every questionnaire taken, append-only; a customer's newest one is their rating. */
  suitability_assessment: {
    id: string;
    customer_id: string;
    scoring_version: number;
    answers: Record<string, string>;
    points: number;
    points_rating: AssessedRating;
    ceiling: RatingCeiling | null;
    rating: AssessedRating;
    taken_at: Date;
    retake_after: Date;
  };
};
