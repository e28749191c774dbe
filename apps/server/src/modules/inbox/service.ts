import {
  type AdminAnnouncementBody,
  type AdminAnnouncementData,
  type AdminAnnouncementPublishBody,
  type AdminAnnouncementsPage,
  type AdminAnnouncementUpdateBody,
  type AdminNoticesQuery,
  type GetNoticesQuery,
  type InboxPrivateMessage,
  type InboxPublicMessage,
  isNoticeKind,
  type Lang,
  NOTICE_KINDS,
  NOTICE_KINDS_SECURITY,
  NOTICE_LIMITS,
  type NoticeKind,
  type NoticePrefsData,
  type NoticesPage,
  type SetNoticePrefsBody,
  type UnreadCountData,
} from '@bourse/protocol';
import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import { pageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './repo.ts';

/** What the inbox is told by wiring.ts once the websocket hub and the accounts exist. */
export type InboxLive = {
  /** The customer's private channel (`inbox_private:<uid>`), when anyone listens. */
  publishPrivate(customerId: string, message: InboxPrivateMessage): Promise<void>;
  /** The public channel `inbox_public`. */
  publishPublic(message: InboxPublicMessage): void;
  /** The customer holding an e-mail address or phone number (accounts). */
  customerOf(recipient: string): Promise<string | null>;
};

export type InboxDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  audit: AuditLog;
};

const locked = (kind: NoticeKind) => NOTICE_KINDS_SECURITY.includes(kind);
const LANG_FIELDS = ['en', 'zh', 'ft'] as const;

function required(value: string | undefined, field: string, max: number): string {
  const text = (value ?? '').trim();
  if (text === '') refuse('FIELD_REQUIRED', { field });
  if (text.length > max) refuse('FIELD_TOO_LONG', { field, max });
  return text;
}

