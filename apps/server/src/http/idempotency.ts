import { createHash } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db, Tx } from '../db/database.ts';
import { coalesce, POOL_LANES } from '../lib/coalesce.ts';

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
  /**
   * `commitMany` as a statement for the caller to run inside its own (a CTE: a spot batch writes its
   * orders, journal and claims in one round trip); its rows' `key_hash` are the hashes recorded.
   * Absent in a store that cannot (the tests' controls): callers then run `commitMany`.
   */
  claimsStatement?(
    claims: { key: IdempotencyKey; claimId: string }[],
    now: Date,
  ): RawBuilder<{ key_hash: string }>;
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

type LockOp = 'lock' | 'unlock';
type LockCall = { op: LockOp; key: string; hash: string };
/** A lock op's result: for a lock taken, the key's record as the statement read it. */
type LockResult = { ok: boolean; row: RecordRow | undefined };
type Held = {
  /**
   * Runs the ops in order on the held connection, in one statement: each one's result, and for each
   * lock taken its record — read in the same round trip (the statement's snapshot may predate the
   * lock by a hair; `begin` reads an `applied` record again once it holds the lock).
   */
  run: (ops: LockCall[]) => Promise<LockResult[]>;
  unlockAll: () => Promise<void>;
  end: () => void;
};

/**
 * One connection held for advisory locks (session locks live as long as their connection); reopened
 * when it fails — its locks die with it, as they do with the process. Lock and unlock calls made
 * while a statement runs go together in the next one (`coalesce`): one round trip for many requests.
 */
function lockConnection(db: Db, log?: Logger) {
  let current: Promise<Held> | null = null;
  let closed = false;
  const open = (): Promise<Held> => {
    const opening: Promise<Held> = new Promise<Held>((resolve, reject) => {
      let end: () => void = () => {};
      const held = new Promise<void>((r) => {
        end = r;
      });
      db.connection()
        .execute(async (conn) => {
          resolve({
            run: async (ops) => {
              const { rows } = await sql<{ ok: boolean } & Partial<RecordRow>>`
                with l as materialized (
                  select o.n, o.op, o.h,
                         case when o.op = 'lock' then pg_try_advisory_lock(o.k) else pg_advisory_unlock(o.k) end as ok
                  from unnest(${ops.map((o) => o.op)}::text[], ${ops.map((o) => o.key)}::bigint[],
                              ${ops.map((o) => o.hash)}::text[]) with ordinality as o(op, k, h, n))
                select l.ok, r.key_hash, r.state, r.http_status, r.response_sealed, r.request_hash, r.created_at
                from l left join http_idempotency r on l.op = 'lock' and l.ok and r.key_hash = l.h
                order by l.n`.execute(conn);
              return rows.map((r) => ({
                ok: r.ok === true,
                row: r.key_hash ? (r as RecordRow) : undefined,
              }));
            },
            unlockAll: async () => {
              await sql`select pg_advisory_unlock_all()`.execute(conn);
            },
            end,
          });
          await held;
        })
        .catch(reject)
        .finally(() => {
          // Only this connection's own slot: a failed one ends after its replacement may have opened.
          if (current === opening) current = null;
        });
    });
    return opening;
  };
  const locked = coalesce(async (ops: LockCall[]) => {
    if (closed) throw new Error('idempotency store closed');
    current ??= open();
    const conn = await current;
    try {
      return await conn.run(ops);
    } catch (error) {
      log?.warn({ err: error }, 'idempotency lock connection failed; reopening');
      await conn.unlockAll().catch(() => undefined);
      conn.end();
      current = null;
      throw error;
    }
  });
  return {
    locked: (op: LockOp, hash: string): Promise<LockResult> => locked({ op, key: lockKey(hash), hash }),
    async close() {
      await locked.drained();
      closed = true;
      const conn = await current?.catch(() => null);
      // The connection goes back to the pool: it must not carry this store's locks with it.
      await conn?.unlockAll().catch(() => undefined);
      conn?.end();
    },
  };
}

type RecordRow = {
  key_hash: string;
  state: string;
  http_status: number | null;
  response_sealed: string | null;
  request_hash: string | null;
  created_at: Date;
};

type Answer = { key: IdempotencyKey; claimId: string; httpStatus: number; sealed: string; now: Date };

