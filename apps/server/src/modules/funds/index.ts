/** ETF orders: model portfolios bought in the customer's own account through the spot books (README.md). */

export { fundsAdminRoutes } from './admin-routes.ts';
export type { FundsDeps, FundsMarket, FundsRatings, FundsSpot, SpotFill } from './context.ts';
export { fundsMigrations } from './migrations.ts';
export { fundsRoutes } from './routes.ts';
export { createFunds, type Funds } from './service.ts';
export type { FundsTables } from './tables.ts';

import type { Funds } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The funds service (tests run its jobs through it). */
    funds: Funds;
  }
}
