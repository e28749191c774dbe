import type { ContentState, Lang } from '@bourse/protocol';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Database, Db, Tx } from '../../db/database.ts';
import type { ContentTables } from './tables.ts';

/** The only SQL on content_item and content_category. */
export type ContentRow = ContentTables['content_item'];
export type CategoryRow = ContentTables['content_category'];
type Q = Db | Tx;

export async function insertItem(q: Q, row: ContentRow): Promise<void> {
  await q.insertInto('content_item').values(row).execute();
}

export async function findItem(q: Q, id: string, options: { forUpdate?: boolean } = {}) {
  let query = q.selectFrom('content_item').selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

export async function updateItem(q: Q, id: string, patch: Partial<ContentRow>): Promise<void> {
  await q.updateTable('content_item').set(patch).where('id', '=', id).execute();
}

/** What customers may see at `now`: published, and its time has come (a scheduled entry waits). */
function visible(now: Date) {
  return (eb: ExpressionBuilder<Database, 'content_item'>) =>
    eb.and([eb('status', '=', 'published'), eb('published_at', '<=', now)]);
}

/** Published entries of some kinds (of one help category), lower sort first, newest first within a sort. */
export async function listPublished(
  q: Q,
  options: { kinds: readonly string[]; now: Date; category?: string; offset: number; limit: number },
): Promise<{ total: number; rows: ContentRow[] }> {
  let base = q
    .selectFrom('content_item')
    .where(visible(options.now))
    .where('kind', 'in', [...options.kinds]);
  if (options.category !== undefined) base = base.where('category_id', '=', options.category);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('sort', 'asc')
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .offset(options.offset)
      .limit(options.limit)
      .execute(),
  ]);
  return { total: Number(count.n), rows };
}

/** `%`, `_` and the escape character itself stand for themselves in a search. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Visible entries whose title, summary or body in `lang` contains the text (ILIKE on a substring, so
 * Chinese, which has no spaces between words, is found as well as English); title hits first.
 */
export async function searchPublished(
  q: Q,
  options: { lang: Lang; text: string; kinds: readonly string[]; now: Date; offset: number; limit: number },
): Promise<{ total: number; rows: ContentRow[] }> {
  const pattern = likePattern(options.text);
  const title = sql.ref(`title_${options.lang}`);
  const summary = sql.ref(`summary_${options.lang}`);
  const body = sql.ref(`body_${options.lang}`);
  const base = q
    .selectFrom('content_item')
    .where(visible(options.now))
    .where('kind', 'in', [...options.kinds])
    .where(
      sql<boolean>`(${title} ilike ${pattern} escape '\\' or ${summary} ilike ${pattern} escape '\\' or ${body} ilike ${pattern} escape '\\')`,
    );
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy(sql`case when ${title} ilike ${pattern} escape '\\' then 0 else 1 end`)
      .orderBy('sort', 'asc')
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .offset(options.offset)
      .limit(options.limit)
      .execute(),
  ]);
  return { total: Number(count.n), rows };
}

/** Every entry for the back office, newest change first; `state` is worked out against `now`. */
export async function listAll(
  q: Q,
  options: { kind?: string; state?: ContentState; now: Date; offset: number; limit: number },
): Promise<{ total: number; rows: ContentRow[] }> {
  let base = q.selectFrom('content_item');
  if (options.kind !== undefined) base = base.where('kind', '=', options.kind);
  if (options.state === 'draft') base = base.where('status', '=', 'draft');
  if (options.state === 'published') base = base.where(visible(options.now));
  if (options.state === 'scheduled')
    base = base.where('status', '=', 'published').where('published_at', '>', options.now);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .offset(options.offset)
      .limit(options.limit)
      .execute(),
  ]);
  return { total: Number(count.n), rows };
}

export async function countItems(q: Q): Promise<number> {
  const row = await q
    .selectFrom('content_item')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listCategories(q: Q): Promise<CategoryRow[]> {
  return q.selectFrom('content_category').selectAll().orderBy('sort', 'asc').orderBy('id', 'asc').execute();
}

export async function findCategory(q: Q, id: string, options: { forUpdate?: boolean } = {}) {
  let query = q.selectFrom('content_category').selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

export async function insertCategory(q: Q, row: CategoryRow): Promise<void> {
  await q.insertInto('content_category').values(row).execute();
}

export async function updateCategory(q: Q, id: string, patch: Partial<CategoryRow>): Promise<void> {
  await q.updateTable('content_category').set(patch).where('id', '=', id).execute();
}

/** Articles of any state filed under a category. */
export async function countInCategory(q: Q, id: string): Promise<number> {
  const row = await q
    .selectFrom('content_item')
    .where('category_id', '=', id)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteCategory(q: Q, id: string): Promise<void> {
  await q.deleteFrom('content_category').where('id', '=', id).execute();
}

/** Visible help articles per category at `now`. */
export async function countHelpByCategory(q: Q, now: Date): Promise<Map<string, number>> {
  const rows = await q
    .selectFrom('content_item')
    .where(visible(now))
    .where('kind', '=', 'help')
    .select(['category_id', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('category_id')
    .execute();
  return new Map(rows.map((r) => [r.category_id ?? '', Number(r.n)]));
}

/** The kinds that have at least one entry (the demo seed fills only the empty ones). */
export async function presentKinds(q: Q): Promise<Set<string>> {
  const rows = await q.selectFrom('content_item').select('kind').distinct().execute();
  return new Set(rows.map((r) => r.kind));
}
