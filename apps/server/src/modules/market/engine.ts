import { parseDecimal } from '@bourse/money';
import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock.ts';
import type { MarketBus, WireBatch, WireTick } from './bus.ts';
import type { MarketChannels } from './channels.ts';
import type { FeedTick, PriceFeed } from './feeds/types.ts';
import { priceToTicks, QTY_SCALE, qtyToString, ticksToPrice } from './instrument.ts';
import type { Recorder } from './recorder.ts';
import type { Changes, InstrumentState, MarketState, Tick } from './state.ts';

/**
 * The stream: the feed owner polls its feeds, numbers what they report into batches (one per
 * TICKER_BATCH_MS), applies each batch to its own state, records it and publishes it; the other
 * processes apply the published batches. Applying is the only way prices change anywhere.
 */
export const ENGINE_LIMITS = {
  /** Ticks waiting for the next batch; past it the oldest poll's ticks are dropped and logged. */
  maxPendingTicks: 100_000,
  /** Batches a follower holds while it resynchronises; past it the oldest are dropped (the next resync covers them). */
  maxBufferedBatches: 1_000,
} as const;

export type EngineDeps = {
  state: MarketState;
  channels: MarketChannels;
  recorder: Recorder;
  bus: MarketBus;
  clock: Clock;
  log: Logger;
  /**
   * Re-reads the recorded state once it covers batch `needBatchSeq` (a follower that missed a
   * batch); returns the batch the loaded state is at.
   */
  resync(needBatchSeq: number): Promise<{ batchSeq: number }>;
};

function toWire(tick: Tick): WireTick {
  const i = tick.instrument;
  return [
    i.symbol,
    tick.seq,
    tick.atMs,
    ticksToPrice(i, tick.priceTicks),
    ticksToPrice(i, tick.bidTicks),
    ticksToPrice(i, tick.askTicks),
    ticksToPrice(i, tick.markTicks),
    qtyToString(tick.sizeUnits),
    tick.source,
  ];
}

function fromWire(state: MarketState, wire: WireTick): Tick | null {
  const [symbol, seq, atMs, price, bid, ask, mark, size, source] = wire;
  const instrument = state.get(symbol)?.instrument;
  if (!instrument) return null;
  const ticks = [price, bid, ask, mark].map((p) => priceToTicks(instrument, p));
  const sizeUnits = parseDecimal(size, { scale: QTY_SCALE });
  const [p, b, a, m] = ticks;
  if (p == null || b == null || a == null || m == null || !sizeUnits.ok) return null;
  return {
    instrument,
    seq,
    atMs,
    priceTicks: p,
    bidTicks: b,
    askTicks: a,
    markTicks: m,
    sizeUnits: sizeUnits.units,
    source,
  };
}

export class MarketEngine {
  private readonly deps: EngineDeps;
  private pending: FeedTick[] = [];
  private feeds: PriceFeed[] = [];
  private timers: NodeJS.Timeout[] = [];
  private polling = new Set<PriceFeed>();
  leader = false;
  batchSeq = 0;
  private syncing: Promise<void> | null = null;
  private buffered: WireBatch[] = [];

  constructor(deps: EngineDeps) {
    this.deps = deps;
  }

  /** Feeds to poll while this process owns the stream. */
  setFeeds(feeds: PriceFeed[]): void {
    this.feeds = feeds;
  }

  /** Starts polling each feed on its interval and batching on `batchMs` (0: the caller drives). */
  becomeLeader(options: { batchMs: number }): void {
    if (this.leader) return;
    this.leader = true;
    if (options.batchMs <= 0) return;
    for (const feed of this.feeds) {
      const timer = setInterval(() => void this.pollFeed(feed), feed.intervalMs);
      timer.unref();
      this.timers.push(timer);
    }
    const batch = setInterval(() => this.flushBatch(), options.batchMs);
    batch.unref();
    this.timers.push(batch);
  }

  stepDown(): void {
    this.leader = false;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.pending = [];
  }

  /** Polls one feed now (the timers call this; tests call it through `step`). */
  async pollFeed(feed: PriceFeed): Promise<void> {
    if (!this.leader || this.polling.has(feed)) return;
    if (this.deps.recorder.backlog() > 0 && this.deps.recorder.backlog() >= ENGINE_LIMITS.maxPendingTicks) {
      return; // The recorder is behind: no new prices until it catches up (they go stale, honestly).
    }
    this.polling.add(feed);
    try {
      const ticks = await feed.poll(this.deps.clock.now().getTime());
      if (this.leader) this.ingest(ticks);
    } catch (error) {
      this.deps.log.error({ err: error, source: feed.source }, 'market: feed poll failed');
    } finally {
      this.polling.delete(feed);
    }
  }