export function idempotencyStore(db: Db, options: { log?: Logger } = {}): IdempotencyStore {
  const inFlight = new Set<string>();
  const locks = lockConnection(db, options.log);
  /** The records of many keys in one query (each caller holds its key's lock): the re-read of `begin`. */
  const readRecord = coalesce(
    async (hashes: string[]): Promise<Array<RecordRow | undefined>> => {
      const rows = await db
        .selectFrom('http_idempotency')
        .select(['key_hash', 'state', 'http_status', 'response_sealed', 'request_hash', 'created_at'])
        .where('key_hash', 'in', [...new Set(hashes)])
        .execute();
      const byHash = new Map(rows.map((r) => [r.key_hash, r]));
      return hashes.map((h) => byHash.get(h));
    },
    { lanes: POOL_LANES },
  );
  /** Many answers in one statement; each judged against its own request's time. */
  const storeAnswers = coalesce(
    async (answers: Answer[]): Promise<void[]> => {
      // A key is answered once by its holder: distinct keys; a repeat would go in a statement of its own.
      const seen = new Set<string>();
      const first = answers.filter((a) => !seen.has(a.key.hash) && seen.add(a.key.hash));
      const rest = answers.filter((a) => !first.includes(a));
      for (const part of [first, ...rest.map((a) => [a])]) await upsertAnswers(part);
      return answers.map(() => undefined);
    },
    { lanes: POOL_LANES },
  );

  async function upsertAnswers(answers: Answer[]): Promise<void> {
    if (answers.length === 0) return;
    await sql`
      insert into http_idempotency as h (key_hash, route, state, claim_id, request_hash, http_status, response_sealed, created_at)
      select a.key_hash, a.route, 'done', a.claim_id, a.request_hash, a.http_status, a.response_sealed, a.created_at
      from unnest(${answers.map((a) => a.key.hash)}::text[], ${answers.map((a) => a.key.route)}::text[],
                  ${answers.map((a) => a.claimId)}::text[], ${answers.map((a) => a.key.requestHash)}::text[],
                  ${answers.map((a) => a.httpStatus)}::int[], ${answers.map((a) => a.sealed)}::text[],
                  ${answers.map((a) => a.now.toISOString())}::timestamptz[])
           as a(key_hash, route, claim_id, request_hash, http_status, response_sealed, created_at)
      on conflict (key_hash) do update set
        state = 'done', http_status = excluded.http_status, response_sealed = excluded.response_sealed
      where h.claim_id = excluded.claim_id
         or h.created_at < excluded.created_at - interval '1 millisecond' * ${IDEMPOTENCY_TTL_MS}::int`.execute(
      db,
    );
  }

  /** The upsert of many claims' `applied` records (the only one): returns the hashes recorded. */
  function claimsStatement(
    claims: { key: IdempotencyKey; claimId: string }[],
    now: Date,
  ): RawBuilder<{ key_hash: string }> {
    const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
    return sql<{ key_hash: string }>`
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
        returning h.key_hash`;
  }

  /** `commit` of many claims in one statement. */
  async function commitMany(
    tx: Tx,
    claims: { key: IdempotencyKey; claimId: string }[],
    now: Date,
  ): Promise<Set<string>> {
    if (claims.length === 0) return new Set();
    const { rows } = await claimsStatement(claims, now).execute(tx);
    return new Set(rows.map((r) => r.key_hash));
  }

  /** Takes the key's lock and reads its record in one round trip; null while a twin holds it. */
  async function tryLock(hash: string): Promise<{ row: RecordRow | undefined } | null> {
    if (inFlight.has(hash)) return null;
    inFlight.add(hash);
    try {
      const taken = await locks.locked('lock', hash);
      if (taken.ok) return { row: taken.row };
    } catch (error) {
      inFlight.delete(hash);
      throw error;
    }
    inFlight.delete(hash);
    return null;
  }

  /**
   * Lets go of the key. Not awaited by callers: the response need not wait for it. A twin in this
   * process goes ahead at once (the in-process mark is gone) and its lock op queues behind this
   * unlock on the same connection; `close` waits for it.
   */
  function unlock(hash: string): void {
    if (!inFlight.delete(hash)) return;
    void locks.locked('unlock', hash).catch(() => undefined);
  }

  return {
    async begin(key, now, wait = TWIN_WAIT_MS) {
      // A real-time wait for a live twin (wall clock on purpose: nothing is decided by it).
      const deadline = Date.now() + wait;
      let taken = await tryLock(key.hash);
      while (!taken) {
        if (Date.now() >= deadline) return { state: 'pending' };
        await new Promise((r) => setTimeout(r, TWIN_POLL_MS));
        taken = await tryLock(key.hash);
      }
      try {
        // An `applied` record read with the lock may be a twin's answer committing that very moment
        // (another process; the lock statement's snapshot came first): read it again, now held. (A
        // record missing for that reason — the twin's whole request inside that hair — runs this one,
        // whose claim then loses at commit: REQUEST_IN_PROGRESS, never a second effect.)
        const row = taken.row?.state === 'applied' ? await readRecord(key.hash) : taken.row;
        const live = row && row.created_at.getTime() > now.getTime() - IDEMPOTENCY_TTL_MS;
        if (live) {
          let answer: BeginResult;
          if (row.request_hash !== null && row.request_hash !== key.requestHash) answer = { state: 'reused' };
          else if (row.state === 'done' && row.http_status !== null && row.response_sealed !== null)
            answer = { state: 'done', httpStatus: row.http_status, sealed: row.response_sealed };
          else answer = { state: 'applied' };
          unlock(key.hash);
          return answer;
        }
        return { state: 'claimed', claimId: crypto.randomUUID() };
      } catch (error) {
        unlock(key.hash);
        throw error;
      }
    },

    async commit(tx, key, claimId, now) {
      return (await commitMany(tx, [{ key, claimId }], now)).has(key.hash);
    },

    commitMany,
    claimsStatement,

    async finish(key, claimId, answer, now) {
      try {
        await storeAnswers({ key, claimId, httpStatus: answer.httpStatus, sealed: answer.sealed, now });
      } finally {
        unlock(key.hash);
      }
    },

    async release(key) {
      unlock(key.hash);
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
