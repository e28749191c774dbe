import type { SpotState } from './markets.ts';
import { needOf } from './order.ts';
import { openOrderRows, orderCustomerIds, orderFromRow } from './repo.ts';

/** A difference the frozen check found: per customer, book and currency (or one order). */
export type FrozenMismatch = {
  customerId: string;
  book: string;
  currency: string;
  ledger: string;
  orders: string;
};

/**
 * Frozen = what open orders need: for every customer with spot orders, per book and currency, the
 * ledger's frozen spot balance equals the sum of the open orders' frozen amounts, and each open
 * order's frozen amount equals its need. Returns the differences (empty when all hold).
 */
export async function checkFrozen(s: SpotState): Promise<FrozenMismatch[]> {
  const out: FrozenMismatch[] = [];
  const sums = new Map<string, bigint>();
  for (const r of await openOrderRows(s.db)) {
    const o = orderFromRow(r);
    const m = s.markets.get(o.symbol);
    if (m && needOf(m.math, o) !== o.frozen)
      out.push({
        customerId: o.customerId,
        book: o.book,
        currency: `${o.frozenCurrency} (order ${o.id})`,
        ledger: String(o.frozen),
        orders: String(needOf(m.math, o)),
      });
    const key = `${o.customerId}|${o.book}|${o.frozenCurrency}`;
    sums.set(key, (sums.get(key) ?? 0n) + o.frozen);
  }
  for (const customerId of await orderCustomerIds(s.db))
    out.push(...(await ledgerMismatches(s, customerId, sums)));
  return out;
}

/** One customer's frozen spot balances against the open orders' sums (`customer|book|currency` → units). */
async function ledgerMismatches(
  s: SpotState,
  customerId: string,
  sums: ReadonlyMap<string, bigint>,
): Promise<FrozenMismatch[]> {
  const out: FrozenMismatch[] = [];
  const balances = await s.ledger.balances(s.db, { customerId, accountType: 'spot' });
  const seen = new Set<string>();
  for (const b of balances) {
    const key = `${customerId}|${b.book}|${b.currency}`;
    seen.add(key);
    const want = sums.get(key) ?? 0n;
    if (b.frozenUnits !== want)
      out.push({
        customerId,
        book: b.book,
        currency: b.currency,
        ledger: String(b.frozenUnits),
        orders: String(want),
      });
  }
  for (const [key, want] of sums) {
    if (key.startsWith(`${customerId}|`) && !seen.has(key) && want !== 0n) {
      const [, book, currency] = key.split('|');
      out.push({ customerId, book: book ?? '', currency: currency ?? '', ledger: '0', orders: String(want) });
    }
  }
  return out;
}
