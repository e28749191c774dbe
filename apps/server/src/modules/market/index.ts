/**
 * What other modules may use from market: the service (prices to trade on, tickers, candles)
 * and its types. Trading code calls `market.priceForTrading(symbol)` and records the returned
 * `source`, `at` and `tickSeq` with every fill, settlement and liquidation.
 */
import type { Market } from './service.ts';

export { createTradingHours, marketAdminRoutes, type TradingHours } from './admin.ts';
export { BOOK_FEED_SYMBOL, type BookCursor, type BookPrint, type BookSource } from './feeds/book.ts';
export { marketMigrations } from './migrations.ts';
export type { TradingPrice } from './queries.ts';
export { latestRecordedSeq, recordedTickAtOrBefore, recordedTicksAfter } from './recorded.ts';
export { marketRoutes } from './routes.ts';
/**
 * Schedules in the trading-hours grammar: whether one is open at a time (the engine checks recorded
 * ticks' times), reading one, and when it next opens (support's staffed hours use the same grammar).
 */
export { isOpenAt, nextOpenAt, parseSchedule, SCHEDULE_TEXT_MAX, type Schedule } from './schedule.ts';
export { createMarket, type Market, type MarketConfig } from './service.ts';
export type { MarketTables } from './tables.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The market service (tests step the feed through it; other modules get it passed in). */
    market: Market;
  }
}
