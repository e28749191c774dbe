import type { Paged } from '@bourse/protocol';
import type { Selectable, SelectQueryBuilder, StringReference } from 'kysely';
import { refuse } from './refusal.ts';

/** A list call's paging limits (e.g. DERIVATIVES_LIMITS, SPOT_LIMITS). */
export type PageLimits = Readonly<{ pageSizeDefault: number; pageSizeMax: number }>;

/**
 * Reads `page` / `page_size` (wire strings): page defaults to 1, page_size to the limits' default.
 * Refuses BAD_INPUT for a page or page_size below 1 (or not a whole number), LIMIT_TOO_LARGE above
 * the maximum. The one paging rule of every list.
 */
export function pageOf(q: { page?: string; page_size?: string }, limits: PageLimits) {
  const page = Number(q.page ?? '1');
  const pageSize = Number(q.page_size ?? String(limits.pageSizeDefault));
  if (!Number.isSafeInteger(page) || page < 1) refuse('BAD_INPUT', { field: 'page' });
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) refuse('BAD_INPUT', { field: 'page_size' });
  if (pageSize > limits.pageSizeMax)
    refuse('LIMIT_TOO_LARGE', { field: 'page_size', max: limits.pageSizeMax });
  return { page, pageSize };
}

/**
 * One page of a filtered single-table query (`TB` names one table with an `id` column), newest first:
 * counts the query, then selects all its columns ordered by `column` desc, `id` desc (the tie-break
 * that keeps pages stable) and maps the rows. The casts only name what `count(*)` and `selectAll()`
 * return, which Kysely cannot infer for a generic table.
 */
export async function pageNewestFirst<DB, TB extends keyof DB, O, T>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: StringReference<DB, TB>,
  paging: { page: number; pageSize: number },
  map: (rows: Selectable<DB[TB]>[]) => T[] | Promise<T[]>,
): Promise<Paged<T>> {
  const { page, pageSize } = paging;
  const counted = await query
    .select((eb) => eb.fn.countAll().as('n'))
    .$castTo<{ n: string | number | bigint }>()
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const rows = await query
    .selectAll()
    .$castTo<Selectable<DB[TB]>>()
    .orderBy(column, 'desc')
    .orderBy('id' as StringReference<DB, TB>, 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { total, page, page_size: pageSize, items: await map(rows) };
}

/**
 * Reads a list's `start_time` / `end_time` (epoch milliseconds, wire strings) as the half-open range
 * [from, to): the apps send the end of a picked day as the next midnight. Either may be absent;
 * refuses DATE_RANGE_INVALID unless from < to. The one date-range rule of every record list.
 */
export function dateRangeOf(q: { start_time?: string; end_time?: string }): {
  from: Date | null;
  to: Date | null;
} {
  const read = (text: string | undefined, field: string): Date | null => {
    if (text === undefined || text === '') return null;
    if (!/^\d{1,15}$/.test(text)) refuse('BAD_INPUT', { field });
    return new Date(Number(text));
  };
  const from = read(q.start_time, 'start_time');
  const to = read(q.end_time, 'end_time');
  if (from && to && from.getTime() >= to.getTime()) refuse('DATE_RANGE_INVALID');
  return { from, to };
}
