import { randomBytes, randomInt } from 'node:crypto';
import { scaleOf, toDecimalString } from '@bourse/money';
import { build, customerLeafId, type Leaf, ProofError, siblingPositions } from '@bourse/proof';
import type { ProofLeaf, ProofRoot } from '@bourse/protocol';
import type { Logger } from 'pino';
import { type Db, inTransaction } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Ledger } from '../ledger/index.ts';
import * as repo from './repo.ts';

/** Logged at error level when a tree's total differs from the ledger's own figure: alert on it. */
export const PROOF_ALARM_MESSAGE = 'PROOF ALARM: liabilities tree total differs from the ledger';

export type ProofDeps = { db: Db; clock: Clock; log: Logger; ledger: Ledger };

export type PublishedSnapshot = {
  id: string;
  currency: string;
  rootHash: string;
  totalUnits: bigint;
  ledgerTotalUnits: bigint;
  leafCount: number;
};

export type PublishResult = {
  roundId: string;
  publishedAt: Date;
  snapshots: PublishedSnapshot[];
  /** Currencies not published because the tree's total differed from the ledger's (never expected). */
  mismatches: Array<{ currency: string; treeUnits: bigint; ledgerUnits: bigint }>;
};

const hex32 = () => randomBytes(32).toString('hex');

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

const decimal = (units: bigint, currency: string) => toDecimalString(units, scaleOf(currency));

