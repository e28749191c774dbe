import type { Instrument } from '../instrument.ts';

/** A price observation from a feed: integer ticks and size units, with its source and time. */
export type FeedTick = {
  instrument: Instrument;
  atMs: number;
  priceTicks: bigint;
  bidTicks: bigint;
  askTicks: bigint;
  markTicks: bigint;
  /** Traded size at QTY_SCALE; 0 for a tick that only confirms the quote is still current. */
  sizeUnits: bigint;
  source: string;
};

/**
 * Every price source has this shape. The service polls each feed on its own interval (or a test
 * calls `poll` with the time it wants); a feed never writes anything, it only reports ticks.
 */
export type PriceFeed = {
  /** `sim`, `ccxt:<exchange>` or `replay`: recorded with every tick. */
  readonly source: string;
  /** How often the service polls it. */
  readonly intervalMs: number;
  /**
   * The instruments this feed may price, with the latest known mid price of each (null before
   * any tick). Called before the first poll and whenever the catalogue changes.
   */
  setInstruments(
    instruments: readonly Instrument[],
    lastMid: (instrument: Instrument) => bigint | null,
  ): void;
  /** Instruments this feed prices: the service gives each instrument to exactly one feed. */
  covers(instrument: Instrument): boolean;
  poll(nowMs: number): Promise<FeedTick[]>;
  close(): Promise<void>;
};

export function midTicks(bid: bigint, ask: bigint): bigint {
  // Mid rounded half-to-even to a whole tick: no side is favoured on average.
  const sum = bid + ask;
  const half = sum / 2n;
  if (sum % 2n === 0n) return half;
  return half % 2n === 0n ? half : half + 1n;
}
