import type {
  DocumentSlot,
  JurisdictionProfileId,
  RequiredTier,
  VerificationFeature,
  VerificationReasonCode,
  VerificationTier,
} from '@bourse/protocol';
import type { ColumnType } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

/** A submission's state; a tier never submitted has no row (`not_submitted`). */
export type SubmissionState = 'under_review' | 'approved' | 'rejected' | 'revision_requested';
export type DocumentStatus = 'pending' | 'approved' | 'rejected' | 'revision_requested';

/** Typed data of an advanced or address submission (primary keeps its fields in columns). */
export type TierData = Record<string, string>;

/** Kysely types of the verification tables (migrations.ts). */
export type VerificationTables = {
  /** Where each customer stands per tier: the latest submission and its state; the row a customer's submissions lock. */
  verification_tier: {
    customer_id: string;
    tier: VerificationTier;
    state: SubmissionState;
    submission_id: string;
    updated_at: Date;
  };
  /**
   * One submission of one tier. Primary: the real name, the ID type, the ID number sealed with the
   * document key (`id_number_sealed`, additional data = the submission id) and an HMAC (server
   * secret) of the normalised type and number for matching (`id_hash`) — unique among approved
   * primary submissions (one ID number, one customer).
   */
  verification_submission: {
    id: string;
    customer_id: string;
    tier: VerificationTier;
    state: SubmissionState;
    /** Earlier submissions of this tier by this customer. */
    round: number;
    previous_id: string | null;
    nationality: string;
    real_name: string | null;
    id_type: string | null;
    id_number_sealed: string | null;
    id_hash: string | null;
    data: Json<TierData>;
    submitted_at: Date;
    decided_at: Date | null;
    decided_by: string | null;
    /** Four-eyes (advanced): the first approval, waiting for a second staff member. */
    first_approved_by: string | null;
    first_approved_at: Date | null;
  };
  verification_document: {
    submission_id: string;
    slot: DocumentSlot;
    file_id: string;
    status: DocumentStatus;
    reason_code: VerificationReasonCode | null;
    note: string;
  };
  /** Operator data: which tier a feature needs under each jurisdiction profile. */
  verification_feature_rule: {
    profile: JurisdictionProfileId;
    feature: VerificationFeature;
    tier: RequiredTier;
    updated_at: Date;
    updated_by: string | null;
  };
  /** Operator data per profile: how long verification documents are kept. */
  verification_profile: {
    profile: JurisdictionProfileId;
    document_retention_days: number;
    updated_at: Date;
    updated_by: string | null;
  };
  /** One row (`id = 1`): four-eyes for the advanced tier. */
  verification_setting: {
    id: number;
    four_eyes_advanced: boolean;
    updated_at: Date;
    updated_by: string | null;
  };
};
