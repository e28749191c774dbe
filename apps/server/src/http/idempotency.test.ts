import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/harness.ts';
import { createDb, type Db, detached, inTransaction, withEffectClaim } from '../db/database.ts';
import { IDEMPOTENCY_TTL_MS, type IdempotencyKey, idempotencyStore } from './idempotency.ts';

describe('idempotency store', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
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
