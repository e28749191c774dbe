import { scaleOf, toDecimalString } from '@bourse/money';
import type { CustomerSummary, CustomerVerification } from '@bourse/protocol';
import type { Db, Tx } from '../../db/database.ts';
import { customerBasics } from '../accounts/index.ts';
import { depositFlows } from '../deposits/index.ts';
import { withdrawalFlows } from '../withdrawals/index.ts';

export type { CustomerFlow as Flow, CustomerSummary } from '@bourse/protocol';

/**
 * Each customer's verification (modules/verification `summaries`): passed in by wiring.ts, since
 * verification is a module this one must not import (or read the tables of).
 */
export type VerificationSummaries = (
  customerIds: readonly string[],
) => Promise<Map<string, CustomerVerification>>;

/** A customer without any verification row. */
const UNVERIFIED: CustomerVerification = {
  level: 0,
  status: 'unverified',
  tiers: { primary: 'not_submitted', advanced: 'not_submitted', address: 'not_submitted' },
};

/** The recent-activity window of a queue row's customer summary. */
export const ACTIVITY_DAYS = 30;
const DAY_MS = 86_400_000;

/** How the deposits and withdrawals queues ask for their customers' summaries (passed in by app.ts). */
export type CustomerSummaries = (
  customerIds: readonly string[],
  now: Date,
) => Promise<Map<string, CustomerSummary>>;

const fmt = (units: string, currency: string) => {
  try {
    return toDecimalString(BigInt(units), scaleOf(currency));
  } catch {
    return units;
  }
};

/**
 * The summaries of a page's customers in five grouped queries (customers and last logins from
 * accounts, flows from deposits and from withdrawals, verification), whatever the page size: no
 * query per row. Each module answers for its own tables; this only puts the answers together.
 */
export async function customerSummaries(
  q: Db | Tx,
  customerIds: readonly string[],
  now: Date,
  verification: VerificationSummaries,
): Promise<Map<string, CustomerSummary>> {
  const ids = [...new Set(customerIds)];
  const out = new Map<string, CustomerSummary>();
  if (ids.length === 0) return out;
  const since = new Date(now.getTime() - ACTIVITY_DAYS * DAY_MS);
  const [customers, deposits, withdrawals, verified] = await Promise.all([
    customerBasics(q, ids, now),
    depositFlows(q, ids, since),
    withdrawalFlows(q, ids, since),
    verification(ids),
  ]);
  for (const c of customers) {
    out.set(c.id, {
      customer_id: c.id,
      uid: c.uid,
      name: c.name ?? c.email ?? c.phone ?? '',
      status: c.status,
      created_at: c.created_at.getTime(),
      age_days: Math.max(0, Math.floor((now.getTime() - c.created_at.getTime()) / DAY_MS)),
      verification: verified.get(c.id) ?? UNVERIFIED,
      last_login_at: c.last_login ? new Date(c.last_login).getTime() : null,
      activity: { days: ACTIVITY_DAYS, deposits: [], withdrawals: [] },
      totals: { deposits: {}, withdrawals: {}, completed_withdrawals: 0 },
    });
  }
  for (const d of deposits) {
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
  for (const w of withdrawals) {
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
