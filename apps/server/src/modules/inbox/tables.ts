import type { NoticeKind } from '@bourse/protocol';

export type InboxTables = {
  /** One row per notify message to a known customer; the id is notify's message id (exactly once). */
  inbox_message: {
    id: string;
    customer_id: string;
    kind: NoticeKind;
    title: string;
    body: string;
    link: string | null;
    created_at: Date;
    read_at: Date | null;
  };
  /** Announcements to everyone, in three languages; visible once published and `publish_at` has come. */
  inbox_announcement: {
    id: string;
    state: 'draft' | 'published' | 'unpublished';
    title_en: string;
    title_zh: string;
    title_ft: string;
    body_en: string;
    body_zh: string;
    body_ft: string;
    link: string | null;
    publish_at: Date | null;
    /** When the live event went out (null until the clock reaches `publish_at`). */
    broadcast_at: Date | null;
    created_by: string;
    created_at: Date;
  };
  /** A customer's read of one announcement (no row per customer at publish time). */
  inbox_announcement_read: { customer_id: string; announcement_id: string; read_at: Date };
  /** "Everything published up to here is read" (mark all read), per customer. */
  inbox_cursor: { customer_id: string; read_before: Date };
  /** A kind the customer turned off for e-mail; absent means on. */
  inbox_pref: { customer_id: string; kind: NoticeKind; email: boolean };
};
