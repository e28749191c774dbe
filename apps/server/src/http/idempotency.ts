import type { Db } from '../db/database.ts';

/** How long an (identity, rtoken) pair replays its first answer (API.md). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still pending after this long belongs to a request that never finished (the process
 * died mid-request): a retry takes it over instead of being told "in progress" for a day. Requests
 * are bounded far below this by the server's timeouts.
 */
export const IDEMPOTENCY_PENDING_STALE_MS = 2 * 60 * 1000;

export type IdempotencyStore = {
  /** Claims the key. Returns null when claimed, 'pending' when another request holds it, or the stored answer. */
  begin(input: {
    hash: string;
    route: string;
    now: Date;
  }): Promise<null | 'pending' | { httpStatus: number; sealed: string }>;
  finish(input: { hash: string; httpStatus: number; sealed: string }): Promise<void>;
  abandon(hash: string): Promise<void>;
  purge(now: Date): Promise<number>;
};

export function idempotencyStore(db: Db): IdempotencyStore {
  return {
    async begin({ hash, route, now }) {
      const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
      const abandonedBefore = new Date(now.getTime() - IDEMPOTENCY_PENDING_STALE_MS);
      // One statement claims a new key or takes over an expired or abandoned one; a live one is left alone.
      const claimed = await db
        .insertInto('http_idempotency')
        .values({ key_hash: hash, route, state: 'pending', created_at: now })
        .onConflict((oc) =>
          oc
            .column('key_hash')
            .doUpdateSet({ state: 'pending', http_status: null, response_sealed: null, created_at: now })
            .where((eb) =>
              eb.or([
                eb('http_idempotency.created_at', '<', expiredBefore),
                eb.and([
                  eb('http_idempotency.state', '=', 'pending'),
                  eb('http_idempotency.created_at', '<', abandonedBefore),
                ]),
              ]),
            ),
        )
        .returning('key_hash')
        .executeTakeFirst();
      if (claimed) return null;
      const row = await db
        .selectFrom('http_idempotency')
        .select(['state', 'http_status', 'response_sealed'])
        .where('key_hash', '=', hash)
        .executeTakeFirst();
      if (!row || row.state === 'pending' || row.http_status === null || row.response_sealed === null)
        return 'pending';
      return { httpStatus: row.http_status, sealed: row.response_sealed };
    },
    async finish({ hash, httpStatus, sealed }) {
      await db
        .updateTable('http_idempotency')
        .set({ state: 'done', http_status: httpStatus, response_sealed: sealed })
        .where('key_hash', '=', hash)
        .execute();
    },
    async abandon(hash) {
      await db
        .deleteFrom('http_idempotency')
        .where('key_hash', '=', hash)
        .where('state', '=', 'pending')
        .execute();
    },
    async purge(now) {
      const result = await db
        .deleteFrom('http_idempotency')
        .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