export function createProof(deps: ProofDeps) {
  const { db, clock, log, ledger } = deps;

  return {
    /**
     * Reads every real-book customer balance and the platform accounts in one REPEATABLE READ,
     * read-only transaction, builds one tree per currency, checks each total against the ledger's
     * own figure from the same read, and stores the snapshots (roots, leaves, every node).
     */
    async publish(): Promise<PublishResult> {
      const started = performance.now();
      const publishedAt = clock.now();
      const roundId = newId('por', publishedAt.getTime());
      const read = await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute(async (tx) => ({
          customers: await repo.realCustomerBalances(tx),
          platform: await ledger.platformBalances(tx, { book: 'real' }),
        }));

      // The ledger's own total: every book sums to zero, so customers hold minus what the platform holds.
      const ledgerTotals = new Map<string, bigint>();
      for (const p of read.platform) {
        ledgerTotals.set(p.currency, (ledgerTotals.get(p.currency) ?? 0n) - p.availableUnits - p.frozenUnits);
      }
      const byCurrency = new Map<string, repo.CustomerBalanceRow[]>();
      for (const row of read.customers) {
        const list = byCurrency.get(row.currency) ?? [];
        list.push(row);
        byCurrency.set(row.currency, list);
      }

      const snapshots: repo.NewSnapshot[] = [];
      const mismatches: PublishResult['mismatches'] = [];
      const currencies = [...new Set([...byCurrency.keys(), ...ledgerTotals.keys()])].sort();
      for (const currency of currencies) {
        const rows = byCurrency.get(currency) ?? [];
        const ledgerUnits = ledgerTotals.get(currency) ?? 0n;
        if (rows.length === 0 && ledgerUnits === 0n) continue;
        const salt = hex32();
        const placed = shuffle(
          rows.map((row) => ({
            row,
            leaf: {
              id: customerLeafId(salt, row.customerId),
              nonce: hex32(),
              currency,
              balance: row.units,
            } as Leaf,
          })),
        );
        let tree: ReturnType<typeof build>;
        try {
          tree = build(placed.map((p) => p.leaf));
        } catch (error) {
          // A negative customer balance: the ledger forbids it, so this is a broken ledger, not a proof.
          if (!(error instanceof ProofError)) throw error;
          log.error({ currency, error: error.message }, PROOF_ALARM_MESSAGE);
          mismatches.push({ currency, treeUnits: -1n, ledgerUnits });
          continue;
        }
        if (tree.root.sum !== ledgerUnits) {
          log.error(
            { currency, tree: tree.root.sum.toString(), ledger: ledgerUnits.toString() },
            PROOF_ALARM_MESSAGE,
          );
          mismatches.push({ currency, treeUnits: tree.root.sum, ledgerUnits });
          continue;
        }
        snapshots.push({
          id: newId('por', publishedAt.getTime()),
          roundId,
          currency,
          rootHash: tree.root.hash,
          totalUnits: tree.root.sum,
          ledgerTotalUnits: ledgerUnits,
          leafCount: placed.length,
          depth: Math.max(0, tree.levels.length - 1),
          salt,
          publishedAt,
          leaves: placed.map((p, index) => ({
            customerId: p.row.customerId,
            index,
            leafId: p.leaf.id,
            nonce: p.leaf.nonce,
            units: p.leaf.balance,
          })),
          nodes: tree.levels.flatMap((level, l) =>
            level.map((node, idx) => ({ level: l, idx, hash: node.hash, sum: node.sum })),
          ),
        });
      }
      await inTransaction(db, async (tx) => {
        for (const s of snapshots) await repo.insertSnapshot(tx, s);
      });
      log.info(
        {
          round: roundId,
          currencies: snapshots.length,
          leaves: snapshots.reduce((n, s) => n + s.leafCount, 0),
          ms: Math.round(performance.now() - started),
        },
        'proof of liabilities published',
      );
      return {
        roundId,
        publishedAt,
        snapshots: snapshots.map((s) => ({
          id: s.id,
          currency: s.currency,
          rootHash: s.rootHash,
          totalUnits: s.totalUnits,
          ledgerTotalUnits: s.ledgerTotalUnits,
          leafCount: s.leafCount,
        })),
        mismatches,
      };
    },

    /** True when at least one snapshot was ever published. */
    async hasSnapshot(): Promise<boolean> {
      return (await repo.countSnapshots(db)) > 0;
    },

    /** The newest published root of every currency: public. */
    async latestRoots(): Promise<ProofRoot[]> {
      const rows = await repo.latestSnapshots(db);
      return rows.map((s) => ({
        snapshot_id: s.id,
        round_id: s.roundId,
        currency: s.currency,
        total: decimal(s.totalUnits, s.currency),
        total_units: s.totalUnits.toString(),
        ledger_total: decimal(s.ledgerTotalUnits, s.currency),
        root_hash: s.rootHash,
        leaf_count: s.leafCount,
        depth: s.depth,
        published_at: s.publishedAt.getTime(),
      }));
    },

    /** The customer's own leaf and path in the newest snapshot of each currency (or of one currency). */
    async customerLeaves(customerId: string, currency?: string): Promise<ProofLeaf[]> {
      const latest = (await repo.latestSnapshots(db)).filter(
        (s) => currency === undefined || s.currency === currency,
      );
      const leaves = await repo.leavesOf(
        db,
        customerId,
        latest.map((s) => s.id),
      );
      const out: ProofLeaf[] = [];
      for (const leaf of leaves) {
        const snapshot = latest.find((s) => s.id === leaf.snapshotId);
        if (!snapshot) continue;
        const positions = siblingPositions(leaf.index, snapshot.depth);
        const nodes = await repo.nodesAt(db, snapshot.id, positions);
        out.push({
          snapshot_id: snapshot.id,
          currency: snapshot.currency,
          published_at: snapshot.publishedAt.getTime(),
          leaf_index: leaf.index,
          leaf_count: snapshot.leafCount,
          leaf_id: leaf.leafId,
          salt: snapshot.salt,
          customer_ref: customerId,
          nonce: leaf.nonce,
          balance: decimal(leaf.units, snapshot.currency),
          balance_units: leaf.units.toString(),
          path: positions.map((p) => {
            const node = nodes.get(`${p.level}:${p.index}`);
            if (!node) throw new Error(`proof node ${snapshot.id} ${p.level}:${p.index} is missing`);
            return { level: p.level, side: p.side, hash: node.hash, sum_units: node.sum.toString() };
          }),
          root: { hash: snapshot.rootHash, sum_units: snapshot.totalUnits.toString() },
        });
      }
      return out.sort((a, b) => a.currency.localeCompare(b.currency));
    },
  };
}

export type Proof = ReturnType<typeof createProof>;

export type ProofSchedule = { runOnce(): Promise<PublishResult | null>; stop(): void; ready: Promise<void> };

/**
 * Publishes every `intervalMs`, and once at start when no snapshot exists yet. A failed run is
 * logged and retried at the next tick; runs never overlap.
 */
export function scheduleProofs(input: { proof: Proof; log: Logger; intervalMs: number }): ProofSchedule {
  const { proof, log, intervalMs } = input;
  let running: Promise<PublishResult | null> | null = null;
  let stopped = false;
  const runOnce = () => {
    if (running) return running;
    running = proof
      .publish()
      .catch((error: unknown) => {
        log.error({ err: error }, 'proof of liabilities: publishing failed');
        return null;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  // setInterval takes at most 2^31-1 ms (24.8 days); a longer PROOF_INTERVAL_MS would fire every 1 ms.
  const timer = setInterval(
    () => {
      if (!stopped) void runOnce();
    },
    Math.min(intervalMs, 2 ** 31 - 1),
  );
  timer.unref();
  const ready = proof
    .hasSnapshot()
    .then(async (has) => {
      if (!has && !stopped) await runOnce();
    })
    .catch((error: unknown) => log.error({ err: error }, 'proof of liabilities: start-up check failed'));
  return {
    runOnce,
    ready,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
