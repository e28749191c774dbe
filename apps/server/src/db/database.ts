import { AsyncLocalStorage } from 'node:async_hooks';
import {
  Kysely,
  type KyselyPlugin,
  PostgresDialect,
  type RawBuilder,
  type RootOperationNode,
  type SelectQueryNode,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import type { HttpTables } from '../http/tables.ts';
import type { AccountsTables } from '../modules/accounts/tables.ts';
import type { AgreementsTables } from '../modules/agreements/tables.ts';
import type { ApikeysTables } from '../modules/apikeys/tables.ts';
import type { AssetsTables } from '../modules/assets/tables.ts';
import type { C2cTables } from '../modules/c2c/tables.ts';
import type { ContentTables } from '../modules/content/tables.ts';
import type { ContractsTables } from '../modules/contracts/tables.ts';
import type { DepositsTables } from '../modules/deposits/tables.ts';
import type { EarnTables } from '../modules/earn/tables.ts';
import type { FundsTables } from '../modules/funds/tables.ts';
import type { InboxTables } from '../modules/inbox/tables.ts';
import type { JurisdictionTables } from '../modules/jurisdiction/tables.ts';
import type { LaunchpadTables } from '../modules/launchpad/tables.ts';
import type { LedgerTables } from '../modules/ledger/tables.ts';
import type { LoansTables } from '../modules/loans/tables.ts';
import type { MarketTables } from '../modules/market/tables.ts';
import type { NotifyTables } from '../modules/notify/tables.ts';
import type { OptionsTables } from '../modules/options/tables.ts';
import type { ProofTables } from '../modules/proof/tables.ts';
import type { ReferralTables } from '../modules/referral/tables.ts';
import type { SigninTables } from '../modules/signin/tables.ts';
import type { SpotTables } from '../modules/spot/tables.ts';
import type { StaffTables } from '../modules/staff/tables.ts';
import type { SuitabilityTables } from '../modules/suitability/tables.ts';
import type { SupportTables } from '../modules/support/tables.ts';
import type { UploadsTables } from '../modules/uploads/tables.ts';
import type { VerificationTables } from '../modules/verification/tables.ts';
import type { WithdrawalsTables } from '../modules/withdrawals/tables.ts';

/** Every module's tables; each module owns (and alone queries) the tables it declares. */
export type Database = AccountsTables &
  AssetsTables &
  DepositsTables &
  NotifyTables &
  InboxTables &
  ProofTables &
  HttpTables &
  LedgerTables &
  MarketTables &
  StaffTables &
  SpotTables &
  ContractsTables &
  JurisdictionTables &
  OptionsTables &
  WithdrawalsTables &
  ContentTables &
  UploadsTables &
  VerificationTables &
  SuitabilityTables &
  EarnTables &
  FundsTables &
  ApikeysTables &
  LaunchpadTables &
  LoansTables &
  C2cTables &
  AgreementsTables &
  SupportTables &
  SigninTables &
  ReferralTables;
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

// NUMERIC and BIGINT arrive as strings, never as JS numbers: money is never a float.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export type DbHandle = { db: Db; pool: pg.Pool };

export function createDb(connectionString: string, options: { max?: number } = {}): DbHandle {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 20, idleTimeoutMillis: 30_000 });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor a dropped checked-out one (a held lock connection, a LISTEN): pg emits its error on the
  // client, where an event without a listener throws. The query in flight rejects with the error, its
  // owner handles that, and the pool discards the broken client when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool };
}

/**
 * The effect scope of an idempotent request (http/idempotency.ts). While a request with an rtoken
 * runs, every transaction that writes also records the request's claim — in the same transaction —
 * so the claim and the effect commit together or not at all: a crash at any point and a retry with
 * the same rtoken give exactly one effect.
 */
