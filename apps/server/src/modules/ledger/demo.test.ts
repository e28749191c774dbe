import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function reasonOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Refusal) return error.reason;
    throw error;
  }
  return 'ok';
}

const demoSpot = (c: string, currency = 'USDT') =>
  f.ledger.balance(f.db, { book: 'demo', customerId: c, accountType: 'spot', currency });

describe('the demo book', () => {
  it('grants virtual funds from the demo faucet, once per key', async () => {
    const c = customerId();
    const k = key('demo-grant');
    const granted = await f.ledger.grantDemoFunds(f.db, { customerId: c, idempotencyKey: k });
    expect(granted).toMatchObject({ book: 'demo', reason: 'demo.grant', replayed: false });
    expect(await demoSpot(c)).toMatchObject({ availableUnits: usdt(100_000), frozenUnits: 0n });
    expect((await f.ledger.grantDemoFunds(f.db, { customerId: c, idempotencyKey: k })).replayed).toBe(true);
    expect((await demoSpot(c)).availableUnits).toBe(usdt(100_000));
    const faucet = await f.ledger.platformBalances(f.db, { book: 'demo', platform: 'demo_faucet' });
    expect(faucet[0]?.availableUnits).toBeLessThanOrEqual(-usdt(100_000));
    // No real platform account took part.
    expect(await f.ledger.platformBalances(f.db, { book: 'real' })).toEqual([]);
  });

  it('resets: every demo bucket back to the faucet, then the starting grant, in one entry', async () => {
    const c = customerId();
    await f.ledger.grantDemoFunds(f.db, {
      customerId: c,
      idempotencyKey: key(),
      grants: [
        { currency: 'USDT', amountUnits: usdt(500) },
        { currency: 'BTC', amountUnits: 3n },
      ],
    });
    const base = { book: 'demo' as const, customerId: c, reference: ref() };
    await f.ledger.transfer(f.db, {
      ...base,
      currency: 'USDT',
      fromType: 'spot',
      toType: 'contract',
      amountUnits: usdt(200),
      idempotencyKey: key(),
    });
    await f.ledger.freeze(f.db, {
      ...base,
      accountType: 'contract',
      currency: 'USDT',
      amountUnits: usdt(50),
      idempotencyKey: key(),
    });
    const k = key('reset');
    const reset = await f.ledger.resetDemo(f.db, { customerId: c, idempotencyKey: k });
    expect(reset).toMatchObject({ book: 'demo', reason: 'demo.reset', replayed: false });
    expect(await f.ledger.balances(f.db, { customerId: c })).toEqual([
      { book: 'demo', accountType: 'contract', currency: 'USDT', availableUnits: 0n, frozenUnits: 0n },
      { book: 'demo', accountType: 'spot', currency: 'BTC', availableUnits: 0n, frozenUnits: 0n },
      { book: 'demo', accountType: 'spot', currency: 'USDT', availableUnits: usdt(100_000), frozenUnits: 0n },
    ]);
    const before = await ledgerSnapshot(f.db);
    expect((await f.ledger.resetDemo(f.db, { customerId: c, idempotencyKey: k })).replayed).toBe(true);
    expect(await ledgerSnapshot(f.db)).toEqual(before);
    expect((await f.ledger.verify()).ok).toBe(true);
  });

  it('resets a demo customer who never had funds to the starting grant', async () => {
    const c = customerId();
    await f.ledger.resetDemo(f.db, { customerId: c, idempotencyKey: key() });
    expect((await demoSpot(c)).availableUnits).toBe(usdt(100_000));
  });

  it('rejects an entry mixing books as a bug, writing nothing', async () => {
    const real = customerId();
    const before = await ledgerSnapshot(f.db);
    await expect(
      f.ledger.post(f.db, {
        reason: 'smuggle',
        reference: ref(),
        idempotencyKey: key(),
        postings: [
          {
            account: { book: 'real', customerId: real, accountType: 'spot' },
            currency: 'USDT',
            amountUnits: 1n,
          },
          { account: { book: 'demo', platform: 'demo_faucet' }, currency: 'USDT', amountUnits: -1n },
        ],
      }),
    ).rejects.toThrow(LedgerInvariantError);
    await expect(
      f.ledger.postBatch(f.db, [
        {
          reason: 'smuggle',
          reference: ref(),
          idempotencyKey: key(),
          postings: [
            {
              account: { book: 'demo', customerId: real, accountType: 'spot' },
              currency: 'USDT',
              amountUnits: -1n,
            },
            {
              account: { book: 'real', customerId: real, accountType: 'spot' },
              currency: 'USDT',
              amountUnits: 1n,
            },
          ],
        },
      ]),
    ).rejects.toThrow(/mixes the demo and real books/);
    expect(await ledgerSnapshot(f.db)).toEqual(before);
  });

  it('refuses to use a customer in the other book (DEMO_BOOK_MISMATCH), writing nothing', async () => {
    const real = customerId();
    await f.ledger.credit(f.db, {
      book: 'real',
      customerId: real,
      accountType: 'spot',
      currency: 'USDT',
      amountUnits: usdt(1),
      from: 'deposits_clearing',
      reference: ref(),
      idempotencyKey: key(),
    });
    const demo = customerId();
    await f.ledger.grantDemoFunds(f.db, { customerId: demo, idempotencyKey: key() });
    const before = await ledgerSnapshot(f.db);
    expect(await reasonOf(f.ledger.grantDemoFunds(f.db, { customerId: real, idempotencyKey: key() }))).toBe(
      'DEMO_BOOK_MISMATCH',
    );
    expect(await reasonOf(f.ledger.resetDemo(f.db, { customerId: real, idempotencyKey: key() }))).toBe(
      'DEMO_BOOK_MISMATCH',
    );
    expect(
      await reasonOf(
        f.ledger.credit(f.db, {
          book: 'real',
          customerId: demo,
          accountType: 'spot',
          currency: 'USDT',
          amountUnits: usdt(1),
          from: 'adjustments',
          reference: ref(),
          idempotencyKey: key(),
        }),
      ),
    ).toBe('DEMO_BOOK_MISMATCH');
    expect(
      await reasonOf(
        f.ledger.balance(f.db, { book: 'real', customerId: demo, accountType: 'spot', currency: 'USDT' }),
      ),
    ).toBe('DEMO_BOOK_MISMATCH');
    expect(await ledgerSnapshot(f.db)).toEqual(before);
  });

  it('the database itself refuses a posting across books', async () => {
    const demo = customerId();
    const granted = await f.ledger.grantDemoFunds(f.db, { customerId: demo, idempotencyKey: key() });
    const realAccount = await f.db
      .selectFrom('ledger_account')
      .select('id')
      .where('book', '=', 'real')
      .where('currency', '=', 'USDT')
      .executeTakeFirstOrThrow();
    await expect(
      sql`insert into ledger_posting (entry_id, account_id, book, currency, bucket, amount)
          values (${granted.id}, ${realAccount.id}, 'demo', 'USDT', 'available', 1)`.execute(f.db),
    ).rejects.toMatchObject({ constraint: 'ledger_posting_account_book_currency' });
    await expect(
      sql`insert into ledger_posting (entry_id, account_id, book, currency, bucket, amount)
          values (${granted.id}, ${realAccount.id}, 'real', 'USDT', 'available', 1)`.execute(f.db),
    ).rejects.toMatchObject({ constraint: 'ledger_posting_entry_book' });
    await expect(
      sql`insert into ledger_account (id, book, customer_id, account_type, currency, created_at, updated_at)
          values ('lac_x', 'real', ${demo}, 'spot', 'BTC', now(), now())`.execute(f.db),
    ).rejects.toMatchObject({ constraint: 'ledger_account_owner_book' });
  });

  it('checks a statement of postings as a whole, and keeps every account a posting names', async () => {
    const granted = await f.ledger.grantDemoFunds(f.db, { customerId: customerId(), idempotencyKey: key() });
    const detail = await f.ledger.entry(f.db, granted.id);
    const account = detail!.postings[0]!.accountId;
    const before = await ledgerSnapshot(f.db);
    // One good posting and one naming an entry that does not exist: the whole statement is refused.
    await expect(
      sql`insert into ledger_posting (entry_id, account_id, book, currency, bucket, amount)
          values (${granted.id}, ${account}, 'demo', 'USDT', 'available', 1),
                 ('jnl_missing', ${account}, 'demo', 'USDT', 'available', -1)`.execute(f.db),
    ).rejects.toMatchObject({ code: '23503', constraint: 'ledger_posting_entry_book' });
    await expect(
      sql`insert into ledger_posting (entry_id, account_id, book, currency, bucket, amount)
          values (${granted.id}, 'lac_missing', 'demo', 'USDT', 'available', 1)`.execute(f.db),
    ).rejects.toMatchObject({ code: '23503', constraint: 'ledger_posting_account_book_currency' });
    // What the foreign keys also guaranteed: the account under a posting neither vanishes nor changes key.
    await expect(sql`delete from ledger_account where id = ${account}`.execute(f.db)).rejects.toMatchObject({
      code: '23001',
    });
    await expect(
      sql`update ledger_account set currency = 'BTC' where id = ${account}`.execute(f.db),
    ).rejects.toMatchObject({ code: '23001' });
    await expect(sql`truncate ledger_account cascade`.execute(f.db)).rejects.toMatchObject({ code: '23001' });
    expect(await ledgerSnapshot(f.db)).toEqual(before);
  });
});
