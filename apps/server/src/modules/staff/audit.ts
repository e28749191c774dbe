import type { Db, Tx } from '../../db/database.ts';
import type { AuditInput, AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { sha256 } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './repo.ts';

/** The chain starts from this hash: record 1's prev_hash. */
export const GENESIS_HASH = '0'.repeat(64);
const TEXT_MAX = 2_000;

/** JSON with object keys sorted at every level; bigint as a decimal string. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalize(value));
}

function normalize(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = normalize(v);
    }
    return out;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

export type AuditRecord = {
  seq: number;
  id: string;
  actorId: string;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  createdAt: Date;
  prevHash: string;
  hash: string;
};

/** What the hash covers: every field of the record but the hash itself. */
export function recordHash(prevHash: string, r: Omit<AuditRecord, 'hash' | 'prevHash'>): string {
  return sha256(
    prevHash +
      canonicalJson({
        seq: r.seq,
        id: r.id,
        actor_id: r.actorId,
        action: r.action,
        target_type: r.targetType,
        target_id: r.targetId,
        before: r.before ?? null,
        after: r.after ?? null,
        reason: r.reason,
        created_at: r.createdAt.toISOString(),
      }),
  );
}

function fromRow(row: repo.AuditRow): AuditRecord {
  return {
    seq: Number(row.seq),
    id: row.id,
    actorId: row.actor_id,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: row.before,
    after: row.after,
    reason: row.reason,
    createdAt: row.created_at,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

export type ChainReport = {
  ok: boolean;
  records: number;
  /** The first record whose hash or link does not hold, with what is wrong. */
  brokenAt: { seq: number; id: string; problem: 'hash' | 'link' | 'gap' } | null;
  lastHash: string;
  checkedAt: Date;
};

export type AuditService = AuditLog & {
  list(filter: {
    beforeSeq?: number;
    limit: number;
    targetType?: string;
    targetId?: string;
    actorId?: string;
  }): Promise<AuditRecord[]>;
  verifyChain(q?: Db): Promise<ChainReport>;
};

/**
 * The audit log: one hash-chained, append-only record per staff action. `record` must run in the
 * transaction that makes the change it records, and should be the last statement before commit:
 * it takes a transaction-scoped lock that serializes appends until that commit.
 */
export function createAuditLog(deps: { db: Db; clock: Clock }): AuditService {
  const { db, clock } = deps;

  async function append(tx: Tx, input: AuditInput) {
    for (const [field, value] of [
      ['actorId', input.actorId],
      ['action', input.action],
      ['targetType', input.targetType],
      ['targetId', input.targetId],
    ] as const) {
      if (typeof value !== 'string' || value === '' || value.length > 200) {
        throw new Error(`audit record: ${field} must be 1–200 characters`);
      }
    }
    await repo.lockAuditAppends(tx);
    const last = await repo.lastAudit(tx);
    const seq = last ? Number(last.seq) + 1 : 1;
    const prevHash = last?.hash ?? GENESIS_HASH;
    const createdAt = clock.now();
    const record = {
      seq,
      id: newId('aud', createdAt.getTime()),
      actorId: input.actorId,
      action: input.action,
      targetType: input.targetType,
      targetId: input.targetId,
      before: input.before === undefined ? null : JSON.parse(canonicalJson(input.before)),
      after: input.after === undefined ? null : JSON.parse(canonicalJson(input.after)),
      reason: input.reason === undefined || input.reason === '' ? null : input.reason.slice(0, TEXT_MAX),
      createdAt,
    };
    const hash = recordHash(prevHash, record);
    await repo.insertAudit(tx, {
      seq: String(seq),
      id: record.id,
      actor_id: record.actorId,
      action: record.action,
      target_type: record.targetType,
      target_id: record.targetId,
      before: record.before === null ? null : JSON.stringify(record.before),
      after: record.after === null ? null : JSON.stringify(record.after),
      reason: record.reason,
      created_at: createdAt,
      prev_hash: prevHash,
      hash,
    });
    return { id: record.id, hash };
  }

  return {
    async record(q, input) {
      if (q.isTransaction) return append(q as Tx, input);
      return (q as Db).transaction().execute((tx) => append(tx, input));
    },

    async list(filter) {
      return (await repo.listAudit(db, filter)).map(fromRow);
    },

    /** Recomputes every hash in order: an edited, removed or reordered record breaks the chain. */
    async verifyChain(q = db) {
      const checkedAt = clock.now();
      let prevHash = GENESIS_HASH;
      let expectedSeq = 1;
      let records = 0;
      const pageSize = 1_000;
      for (let after = 0; ; ) {
        const rows = await repo.auditAfter(q, after, pageSize);
        for (const row of rows) {
          const r = fromRow(row);
          records += 1;
          if (r.seq !== expectedSeq) {
            return {
              ok: false,
              records,
              brokenAt: { seq: r.seq, id: r.id, problem: 'gap' },
              lastHash: prevHash,
              checkedAt,
            };
          }
          if (r.prevHash !== prevHash) {
            return {
              ok: false,
              records,
              brokenAt: { seq: r.seq, id: r.id, problem: 'link' },
              lastHash: prevHash,
              checkedAt,
            };
          }
          if (recordHash(prevHash, r) !== r.hash) {
            return {
              ok: false,
              records,
              brokenAt: { seq: r.seq, id: r.id, problem: 'hash' },
              lastHash: prevHash,
              checkedAt,
            };
          }
          prevHash = r.hash;
          expectedSeq += 1;
          after = r.seq;
        }
        if (rows.length < pageSize) break;
      }
      return { ok: true, records, brokenAt: null, lastHash: prevHash, checkedAt };
    },
  };
}
