import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * Customer service (modules/support): the spec's `/service`. A conversation (`sup_…`) belongs to the
 * signed-in customer (identity from the session only), may name an order or case it is about, and
 * goes `open` → `pending` (waiting for the customer) → `resolved`; a customer message reopens it.
 * Staff replies carry the staff member's display name and public staff code, which the customer can
 * check (`verifyStaff`). Staffed hours are data; outside them a message is a ticket answered later.
 * Times are epoch ms.
 */

const lit = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));
const id = Type.String({ minLength: 1, maxLength: 64 });
const fileId = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_]+$' });

export const SUPPORT_LIMITS = {
  subjectMax: 120,
  messageMax: 2_000,
  messagesPerConversationMax: 1_000,
  /** Conversations not yet resolved, per customer. */
  openPerCustomerMax: 5,
  conversationsListMax: 100,
  cannedRepliesMax: 200,
  cannedTitleMax: 80,
  noteMax: 2_000,
  pageSizeMax: 100,
  metricsDaysMax: 366,
} as const;

export const SUPPORT_STATUSES = ['open', 'pending', 'resolved'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];
/** What a conversation may be about: a C2C order the customer is a party to, or a free reference. */
export const SUPPORT_REF_TYPES = ['c2c_order', 'other'] as const;
export type SupportRefType = (typeof SUPPORT_REF_TYPES)[number];
export const SUPPORT_QUEUES = ['unassigned', 'mine', 'open', 'pending', 'resolved'] as const;
export type SupportQueue = (typeof SUPPORT_QUEUES)[number];
/** The statement every support screen shows (text in the `support` namespace, `safety`). */
export const SUPPORT_SAFETY_RULES = ['password', 'codes', 'transfers', 'outside_apps'] as const;

export const SUPPORT_CHANNELS = { private: 'support_private:' } as const;

// ================================================================ customer calls

export const SupportEmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/** `POST web/supportStart`: identity from the session; `ref_type` + `ref_id` optional together. */
export const SupportStartBody = Type.Object(
  {
    ...CommonFields,
    subject: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.subjectMax }),
    body: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.messageMax }),
    ref_type: Type.Optional(lit(SUPPORT_REF_TYPES)),
    ref_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    file_id: Type.Optional(fileId),
  },
  { additionalProperties: false },
);
export type SupportStartBody = Static<typeof SupportStartBody>;

export const SupportMessagesQuery = Type.Object(
  { ...CommonFields, id, after: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })) },
  { additionalProperties: false },
);
export type SupportMessagesQuery = Static<typeof SupportMessagesQuery>;

export const SupportSendBody = Type.Object(
  {
    ...CommonFields,
    id,
    body: Type.Optional(Type.String({ maxLength: SUPPORT_LIMITS.messageMax })),
    file_id: Type.Optional(fileId),
  },
  { additionalProperties: false },
);
export type SupportSendBody = Static<typeof SupportSendBody>;

export const SupportFileQuery = Type.Object(
  { ...CommonFields, id, file_id: fileId },
  { additionalProperties: false },
);
export type SupportFileQuery = Static<typeof SupportFileQuery>;

export const VerifyStaffQuery = Type.Object(
  { ...CommonFields, code: Type.String({ minLength: 1, maxLength: 16 }) },
  { additionalProperties: false },
);
export type VerifyStaffQuery = Static<typeof VerifyStaffQuery>;

export type SupportMessageData = {
  seq: number;
  from: 'customer' | 'staff';
  body: string | null;
  file_id: string | null;
  /** A staff reply's author as the customer sees them: display name and public staff code. */
  staff: { name: string; code: string } | null;
  /** Written outside staffed hours: a ticket answered when staff are back. */
  out_of_hours: boolean;
  at: number;
};

export type SupportConversationData = {
  id: string;
  subject: string;
  status: SupportStatus;
  ref_type: SupportRefType | null;
  ref_id: string | null;
  created_at: number;
  updated_at: number;
  last_seq: number;
};