/** An app path (`/withdrawRecord`) or an https address; anything else is refused by name. */
function linkOf(raw: string | undefined): string | null {
  const link = (raw ?? '').trim();
  if (link === '') return null;
  if (!/^\/[A-Za-z0-9_\-/?=&.]*$/.test(link) && !/^https:\/\/[^\s<>"']+$/.test(link))
    refuse('BAD_INPUT', { field: 'link' });
  return link;
}

type Texts = Pick<
  AdminAnnouncementData,
  'title_en' | 'title_zh' | 'title_ft' | 'body_en' | 'body_zh' | 'body_ft'
>;

/** The title and text in every language, each required and within its limit. */
function textsOf(body: AdminAnnouncementBody): Texts {
  return Object.fromEntries(
    LANG_FIELDS.flatMap((l) => [
      [`title_${l}`, required(body[`title_${l}`], `title_${l}`, NOTICE_LIMITS.titleMax)],
      [`body_${l}`, required(body[`body_${l}`], `body_${l}`, NOTICE_LIMITS.bodyMax)],
    ]),
  ) as Texts;
}

function adminData(r: repo.AnnouncementRow): AdminAnnouncementData {
  return {
    id: r.id,
    state: r.state,
    title_en: r.title_en,
    title_zh: r.title_zh,
    title_ft: r.title_ft,
    body_en: r.body_en,
    body_zh: r.body_zh,
    body_ft: r.body_ft,
    link: r.link,
    publish_at: r.publish_at?.getTime() ?? null,
    created_by: r.created_by,
    created_at: r.created_at.getTime(),
  };
}

export function createInbox(deps: InboxDeps) {
  const { db, clock, log } = deps;
  let live: InboxLive | null = null;

  async function unread(customerId: string): Promise<number> {
    return repo.unreadCount(db, { customerId, now: clock.now() });
  }

  async function pushCount(customerId: string, type: InboxPrivateMessage['type']): Promise<void> {
    if (!live) return;
    try {
      await live.publishPrivate(customerId, { type, unread: await unread(customerId) });
    } catch (error) {
      log.warn({ err: error, customer: customerId }, 'inbox live event could not be published');
    }
  }

  /** Sends the live event of every announcement whose time has come (each exactly once). */
  async function broadcastDue(): Promise<number> {
    const due = await repo.claimDue(db, clock.now());
    for (const a of due)
      live?.publishPublic({ type: 'announcement', id: a.id, published_at: a.publish_at?.getTime() ?? 0 });
    return due.length;
  }

  const port = {
    async customerOf(recipient: string) {
      return live ? live.customerOf(recipient) : null;
    },
    async file(
      q: Db | Tx,
      n: {
        id: string;
        customerId: string;
        kind: NoticeKind;
        title: string;
        body: string;
        link: string | null;
        at: Date;
      },
    ) {
      await repo.insertMessage(q, {
        id: n.id,
        customer_id: n.customerId,
        kind: n.kind,
        title: n.title.slice(0, NOTICE_LIMITS.titleMax * 4),
        body: n.body,
        link: n.link,
        created_at: n.at,
        read_at: null,
      });
    },
    async filed(n: { id: string; customerId: string }) {
      if (!live) return;
      try {
        const notice = await repo.oneNotice(db, {
          customerId: n.customerId,
          lang: 'en',
          now: clock.now(),
          id: n.id,
        });
        if (!notice) return;
        await live.publishPrivate(n.customerId, {
          type: 'notice',
          unread: await unread(n.customerId),
          notice,
        });
      } catch (error) {
        log.warn({ err: error, customer: n.customerId }, 'inbox live event could not be published');
      }
    },
    async emailWanted(input: { customerId: string; kind: NoticeKind }) {
      if (locked(input.kind)) return true;
      const rows = await repo.prefsOf(db, input.customerId);
      return rows.find((r) => r.kind === input.kind)?.email ?? true;
    },
  };

  async function setState(
    staff: StaffContext,
    id: string,
    to: { state: 'published' | 'unpublished'; publishAt: Date | null; reason: string },
  ): Promise<AdminAnnouncementData> {
    return inTransaction(db, async (tx) => {
      const before = await repo.announcementFor(tx, id);
      if (!before) refuse('NOT_FOUND');
      const patch = {
        state: to.state,
        publish_at: to.publishAt ?? before.publish_at,
        broadcast_at: to.state === 'published' ? null : before.broadcast_at,
      };
      await repo.updateAnnouncement(tx, id, patch);
      await deps.audit.record(tx, {
        actorId: staff.staffId,
        action: `notice.${to.state === 'published' ? 'publish' : 'unpublish'}`,
        targetType: 'inbox_announcement',
        targetId: id,
        before: { state: before.state, publish_at: before.publish_at?.toISOString() ?? null },
        after: { state: patch.state, publish_at: patch.publish_at?.toISOString() ?? null },
        reason: to.reason,
      });
      return adminData({ ...before, ...patch });
    });
  }

  async function prefs(customerId: string): Promise<NoticePrefsData> {
    const rows = await repo.prefsOf(db, customerId);
    return {
      items: NOTICE_KINDS.map((kind) => ({
        kind,
        locked: locked(kind),
        email: locked(kind) || (rows.find((r) => r.kind === kind)?.email ?? true),
      })),
    };
  }

  return {
    /** notify's InboxPort (wiring.ts). */
    port,
    /** wiring.ts, once the hub and the accounts exist. */
    connect(given: InboxLive) {
      live = given;
    },
    broadcastDue,

    async notices(customerId: string, lang: Lang, q: GetNoticesQuery): Promise<NoticesPage> {
      const { page, pageSize } = pageOf(q, NOTICE_LIMITS);
      const found = await repo.pageNotices(db, {
        customerId,
        lang,
        now: clock.now(),
        source: q.kind,
        page,
        pageSize,
      });
      return { total: found.total, page, page_size: pageSize, items: found.items };
    },

    async unreadCount(customerId: string): Promise<UnreadCountData> {
      return { unread: await unread(customerId) };
    },

    /** Marks one notice read: mine, or an announcement I can see; idempotent. */
    async read(customerId: string, id: string): Promise<UnreadCountData> {
      const now = clock.now();
      const mine = await repo.readMessage(db, { customerId, id, at: now });
      if (!mine) {
        if (!(await repo.visibleAnnouncement(db, id, now))) refuse('NOT_FOUND');
        await repo.readAnnouncement(db, { customerId, id, at: now });
      }
      await pushCount(customerId, 'read');
      return { unread: await unread(customerId) };
    },

    async readAll(customerId: string): Promise<UnreadCountData> {
      await inTransaction(db, (tx) => repo.readAll(tx, { customerId, at: clock.now() }));
      await pushCount(customerId, 'read');
      return { unread: 0 };
    },

    prefs,

    /** Turns one kind's e-mail copy on or off; a security kind cannot be turned off. */
    async setPrefs(customerId: string, body: SetNoticePrefsBody): Promise<NoticePrefsData> {
      const { kind } = body;
      const email = body.email === '1';
      if (!isNoticeKind(kind)) refuse('BAD_INPUT', { field: 'kind' });
      if (locked(kind) && !email) refuse('NOTICE_KIND_LOCKED', { kind });
      if (!locked(kind)) await repo.setPrefs(db, customerId, [{ kind, email }]);
      return prefs(customerId);
    },

    async adminList(q: AdminNoticesQuery): Promise<AdminAnnouncementsPage> {
      const { page, pageSize } = pageOf(q, {
        pageSizeDefault: 20,
        pageSizeMax: NOTICE_LIMITS.adminPageSizeMax,
      });
      const found = await repo.pageAnnouncements(db, { page, pageSize });
      return { total: found.total, page, page_size: pageSize, items: found.rows.map(adminData) };
    },

    /** A draft in three languages (audited); every language is required. */
    async create(staff: StaffContext, body: AdminAnnouncementBody): Promise<AdminAnnouncementData> {
      const now = clock.now();
      const texts = textsOf(body);
      const row = {
        id: newId('ann', now.getTime()),
        state: 'draft' as const,
        ...texts,
        link: linkOf(body.link),
        publish_at: null,
        broadcast_at: null,
        created_by: staff.staffId,
        created_at: now,
      };
      await inTransaction(db, async (tx) => {
        await repo.insertAnnouncement(tx, row);
        await deps.audit.record(tx, {
          actorId: staff.staffId,
          action: 'notice.create',
          targetType: 'inbox_announcement',
          targetId: row.id,
          after: { title_en: row.title_en },
        });
      });
      return adminData(row);
    },

    /** Publishes now or at `publish_at` (audited with the reason); the live event goes when its time comes. */
    async publish(
      staff: StaffContext,
      id: string,
      body: AdminAnnouncementPublishBody,
    ): Promise<AdminAnnouncementData> {
      const reason = required(body.reason, 'reason', NOTICE_LIMITS.reasonMax);
      const now = clock.now();
      const at = body.publish_at === undefined ? now : new Date(Number(body.publish_at));
      if (at.getTime() > now.getTime() + NOTICE_LIMITS.scheduleAheadMsMax)
        refuse('BAD_INPUT', { field: 'publish_at' });
      const publishAt = at.getTime() < now.getTime() ? now : at;
      const row = await setState(staff, id, { state: 'published', publishAt, reason });
      await broadcastDue();
      return row;
    },

    /**
     * New texts for an announcement no customer has seen: a draft, or one scheduled for later (audited
     * with before, after and the reason). Once it is or was live: `NOTICE_NOT_EDITABLE` — what
     * customers read is not rewritten under them; take it down and publish a new one.
     */
    async update(
      staff: StaffContext,
      id: string,
      body: AdminAnnouncementUpdateBody,
    ): Promise<AdminAnnouncementData> {
      const reason = required(body.reason, 'reason', NOTICE_LIMITS.reasonMax);
      const texts = textsOf(body);
      const link = linkOf(body.link);
      return inTransaction(db, async (tx) => {
        const before = await repo.announcementFor(tx, id);
        if (!before) refuse('NOT_FOUND');
        const now = clock.now().getTime();
        const unseen =
          before.state === 'draft' ||
          (before.state === 'published' &&
            before.broadcast_at === null &&
            before.publish_at !== null &&
            before.publish_at.getTime() > now);
        if (!unseen) refuse('NOTICE_NOT_EDITABLE');
        await repo.updateAnnouncement(tx, id, { ...texts, link });
        await deps.audit.record(tx, {
          actorId: staff.staffId,
          action: 'notice.update',
          targetType: 'inbox_announcement',
          targetId: id,
          before: { title_en: before.title_en, title_zh: before.title_zh, title_ft: before.title_ft },
          after: { title_en: texts.title_en, title_zh: texts.title_zh, title_ft: texts.title_ft },
          reason,
        });
        return adminData({ ...before, ...texts, link });
      });
    },

    async unpublish(staff: StaffContext, id: string, reasonText: string): Promise<AdminAnnouncementData> {
      const reason = required(reasonText, 'reason', NOTICE_LIMITS.reasonMax);
      return setState(staff, id, { state: 'unpublished', publishAt: null, reason });
    },
  };
}

export type Inbox = ReturnType<typeof createInbox>;
