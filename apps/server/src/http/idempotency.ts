import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db, Tx } from '../db/database.ts';

/** How long an (identity, rtoken) pair replays its first answer (API.md). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a twin of a request still being answered waits for that answer before 409. */
export const TWIN_WAIT_MS = 3_000;
const TWIN_POLL_MS = 25;

/**
 * What `begin` found for a key:
 * - `claimed`: nobody answered it yet; this request runs and holds the key until `release`;
 * - `pending`: a live twin (this process or another) is running it;
 * - `done`: the first answer, to replay;
 * - `applied`: the effect committed but its answer was lost (the process died before answering);
 * - `reused`: the rtoken was first used for a different request.
 */
export type BeginResult =
  | { state: 'claimed'; claimId: string }
  | { state: 'pending' }
  | { state: 'done'; httpStatus: number; sealed: string }
  | { state: 'applied' }
  | { state: 'reused' };

export type IdempotencyKey = { hash: string; route: string; requestHash: string };

/**
 * The idempotency records of requests with an rtoken.
 *
 * Exclusivity: a claimant holds a PostgreSQL session advisory lock on the key (on one connection the
 * store keeps for itself) and an in-process mark. Both vanish with the process: a request killed
 * mid-way leaves nothing pending, so a retry after a crash proceeds at once — and finds the effect
 * if it committed, because the record is written as `applied` inside the very transaction that made
 * the effect (`commit`, called by `inTransaction` through the request's effect scope). The answer
 * is stored (`done`) after the response is produced; a crash before that leaves `applied`, which a
 * retry is told (REQUEST_ALREADY_APPLIED) rather than run twice.
 */
export type IdempotencyStore = {
  begin(key: IdempotencyKey, now: Date, wait?: number): Promise<BeginResult>;
  /** In the effect's transaction: records `applied`. False when another claim owns the key. */
  commit(tx: Tx, key: IdempotencyKey, claimId: string, now: Date): Promise<boolean>;
  /**
   * `commit` for many claims in one statement (a spot book's batch): the hashes recorded. Keys must
   * be distinct (a key has at most one live claim in a process: `begin` holds it).
   */
  commitMany(tx: Tx, claims: { key: IdempotencyKey; claimId: string }[], now: Date): Promise<Set<string>>;
  /** Stores the answer and releases the key. */
  finish(
    key: IdempotencyKey,
    claimId: string,
    answer: { httpStatus: number; sealed: string },
    now: Date,
  ): Promise<void>;
  /** Releases the key without storing an answer (a 5xx); an `applied` record stays. */
  release(key: IdempotencyKey): Promise<void>;
  purge(now: Date): Promise<number>;
  close(): Promise<void>;
};

/** A 64-bit advisory-lock key from the record's hash. */
function lockKey(hash: string): string {
  return BigInt.asIntN(
    64,
    BigInt(`0x${createHash('sha256').update(hash).digest('hex').slice(0, 16)}`),
  ).toString();
}

type LockOp = 'lock' | 'unlock' | 'unlockAll';
type Held = { locked: (op: LockOp, key: string) => Promise<boolean>; end: () => void };

/**
 * One connection held for advisory locks (session locks live as long as their connection); reopened
 * when it fails — its locks die with it, as they do with the process.
 */
function lockConnection(db: Db, log?: Logger) {
  let current: Promise<Held> | null = null;
  let closed = false;
  const open = () =>
    new Promise<Held>((resolve, reject) => {
      let end: () => void = () => {};
      const held = new Promise<void>((r) => {
        end = r;
      });
      db.connection()
        .execute(async (conn) => {
          resolve({
            locked: async (op, key) => {
              const { rows } =
                op === 'lock'
                  ? await sql<{ ok: boolean }>`select pg_try_advisory_lock(${key}::bigint) as ok`.execute(
                      conn,
                    )
                  : op === 'unlock'
                    ? await sql<{ ok: boolean }>`select pg_advisory_unlock(${key}::bigint) as ok`.execute(
                        conn,
                      )
                    : await sql<{ ok: boolean }>`select pg_advisory_unlock_all() is null as ok`.execute(conn);
              return rows[0]?.ok === true;
            },
            end,
          });
          await held;
        })
        .catch(reject)
        .finally(() => {
          current = null;
        });
    });
  return {
    async locked(op: LockOp, key: string): Promise<boolean> {
      if (closed) throw new Error('idempotency store closed');
      current ??= open();
      const conn = await current;
      try {
        return await conn.locked(op, key);
      } catch (error) {
        log?.warn({ err: error }, 'idempotency lock connection failed; reopening');
        await conn.locked('unlockAll', '0').catch(() => false);
        conn.end();
        current = null;
        throw error;
      }
    },
    async close() {
      closed = true;
      const conn = await current?.catch(() => null);
      // The connection goes back to the pool: it must not carry this store's locks with it.
      await conn?.locked('unlockAll', '0').catch(() => false);
      conn?.end();
    },
  };
}

