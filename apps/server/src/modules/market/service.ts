import { KLINE_INTERVALS } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ChannelRegistry } from '../../ws/index.ts';
import { localBus, type MarketBus, redisBus } from './bus.ts';
import { bucketStart } from './candles.ts';
import { addInstrument, importCatalogue, loadCatalogue, seedDefaultCatalogue } from './catalogue.ts';
import { registerMarketChannels } from './channels.ts';
import { MarketEngine } from './engine.ts';
import { type BookSource, createBookFeed, isBookPriced } from './feeds/book.ts';
import { createCcxtExchange, createCcxtFeed } from './feeds/ccxt.ts';
import { createReplayFeed } from './feeds/replay.ts';
import { createSimFeed } from './feeds/sim.ts';
import type { PriceFeed } from './feeds/types.ts';
import { writeSimHistory } from './history.ts';
import type { CatalogueColumn, Instrument } from './instrument.ts';
import { createQueries, type MarketQueries } from './queries.ts';
import { createRecorder, restoreState } from './recorder.ts';
import {
  catalogueVersion,
  loadPrices,
  loadStartCandles,
  pruneCandles,
  pruneTicks,
  readCursor,
} from './repo.ts';
import { MarketState, STATS_INTERVAL, windowKeepFrom } from './state.ts';

export type MarketConfig = Pick<
  Config,
  | 'feed'
  | 'feedSeed'
  | 'feedTickMs'
  | 'simHistoryCandles'
  | 'tickerBatchMs'
  | 'staleAfterMs'
  | 'ccxtExchange'
  | 'ccxtPollMs'
  | 'ccxtApiOverride'
  | 'replayFile'
  | 'replaySpeed'
  | 'replayLoop'
  | 'redisUrl'
  | 'redisPrefix'
  | 'tickRetentionHours'
  | 'candle1mRetentionDays'
>;

export const MARKET_JOBS = {
  staleSweepMs: 1_000,
  catalogueCheckMs: 30_000,
  pruneEveryMs: 3_600_000,
  pruneChunkRows: 20_000,
  resyncWaitMs: 10_000,
  resyncPollMs: 200,
  closeFlushMs: 5_000,
} as const;
const CURSOR_NAME = 'main';

export type Market = MarketQueries & {
  readonly feedMode: string;
  start(): Promise<void>;
  close(): Promise<void>;
  /** Imports a catalogue CSV (refusals name line and field) and reloads the catalogue. */
  importCsv(text: string): Promise<Awaited<ReturnType<typeof importCatalogue>>>;
  reloadCatalogue(): Promise<void>;
  /**
   * Adds one instrument to the catalogue (checked like a CSV row; an identical row already there is
   * kept, a different one refused) and reloads the catalogue.
   */
  addInstrument(entry: Partial<Record<CatalogueColumn, string>>): Promise<void>;
  /** The spot books that price `book` instruments (wiring.ts, once spot exists). */
  setBookSource(source: BookSource): void;
  /** Removes ticks past TICK_RETENTION_HOURS and 1m candles past CANDLE_1M_RETENTION_DAYS. */
  prune(): Promise<{ ticks: number; candles: number }>;
  /** Tests and tools: poll every feed at the clock's time and publish the batch (owner only). */
  step(): Promise<number>;
  sweep(): number[];
  flushRecorder(): Promise<void>;
  isLeader(): boolean;
  /** Resolves once a follower has caught up with any resync in progress. */
  settled(): Promise<void>;
};

