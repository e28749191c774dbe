import type { Tx } from '../db/database.ts';

/**
 * The contract between the risk engine (`modules/contracts/engine.ts`, which runs it) and every
 * module that acts on recorded prices: contracts (TP/SL, liquidations, funding, delivery) and
 * options (expiries). The engine reads `market_tick` rows strictly after its cursor, in `seq` order,
 * and hands them to each consumer in a fixed order inside ONE transaction that also advances the
 * cursor: a crash anywhere rolls the whole round back and the next run repeats it, so every action
 * happens exactly once as long as each consumer writes only through `tx`.
 */
export type RecordedTick = Readonly<{
  seq: bigint;
  instrumentId: string;
  symbol: string;
  at: Date;
  /** Decimal strings exactly as recorded (the instrument's price scale). */
  price: string;
  bid: string;
  ask: string;
  mark: string;
  source: string;
}>;

export type TickConsumer = Readonly<{
  name: string;
  /** Recorded ticks after the cursor, in seq order (one round; possibly several instruments). */
  onTicks(tx: Tx, ticks: readonly RecordedTick[]): Promise<void>;
  /**
   * Time-driven work after the round's ticks (funding times, delivery, expiries no later tick has
   * settled yet). `recordedThrough` is the time of the newest tick of record the engine has seen.
   */
  onTime(tx: Tx, now: Date, recordedThrough: Date | null): Promise<void>;
}>;
