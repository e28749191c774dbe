/** Spot trading: markets, the order flow in front of `@bourse/matching`, recovery, the back office. */

export { registerSpotChannels } from './channels.ts';
export { type FeeCursor, type FeePaidRow, feeMarkets, feesPaidAfter } from './fees-paid.ts';
export { spotMigrations } from './migrations.ts';
export { createMarketMaker, type MarketMaker } from './mm.ts';
export { spotAdminRoutes, spotRoutes } from './routes.ts';
export { createSpot, type Spot } from './service.ts';
export type { SpotTables } from './tables.ts';

import type { MarketMaker } from './mm.ts';
import type { Spot } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The spot service (tests reach books, the frozen check and the kill switch through it). */
    spot: Spot;
    marketMaker: MarketMaker;
  }
}
