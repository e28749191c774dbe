import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';

/**
 * Per customer and currency (one grouped query over both rails): credited crypto and confirmed bank
 * deposits in minor units, all time and since `since` — the back-office queues' customer context.
 */
export async function depositFlows(q: Db | Tx, ids: readonly string[], since: Date) {
  if (ids.length === 0) return [];
  const result = await sql<{
    customer_id: string;
    currency: string;
    total: string;
    n30: string;
    sum30: string;
  }>`
    select customer_id, currency, sum(amount)::text as total,
           count(*) filter (where created_at >= ${since})::text as n30,
           coalesce(sum(amount) filter (where created_at >= ${since}), 0)::text as sum30
    from (
      select customer_id, currency, amount_units as amount, created_at
        from deposits_crypto where status = 'credited' and customer_id in (${sql.join([...ids])})
      union all
      select customer_id, currency, amount_units as amount, created_at
        from deposits_bank where status = 'confirmed' and customer_id in (${sql.join([...ids])})
    ) d
    group by customer_id, currency
    order by customer_id, currency`.execute(q);
  return result.rows;
}
