import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { customerTotals } from '../ledger/index.ts';

type Q = Db | Tx;

export type CustomerBalanceRow = { customerId: string; currency: string; units: bigint };

/**
 * Every real-book customer's balance per currency: available + frozen, summed over account types,
 * ordered by currency, then customer. Read through the ledger (`customerTotals`), inside the caller's
 * REPEATABLE READ transaction, so it matches the platform balances read in the same snapshot.
 */
export function realCustomerBalances(tx: Tx): Promise<CustomerBalanceRow[]> {
  return customerTotals(tx, { book: 'real' });
}

export type SnapshotRow = {
  id: string;
  roundId: string;
  currency: string;
  rootHash: string;
  totalUnits: bigint;
  ledgerTotalUnits: bigint;
  leafCount: number;
  depth: number;
  salt: string;
  publishedAt: Date;
};

export type NewSnapshot = SnapshotRow & {
  leaves: Array<{ customerId: string; index: number; leafId: string; nonce: string; units: bigint }>;
  nodes: Array<{ level: number; idx: number; hash: string; sum: bigint }>;
};

const CHUNK = 5_000;

export async function insertSnapshot(tx: Tx, s: NewSnapshot): Promise<void> {
  await tx
    .insertInto('proof_snapshot')
    .values({
      id: s.id,
      round_id: s.roundId,
      currency: s.currency,
      root_hash: s.rootHash,
      total: s.totalUnits.toString(),
      ledger_total: s.ledgerTotalUnits.toString(),
      leaf_count: s.leafCount,
      depth: s.depth,
      salt: s.salt,
      published_at: s.publishedAt,
    })
    .execute();
  for (let at = 0; at < s.leaves.length; at += CHUNK) {
    const part = s.leaves.slice(at, at + CHUNK);
    await sql`
      insert into proof_leaf (snapshot_id, customer_id, leaf_index, leaf_id, nonce, balance)
      select ${s.id}, c, i, l, n, b::numeric
        from unnest(${part.map((l) => l.customerId)}::text[], ${part.map((l) => l.index)}::int[],
                    ${part.map((l) => l.leafId)}::text[], ${part.map((l) => l.nonce)}::text[],
                    ${part.map((l) => l.units.toString())}::text[]) as t(c, i, l, n, b)`.execute(tx);
  }
  for (let at = 0; at < s.nodes.length; at += CHUNK) {
    const part = s.nodes.slice(at, at + CHUNK);
    await sql`
      insert into proof_node (snapshot_id, level, idx, hash, sum)
      select ${s.id}, lv, i, h, sm::numeric
        from unnest(${part.map((n) => n.level)}::int[], ${part.map((n) => n.idx)}::int[],
                    ${part.map((n) => n.hash)}::text[], ${part.map((n) => n.sum.toString())}::text[]) as t(lv, i, h, sm)`.execute(
      tx,
    );
  }
}

function toSnapshot(r: {
  id: string;
  round_id: string;
  currency: string;
  root_hash: string;
  total: string;
  ledger_total: string;
  leaf_count: number;
  depth: number;
  salt: string;
  published_at: Date;
}): SnapshotRow {
  return {
    id: r.id,
    roundId: r.round_id,
    currency: r.currency,
    rootHash: r.root_hash,
    totalUnits: BigInt(r.total),
    ledgerTotalUnits: BigInt(r.ledger_total),
    leafCount: r.leaf_count,
    depth: r.depth,
    salt: r.salt,
    publishedAt: r.published_at,
  };
}

/** The newest snapshot of every currency. */
export async function latestSnapshots(q: Q): Promise<SnapshotRow[]> {
  const rows = await q
    .selectFrom('proof_snapshot')
    .selectAll()
    .distinctOn('currency')
    .orderBy('currency')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toSnapshot);
}

export async function countSnapshots(q: Q): Promise<number> {
  const row = await q
    .selectFrom('proof_snapshot')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type LeafRow = { snapshotId: string; index: number; leafId: string; nonce: string; units: bigint };

/** The customer's own leaves in the given snapshots (never anyone else's). */
export async function leavesOf(q: Q, customerId: string, snapshotIds: readonly string[]): Promise<LeafRow[]> {
  if (snapshotIds.length === 0) return [];
  const rows = await q
    .selectFrom('proof_leaf')
    .select(['snapshot_id', 'leaf_index', 'leaf_id', 'nonce', 'balance'])
    .where('customer_id', '=', customerId)
    .where('snapshot_id', 'in', [...snapshotIds])
    .execute();
  return rows.map((r) => ({
    snapshotId: r.snapshot_id,
    index: r.leaf_index,
    leafId: r.leaf_id,
    nonce: r.nonce,
    units: BigInt(r.balance),
  }));
}

/** The nodes at the given (level, idx) positions of one snapshot. */
export async function nodesAt(
  q: Q,
  snapshotId: string,
  positions: ReadonlyArray<{ level: number; index: number }>,
): Promise<Map<string, { hash: string; sum: bigint }>> {
  const out = new Map<string, { hash: string; sum: bigint }>();
  if (positions.length === 0) return out;
  const { rows } = await sql<{ level: number; idx: number; hash: string; sum: string }>`
    select n.level, n.idx, n.hash, n.sum::text as sum
      from proof_node n
      join unnest(${positions.map((p) => p.level)}::int[], ${positions.map((p) => p.index)}::int[]) as w(level, idx)
        on w.level = n.level and w.idx = n.idx
     where n.snapshot_id = ${snapshotId}`.execute(q);
  for (const r of rows) out.set(`${r.level}:${r.idx}`, { hash: r.hash, sum: BigInt(r.sum) });
  return out;
}
