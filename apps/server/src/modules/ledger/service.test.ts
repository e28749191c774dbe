import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import { LedgerInvariantError } from './model.ts';
import {
  customerId,
  key,
  type LedgerFixture,
  ledgerSnapshot,
  openLedgerFixture,
  ref,
  usdt,
} from './testing.ts';

let f: LedgerFixture;
beforeAll(async () => {
  f = await openLedgerFixture();
});
afterAll(async () => {
  await f.close();
});

async function refusalOf(work: Promise<unknown>): Promise<Refusal> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

async function deposit(customer: string, amountUnits: bigint, currency = 'USDT') {
  return f.ledger.credit(f.db, {
    book: 'real',
    customerId: customer,
    accountType: 'spot',
    currency,
    amountUnits,
    from: 'deposits_clearing',
    reason: 'deposit',
    reference: ref(),
    idempotencyKey: key('dep'),
  });
}

async function spot(customer: string, currency = 'USDT') {
  return f.ledger.balance(f.db, { book: 'real', customerId: customer, accountType: 'spot', currency });
}

describe('ledger service', () => {
  it('credits, freezes, unfreezes, transfers and debits through entries', async () => {
    const c = customerId();
    const credited = await deposit(c, usdt(1000));
    expect(credited).toMatchObject({ book: 'real', reason: 'deposit', replayed: false });
    expect(credited.id).toMatch(/^jnl_/);
    const base = { book: 'real' as const, customerId: c, currency: 'USDT', reference: ref() };
    await f.ledger.freeze(f.db, {
      ...base,
      accountType: 'spot',
      amountUnits: usdt(300),
      idempotencyKey: key(),
    });
    await f.ledger.unfreeze(f.db, {
      ...base,
      accountType: 'spot',
      amountUnits: usdt(100),
      idempotencyKey: key(),
    });
    await f.ledger.transfer(f.db, {
      ...base,
      fromType: 'spot',
      toType: 'contract',
      amountUnits: usdt(250),
      idempotencyKey: key(),
    });
    await f.ledger.debit(f.db, {
      ...base,
      accountType: 'spot',
      bucket: 'frozen',
      amountUnits: usdt(200),
      to: 'withdrawals_clearing',
      idempotencyKey: key(),
    });
    expect(await f.ledger.balances(f.db, { customerId: c })).toEqual([
      { book: 'real', accountType: 'contract', currency: 'USDT', availableUnits: usdt(250), frozenUnits: 0n },
      { book: 'real', accountType: 'spot', currency: 'USDT', availableUnits: usdt(550), frozenUnits: 0n },
    ]);
    expect(await f.ledger.balances(f.db, { customerId: c, accountType: 'contract' })).toHaveLength(1);
    expect(await f.ledger.verify()).toMatchObject({ ok: true, mismatches: [] });
  });

  it('returns an entry with its postings, signed, in the order posted', async () => {
    const c = customerId();
    const posted = await deposit(c, 42n, 'BTC');
    const detail = await f.ledger.entry(f.db, posted.id);
    expect(detail?.postings).toEqual([
      expect.objectContaining({
        account: { book: 'real', customerId: c, accountType: 'spot' },
        currency: 'BTC',
        bucket: 'available',
        amountUnits: 42n,
      }),
      expect.objectContaining({
        account: { book: 'real', platform: 'deposits_clearing' },
        amountUnits: -42n,
      }),
    ]);
    expect(await f.ledger.entry(f.db, 'jnl_missing')).toBeNull();
  });

  it('refuses an overdraft naming the currency and what is available, and writes nothing', async () => {
    const c = customerId();
    await deposit(c, usdt(10) + 5n);
    const before = await ledgerSnapshot(f.db);
    const refusal = await refusalOf(
      f.ledger.debit(f.db, {
        book: 'real',
        customerId: c,
        accountType: 'spot',
        currency: 'USDT',
        amountUnits: usdt(11),
        to: 'fee_income',
        reference: ref(),
        idempotencyKey: key(),
      }),
    );
    expect(refusal.reason).toBe('INSUFFICIENT_BALANCE');
    expect(refusal.params).toEqual({ currency: 'USDT', available: '10.00000005' });
    expect(await ledgerSnapshot(f.db)).toEqual(before);
  });

  it('refuses a debit of a customer who has no account, opening nothing', async () => {
    const before = await ledgerSnapshot(f.db);
    const refusal = await refusalOf(
      f.ledger.transfer(f.db, {
        book: 'real',
        customerId: customerId(),
        currency: 'ETH',
        fromType: 'earn',
        toType: 'spot',
        amountUnits: 1n,
        reference: ref(),
        idempotencyKey: key(),
      }),
    );
    expect(refusal.params).toEqual({ currency: 'ETH', available: '0' });
    expect(await ledgerSnapshot(f.db)).toEqual(before);
  });

  it('refuses to unfreeze more than is frozen', async () => {
    const c = customerId();
    await deposit(c, 100n);
    const refusal = await refusalOf(
      f.ledger.unfreeze(f.db, {
        book: 'real',
        customerId: c,
        accountType: 'spot',
        currency: 'USDT',
        amountUnits: 1n,
        reference: ref(),
        idempotencyKey: key(),
      }),
    );
    expect(refusal).toMatchObject({
      reason: 'INSUFFICIENT_FROZEN',
      params: { currency: 'USDT', frozen: '0' },
    });
  });

  it('treats a bad amount from a caller as a bug, writing nothing', async () => {
    const before = await ledgerSnapshot(f.db);
    for (const amountUnits of [0n, -1n, 1 as unknown as bigint, Number.NaN as unknown as bigint]) {
      await expect(
        f.ledger.credit(f.db, {
          book: 'real',
          customerId: customerId(),
          accountType: 'spot',
          currency: 'USDT',
          amountUnits,
          from: 'deposits_clearing',
          reference: ref(),
          idempotencyKey: key(),
        }),
      ).rejects.toThrow(LedgerInvariantError);
    }
    await expect(
      f.ledger.post(f.db, {
        reason: 'broken',
        reference: ref(),
        idempotencyKey: key(),
        postings: [
          {
            account: { book: 'real', customerId: customerId(), accountType: 'spot' },
            currency: 'USDT',
            amountUnits: 2n,
          },
          { account: { book: 'real', platform: 'deposits_clearing' }, currency: 'USDT', amountUnits: -1n },
        ],
      }),
    ).rejects.toThrow(/sum to 1, not zero/);
    expect(await ledgerSnapshot(f.db)).toEqual(before);
  });

  it('posts an idempotency key once: a replay returns the first entry and changes nothing', async () => {
    const c = customerId();
    const k = key('deposit');
    const input = {
      book: 'real' as const,
      customerId: c,
      accountType: 'spot' as const,
      currency: 'USDT',
      amountUnits: usdt(5),
      from: 'deposits_clearing' as const,
      reference: ref('dep_1'),
      idempotencyKey: k,
    };
    const first = await f.ledger.credit(f.db, input);
    const before = await ledgerSnapshot(f.db);
    const again = await f.ledger.credit(f.db, { ...input, memo: 'a retry may carry another memo' });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await ledgerSnapshot(f.db)).toEqual(before);
    // The same key for different money is a bug, not a replay.
    await expect(f.ledger.credit(f.db, { ...input, amountUnits: usdt(6) })).rejects.toThrow(
      LedgerInvariantError,
    );
    expect((await spot(c)).availableUnits).toBe(usdt(5));
  });

  it('a replay is recognised even when the balance no longer covers the entry', async () => {
    const c = customerId();
    await deposit(c, 100n);
    const debit = {
      book: 'real' as const,
      customerId: c,
      accountType: 'spot' as const,
      currency: 'USDT',
      amountUnits: 100n,
      to: 'fee_income' as const,
      reference: ref(),
      idempotencyKey: key(),
    };
    const first = await f.ledger.debit(f.db, debit);
    expect(await f.ledger.debit(f.db, debit)).toEqual({ ...first, replayed: true });
  });

  it('reverses an entry once', async () => {
    const c = customerId();
    const posted = await deposit(c, 700n);
    const reversal = await f.ledger.reverse(f.db, {
      entryId: posted.id,
      idempotencyKey: key(),
      actorId: 'stf_1',
    });
    expect(reversal).toMatchObject({ reason: 'reversal', reversesEntryId: posted.id, replayed: false });
    expect((await spot(c)).availableUnits).toBe(0n);
    const again = await refusalOf(f.ledger.reverse(f.db, { entryId: posted.id, idempotencyKey: key() }));
    expect(again.reason).toBe('ENTRY_ALREADY_REVERSED');
    expect(
      (await refusalOf(f.ledger.reverse(f.db, { entryId: 'jnl_nope', idempotencyKey: key() }))).reason,
    ).toBe('NOT_FOUND');
  });

  it('refuses a reversal that would overdraw the customer', async () => {
    const c = customerId();
    const posted = await deposit(c, 700n);
    await f.ledger.debit(f.db, {
      book: 'real',
      customerId: c,
      accountType: 'spot',
      currency: 'USDT',
      amountUnits: 1n,
      to: 'fee_income',
      reference: ref(),
      idempotencyKey: key(),
    });
    const refusal = await refusalOf(f.ledger.reverse(f.db, { entryId: posted.id, idempotencyKey: key() }));
    expect(refusal).toMatchObject({ reason: 'INSUFFICIENT_BALANCE', params: { available: '0.00000699' } });
  });

  it('keeps non-contra platform accounts from going negative', async () => {
    const c = customerId();
    await deposit(c, 10n);
    const refusal = await refusalOf(
      f.ledger.credit(f.db, {
        book: 'real',
        customerId: c,
        accountType: 'spot',
        currency: 'SOL',
        amountUnits: 1n,
        from: 'market_maker',
        reference: ref(),
        idempotencyKey: key(),
      }),
    );
    expect(refusal).toMatchObject({ reason: 'INSUFFICIENT_BALANCE', params: { currency: 'SOL' } });
  });

  it('posts a batch in one transaction with an outcome per entry', async () => {
    const c = customerId();
    const account = { book: 'real' as const, customerId: c, accountType: 'spot' as const };
    const clearing = { book: 'real' as const, platform: 'deposits_clearing' as const };
    const entry = (amountUnits: bigint, k = key()) => ({
      reason: 'batch.test',
      reference: ref(),
      idempotencyKey: k,
      postings: [
        { account, currency: 'USDT', amountUnits },
        { account: clearing, currency: 'USDT', amountUnits: -amountUnits },
      ],
    });
    const repeated = key();
    const outcomes = await f.ledger.postBatch(f.db, [
      entry(100n),
      entry(-150n), // refused: only 100 there
      entry(50n, repeated),
      entry(-150n), // now covered
      entry(50n, repeated), // a replay within the batch
    ]);
    expect(outcomes.map((o) => (o.ok ? (o.entry.replayed ? 'replayed' : 'ok') : o.refusal.reason))).toEqual([
      'ok',
      'INSUFFICIENT_BALANCE',
      'ok',
      'ok',
      'replayed',
    ]);
    expect((await spot(c)).availableUnits).toBe(0n);
    expect(await f.ledger.postBatch(f.db, [])).toEqual([]);
  });

  it('joins the caller transaction: rolled back, nothing remains', async () => {
    const c = customerId();
    await deposit(c, 100n);
    const before = await ledgerSnapshot(f.db);
    await expect(
      inTransaction(f.db, async (tx) => {
        const balance = await f.ledger.balance(tx, {
          book: 'real',
          customerId: c,
          accountType: 'spot',
          currency: 'USDT',
          lock: true,
        });
        await f.ledger.debit(tx, {
          book: 'real',
          customerId: c,
          accountType: 'spot',
          currency: 'USDT',
          amountUnits: balance.availableUnits,
          to: 'fee_income',
          reference: ref(),
          idempotencyKey: key(),
        });
        throw new Error('the caller fails after posting');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await ledgerSnapshot(f.db)).toEqual(before);
    await expect(
      f.ledger.balance(f.db, {
        book: 'real',
        customerId: c,
        accountType: 'spot',
        currency: 'USDT',
        lock: true,
      }),
    ).rejects.toThrow(/needs a transaction/);
  });

  it('the database refuses a negative customer balance and edits of the journal', async () => {
    const c = customerId();
    const posted = await deposit(c, 100n);
    await expect(
      sql`update ledger_account set available = -1 where customer_id = ${c}`.execute(f.db),
    ).rejects.toMatchObject({ constraint: 'ledger_account_available_nonnegative' });
    await expect(
      sql`update ledger_account set allow_negative = true where customer_id = ${c}`.execute(f.db),
    ).rejects.toMatchObject({ constraint: 'ledger_account_customer_never_negative' });
    await expect(
      sql`update ledger_posting set amount = 1 where entry_id = ${posted.id}`.execute(f.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from ledger_entry where id = ${posted.id}`.execute(f.db)).rejects.toThrow(
      /append-only/,
    );
  });
});