export async function createMarket(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  config: MarketConfig;
  registry: ChannelRegistry;
}): Promise<Market> {
  const { db, clock, log, config } = deps;
  const state = new MarketState({ staleAfterMs: config.staleAfterMs });
  const channels = registerMarketChannels(deps.registry, state);
  const recorder = createRecorder({ db, log, clock, cursorName: CURSOR_NAME });
  const bus: MarketBus = config.redisUrl
    ? redisBus({ url: config.redisUrl, prefix: config.redisPrefix, log })
    : localBus();
  let instruments: Instrument[] = [];
  let version = '';
  let feeds: PriceFeed[] = [];
  // Coins that trade only here are priced by their own book, whatever the feed mode (feeds/book.ts).
  const bookFeed = createBookFeed({
    intervalMs: config.feedTickMs || 1_000,
    recorded: (symbol) => {
      const s = state.get(symbol);
      return s ? { lastTickMs: s.lastTickMs, markTicks: s.mark } : null;
    },
  });
  const timers: NodeJS.Timeout[] = [];
  const manual = config.feedTickMs === 0;

  async function loadFromDb(): Promise<{ batchSeq: number }> {
    const now = clock.now().getTime();
    const buckets = KLINE_INTERVALS.map((interval) => ({
      interval,
      openTime: new Date(bucketStart(now, interval)),
    }));
    const [cursor, priceRows, candleRows] = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(
        async (tx) =>
          [
            await readCursor(tx, CURSOR_NAME),
            await loadPrices(tx),
            await loadStartCandles(tx, {
              buckets,
              windowInterval: STATS_INTERVAL,
              windowFrom: new Date(windowKeepFrom(now)),
            }),
          ] as const,
      );
    return restoreState(state, instruments, { cursor, prices: priceRows, candles: candleRows }, now);
  }

  const engine = new MarketEngine({
    state,
    channels,
    recorder,
    bus,
    clock,
    log,
    async resync(needBatchSeq) {
      // A real-time wait for another process (the wall clock, not the injected one, which tests hold still).
      const until = Date.now() + MARKET_JOBS.resyncWaitMs;
      while ((await readCursor(db, CURSOR_NAME)).batchSeq < needBatchSeq && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, MARKET_JOBS.resyncPollMs));
      }
      const loaded = await loadFromDb();
      channels.refreshAll(clock.now().getTime());
      return loaded;
    },
  });
  const queries = createQueries({ db, state, clock });

  async function makeFeeds(): Promise<PriceFeed[]> {
    return [bookFeed, ...(await outsideFeeds())];
  }

  async function outsideFeeds(): Promise<PriceFeed[]> {
    const tickMs = config.feedTickMs || 1_000;
    if (config.feed === 'replay') {
      if (!config.replayFile) throw new Error('FEED=replay needs REPLAY_FILE');
      return [
        createReplayFeed({
          file: config.replayFile,
          intervalMs: tickMs,
          speed: config.replaySpeed,
          loop: config.replayLoop,
        }),
      ];
    }
    if (config.feed === 'ccxt') {
      const exchange = await createCcxtExchange({
        exchange: config.ccxtExchange,
        apiOverride: config.ccxtApiOverride,
      });
      const ccxtFeed = createCcxtFeed({
        exchangeId: config.ccxtExchange,
        exchange,
        intervalMs: config.ccxtPollMs,
        log,
      });
      const rest = createSimFeed({
        seed: config.feedSeed,
        intervalMs: tickMs,
        covers: (i) => !ccxtFeed.covers(i),
      });
      return [ccxtFeed, rest];
    }
    return [createSimFeed({ seed: config.feedSeed, intervalMs: tickMs })];
  }

  /** Each instrument goes to the first feed that covers it (the book feed comes first). */
  function installFeeds(): void {
    const given = new Set<Instrument>();
    for (const feed of feeds) {
      const mine = instruments.filter((i) => !given.has(i) && feed.covers(i));
      for (const i of mine) given.add(i);
      feed.setInstruments(mine, (i) => state.get(i.symbol)?.mark ?? null);
    }
  }

  async function reloadCatalogue(): Promise<void> {
    version = await catalogueVersion(db);
    instruments = await loadCatalogue(db);
    state.setCatalogue(instruments);
    installFeeds();
    channels.refreshAll(clock.now().getTime());
  }

  async function onLeadership(leader: boolean): Promise<void> {
    if (!leader) {
      engine.stepDown();
      return;
    }
    // Continue after whatever the previous owner recorded, even a batch this process never saw.
    const cursor = await readCursor(db, CURSOR_NAME);
    engine.batchSeq = Math.max(engine.batchSeq, cursor.batchSeq);
    state.lastSeq = Math.max(state.lastSeq, cursor.tickSeq);
    engine.setFeeds(feeds);
    installFeeds();
    engine.becomeLeader({ batchMs: manual ? 0 : config.tickerBatchMs });
  }

  async function prune(): Promise<{ ticks: number; candles: number }> {
    const now = clock.now().getTime();
    const tickBefore = new Date(now - config.tickRetentionHours * 3_600_000);
    const candleBefore = new Date(now - config.candle1mRetentionDays * 86_400_000);
    const limit = MARKET_JOBS.pruneChunkRows;
    const drain = async (chunk: () => Promise<number>) => {
      let total = 0;
      for (let n = await chunk(); n > 0; n = await chunk()) total += n;
      return total;
    };
    return {
      ticks: await drain(() => pruneTicks(db, { before: tickBefore, limit })),
      candles: await drain(() => pruneCandles(db, { interval: '1m', before: candleBefore, limit })),
    };
  }

  function every(ms: number, job: () => Promise<unknown> | unknown): void {
    const timer = setInterval(() => {
      Promise.resolve()
        .then(job)
        .catch((error: unknown) => log.error({ err: error }, 'market job failed'));
    }, ms);
    timer.unref();
    timers.push(timer);
  }

  return {
    ...queries,
    feedMode: config.feed,
    async start() {
      const seeded = await seedDefaultCatalogue({ db, clock });
      if (seeded > 0) log.info({ instruments: seeded }, 'market: default catalogue seeded');
      await reloadCatalogue();
      if (config.feed === 'sim' && config.simHistoryCandles > 0) {
        // Wall clock on purpose: how long the first start takes is not a time of record.
        const started = performance.now();
        const written = await writeSimHistory({
          db,
          // A coin priced by its own book has no past: no history is drawn for it.
          instruments: instruments.filter((i) => !isBookPriced(i)),
          seed: config.feedSeed,
          candles: config.simHistoryCandles,
          nowMs: clock.now().getTime(),
          feedTickMs: config.feedTickMs,
        });
        if (written.instruments > 0)
          log.info(
            { ...written, ms: Math.round(performance.now() - started) },
            'market: simulated history written for instruments with none',
          );
      }
      engine.batchSeq = (await loadFromDb()).batchSeq;
      feeds = await makeFeeds();
      await bus.start({ onBatch: (batch) => engine.receive(batch), onLeadership });
      if (manual) return;
      every(MARKET_JOBS.staleSweepMs, () => engine.sweep());
      every(MARKET_JOBS.catalogueCheckMs, async () => {
        if ((await catalogueVersion(db)) !== version) await reloadCatalogue();
      });
      every(MARKET_JOBS.pruneEveryMs, async () => (engine.leader ? prune() : null));
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      await engine.close();
      await recorder.close(MARKET_JOBS.closeFlushMs);
      await bus.close();
    },
    async importCsv(text) {
      const summary = await importCatalogue({ db, clock }, text);
      await reloadCatalogue();
      return summary;
    },
    reloadCatalogue,
    async addInstrument(entry) {
      await addInstrument({ db, clock }, entry);
      await reloadCatalogue();
    },
    setBookSource: (source) => bookFeed.setSource(source),
    prune,
    async step() {
      for (const feed of feeds) await engine.pollFeed(feed);
      return engine.flushBatch()?.ticks.length ?? 0;
    },
    sweep: () => engine.sweep(),
    async flushRecorder() {
      await recorder.flush();
    },
    isLeader: () => engine.leader,
    settled: () => engine.settled(),
  };
}
