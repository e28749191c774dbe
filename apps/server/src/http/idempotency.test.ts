import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase } from '../../test/harness.ts';
import { createDb, type Db, detached, inTransaction, type Tx, withEffectClaim } from '../db/database.ts';
import { IDEMPOTENCY_TTL_MS, type IdempotencyKey, idempotencyStore } from './idempotency.ts';

describe('idempotency store', () => {
  let db: Db;
  let createdUrl: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    createdUrl = database.url;
    const handle = createDb(database.url, { max: 6 });
    db = handle.db;
    close = async () => {
      await handle.db.destroy();
      await database.drop();
    };
  });
  afterAll(async () => close());

  const t0 = new Date('2026-11-21T12:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  let n = 0;
  const newKey = (requestHash = 'content'): IdempotencyKey => {
    n += 1;
    return { hash: `key-${n}-${Math.random()}`, route: 'POST /x', requestHash };
  };
  const answer = { httpStatus: 200, sealed: 'sealed-answer' };

  it('claims once, keeps a live twin waiting, replays the finished answer', async () => {
    const store = idempotencyStore(db);
    const key = newKey();
    const first = await store.begin(key, t0);
    expect(first.state).toBe('claimed');
    expect(await store.begin(key, t0, 50)).toEqual({ state: 'pending' });
    if (first.state !== 'claimed') throw new Error('unreachable');
    await store.finish(key, first.claimId, answer, t0);
    expect(await store.begin(key, at(1000))).toEqual({ state: 'done', ...answer });
    await store.close();
  });

  it('a twin waits for the first answer instead of failing at once', async () => {
    const store = idempotencyStore(db);
    const key = newKey();
    const first = await store.begin(key, t0);
    if (first.state !== 'claimed') throw new Error('not claimed');
    const twin = store.begin(key, t0, 2000);
    await new Promise((r) => setTimeout(r, 100));
    await store.finish(key, first.claimId, answer, t0);
    expect(await twin).toEqual({ state: 'done', ...answer });
    await store.close();
  });

  it('many keys at once share round trips: each is claimed once, its twin waits, every answer lands on its own key', async () => {
    const store = idempotencyStore(db);
    const keys = Array.from({ length: 60 }, () => newKey());
    // Count statements on the pool and the lock connection alike.
    let statements = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const countingStore = idempotencyStore(counted);
    const begun = await Promise.all(keys.map((k) => countingStore.begin(k, t0)));
    expect(begun.every((b) => b.state === 'claimed')).toBe(true);
    // Twins of every key, in the same process, while the first claims hold: each waits.
    const twins = keys.map((k) => countingStore.begin(k, t0, 2000));
    await inTransaction(db, async (tx) => {
      const ours = await countingStore.commitMany(
        tx,
        keys.slice(0, 30).map((key, i) => ({ key, claimId: (begun[i] as { claimId: string }).claimId })),
        t0,
      );
      expect(ours.size).toBe(30);
      // A second claimant of an applied key is fenced off, in the batch as alone.
      const other = await countingStore.commitMany(tx, [{ key: keys[0]!, claimId: 'someone-else' }], t0);
      expect(other.size).toBe(0);
    });
    await Promise.all(
      keys.map((key, i) =>
        countingStore.finish(
          key,
          (begun[i] as { claimId: string }).claimId,
          { httpStatus: 200, sealed: `answer-${i}` },
          at(i),
        ),
      ),
    );
    const replayed = await Promise.all(twins);
    expect(replayed).toEqual(keys.map((_, i) => ({ state: 'done', httpStatus: 200, sealed: `answer-${i}` })));
    // 60 keys: lock, read, finish and unlock for each, and 60 twins' polls — far fewer statements
    // than one per call (the first of each kind goes alone, the rest together).
    expect(statements).toBeLessThan(120);
    await countingStore.close();
    await store.close();
  });

  it('takes the lock and reads the record in one round trip; reads an applied record again once held', async () => {
    const texts: string[] = [];
    const counted = db.withPlugin({
      transformQuery: (args) => {
        texts.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const store = idempotencyStore(counted);
    onTestFinished(() => store.close());
    const statementsOf = async <T>(run: () => Promise<T>): Promise<{ value: T; statements: number }> => {
      await new Promise((r) => setTimeout(r, 20)); // the previous call's unlock, not awaited by it
      texts.length = 0;
      const value = await run();
      await new Promise((r) => setTimeout(r, 20)); // and its own unlock, which goes after its answer
      return { value, statements: texts.length };
    };
    // A new key: one statement (the lock and the read), then claimed (held: no unlock yet).
    const fresh = newKey();
    const first = await statementsOf(() => store.begin(fresh, t0));
    expect(first.value.state).toBe('claimed');
    expect(first.statements).toBe(1);
    const claimId = (first.value as { claimId: string }).claimId;
    // Applied, answer not stored yet (the holder died or answered 5xx): read again under the lock.
    await inTransaction(db, async (tx) => {
      expect(await store.commit(tx, fresh, claimId, t0)).toBe(true);
    });
    await store.release(fresh);
    const applied = await statementsOf(() => store.begin(fresh, at(1)));
    expect(applied.value).toEqual({ state: 'applied' });
    expect(applied.statements).toBe(3); // the lock and the read, the read again, the unlock
    // Done: the lock's statement read it, the unlock follows.
    const other = newKey();
    const claimed = await store.begin(other, t0);
    await store.finish(other, (claimed as { claimId: string }).claimId, answer, t0);
    const replay = await statementsOf(() => store.begin(other, at(1)));
    expect(replay.value).toEqual({ state: 'done', ...answer });
    expect(replay.statements).toBe(2);
    // finish does not wait for its unlock, which still lands: another process gets the key and the answer.
    const third = newKey();
    const held = await store.begin(third, t0);
    await store.finish(third, (held as { claimId: string }).claimId, answer, t0);
    const elsewhere = idempotencyStore(db);
    expect(await elsewhere.begin(third, at(1), 2000)).toEqual({ state: 'done', ...answer });
    await elsewhere.close();
  });

  it('a batched answer overwrites an expired record and never another live claim', async () => {
    const store = idempotencyStore(db);
    const expired = newKey();
    const live = newKey();
    await sql`insert into http_idempotency (key_hash, route, state, claim_id, request_hash, created_at)
      values (${expired.hash}, 'POST /x', 'done', 'old', 'content', ${at(-IDEMPOTENCY_TTL_MS - 1)}),
             (${live.hash}, 'POST /x', 'applied', 'other', 'content', ${t0})`.execute(db);
    await Promise.all([
      store.finish(expired, 'mine', { httpStatus: 200, sealed: 'new' }, t0),
      store.finish(live, 'mine', { httpStatus: 200, sealed: 'new' }, t0),
    ]);
    const rows = await db
      .selectFrom('http_idempotency')
      .select(['key_hash', 'state', 'response_sealed'])
      .where('key_hash', 'in', [expired.hash, live.hash])
      .execute();
    const byKey = new Map(rows.map((r) => [r.key_hash, r]));
    expect(byKey.get(expired.hash)).toMatchObject({ state: 'done', response_sealed: 'new' });
    expect(byKey.get(live.hash)).toMatchObject({ state: 'applied', response_sealed: null });
    await store.close();
  });

  it('a claim held by another process blocks; when that process dies, a retry proceeds at once', async () => {
    const a = idempotencyStore(db);
    const b = idempotencyStore(db);
    const key = newKey();
    expect((await a.begin(key, t0)).state).toBe('claimed');
    expect(await b.begin(key, t0, 50)).toEqual({ state: 'pending' });
    await a.close(); // its lock connection goes, as it does when the process is killed
    expect((await b.begin(key, t0, 2000)).state).toBe('claimed');
    await b.close();
  });

  it('an effect committed with its claim is found by a retry after a crash; a rolled-back one is not', async () => {
    const a = idempotencyStore(db);
    const committed = newKey();
    const claimA = await a.begin(committed, t0);
    if (claimA.state !== 'claimed') throw new Error('not claimed');
    await inTransaction(db, async (tx) => {
      expect(await a.commit(tx, committed, claimA.claimId, t0)).toBe(true);
    });
    const rolledBack = newKey();
    const claimB = await a.begin(rolledBack, t0);
    if (claimB.state !== 'claimed') throw new Error('not claimed');
    await expect(
      inTransaction(db, async (tx) => {
        await a.commit(tx, rolledBack, claimB.claimId, t0);
        throw new Error('the process dies before commit');
      }),
    ).rejects.toThrow('dies');
    await a.close(); // crash: no answer stored
    const b = idempotencyStore(db);
    expect(await b.begin(committed, at(10))).toEqual({ state: 'applied' });
    expect((await b.begin(rolledBack, at(10))).state).toBe('claimed');
    await b.close();
  });

  it('a second claimant cannot commit over an applied record (fenced by claim id)', async () => {
    const store = idempotencyStore(db);
    const key = newKey();
    await inTransaction(db, async (tx) => {
      expect(await store.commit(tx, key, 'claim-1', t0)).toBe(true);
      expect(await store.commit(tx, key, 'claim-1', t0)).toBe(true); // a second write of the same request
    });
    await inTransaction(db, async (tx) => {
      expect(await store.commit(tx, key, 'claim-2', t0)).toBe(false);
    });
    await store.close();
  });

  it('the same rtoken with other content is refused; an expired record is claimed anew', async () => {
    const store = idempotencyStore(db);
    const key = newKey('first');
    const first = await store.begin(key, t0);
    if (first.state !== 'claimed') throw new Error('not claimed');
    await store.finish(key, first.claimId, answer, t0);
    expect(await store.begin({ ...key, requestHash: 'second' }, at(5))).toEqual({ state: 'reused' });
    expect((await store.begin(key, at(IDEMPOTENCY_TTL_MS + 1))).state).toBe('claimed');
    await store.release(key);
    expect(await store.purge(at(2 * IDEMPOTENCY_TTL_MS))).toBeGreaterThan(0);
    await store.close();
  });

  it('a lock connection killed under the store does not crash the process; the next claim reopens it', async () => {
    const url = new URL(createdUrl);
    url.searchParams.set('application_name', 'bourse-dropped');
    const handle = createDb(url.toString(), { max: 3 });
    const store = idempotencyStore(handle.db);
    try {
      expect((await store.begin(newKey(), t0)).state).toBe('claimed');
      // The held lock connection and the pool's idle ones are terminated, as a restart of PostgreSQL does.
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from (
          select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'bourse-dropped'
        ) t`.execute(db);
      expect(rows[0]?.n).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
      // The first call after the drop may fail with the dead connection; the store then reopens it.
      await store.begin(newKey(), t0).catch(() => null);
      expect((await store.begin(newKey(), t0)).state).toBe('claimed');
    } finally {
      await store.close();
      // Every connection went back: a lock connection orphaned by the reopen would hang this.
      await handle.db.destroy();
    }
  });
});

describe('effect scope', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const handle = createDb(database.url, { max: 4 });
    db = handle.db;
    await db.schema.createTable('scratch').addColumn('v', 'integer').execute();
    close = async () => {
      await handle.db.destroy();
      await database.drop();
    };
  });
  afterAll(async () => close());

  it('a writing transaction commits the claim with it; a reading one and a detached one do not', async () => {
    const commits: string[] = [];
    const claim = {
      commit: async () => {
        commits.push('commit');
        return true;
      },
    };
    await withEffectClaim(claim, async () => {
      await inTransaction(db, async (tx) => tx.selectFrom('http_idempotency').selectAll().execute());
      expect(commits).toEqual([]);
      await detached(() =>
        inTransaction(db, async (tx) => {
          await sql`insert into scratch (v) values (1)`.execute(tx);
        }),
      );
      expect(commits).toEqual([]);
      await inTransaction(db, async (tx) => {
        await sql`insert into scratch (v) values (2)`.execute(tx);
      });
      expect(commits).toEqual(['commit']);
    });
  });

  it('a statement starting with `with` writes only when one of its parts modifies data', async () => {
    const commits: string[] = [];
    const claim = {
      commit: async () => {
        commits.push('commit');
        return true;
      },
    };
    const wrote = async (work: (tx: Tx) => Promise<unknown>) => {
      commits.length = 0;
      await withEffectClaim(claim, () => inTransaction(db, async (tx) => void (await work(tx))));
      return commits.length === 1;
    };
    // Reads written as CTEs — even one locking rows — are reads: no claim is recorded for them.
    expect(
      await wrote((tx) => sql`with s as (select v from scratch) select count(*) from s`.execute(tx)),
    ).toBe(false);
    expect(
      await wrote((tx) =>
        sql`with s as (select v, 1 as updated from scratch for update) select * from s`.execute(tx),
      ),
    ).toBe(false);
    // A CTE that inserts, updates or deletes is a write, raw or built.
    expect(
      await wrote((tx) =>
        sql`with i as (insert into scratch (v) values (3) returning v) select * from i`.execute(tx),
      ),
    ).toBe(true);
    expect(
      await wrote((tx) =>
        sql`with u as (update scratch s set v = v returning v) select count(*) from u`.execute(tx),
      ),
    ).toBe(true);
    expect(await wrote((tx) => sql`with d as (delete from scratch where v < 0) select 1`.execute(tx))).toBe(
      true,
    );
    expect(
      await wrote((tx) =>
        (tx as unknown as Db)
          .with('i', (qb) =>
            qb
              .insertInto('scratch' as never)
              .values({ v: 4 } as never)
              .returning('v' as never),
          )
          .selectFrom('i' as never)
          .selectAll()
          .execute(),
      ),
    ).toBe(true);
  });

  it('a lost claim rolls the effect back', async () => {
    const lost = { commit: async () => false };
    await expect(
      withEffectClaim(lost, () =>
        inTransaction(db, async (tx) => {
          await tx
            .insertInto('http_idempotency')
            .values({ key_hash: 'scope-3', route: 'x', state: 'done' })
            .execute();
        }),
      ),
    ).rejects.toThrow('claim lost');
    const rows = await db
      .selectFrom('http_idempotency')
      .select('key_hash')
      .where('key_hash', '=', 'scope-3')
      .execute();
    expect(rows).toEqual([]);
  });
});
