import { scaleOf, toDecimalString } from '@bourse/money';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';

/** The recent-activity window of a queue row's customer summary. */
export const ACTIVITY_DAYS = 30;
const DAY_MS = 86_400_000;

/** Per currency: how many and how much (a decimal string in the currency's scale). */
export type Flow = { currency: string; count: number; amount: string };

/**
 * Who a staff member is about to pay or credit, as the back-office queues show it. There is no
 * identity verification (KYC) in Bourse yet: every customer is level 0, `unverified` — said as it is.
 */
export type CustomerSummary = {
  customer_id: string;
  uid: string;
  name: string;
  status: 'active' | 'disabled';
  created_at: number;
  /** Whole days since the account was opened (the injected clock). */
  age_days: number;
  verification: { level: 0; status: 'unverified' };
  last_login_at: number | null;
  activity: { days: number; deposits: Flow[]; withdrawals: Flow[] };
  /**
   * All time, for the risk rules (not shown): credited deposits and withdrawals paid or being paid
   * (pending, processing, completed) per currency in minor units, and how many were completed.
   */
  totals: {
    deposits: Record<string, string>;
    withdrawals: Record<string, string>;
    completed_withdrawals: number;
  };
};

const fmt = (units: string, currency: string) => {
  try {
    return toDecimalString(BigInt(units), scaleOf(currency));
  } catch {
    return units;
  }
};

/**
 * The summaries of a page's customers in four grouped queries (customers, last logins, deposits,
 * withdrawals), whatever the page size: no query per row. Reads the accounts, deposits and
 * withdrawals tables read-only.
 */
export async function customerSummaries(
  q: Db | Tx,
  customerIds: readonly string[],
  now: Date,
): Promise<Map<string, CustomerSummary>> {
  const ids = [...new Set(customerIds)];
  const out = new Map<string, CustomerSummary>();
  if (ids.length === 0) return out;
  const since = new Date(now.getTime() - ACTIVITY_DAYS * DAY_MS);
  const [customers, logins, deposits, withdrawals] = await Promise.all([
    q
      .selectFrom('accounts_customer')
      .select(['id', 'uid', 'name', 'email', 'phone', 'status', 'created_at'])
      .where('id', 'in', ids)
      .execute(),
    q
      .selectFrom('accounts_session')
      .select(['customer_id', (eb) => eb.fn.max('created_at').as('last')])
      .where('customer_id', 'in', ids)
      .where('created_at', '<=', now)
      .groupBy('customer_id')
      .execute(),
    sql<{ customer_id: string; currency: string; total: string; n30: string; sum30: string }>`
      select customer_id, currency, sum(amount)::text as total,
             count(*) filter (where created_at >= ${since})::text as n30,
             coalesce(sum(amount) filter (where created_at >= ${since}), 0)::text as sum30
      from (
        select customer_id, currency, amount_units as amount, created_at
          from deposits_crypto where status = 'credited' and customer_id in (${sql.join(ids)})
        union all
        select customer_id, currency, amount_units as amount, created_at
          from deposits_bank where status = 'confirmed' and customer_id in (${sql.join(ids)})
      ) d
      group by customer_id, currency
      order by customer_id, currency`.execute(q),
    sql<{
      customer_id: string;
      currency: string;
      total: string;
      completed: string;
      n30: string;
      sum30: string;
    }>`
      select customer_id, currency,
             coalesce(sum(amount) filter (where status in ('pending', 'processing', 'completed')), 0)::text
               as total,
             count(*) filter (where status = 'completed')::text as completed,
             count(*) filter (where created_at >= ${since}
                              and status in ('pending', 'processing', 'completed'))::text as n30,
             coalesce(sum(amount) filter (where created_at >= ${since}
                              and status in ('pending', 'processing', 'completed')), 0)::text as sum30
      from withdrawals_withdrawal
      where customer_id in (${sql.join(ids)})
      group by customer_id, currency
      order by customer_id, currency`.execute(q),
  ]);
  const lastLogin = new Map(logins.map((r) => [r.customer_id, r.last as Date | null]));
  for (const c of customers) {
    const last = lastLogin.get(c.id) ?? null;
    out.set(c.id, {
      customer_id: c.id,
      uid: c.uid,
      name: c.name ?? c.email ?? c.phone ?? '',
      status: c.status,
      created_at: c.created_at.getTime(),
      age_days: Math.max(0, Math.floor((now.getTime() - c.created_at.getTime()) / DAY_MS)),
      verification: { level: 0, status: 'unverified' },
      last_login_at: last ? new Date(last).getTime() : null,
      activity: { days: ACTIVITY_DAYS, deposits: [], withdrawals: [] },
      totals: { deposits: {}, withdrawals: {}, completed_withdrawals: 0 },
    });
  }
  for (const d of deposits.rows) {
    const s = out.get(d.customer_id);
    if (!s) continue;
    s.totals.deposits[d.currency] = d.total;
    if (Number(d.n30) > 0)
      s.activity.deposits.push({
        currency: d.currency,
        count: Number(d.n30),
        amount: fmt(d.sum30, d.currency),
      });
  }
  for (const w of withdrawals.rows) {
    const s = out.get(w.customer_id);
    if (!s) continue;
    s.totals.completed_withdrawals += Number(w.completed);
    s.totals.withdrawals[w.currency] = w.total;
    if (Number(w.n30) > 0)
      s.activity.withdrawals.push({
        currency: w.currency,
        count: Number(w.n30),
        amount: fmt(w.sum30, w.currency),
      });
  }
  return out;
}
