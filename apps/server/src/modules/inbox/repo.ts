import type { Lang, NoticeData, NoticeKind } from '@bourse/protocol';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { InboxTables } from './tables.ts';

/** The only SQL on the inbox_* tables. */
type Q = Db | Tx;
export type AnnouncementRow = Selectable<InboxTables['inbox_announcement']>;
export type Source = 'message' | 'announcement' | undefined;

/** Files one message; a second call with the same id (retry, replay) changes nothing. True when new. */
export async function insertMessage(q: Q, row: Insertable<InboxTables['inbox_message']>): Promise<boolean> {
  const done = await q
    .insertInto('inbox_message')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(done.numInsertedOrUpdatedRows ?? 0n) === 1;
}

const TITLE = { en: sql.ref('a.title_en'), zh: sql.ref('a.title_zh'), ft: sql.ref('a.title_ft') } as const;
const BODY = { en: sql.ref('a.body_en'), zh: sql.ref('a.body_zh'), ft: sql.ref('a.body_ft') } as const;

/** Mine (messages) and announcements visible at `now`, with my read state, as one relation. */
function noticesOf(input: { customerId: string; lang: Lang; now: Date; source: Source }) {
  const { customerId, lang, now, source } = input;
  const messages = sql`select m.id, 'message' as source, m.kind, m.title, m.body, m.link, m.created_at,
      (m.read_at is not null) as read
    from inbox_message m where m.customer_id = ${customerId}`;
  const announcements = sql`select a.id, 'announcement' as source, 'announcement' as kind,
      ${TITLE[lang]} as title, ${BODY[lang]} as body, a.link, a.publish_at as created_at,
      (r.customer_id is not null or coalesce(a.publish_at <= c.read_before, false)) as read
    from inbox_announcement a
    left join inbox_announcement_read r on r.announcement_id = a.id and r.customer_id = ${customerId}
    left join inbox_cursor c on c.customer_id = ${customerId}
    where a.state = 'published' and a.publish_at <= ${now}`;
  if (source === 'message') return messages;
  if (source === 'announcement') return announcements;
  return sql`${messages} union all ${announcements}`;
}

type NoticeRow = {
  id: string;
  source: 'message' | 'announcement';
  kind: NoticeKind | 'announcement';
  title: string;
  body: string;
  link: string | null;
  created_at: Date;
  read: boolean;
};

export const noticeData = (r: NoticeRow): NoticeData => ({
  id: r.id,
  source: r.source,
  kind: r.kind,
  title: r.title,
  body: r.body,
  link: r.link,
  read: r.read,
  created_at: new Date(r.created_at).getTime(),
});

export async function pageNotices(
  q: Q,
  input: { customerId: string; lang: Lang; now: Date; source: Source; page: number; pageSize: number },
): Promise<{ total: number; items: NoticeData[] }> {
  const all = noticesOf(input);
  const counted = await sql<{ n: string }>`select count(*) as n from (${all}) x`.execute(q);
  const rows = await sql<NoticeRow>`select * from (${all}) x order by created_at desc, id desc
    limit ${input.pageSize} offset ${(input.page - 1) * input.pageSize}`.execute(q);
  return { total: Number(counted.rows[0]?.n ?? 0), items: rows.rows.map(noticeData) };
}

export async function oneNotice(
  q: Q,
  input: { customerId: string; lang: Lang; now: Date; id: string },
): Promise<NoticeData | null> {
  const all = noticesOf({ ...input, source: undefined });
  const rows = await sql<NoticeRow>`select * from (${all}) x where id = ${input.id}`.execute(q);
  const row = rows.rows[0];
  return row ? noticeData(row) : null;
}

export async function unreadCount(q: Q, input: { customerId: string; now: Date }): Promise<number> {
  const all = noticesOf({ ...input, lang: 'en', source: undefined });
  const counted = await sql<{ n: string }>`select count(*) as n from (${all}) x where not x.read`.execute(q);
  return Number(counted.rows[0]?.n ?? 0);
}

