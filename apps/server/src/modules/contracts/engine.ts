import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TickConsumer } from '../../lib/ticks.ts';
import { latestRecordedSeq, recordedTicksAfter } from '../market/index.ts';
import { cursorSeq, insertCursorIfMissing, lockCursor, tryLockKey, updateCursor } from './repo.ts';

/**
 * The risk engine: runs every TickConsumer (contracts first, then options) on the recorded ticks
 * after its cursor. A round — the advisory lock, the cursor row, the ticks, every consumer's
 * actions and the new cursor — is ONE transaction: a crash anywhere rolls the whole round back and
 * the next round repeats it, so each action happens exactly once (README, "Exactly once").
 */
export const ENGINE_LIMITS = {
  /** Recorded ticks read per round. */
  ticksPerRound: 5_000,
  pollMsDefault: 250,
} as const;

const CURSOR = 'main';
/** Only one process runs rounds at a time; the others skip theirs. */
const LOCK_KEY = 'contracts:risk-engine';

export type RoundResult = Readonly<{ ran: boolean; ticks: number; cursor: bigint }>;

export type RiskEngine = {
  /** Creates the cursor at the newest recorded tick if there is none (a fresh engine starts there). */
  init(): Promise<void>;
  /** One round now (tests and tools); resolves when it has committed or rolled back. */
  step(): Promise<RoundResult>;
  /** Runs rounds every pollMs until stop(). */
  start(): void;
  stop(): Promise<void>;
  cursor(): Promise<bigint>;
};

async function ensureCursor(q: Db | Tx, now: Date): Promise<void> {
  const start = await latestRecordedSeq(q);
  await insertCursorIfMissing(q, {
    name: CURSOR,
    seq: start.toString(),
    rounds: '0',
    processed_through: null,
    updated_at: now,
  });
}

export function createRiskEngine(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  consumers: readonly TickConsumer[];
  pollMs?: number;
  ticksPerRound?: number;
}): RiskEngine {
  const { db, clock, log } = deps;
  const pollMs = deps.pollMs ?? ENGINE_LIMITS.pollMsDefault;
  const batch = deps.ticksPerRound ?? ENGINE_LIMITS.ticksPerRound;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = true;

  async function round(): Promise<RoundResult> {
    return inTransaction(db, async (tx) => {
      if (!(await tryLockKey(tx, LOCK_KEY))) return { ran: false, ticks: 0, cursor: -1n };
      let cursor = await lockCursor(tx, CURSOR);
      if (!cursor) {
        await ensureCursor(tx, clock.now());
        cursor = await lockCursor(tx, CURSOR);
        if (!cursor) throw new Error('risk engine cursor missing after insert');
      }
      const after = BigInt(cursor.seq);
      const ticks = await recordedTicksAfter(tx, after, batch);
      for (const c of deps.consumers) await c.onTicks(tx, ticks);
      const last = ticks[ticks.length - 1];
      const through = last ? last.at : cursor.processed_through;
      const now = clock.now();
      for (const c of deps.consumers) await c.onTime(tx, now, through);
      const next = last ? last.seq : after;
      // A round without ticks leaves the cursor as it was: no write 4 times a second while idle.
      if (!last) return { ran: true, ticks: 0, cursor: next };
      await updateCursor(tx, CURSOR, {
        seq: next.toString(),
        rounds: (BigInt(cursor.rounds) + 1n).toString(),
        processed_through: through,
        updated_at: now,
      });
      return { ran: true, ticks: ticks.length, cursor: next };
    });
  }

  function schedule(): void {
    running = loop();
  }

  async function loop(): Promise<void> {
    if (stopped) return;
    try {
      // Catch up in full rounds, then wait.
      for (;;) {
        const r = await round();
        if (!r.ran || r.ticks < batch || stopped) break;
      }
    } catch (error) {
      log.error({ err: error }, 'risk engine round failed; it will be repeated');
    }
    if (!stopped) timer = setTimeout(schedule, pollMs);
  }

  return {
    async init() {
      await ensureCursor(db, clock.now());
    },
    step: () => round(),
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setTimeout(schedule, pollMs);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    async cursor() {
      const seq = await cursorSeq(db, CURSOR);
      return seq === undefined ? 0n : BigInt(seq);
    },
  };
}
