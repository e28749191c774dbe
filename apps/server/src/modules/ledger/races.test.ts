import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Refusal } from '../../http/refusal.ts';
import type { AccountRef } from './model.ts';
import { customerId, key, type LedgerFixture, openLedgerFixture, ref, usdt } from './testing.ts';

/**
 * Races on a real PostgreSQL: the pool lets 20 transactions run at once, so these calls really do
 * contend for the same rows.
 */
let f: LedgerFixture;
beforeAll(async () => {
  f = await openLedgerFixture({ poolMax: 20 });
});
afterAll(async () => {
  await f.close();
});

async function fund(customer: string, amountUnits: bigint, accountType: 'spot' | 'contract' = 'spot') {
  await f.ledger.credit(f.db, {
    book: 'real',
    customerId: customer,
    accountType,
    currency: 'USDT',
    amountUnits,
    from: 'deposits_clearing',
    reference: ref(),
    idempotencyKey: key('fund'),
  });
}

/** Deadlocks PostgreSQL has detected in this database (retried by inTransaction, so counted here). */
async function deadlocks(): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select deadlocks::text as n from pg_stat_database where datname = current_database()`.execute(f.db);
  return Number(rows[0]?.n ?? 0);
}

function tally(results: PromiseSettledResult<unknown>[]): {
  ok: number;
  refused: string[];
  errors: unknown[];
} {
  const refused: string[] = [];
  const errors: unknown[] = [];
  let ok = 0;
  for (const r of results) {
    if (r.status === 'fulfilled') ok += 1;
    else if (r.reason instanceof Refusal) refused.push(r.reason.reason);
    else errors.push(r.reason);
  }
  return { ok, refused, errors };
}

describe('races on a real PostgreSQL', () => {
  it('50 simultaneous debits against a balance covering k of them: exactly k succeed, every burst', async () => {
    const amount = usdt(100);
    for (const k of [0, 1, 17, 49, 50]) {
      const c = customerId();
      if (k > 0) await fund(c, amount * BigInt(k));
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, () =>
          f.ledger.debit(f.db, {
            book: 'real',
            customerId: c,
            accountType: 'spot',
            currency: 'USDT',
            amountUnits: amount,
            to: 'withdrawals_clearing',
            reason: 'withdrawal',
            reference: ref(),
            idempotencyKey: key('wd'),
          }),
        ),
      );
      const { ok, refused, errors } = tally(results);
      expect(errors).toEqual([]);
      expect(ok, `burst with k=${k}`).toBe(k);
      expect(refused).toEqual(Array(50 - k).fill('INSUFFICIENT_BALANCE'));
      const left = await f.ledger.balance(f.db, {
        book: 'real',
        customerId: c,
        accountType: 'spot',
        currency: 'USDT',
      });
      expect(left.availableUnits).toBe(0n);
    }
    expect((await f.ledger.verify()).ok).toBe(true);
  });

  it('50 simultaneous freezes race the same way', async () => {
    const c = customerId();
    await fund(c, 7n * 1000n);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        f.ledger.freeze(f.db, {
          book: 'real',
          customerId: c,
          accountType: 'spot',
          currency: 'USDT',
          amountUnits: 1000n,
          reference: ref(),
          idempotencyKey: key('frz'),
        }),
      ),
    );
    expect(tally(results).ok).toBe(7);
    expect(
      await f.ledger.balance(f.db, { book: 'real', customerId: c, accountType: 'spot', currency: 'USDT' }),
    ).toMatchObject({ availableUnits: 0n, frozenUnits: 7000n });
  });

  it('100 simultaneous transfers between two customers, both ways, conserve the total', async () => {
    const a = customerId();
    const b = customerId();
    await fund(a, 500n);
    await fund(b, 500n);
    const spot = (customer: string): AccountRef => ({
      book: 'real',
      customerId: customer,
      accountType: 'spot',
    });
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => {
        const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
        const amountUnits = BigInt(1 + ((i * 37) % 90));
        return f.ledger.post(f.db, {
          reason: 'transfer.customer',
          reference: ref(`t${i}`),
          idempotencyKey: key('p2p'),
          postings: [
            { account: spot(from), currency: 'USDT', amountUnits: -amountUnits },
            { account: spot(to), currency: 'USDT', amountUnits },
          ],
        });
      }),
    );
    const { ok, errors } = tally(results);
    expect(errors).toEqual([]);
    expect(ok).toBeGreaterThan(0);
    const balances = await Promise.all(
      [a, b].map((c) =>
        f.ledger.balance(f.db, { book: 'real', customerId: c, accountType: 'spot', currency: 'USDT' }),
      ),
    );
    expect(balances[0]!.availableUnits + balances[1]!.availableUnits).toBe(1000n);
    for (const balance of balances) expect(balance.availableUnits).toBeGreaterThanOrEqual(0n);
    expect((await f.ledger.verify()).ok).toBe(true);
  });

  it('100 simultaneous own-account transfers (spot ⇄ contract) conserve the total', async () => {
    const c = customerId();
    await fund(c, 300n, 'spot');
    await fund(c, 300n, 'contract');
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        f.ledger.transfer(f.db, {
          book: 'real',
          customerId: c,
          currency: 'USDT',
          fromType: i % 3 === 0 ? 'contract' : 'spot',
          toType: i % 3 === 0 ? 'spot' : 'contract',
          amountUnits: BigInt(1 + (i % 11)),
          reference: ref(),
          idempotencyKey: key('own'),
        }),
      ),
    );
    expect(tally(results).errors).toEqual([]);
    const all = await f.ledger.balances(f.db, { customerId: c });
    expect(all.reduce((sum, r) => sum + r.availableUnits, 0n)).toBe(600n);
  });

  it('bursts into an account type not opened yet never fail on a lock conflict (every retry looks again)', async () => {
    // The clock stands still, so new account ids sort by their random part: the account one
    // transaction opens may sort before the customer's spot account others already hold. Such a late
    // account is locked without waiting (or the entry gives way and looks again), so no deadlock.
    const deadlocksBefore = await deadlocks();
    for (let round = 0; round < 12; round++) {
      const c = customerId();
      await fund(c, 1_000n);
      const results = await Promise.allSettled(
        Array.from({ length: 40 }, () =>
          f.ledger.transfer(f.db, {
            book: 'real',
            customerId: c,
            currency: 'USDT',
            fromType: 'spot',
            toType: 'options',
            amountUnits: 10n,
            reference: ref(),
            idempotencyKey: key('open'),
          }),
        ),
      );
      expect(tally(results).errors).toEqual([]);
      const options = await f.ledger.balance(f.db, {
        book: 'real',
        customerId: c,
        accountType: 'options',
        currency: 'USDT',
      });
      expect(options.availableUnits).toBe(400n);
    }
    expect(await deadlocks()).toBe(deadlocksBefore);
  }, 90_000);

  it('one idempotency key posted 20 times at once posts once', async () => {
    for (const fresh of [true, false]) {
      const c = customerId();
      if (!fresh) await fund(c, 1n);
      const input = {
        book: 'real' as const,
        customerId: c,
        accountType: 'spot' as const,
        currency: 'BTC',
        amountUnits: 12_345n,
        from: 'deposits_clearing' as const,
        reason: 'deposit',
        reference: ref('eth:0xabc:0'),
        idempotencyKey: key('webhook'),
      };
      const results = await Promise.all(Array.from({ length: 20 }, () => f.ledger.credit(f.db, input)));
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      const balance = await f.ledger.balance(f.db, {
        book: 'real',
        customerId: c,
        accountType: 'spot',
        currency: 'BTC',
      });
      expect(balance.availableUnits).toBe(12_345n);
      const entries = await f.db
        .selectFrom('ledger_entry')
        .select('id')
        .where('idempotency_key', '=', input.idempotencyKey)
        .execute();
      expect(entries).toHaveLength(1);
    }
  });

  it('a brand-new customer credited 30 times at once gets one account per currency', async () => {
    const c = customerId();
    await Promise.all(Array.from({ length: 30 }, () => fund(c, 1n)));
    const rows = await f.ledger.balances(f.db, { customerId: c });
    expect(rows).toEqual([
      { book: 'real', accountType: 'spot', currency: 'USDT', availableUnits: 30n, frozenUnits: 0n },
    ]);
  });

  it('concurrent batches touching the same accounts in different orders never deadlock', async () => {
    const customers = Array.from({ length: 6 }, customerId);
    for (const c of customers) await fund(c, 1_000n);
    const deadlocksBefore = await deadlocks();
    const spot = (c: string): AccountRef => ({ book: 'real', customerId: c, accountType: 'spot' });
    const batches = Array.from({ length: 12 }, (_, b) =>
      Array.from({ length: 20 }, (_, i) => {
        const from = customers[(b + i) % 6]!;
        const to = customers[(b * 5 + i * 7 + 1) % 6]!;
        return {
          reason: 'transfer.customer',
          reference: ref(),
          idempotencyKey: key('batch'),
          postings: [
            { account: spot(from), currency: 'USDT', amountUnits: -3n },
            { account: spot(to), currency: 'USDT', amountUnits: 3n },
          ],
        };
      }),
    );
    const outcomes = (await Promise.all(batches.map((batch) => f.ledger.postBatch(f.db, batch)))).flat();
    expect(outcomes).toHaveLength(240);
    let total = 0n;
    for (const c of customers) total += (await f.ledger.balances(f.db, { customerId: c }))[0]!.availableUnits;
    expect(total).toBe(6_000n);
    expect((await f.ledger.verify()).ok).toBe(true);
    expect(await deadlocks()).toBe(deadlocksBefore);
  });
});
