import { sql } from 'kysely';
import { registerByEmail, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { createLedger, type Ledger } from '../ledger/index.ts';

/** Test support for assets and deposits (imported by *.test.ts only). */
export function ledgerOf(t: TestApp): Ledger {
  return createLedger({ db: t.db, clock: t.clock, log: testLogger() });
}

let n = 0;
export type Customer = { token: string; uid: string; id: string };

/** A registered (real) customer with their internal id. */
export async function customer(t: TestApp, label = 'c'): Promise<Customer> {
  n += 1;
  const email = `${label}${n}-${process.pid}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const { token, uid } = await registerByEmail(t, email);
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('id')
    .where('uid', '=', uid)
    .executeTakeFirstOrThrow();
  return { token, uid, id: row.id };
}

let keys = 0;
/** Pays `units` into the customer's account from the deposits clearing account (a test deposit). */
export async function fund(
  t: TestApp,
  customerId: string,
  currency: string,
  units: bigint,
  accountType: 'spot' | 'contract' | 'options' | 'earn' | 'funding' = 'spot',
) {
  keys += 1;
  return ledgerOf(t).credit(t.db, {
    book: 'real',
    customerId,
    accountType,
    currency,
    amountUnits: units,
    from: 'deposits_clearing',
    reason: 'deposit.test',
    reference: { type: 'test', id: `fund${keys}` },
    idempotencyKey: `test-fund:${process.pid}:${keys}:${Math.random().toString(36).slice(2)}`,
  });
}

export const USDT = (whole: bigint | number) => BigInt(whole) * 10n ** 8n;

/**
 * Everything of one customer's in the ledger: their accounts' balances and versions and the entries
 * touching them. "Nothing written" compares two of these (other modules' background jobs — the
 * market maker — may post their own entries meanwhile).
 */
export async function customerSnapshot(t: TestApp, customerId: string): Promise<Record<string, string>> {
  const { rows } = await sql<Record<string, string>>`
    select (select count(*) from ledger_account where customer_id = ${customerId})::text as accounts,
           (select count(distinct p.entry_id) from ledger_posting p join ledger_account a on a.id = p.account_id
             where a.customer_id = ${customerId})::text as entries,
           (select coalesce(md5(string_agg(id || ':' || available || ':' || frozen || ':' || version, ',' order by id)), '')
              from ledger_account where customer_id = ${customerId}) as balances,
           (select count(*) from ledger_owner where customer_id = ${customerId})::text as owners`.execute(
    t.db,
  );
  return rows[0] ?? {};
}
