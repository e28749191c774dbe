import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, type Tx, withEffectClaim } from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { Outcome } from './engine.ts';
import { type AccountRef, type EntryInput, LedgerInvariantError } from './model.ts';
import { customerId, key, type LedgerFixture, ledgerSnapshot, openLedgerFixture, ref } from './testing.ts';

/**
 * The batched posting path's statement semantics (issue 21): the account locks and the key look-up
 * share one statement, entries, postings and balances are written by one; what each entry of a
 * batch sees and gets must be what it was with a statement per step.
 */
let f: LedgerFixture;
beforeAll(async () => {
  f = await openLedgerFixture({ poolMax: 20 });
});
afterAll(async () => {
  await f.close();
});

const spot = (c: string): AccountRef => ({ book: 'real', customerId: c, accountType: 'spot' });
const clearing: AccountRef = { book: 'real', platform: 'deposits_clearing' };

/** `amountUnits` into (positive) or out of (negative) a customer's spot USDT, against deposits_clearing. */
function move(c: string, amountUnits: bigint, idempotencyKey = key('batch')): EntryInput {
  return {
    reason: 'batch.test',
    reference: ref(),
    idempotencyKey,
    postings: [
      { account: spot(c), currency: 'USDT', amountUnits },
      { account: clearing, currency: 'USDT', amountUnits: -amountUnits },
    ],
  };
}

function transfer(from: string, to: string, amountUnits: bigint, idempotencyKey = key('trf')): EntryInput {
  return {
    reason: 'batch.transfer',
    reference: ref(),
    idempotencyKey,
    postings: [
      { account: spot(from), currency: 'USDT', amountUnits: -amountUnits },
      { account: spot(to), currency: 'USDT', amountUnits },
    ],
  };
}

async function available(c: string): Promise<bigint> {
  return (
    await f.ledger.balance(f.db, { book: 'real', customerId: c, accountType: 'spot', currency: 'USDT' })
  ).availableUnits;
}

const summary = (outcomes: Outcome[]) =>
  outcomes.map((o) => (o.ok ? (o.entry.replayed ? 'replayed' : 'ok') : o.refusal.reason));