export type EffectClaim = {
  /** Records the claim as applied in `tx`; false when another request owns the key (then roll back). */
  commit(tx: Tx): Promise<boolean>;
  /** Claims of one group can be recorded together in one statement (a spot book's batch). */
  group?: ClaimGroup;
  /**
   * The claim as data, for another process to record in its own transaction (a spot order forwarded
   * to the process that owns its book): that process rebuilds it with its own store (`ClaimFactory`).
   */
  wire?: ClaimWire;
};

/** An idempotency claim as data: its key and the claim id of the request that holds the key. */
export type ClaimWire = { key: { hash: string; route: string; requestHash: string }; claimId: string };

/** Rebuilds a claim another process holds, recorded by this process's idempotency store. */
export type ClaimFactory = (wire: ClaimWire) => EffectClaim;

/**
 * Claims recorded by a statement the caller runs inside its own (a CTE): `statement` returns one row
 * per claim recorded, in a text column `key_hash`; `ours` maps those values to an answer per claim.
 */
export type EmbeddedClaims = {
  statement: RawBuilder<{ key_hash: string }>;
  ours(recorded: readonly string[]): boolean[];
};

/** Records many claims of its group in `tx` at once: for each, as `commit` would answer. */
export type ClaimGroup = {
  commitAll(tx: Tx, claims: EffectClaim[]): Promise<boolean[]>;
  /** The same as a statement to embed (absent: the group cannot; callers use `commitAll`). */
  embed?(claims: EffectClaim[]): EmbeddedClaims;
};

/**
 * `commitClaims` as one statement for the caller's own (a spot batch's orders and journal statement),
 * when every claim belongs to one group that can embed: null otherwise (then call `commitClaims`).
 * `ours` answers per listed claim, a claim listed twice the same both times.
 */
export function embedClaims(listed: EffectClaim[]): EmbeddedClaims | null {
  const claims = [...new Set(listed)];
  const group = claims[0]?.group;
  if (!group?.embed || claims.some((c) => c.group !== group)) return null;
  const inner = group.embed(claims);
  return {
    statement: inner.statement,
    ours(recorded) {
      const answers = inner.ours(recorded);
      const ours = new Map(claims.map((c, i) => [c, answers[i] === true]));
      return listed.map((c) => ours.get(c) === true);
    },
  };
}

/**
 * Records every claim in `tx`, a group's claims in one call each: for each, whether it is ours. A
 * claim listed twice (one request's several commands, e.g. a cancel-all) is recorded once.
 */
export async function commitClaims(tx: Tx, listed: EffectClaim[]): Promise<boolean[]> {
  const claims = [...new Set(listed)];
  const answers = await commitDistinct(tx, claims);
  const ours = new Map(claims.map((c, i) => [c, answers[i] === true]));
  return listed.map((c) => ours.get(c) === true);
}

async function commitDistinct(tx: Tx, claims: EffectClaim[]): Promise<boolean[]> {
  const out = new Array<boolean>(claims.length).fill(false);
  const groups = new Map<ClaimGroup, number[]>();
  for (let i = 0; i < claims.length; i++) {
    const group = claims[i]!.group;
    if (!group) out[i] = await claims[i]!.commit(tx);
    else if (groups.has(group)) groups.get(group)!.push(i);
    else groups.set(group, [i]);
  }
  for (const [group, at] of groups) {
    const answers = await group.commitAll(
      tx,
      at.map((i) => claims[i]!),
    );
    at.forEach((i, k) => {
      out[i] = answers[k] === true;
    });
  }
  return out;
}

/** A claim was lost to a twin request: the transaction rolls back, the caller answers "in progress". */
export class ClaimLostError extends Error {
  constructor() {
    super('idempotency claim lost to a concurrent request');
  }
}

const effectScope = new AsyncLocalStorage<{ claim: EffectClaim | null }>();

/** Runs `fn` as an idempotent request's effect: its writing transactions commit `claim` with them. */
export function withEffectClaim<T>(claim: EffectClaim, fn: () => T): T {
  return effectScope.run({ claim }, fn);
}

