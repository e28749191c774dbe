import type { SupportRefType, SupportStatus } from '@bourse/protocol';

/** Kysely types of the support tables (migrations.ts); times timestamptz. */
export type SupportTables = {
  /** One row: the staffed hours as schedule text. */
  support_settings: { id: 'support'; hours: string; updated_at: Date; updated_by: string | null };
  /** A staff member as customers see them: a public code and a display name. */
  support_agent: { staff_id: string; code: string; display_name: string; created_at: Date };
  support_conversation: {
    id: string;
    customer_id: string;
    subject: string;
    ref_type: SupportRefType | null;
    ref_id: string | null;
    status: SupportStatus;
    assignee_id: string | null;
    /** The customer's language when it started: canned replies go out in it. */
    lang: 'en' | 'zh' | 'ft';
    message_seq: number;
    created_at: Date;
    updated_at: Date;
    first_response_at: Date | null;
    resolved_at: Date | null;
  };
  support_message: {
    id: string;
    conversation_id: string;
    seq: number;
    /** `note`: internal, staff only — never sent to the customer. */
    kind: 'customer' | 'staff' | 'note';
    staff_id: string | null;
    body: string | null;
    file_id: string | null;
    out_of_hours: boolean;
    at: Date;
  };
  support_canned: {
    id: string;
    title: string;
    body_en: string;
    body_zh: string;
    body_ft: string;
    deleted_at: Date | null;
    updated_at: Date;
    updated_by: string | null;
  };
};
