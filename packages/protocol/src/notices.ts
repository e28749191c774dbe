import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * Notices (`/notice`, issue 20 item 4): every message the platform sends a customer (notify) lands
 * in their in-app inbox; announcements to everyone are written by staff in three languages. Read
 * state is per customer; the unread count and new notices arrive live on `inbox_private:<uid>`,
 * published announcements on `inbox_public`.
 */

/** What a message is about (notify's kinds). `security` and `withdrawal` always go out by e-mail/SMS. */
export const NOTICE_KINDS = [
  'security',
  'withdrawal',
  'deposit',
  'verification',
  'loan',
  'c2c',
  'earn',
  'launchpad',
  'apikey',
  'general',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
/** Kinds whose e-mail (or SMS) copy cannot be turned off. */
export const NOTICE_KINDS_SECURITY: readonly NoticeKind[] = ['security', 'withdrawal', 'apikey'];
export const isNoticeKind = (v: unknown): v is NoticeKind =>
  typeof v === 'string' && (NOTICE_KINDS as readonly string[]).includes(v);

export const NOTICE_LIMITS = {
  pageSizeDefault: 20,
  pageSizeMax: 50,
  titleMax: 120,
  bodyMax: 5_000,
  linkMax: 300,
  idMax: 64,
  reasonMax: 500,
  /** How far ahead staff may schedule an announcement. */
  scheduleAheadMsMax: 366 * 24 * 3_600_000,
  adminPageSizeMax: 100,
} as const;

export const INBOX_CHANNELS = { private: 'inbox_private:', public: 'inbox_public' } as const;

const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });
const id = Type.String({ minLength: 1, maxLength: NOTICE_LIMITS.idMax });

/** `GET web/getNotices`: `kind` is `message` (mine) or `announcement`; none for both. */
export const GetNoticesQuery = Type.Object(
  {
    ...CommonFields,
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
    kind: Type.Optional(Type.Union([Type.Literal('message'), Type.Literal('announcement')])),
  },
  { additionalProperties: false },
);
export type GetNoticesQuery = Static<typeof GetNoticesQuery>;

export const NoticesEmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type NoticesEmptyQuery = Static<typeof NoticesEmptyQuery>;

export const ReadNoticeBody = Type.Object({ ...CommonFields, id }, { additionalProperties: false });
export type ReadNoticeBody = Static<typeof ReadNoticeBody>;

export const ReadAllNoticesBody = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type ReadAllNoticesBody = Static<typeof ReadAllNoticesBody>;

/** `POST web/setNoticePrefs`: one kind on (`1`) or off (`0`) for e-mail; a security kind cannot be turned off. */
export const SetNoticePrefsBody = Type.Object(
  {
    ...CommonFields,
    kind: Type.String({ minLength: 1, maxLength: 20 }),
    email: Type.Union([Type.Literal('0'), Type.Literal('1')]),
  },
  { additionalProperties: false },
);
export type SetNoticePrefsBody = Static<typeof SetNoticePrefsBody>;

/** One notice in the reader's language. */
export type NoticeData = {
  id: string;
  /** `message` (to me) or `announcement` (to everyone). */
  source: 'message' | 'announcement';
  /** The event kind of a message; `announcement` for announcements. */
  kind: NoticeKind | 'announcement';
  title: string;
  body: string;
  /** An app path (`/withdrawRecord`) or null. */
  link: string | null;
  read: boolean;
  created_at: number;
};
export type NoticesPage = { total: number; page: number; page_size: number; items: NoticeData[] };
export type UnreadCountData = { unread: number };
export type NoticePrefsData = {
  items: Array<{ kind: NoticeKind; email: boolean; locked: boolean }>;
};

/** What `inbox_private:<uid>` carries: the new unread count, and the notice when one arrived. */
export type InboxPrivateMessage = { type: 'notice' | 'read'; unread: number; notice?: NoticeData };
/** What `inbox_public` carries when an announcement goes live (each reader refetches its count). */
export type InboxPublicMessage = { type: 'announcement'; id: string; published_at: number };

// ================================================================ back office

export const ANNOUNCEMENT_STATES = ['draft', 'published', 'unpublished'] as const;
export type AnnouncementState = (typeof ANNOUNCEMENT_STATES)[number];

const title = Type.String({ maxLength: NOTICE_LIMITS.titleMax });
const body = Type.String({ maxLength: NOTICE_LIMITS.bodyMax });

/** `POST admin/notices`: a draft in three languages. */
export const AdminAnnouncementBody = Type.Object(
  {
    ...CommonFields,
    title_en: title,
    title_zh: title,
    title_ft: title,
    body_en: body,
    body_zh: body,
    body_ft: body,
    link: Type.Optional(Type.String({ maxLength: NOTICE_LIMITS.linkMax })),
  },
  { additionalProperties: false },
);
export type AdminAnnouncementBody = Static<typeof AdminAnnouncementBody>;

/**
 * `POST admin/notices/:id/update`: new texts for an announcement no customer has seen yet (a draft, or
 * one scheduled for later), with a reason; `NOTICE_NOT_EDITABLE` once it is or was live.
 */
export const AdminAnnouncementUpdateBody = Type.Object(
  {
    ...CommonFields,
    title_en: title,
    title_zh: title,
    title_ft: title,
    body_en: body,
    body_zh: body,
    body_ft: body,
    link: Type.Optional(Type.String({ maxLength: NOTICE_LIMITS.linkMax })),
    reason: Type.String({ maxLength: NOTICE_LIMITS.reasonMax }),
  },
  { additionalProperties: false },
);
export type AdminAnnouncementUpdateBody = Static<typeof AdminAnnouncementUpdateBody>;

/** `POST admin/notices/:id/publish`: now, or at `publish_at` (epoch ms); always with a reason. */
export const AdminAnnouncementPublishBody = Type.Object(
  {
    ...CommonFields,
    reason: Type.String({ maxLength: NOTICE_LIMITS.reasonMax }),
    publish_at: Type.Optional(digits(15)),
  },
  { additionalProperties: false },
);
export type AdminAnnouncementPublishBody = Static<typeof AdminAnnouncementPublishBody>;

export const AdminAnnouncementReasonBody = Type.Object(
  { ...CommonFields, reason: Type.String({ maxLength: NOTICE_LIMITS.reasonMax }) },
  { additionalProperties: false },
);
export type AdminAnnouncementReasonBody = Static<typeof AdminAnnouncementReasonBody>;

export const AdminNoticesQuery = Type.Object(
  { ...CommonFields, page: Type.Optional(digits(6)), page_size: Type.Optional(digits(3)) },
  { additionalProperties: false },
);
export type AdminNoticesQuery = Static<typeof AdminNoticesQuery>;

export type AdminAnnouncementData = {
  id: string;
  state: AnnouncementState;
  title_en: string;
  title_zh: string;
  title_ft: string;
  body_en: string;
  body_zh: string;
  body_ft: string;
  link: string | null;
  publish_at: number | null;
  created_by: string;
  created_at: number;
};
export type AdminAnnouncementsPage = {
  total: number;
  page: number;
  page_size: number;
  items: AdminAnnouncementData[];
};
