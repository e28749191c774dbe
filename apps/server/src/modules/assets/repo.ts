import type { Db, Tx } from '../../db/database.ts';

/** The only SQL on the assets_* tables. Balances are the ledger's: read through the ledger module. */
type Q = Db | Tx;

/** The enabled currencies, in display order (`sort`, then code). */
export async function listedCurrencies(q: Q) {
  return q
    .selectFrom('assets_currency')
    .selectAll()
    .where('enabled', '=', true)
    .orderBy('sort')
    .orderBy('currency')
    .execute();
}