  /** Queues feed ticks for the next batch (owner only); bounded by ENGINE_LIMITS.maxPendingTicks. */
  ingest(ticks: readonly FeedTick[]): void {
    for (const tick of ticks) this.pending.push(tick);
    if (this.pending.length > ENGINE_LIMITS.maxPendingTicks) {
      const excess = this.pending.length - ENGINE_LIMITS.maxPendingTicks;
      this.pending.splice(0, excess);
      this.deps.log.error({ dropped: excess }, 'market: pending ticks over the limit; oldest dropped');
    }
  }

  /** Owner only: numbers the pending ticks into the next batch, applies, records and publishes it. */
  flushBatch(): Changes | null {
    if (!this.leader || this.pending.length === 0) return null;
    const feedTicks = this.pending;
    this.pending = [];
    const { state } = this.deps;
    let seq = state.lastSeq;
    const ticks: Tick[] = feedTicks.map((t) => {
      seq += 1;
      return { ...t, seq };
    });
    this.batchSeq += 1;
    const time = this.deps.clock.now().getTime();
    const changes = state.apply(ticks, time);
    this.deps.channels.publish(changes, [], time);
    this.deps.recorder.record({
      changes,
      batchSeq: this.batchSeq,
      stateOf: (index: number) => state.at(index) as InstrumentState,
    });
    if (this.deps.bus.distributed) {
      const ticks = changes.ticks.map(toWire);
      this.deps.bus.publish({ v: 1, leader: this.deps.bus.processId, seq: this.batchSeq, time, ticks });
    }
    return changes;
  }

  /** Follower: applies a published batch in order; a gap (or a batch during a resync) triggers a resync. */
  receive(batch: WireBatch): void {
    if (this.leader) return;
    if (this.syncing) {
      this.buffered.push(batch);
      if (this.buffered.length > ENGINE_LIMITS.maxBufferedBatches) this.buffered.shift();
      return;
    }
    if (batch.seq <= this.batchSeq) return;
    if (batch.seq !== this.batchSeq + 1) {
      this.buffered.push(batch);
      this.startResync(batch.seq - 1);
      return;
    }
    this.applyWire(batch);
  }

  private applyWire(batch: WireBatch): void {
    const { state } = this.deps;
    const ticks: Tick[] = [];
    for (const wire of batch.ticks) {
      const tick = fromWire(state, wire);
      if (tick) ticks.push(tick);
    }
    this.batchSeq = batch.seq;
    const changes = state.apply(ticks, batch.time);
    this.deps.channels.publish(changes, [], batch.time);
  }

  private startResync(needBatchSeq: number): void {
    this.deps.log.warn(
      { have: this.batchSeq, need: needBatchSeq },
      'market: missed batches; resynchronising',
    );
    this.syncing = (async () => {
      try {
        const { batchSeq } = await this.deps.resync(needBatchSeq);
        this.batchSeq = batchSeq;
      } catch (error) {
        this.deps.log.error({ err: error }, 'market: resync failed');
      }
    })().finally(() => {
      this.syncing = null;
      const waiting = this.buffered.sort((a, b) => a.seq - b.seq);
      this.buffered = [];
      // Whatever the loaded state still lacks is skipped: the stream continues from here.
      const first = waiting.find((b) => b.seq > this.batchSeq);
      if (first && first.seq !== this.batchSeq + 1) {
        this.deps.log.error(
          { from: this.batchSeq + 1, to: first.seq - 1 },
          'market: batches lost; continuing',
        );
        this.batchSeq = first.seq - 1;
      }
      for (const batch of waiting) this.receive(batch);
    });
  }

  /** Resolves when no resync is running (tests). */
  async settled(): Promise<void> {
    while (this.syncing) await this.syncing;
  }

  /** Re-evaluates price states and 24 h windows; publishes the instruments that changed. */
  sweep(): number[] {
    const now = this.deps.clock.now().getTime();
    const changed = this.deps.state.refresh(now);
    if (changed.length > 0) this.deps.channels.publish(null, changed, now);
    return changed;
  }

  async close(): Promise<void> {
    this.stepDown();
    await Promise.allSettled(this.feeds.map((f) => f.close()));
  }
}