export function idempotencyStore(db: Db, options: { log?: Logger } = {}): IdempotencyStore {
  const inFlight = new Set<string>();
  const locks = lockConnection(db, options.log);

  async function tryLock(hash: string): Promise<boolean> {
    if (inFlight.has(hash)) return false;
    inFlight.add(hash);
    try {
      if (await locks.locked('lock', lockKey(hash))) return true;
    } catch (error) {
      inFlight.delete(hash);
      throw error;
    }
    inFlight.delete(hash);
    return false;
  }

  async function unlock(hash: string): Promise<void> {
    if (!inFlight.delete(hash)) return;
    await locks.locked('unlock', lockKey(hash)).catch(() => false);
  }

  return {
    async begin(key, now, wait = TWIN_WAIT_MS) {
      // A real-time wait for a live twin (wall clock on purpose: nothing is decided by it).
      const deadline = Date.now() + wait;
      while (!(await tryLock(key.hash))) {
        if (Date.now() >= deadline) return { state: 'pending' };
        await new Promise((r) => setTimeout(r, TWIN_POLL_MS));
      }
      try {
        const row = await db
          .selectFrom('http_idempotency')
          .select(['state', 'http_status', 'response_sealed', 'request_hash', 'created_at'])
          .where('key_hash', '=', key.hash)
          .executeTakeFirst();
        const live = row && row.created_at.getTime() > now.getTime() - IDEMPOTENCY_TTL_MS;
        if (live) {
          let answer: BeginResult;
          if (row.request_hash !== null && row.request_hash !== key.requestHash) answer = { state: 'reused' };
          else if (row.state === 'done' && row.http_status !== null && row.response_sealed !== null)
            answer = { state: 'done', httpStatus: row.http_status, sealed: row.response_sealed };
          else answer = { state: 'applied' };
          await unlock(key.hash);
          return answer;
        }
        return { state: 'claimed', claimId: crypto.randomUUID() };
      } catch (error) {
        await unlock(key.hash);
        throw error;
      }
    },

    async commit(tx, key, claimId, now) {
      const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
      const row = await tx
        .insertInto('http_idempotency')
        .values({
          key_hash: key.hash,
          route: key.route,
          state: 'applied',
          claim_id: claimId,
          request_hash: key.requestHash,
          created_at: now,
        })
        .onConflict((oc) =>
          oc
            .column('key_hash')
            .doUpdateSet({
              state: 'applied',
              claim_id: claimId,
              request_hash: key.requestHash,
              http_status: null,
              response_sealed: null,
              created_at: now,
            })
            .where((eb) =>
              eb.or([
                eb('http_idempotency.created_at', '<', expiredBefore),
                eb.and([
                  eb('http_idempotency.claim_id', '=', claimId),
                  eb('http_idempotency.state', '=', 'applied'),
                ]),
              ]),
            ),
        )
        .returning('key_hash')
        .executeTakeFirst();
      return row !== undefined;
    },

    async commitMany(tx, claims, now) {
      if (claims.length === 0) return new Set();
      const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
      const { rows } = await sql<{ key_hash: string }>`
        insert into http_idempotency as h (key_hash, route, state, claim_id, request_hash, created_at)
        select c.key_hash, c.route, 'applied', c.claim_id, c.request_hash, ${now}::timestamptz
        from unnest(${claims.map((c) => c.key.hash)}::text[], ${claims.map((c) => c.key.route)}::text[],
                    ${claims.map((c) => c.claimId)}::text[], ${claims.map((c) => c.key.requestHash)}::text[])
             as c(key_hash, route, claim_id, request_hash)
        on conflict (key_hash) do update set
          state = 'applied', claim_id = excluded.claim_id, request_hash = excluded.request_hash,
          http_status = null, response_sealed = null, created_at = excluded.created_at
        where h.created_at < ${expiredBefore}::timestamptz
           or (h.claim_id = excluded.claim_id and h.state = 'applied')
        returning h.key_hash`.execute(tx);
      return new Set(rows.map((r) => r.key_hash));
    },

    async finish(key, claimId, answer, now) {
      try {
        const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
        await db
          .insertInto('http_idempotency')
          .values({
            key_hash: key.hash,
            route: key.route,
            state: 'done',
            claim_id: claimId,
            request_hash: key.requestHash,
            http_status: answer.httpStatus,
            response_sealed: answer.sealed,
            created_at: now,
          })
          .onConflict((oc) =>
            oc
              .column('key_hash')
              .doUpdateSet({ state: 'done', http_status: answer.httpStatus, response_sealed: answer.sealed })
              .where((eb) =>
                eb.or([
                  eb('http_idempotency.claim_id', '=', claimId),
                  eb('http_idempotency.created_at', '<', expiredBefore),
                ]),
              ),
          )
          .execute();
      } finally {
        await unlock(key.hash);
      }
    },

    async release(key) {
      await unlock(key.hash);
    },

    async purge(now) {
      const result = await db
        .deleteFrom('http_idempotency')
        .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    close: () => locks.close(),
  };
}
