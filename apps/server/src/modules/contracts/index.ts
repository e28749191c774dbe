/** Contracts: settings, positions, the ledger flows, the risk engine and its contracts consumer, the back office. */
export { type ContractsAdmin, createContractsAdmin } from './admin.ts';
export { createContractsConsumer } from './consumer.ts';
export { createRiskEngine, ENGINE_LIMITS, type RiskEngine } from './engine.ts';
export { contractsMigrations } from './migrations.ts';
export { contractsAdminRoutes, contractsRoutes } from './routes.ts';
export {
  type ContractsService,
  createContractsService,
  type LeverageCaps,
  type RatingCaps,
} from './service.ts';
export { startContracts } from './start.ts';
export type { ContractsTables } from './tables.ts';

import type { RiskEngine } from './engine.ts';
import type { ContractsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The contracts service and the risk engine (tests step the engine: `app.contracts.engine.step()`). */
    contracts: { service: ContractsService; engine: RiskEngine };
  }
}