/** Marks my message read (once); true when the message is mine. */
export async function readMessage(
  q: Q,
  input: { customerId: string; id: string; at: Date },
): Promise<boolean> {
  const found = await q
    .selectFrom('inbox_message')
    .select('read_at')
    .where('id', '=', input.id)
    .where('customer_id', '=', input.customerId)
    .executeTakeFirst();
  if (!found) return false;
  if (found.read_at === null)
    await q
      .updateTable('inbox_message')
      .set({ read_at: input.at })
      .where('id', '=', input.id)
      .where('read_at', 'is', null)
      .execute();
  return true;
}

export async function visibleAnnouncement(q: Q, id: string, now: Date): Promise<boolean> {
  const row = await q
    .selectFrom('inbox_announcement')
    .select('id')
    .where('id', '=', id)
    .where('state', '=', 'published')
    .where('publish_at', '<=', now)
    .executeTakeFirst();
  return row !== undefined;
}

export async function readAnnouncement(q: Q, input: { customerId: string; id: string; at: Date }) {
  await q
    .insertInto('inbox_announcement_read')
    .values({ customer_id: input.customerId, announcement_id: input.id, read_at: input.at })
    .onConflict((oc) => oc.columns(['customer_id', 'announcement_id']).doNothing())
    .execute();
}

/** Every message read, and every announcement published up to `at` (the cursor never goes back). */
export async function readAll(q: Q, input: { customerId: string; at: Date }) {
  await q
    .updateTable('inbox_message')
    .set({ read_at: input.at })
    .where('customer_id', '=', input.customerId)
    .where('read_at', 'is', null)
    .execute();
  await q
    .insertInto('inbox_cursor')
    .values({ customer_id: input.customerId, read_before: input.at })
    .onConflict((oc) =>
      oc.column('customer_id').doUpdateSet({
        read_before: sql`greatest(inbox_cursor.read_before, excluded.read_before)`,
      }),
    )
    .execute();
}

export async function prefsOf(q: Q, customerId: string) {
  return q.selectFrom('inbox_pref').select(['kind', 'email']).where('customer_id', '=', customerId).execute();
}

export async function setPrefs(
  q: Q,
  customerId: string,
  prefs: ReadonlyArray<{ kind: NoticeKind; email: boolean }>,
) {
  if (prefs.length === 0) return;
  await q
    .insertInto('inbox_pref')
    .values(prefs.map((p) => ({ customer_id: customerId, kind: p.kind, email: p.email })))
    .onConflict((oc) => oc.columns(['customer_id', 'kind']).doUpdateSet({ email: sql`excluded.email` }))
    .execute();
}

export async function insertAnnouncement(q: Q, row: Insertable<InboxTables['inbox_announcement']>) {
  await q.insertInto('inbox_announcement').values(row).execute();
}

export async function announcementFor(q: Tx, id: string): Promise<AnnouncementRow | undefined> {
  return q.selectFrom('inbox_announcement').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateAnnouncement(
  q: Q,
  id: string,
  patch: Partial<
    Pick<
      AnnouncementRow,
      | 'state'
      | 'publish_at'
      | 'broadcast_at'
      | 'title_en'
      | 'title_zh'
      | 'title_ft'
      | 'body_en'
      | 'body_zh'
      | 'body_ft'
      | 'link'
    >
  >,
) {
  await q.updateTable('inbox_announcement').set(patch).where('id', '=', id).execute();
}

export async function pageAnnouncements(q: Q, paging: { page: number; pageSize: number }) {
  const counted = await q
    .selectFrom('inbox_announcement')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await q
    .selectFrom('inbox_announcement')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize)
    .execute();
  return { total: Number(counted.n), rows };
}

/**
 * Claims the announcements whose time has come and whose live event has not gone out: one
 * statement, so of two racing runs only one broadcasts each.
 */
export async function claimDue(q: Q, now: Date) {
  return q
    .updateTable('inbox_announcement')
    .set({ broadcast_at: now })
    .where('state', '=', 'published')
    .where('publish_at', '<=', now)
    .where('broadcast_at', 'is', null)
    .returning(['id', 'publish_at'])
    .execute();
}