export type SupportInfoData = {
  /** The schedule as data, e.g. `Asia/Hong_Kong Mon-Fri 09:00-18:00`. */
  hours: string;
  time_zone: string;
  open_now: boolean;
  /** When staff are next in (epoch ms); null while open or for `24/7`. */
  next_open_at: number | null;
  safety: readonly string[];
};

export type VerifyStaffData = { code: string; valid: boolean; name: string | null };

export type SupportPrivateMessage =
  | { type: 'message'; conversation_id: string; message: SupportMessageData }
  | { type: 'status'; conversation_id: string; status: SupportStatus };

// ================================================================ staff calls

export const AdminSupportQueueQuery = Type.Object(
  {
    ...CommonFields,
    queue: Type.Optional(lit(SUPPORT_QUEUES)),
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export type AdminSupportQueueQuery = Static<typeof AdminSupportQueueQuery>;

export const AdminSupportReplyBody = Type.Object(
  { ...CommonFields, body: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.messageMax }) },
  { additionalProperties: false },
);
export type AdminSupportReplyBody = Static<typeof AdminSupportReplyBody>;

export const AdminSupportNoteBody = Type.Object(
  { ...CommonFields, body: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.noteMax }) },
  { additionalProperties: false },
);
export type AdminSupportNoteBody = Static<typeof AdminSupportNoteBody>;

export const AdminSupportStatusBody = Type.Object(
  { ...CommonFields, status: lit(SUPPORT_STATUSES) },
  { additionalProperties: false },
);
export type AdminSupportStatusBody = Static<typeof AdminSupportStatusBody>;

/** `POST admin/support/conversations/:id/assign`: to a staff id, or (no `staff_id`) to me. */
export const AdminSupportAssignBody = Type.Object(
  { ...CommonFields, staff_id: Type.Optional(id) },
  { additionalProperties: false },
);
export type AdminSupportAssignBody = Static<typeof AdminSupportAssignBody>;

export const AdminSupportCannedBody = Type.Object(
  {
    ...CommonFields,
    title: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.cannedTitleMax }),
    body_en: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.messageMax }),
    body_zh: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.messageMax }),
    body_ft: Type.String({ minLength: 1, maxLength: SUPPORT_LIMITS.messageMax }),
  },
  { additionalProperties: false },
);
export type AdminSupportCannedBody = Static<typeof AdminSupportCannedBody>;

export const AdminSupportHoursBody = Type.Object(
  { ...CommonFields, hours: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type AdminSupportHoursBody = Static<typeof AdminSupportHoursBody>;

export const AdminSupportEmptyBody = Type.Object({ ...CommonFields }, { additionalProperties: false });

/** `GET admin/support/me`: the caller's public identity in support (created on first use). */
export type AdminSupportMeData = { staff_id: string; code: string; name: string };

export const AdminSupportMetricsQuery = Type.Object(
  { ...CommonFields, days: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })) },
  { additionalProperties: false },
);
export type AdminSupportMetricsQuery = Static<typeof AdminSupportMetricsQuery>;

export type AdminSupportConversationData = SupportConversationData & {
  customer_uid: string | null;
  /** The customer's language: canned replies are inserted in it. */
  customer_lang: 'en' | 'zh' | 'ft';
  assignee_id: string | null;
  assignee_name: string | null;
  first_response_at: number | null;
  resolved_at: number | null;
};

export type AdminSupportMessageData = Omit<SupportMessageData, 'staff' | 'from'> & {
  from: 'customer' | 'staff' | 'note';
  staff_id: string | null;
  staff: { name: string; code: string } | null;
  /** A short-lived, audited staff link to the attachment. */
  url: string | null;
};

export type AdminSupportDetailData = AdminSupportConversationData & {
  messages: AdminSupportMessageData[];
};

export type AdminSupportCannedData = {
  id: string;
  title: string;
  body_en: string;
  body_zh: string;
  body_ft: string;
  updated_at: number;
};

export type AdminSupportMetricsData = {
  days: number;
  from: number;
  to: number;
  conversations: number;
  answered: number;
  resolved: number;
  /** Median minutes from start to the first staff reply; null with nothing answered. */
  first_response_median_minutes: number | null;
  resolution_median_minutes: number | null;
};
