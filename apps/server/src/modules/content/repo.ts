import type { Db, Tx } from '../../db/database.ts';
import type { ContentTables } from './tables.ts';

/** The only SQL on content_item. */
export type ContentRow = ContentTables['content_item'];
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

/** Published entries of some kinds, lower sort first, newest first within a sort. */
export async function listPublished(
  q: Q,
  options: { kinds: readonly string[]; offset: number; limit: number },
): Promise<{ total: number; rows: ContentRow[] }> {
  const base = q
    .selectFrom('content_item')
    .where('status', '=', 'published')
    .where('kind', 'in', [...options.kinds]);
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

export async function countItems(q: Q): Promise<number> {
  const row = await q
    .selectFrom('content_item')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