async function deadlocks(): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select deadlocks::text as n from pg_stat_database where datname = current_database()`.execute(f.db);
  return Number(rows[0]?.n ?? 0);
}

describe('batched posting', () => {
  it('keys committed earlier are replayed exactly as first returned, amid new entries and a refusal', async () => {
    const c = customerId();
    const d = customerId();
    const k1 = key('first');
    const k2 = key('second');
    const [first1, first2] = await f.ledger.postBatch(f.db, [move(c, 500n, k1), move(d, 70n, k2)]);
    if (!first1?.ok || !first2?.ok) throw new Error('the first batch was refused');
    const postingsBefore = await f.ledger.entry(f.db, first1.entry.id);
    f.clock.advance(60_000);
    const outcomes = await f.ledger.postBatch(f.db, [
      move(d, 30n),
      move(c, 500n, k1), // committed before: replayed, even though it comes after a new entry
      transfer(d, c, 1_000n), // refused: d has 100
      move(d, 70n, k2), // committed before
      transfer(c, d, 200n),
    ]);
    expect(summary(outcomes)).toEqual(['ok', 'replayed', 'INSUFFICIENT_BALANCE', 'replayed', 'ok']);
    expect(outcomes[1]).toEqual({ ok: true, entry: { ...first1.entry, replayed: true } });
    expect(outcomes[3]).toEqual({ ok: true, entry: { ...first2.entry, replayed: true } });
    // The new entries carry the new time; the replays keep theirs.
    const fresh = outcomes[0];
    if (!fresh?.ok) throw new Error('refused');
    expect(fresh.entry.createdAt.getTime()).toBe(first1.entry.createdAt.getTime() + 60_000);
    expect(await f.ledger.entry(f.db, first1.entry.id)).toEqual(postingsBefore);
    expect(await available(c)).toBe(300n);
    expect(await available(d)).toBe(300n);
    expect((await f.ledger.verify()).ok).toBe(true);
  });

  it('a new entry gets its postings, in order, and each account its version', async () => {
    const c = customerId();
    const d = customerId();
    await f.ledger.postBatch(f.db, [move(c, 1_000n), move(d, 1_000n)]);
    const outcomes = await f.ledger.postBatch(f.db, [
      transfer(c, d, 1n),
      {
        reason: 'batch.split',
        reference: ref('split'),
        idempotencyKey: key('split'),
        memo: 'a memo with "quotes", \\backslashes\\, {braces}, commas, NULL and 漢字',
        actorId: 'stf_"x"',
        postings: [
          { account: spot(d), currency: 'USDT', amountUnits: -5n },
          { account: spot(c), currency: 'USDT', amountUnits: 2n },
          { account: spot(c), currency: 'USDT', bucket: 'frozen', amountUnits: 3n },
        ],
      },
    ]);
    const split = outcomes[1];
    if (!split?.ok) throw new Error('refused');
    const detail = await f.ledger.entry(f.db, split.entry.id);
    expect(detail).toMatchObject({
      memo: 'a memo with "quotes", \\backslashes\\, {braces}, commas, NULL and 漢字',
      actorId: 'stf_"x"',
      reference: { type: 'test', id: 'split' },
    });
    expect(detail?.postings.map((p) => [p.account, p.bucket, p.amountUnits])).toEqual([
      [spot(d), 'available', -5n],
      [spot(c), 'available', 2n],
      [spot(c), 'frozen', 3n],
    ]);
    const versions = await f.db
      .selectFrom('ledger_account')
      .select(['customer_id', 'version', 'available', 'frozen'])
      .where('customer_id', 'in', [c, d])
      .orderBy('customer_id')
      .execute();
    // Each account: its funding entry, the transfer, the split (counted once per entry, not per posting).
    expect(versions.map((v) => v.version)).toEqual(['3', '3']);
    expect((await f.ledger.verify()).ok).toBe(true);
  });

  it('one key twice in a batch with other content is a bug: nothing of the batch is written', async () => {
    const c = customerId();
    await f.ledger.postBatch(f.db, [move(c, 100n)]);
    const before = await ledgerSnapshot(f.db);
    const k = key('dup');
    await expect(f.ledger.postBatch(f.db, [move(c, 10n), move(c, 5n, k), move(c, 6n, k)])).rejects.toThrow(
      LedgerInvariantError,
    );
    expect(await ledgerSnapshot(f.db)).toEqual(before);
  });

  it('a refusal mid-batch refuses only its own entry, whichever account it touches', async () => {
    const c = customerId();
    const d = customerId();
    await f.ledger.postBatch(f.db, [move(c, 100n), move(d, 100n)]);
    const outcomes = await f.ledger.postBatch(f.db, [
      transfer(c, d, 60n),
      transfer(c, d, 60n), // c has 40 left
      transfer(d, c, 160n),
      transfer(c, d, 160n), // c has 200 now
      move(d, -161n), // d has 160
    ]);
    expect(summary(outcomes)).toEqual(['ok', 'INSUFFICIENT_BALANCE', 'ok', 'ok', 'INSUFFICIENT_BALANCE']);
    expect(await available(c)).toBe(40n);
    expect(await available(d)).toBe(160n);
    expect((await f.ledger.verify()).ok).toBe(true);
  });

  it('two batches racing on the same accounts never both win, share a key once, never deadlock', async () => {
    const deadlocksBefore = await deadlocks();
    for (let round = 0; round < 15; round++) {
      const c = customerId();
      const d = customerId();
      await f.ledger.postBatch(f.db, [move(c, 100n), move(d, 100n)]);
      const shared = key('shared');
      // Each batch alone could take 60 from c; together they would overdraw it. Both also carry the
      // same keyed deposit into d, and touch the accounts in opposite orders.
      const a = [move(d, 7n, shared), transfer(c, d, 60n)];
      const b = [transfer(d, c, 1n), transfer(c, d, 60n), move(d, 7n, shared)];
      const [ra, rb] = await Promise.all([f.ledger.postBatch(f.db, a), f.ledger.postBatch(f.db, b)]);
      const wins = [ra![1]!, rb![1]!].filter((o) => o.ok).length;
      const refused = [ra![1]!, rb![1]!].filter((o) => !o.ok && o.refusal.reason === 'INSUFFICIENT_BALANCE');
      // b's first transfer gives c 1: the two 60s need 120, c has at most 101.
      expect(wins).toBe(1);
      expect(refused).toHaveLength(1);
      const sharedOutcomes = [ra![0]!, rb![2]!];
      expect(sharedOutcomes.every((o) => o.ok)).toBe(true);
      const posted = sharedOutcomes.flatMap((o) => (o.ok ? [o.entry] : []));
      expect(new Set(posted.map((e) => e.id)).size).toBe(1);
      expect(posted.filter((e) => !e.replayed)).toHaveLength(1);
      expect((await available(c)) + (await available(d))).toBe(207n);
    }
    expect((await f.ledger.verify()).ok).toBe(true);
    expect(await deadlocks()).toBe(deadlocksBefore);
  }, 60_000);

  it('one key posted at once from 10 callers’ own transactions: one posts, the rest replay, no error', async () => {
    const c = customerId();
    const k = key('callers');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        inTransaction(f.db, (tx: Tx) => f.ledger.postBatch(tx, [move(c, 9n, k)])),
      ),
    );
    const entries = results.map((r) => r[0]!).flatMap((o) => (o.ok ? [o.entry] : []));
    expect(entries).toHaveLength(10);
    expect(new Set(entries.map((e) => e.id)).size).toBe(1);
    expect(entries.filter((e) => !e.replayed)).toHaveLength(1);
    expect(await available(c)).toBe(9n);
  });

  it('soleWriter skips the advisory key locks; a twin that exists after all is refused by the unique key, never posted twice', async () => {
    const c = customerId();
    await f.ledger.postBatch(f.db, [move(c, 1_000n)]);
    // Inside a caller's transaction, what it holds once the entry is posted: with the default, the
    // transaction-scoped lock on the entry's key; with soleWriter, none.
    const keyLocksHeld = (options?: { soleWriter: true }) =>
      inTransaction(f.db, async (tx) => {
        await f.ledger.postBatch(tx, [move(c, -1n)], options);
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`.execute(
          tx,
        );
        return rows[0]!.n;
      });
    expect(await keyLocksHeld()).toBe(1);
    expect(await keyLocksHeld({ soleWriter: true })).toBe(0);
    // Two twins posting one key at once, both claiming to be the only writer: one posts, the other's
    // insert meets the unique key inside its own transaction and fails; the balance moved once.
    const k = key('twin');
    const twins = await Promise.allSettled(
      [0, 1].map(() =>
        inTransaction(f.db, (tx: Tx) => f.ledger.postBatch(tx, [move(c, 7n, k)], { soleWriter: true })),
      ),
    );
    const posted = twins.flatMap((t) => (t.status === 'fulfilled' ? t.value : []));
    const failed = twins.flatMap((t) => (t.status === 'rejected' ? [t.reason as { code?: string }] : []));
    // Either the second ran after the first committed (it found the key: a replay) or it raced (23505).
    expect(posted.filter((o) => o.ok && !o.entry.replayed)).toHaveLength(1);
    for (const e of failed) expect(e.code).toBe('23505');
    expect(await available(c)).toBe(1_000n - 2n + 7n);
    expect((await f.ledger.verify()).ok).toBe(true);
  });

  it('two reversals of one entry under different keys at once: one reverses, the other is refused', async () => {
    for (let round = 0; round < 10; round++) {
      const c = customerId();
      const [posted] = await f.ledger.postBatch(f.db, [move(c, 300n)]);
      if (!posted?.ok) throw new Error('refused');
      const results = await Promise.allSettled(
        [key('rev'), key('rev')].map((idempotencyKey) =>
          f.ledger.reverse(f.db, { entryId: posted.entry.id, idempotencyKey }),
        ),
      );
      const ok = results.filter((r) => r.status === 'fulfilled');
      const refused = results.flatMap((r) =>
        r.status === 'rejected' && r.reason instanceof Refusal ? [r.reason.reason] : [],
      );
      expect(ok).toHaveLength(1);
      expect(refused).toEqual(['ENTRY_ALREADY_REVERSED']);
      expect(await available(c)).toBe(0n);
    }
  });

  it("inside an idempotent request, only a call that wrote commits the request's claim, in its transaction", async () => {
    const c = customerId();
    await f.ledger.postBatch(f.db, [move(c, 100n)]);
    const k = key('claimed');
    const seen: Array<string | null> = [];
    const claim = {
      // What the claim's transaction holds under `k` when the claim is committed in it.
      async commit(tx: Tx) {
        seen.push((await f.ledger.entryIdByKey(tx, k)) ?? null);
        return true;
      },
    };
    await withEffectClaim(claim, async () => {
      // Refused: nothing written, no claim — a crash now must not make a retry answer "applied".
      await expect(f.ledger.post(f.db, transfer(c, customerId(), 1_000n))).rejects.toBeInstanceOf(Refusal);
      const [refused] = await f.ledger.postBatch(f.db, [move(c, -1_000n)]);
      expect(refused?.ok).toBe(false);
      expect(seen).toEqual([]);
      // Accepted: the claim commits once, in the transaction that holds the entry.
      const posted = await f.ledger.post(f.db, move(c, 5n, k));
      expect(seen).toEqual([posted.id]);
      // A replay writes nothing: no second claim.
      expect(await f.ledger.post(f.db, move(c, 5n, k))).toEqual({ ...posted, replayed: true });
      expect(seen).toEqual([posted.id]);
    });
  });

  it('lockAccounts locks every account of entries posted later in several batches, in one round, first', async () => {
    const [a, b, c] = [customerId(), customerId(), customerId()];
    await f.ledger.postBatch(f.db, [move(a, 1_000n), move(b, 1_000n)]);
    // Two transactions, each to post a→b and b→a in two batches in opposite orders: posted batch after
    // batch, each batch's own round (id order) is no global order — the first takes a, the second b,
    // then each waits for the other. Locked first, the second waits for the first at the start.
    const entries = (from: string, to: string) => [transfer(from, to, 1n), transfer(to, from, 1n)];
    const before = await deadlocks();
    let holding = () => {};
    const held = new Promise<void>((r) => (holding = r));
    let releasing = () => {};
    const released = new Promise<void>((r) => (releasing = r));
    const first = inTransaction(f.db, async (tx) => {
      // a, b and deposits_clearing; c has no account yet — the batch that pays into it opens it.
      expect(await f.ledger.lockAccounts(tx, [...entries(a, b), move(c, 5n)])).toBe(3);
      holding();
      await released;
      await f.ledger.postBatch(tx, [entries(a, b)[0] as EntryInput]);
      await f.ledger.postBatch(tx, [entries(a, b)[1] as EntryInput, move(c, 5n)]);
    });
    await held;
    // Both rows are held by the first transaction before it posts anything.
    const client = new pg.Client({ connectionString: f.url });
    await client.connect();
    try {
      await client.query('begin');
      await expect(
        client.query('select id from ledger_account where customer_id = any($1) for update nowait', [[a, b]]),
      ).rejects.toMatchObject({ code: '55P03' });
      await client.query('rollback');
    } finally {
      await client.end();
    }
    const second = inTransaction(f.db, async (tx) => {
      await f.ledger.lockAccounts(tx, entries(b, a));
      await f.ledger.postBatch(tx, [entries(b, a)[0] as EntryInput]);
      await f.ledger.postBatch(tx, [entries(b, a)[1] as EntryInput]);
    });
    releasing();
    await Promise.all([first, second]);
    expect(await deadlocks()).toBe(before);
    expect([await available(a), await available(b), await available(c)]).toEqual([1_000n, 1_000n, 5n]);
    expect((await f.ledger.verify()).ok).toBe(true);
  });

  it("in a caller's transaction, account ids are remembered only once it commits", async () => {
    // Statements sent while `work` runs (every connection of this process).
    const statements = async (work: () => Promise<unknown>): Promise<string[]> => {
      const seen: string[] = [];
      const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const q = args[0] as string | { text?: string };
        seen.push(typeof q === 'string' ? q : String(q?.text));
        return query.apply(this, args);
      } as typeof pg.Client.prototype.query;
      try {
        await work();
      } finally {
        pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
      }
      return seen;
    };
    const lookups = (sent: string[]) =>
      sent.filter((t) => /ledger_owner|from ledger_account a join unnest/.test(t));

    // Rolled back: the account this transaction opened does not exist, and nothing remembers its id.
    const c = customerId();
    await expect(
      inTransaction(f.db, async (tx) => {
        await f.ledger.postBatch(tx, [move(c, 100n)]);
        throw new Error('the caller gives up');
      }),
    ).rejects.toThrow('the caller gives up');
    const opened = await statements(() =>
      inTransaction(f.db, (tx) => f.ledger.postBatch(tx, [move(c, 40n)])),
    );
    expect(await available(c)).toBe(40n);
    expect(lookups(opened).length).toBeGreaterThan(0);

    // Committed: the next posting on the same accounts in a caller's transaction looks nothing up.
    const again = await statements(() => inTransaction(f.db, (tx) => f.ledger.postBatch(tx, [move(c, 2n)])));
    expect(lookups(again)).toEqual([]);
    expect(await available(c)).toBe(42n);
  });
});
