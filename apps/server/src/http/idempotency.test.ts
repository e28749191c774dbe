import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/harness.ts';
import { createDb, type Db } from '../db/database.ts';
import { IDEMPOTENCY_PENDING_STALE_MS, IDEMPOTENCY_TTL_MS, idempotencyStore } from './idempotency.ts';

describe('idempotency store', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const handle = createDb(database.url, { max: 2 });
    db = handle.db;
    close = async () => {
      await handle.db.destroy();
      await database.drop();
    };
  });
  afterAll(async () => close());

  const t0 = new Date('2026-11-21T12:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it('claims once, reports a live claim as pending, replays the finished answer', async () => {
    const store = idempotencyStore(db);
    expect(await store.begin({ hash: 'h1', route: '/r', now: t0 })).toBeNull();
    expect(await store.begin({ hash: 'h1', route: '/r', now: at(1_000) })).toBe('pending');
    await store.finish({ hash: 'h1', httpStatus: 200, sealed: 'sealed-answer' });
    expect(await store.begin({ hash: 'h1', route: '/r', now: at(2_000) })).toEqual({
      httpStatus: 200,
      sealed: 'sealed-answer',
    });
  });

  it('a claim abandoned by a crashed request is taken over after the stale window, a finished one is not', async () => {
    const store = idempotencyStore(db);
    expect(await store.begin({ hash: 'h2', route: '/r', now: t0 })).toBeNull();
    expect(await store.begin({ hash: 'h2', route: '/r', now: at(IDEMPOTENCY_PENDING_STALE_MS - 1) })).toBe(
      'pending',
    );
    expect(
      await store.begin({ hash: 'h2', route: '/r', now: at(IDEMPOTENCY_PENDING_STALE_MS + 1) }),
    ).toBeNull();
    await store.finish({ hash: 'h2', httpStatus: 200, sealed: 'x' });
    const later = at(IDEMPOTENCY_PENDING_STALE_MS * 3);
    expect(await store.begin({ hash: 'h2', route: '/r', now: later })).toEqual({
      httpStatus: 200,
      sealed: 'x',
    });
  });

  it('an answer expires after the TTL and the key can be claimed again', async () => {
    const store = idempotencyStore(db);
    expect(await store.begin({ hash: 'h3', route: '/r', now: t0 })).toBeNull();
    await store.finish({ hash: 'h3', httpStatus: 200, sealed: 'y' });
    expect(await store.begin({ hash: 'h3', route: '/r', now: at(IDEMPOTENCY_TTL_MS + 1) })).toBeNull();
  });
});