/** The claim of the idempotent request running now, if any. */
export function currentEffectClaim(): EffectClaim | null {
  return effectScope.getStore()?.claim ?? null;
}

/**
 * Runs `fn` outside any request's effect scope: for background loops started by a request (a book's
 * runner, an outbox flush) and for bookkeeping that is not the request's effect (failure counters).
 */
export function detached<T>(fn: () => T): T {
  return effectScope.run({ claim: null }, fn);
}

const WRITE_SQL = /^\s*(insert|update|delete|merge)\b/i;
/**
 * A statement starting with `with` writes when one of its parts does: an insert, an update … set, a
 * delete or a merge. A read written as a CTE (even one locking rows) is a read — counting it as a
 * write would record a refused request's claim as applied.
 */
const CTE_SQL = /^\s*with\b/i;
const CTE_WRITE_SQL =
  /\b(insert\s+into|delete\s+from|merge\s+into|update\s+[\w."]+(\s+(as\s+)?\w+)?\s+set)\b/i;

/** Marks `flag.wrote` when a statement in the transaction changes data. */
function writeTracker(flag: { wrote: boolean }): KyselyPlugin {
  return {
    transformQuery({ node }) {
      if (!flag.wrote && isWrite(node)) flag.wrote = true;
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
}

function isWrite(node: RootOperationNode): boolean {
  switch (node.kind) {
    case 'InsertQueryNode':
    case 'UpdateQueryNode':
    case 'DeleteQueryNode':
    case 'MergeQueryNode':
      return true;
    case 'RawNode': {
      const text = node.sqlFragments.join(' ');
      return WRITE_SQL.test(text) || (CTE_SQL.test(text) && CTE_WRITE_SQL.test(text));
    }
    case 'SelectQueryNode':
      // A built query's CTEs may write (`db.with('x', (q) => q.insertInto(…))…`).
      return (
        (node as SelectQueryNode).with?.expressions.some((cte) =>
          isWrite(cte.expression as RootOperationNode),
        ) ?? false
      );
    default:
      return false;
  }
}

const commitHooks = new WeakMap<Tx, Array<() => void>>();

/**
 * Runs `hook` once `tx` has committed — never when it rolls back. For caches of facts a transaction
 * read or wrote (an account's id), which are facts only once committed. Only transactions opened by
 * `inTransaction` run hooks; in any other the hook is dropped (a cache then just misses). A hook that
 * throws is ignored: the transaction has committed whatever the hook does.
 */
export function afterCommit(tx: Tx, hook: () => void): void {
  commitHooks.get(tx)?.push(hook);
}

/**
 * Runs `work` in one transaction. Serialization failures and deadlocks are retried, because
 * those are the database telling us two requests raced, not that either was wrong. Inside an
 * idempotent request a transaction that wrote commits the request's claim with it.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, attempts = 8): Promise<T> {
  const claim = currentEffectClaim();
  for (let attempt = 1; ; attempt++) {
    const hooks: Array<() => void> = [];
    const hooked = (tx: Tx) => {
      commitHooks.set(tx, hooks);
      return work(tx);
    };
    try {
      let result: T;
      if (!claim) result = await db.transaction().execute(hooked);
      else {
        const flag = { wrote: false };
        result = await db
          .withPlugin(writeTracker(flag))
          .transaction()
          .execute(async (tx) => {
            const answer = await hooked(tx);
            if (flag.wrote && !(await claim.commit(tx))) throw new ClaimLostError();
            return answer;
          });
      }
      // Committed: a hook's failure must not make the caller think otherwise (a retry would apply twice).
      for (const hook of hooks) {
        try {
          hook();
        } catch {
          // A cache that missed a fact: it looks it up again next time.
        }
      }
      return result;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt < attempts && (code === '40001' || code === '40P01')) {
        // A short, growing, random pause: twins that collided once should not collide again in step.
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
        continue;
      }
      throw error;
    }
  }
}

/** PostgreSQL unique_violation, optionally on a named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
