/** Jurisdiction profiles: leverage caps per class and the up/down options switch (README.md). */

export { jurisdictionMigrations } from './migrations.ts';
export { BUILT_IN_PROFILES, DEFAULT_JURISDICTION_PROFILE } from './profiles.ts';
export { jurisdictionAdminRoutes, jurisdictionRoutes } from './routes.ts';
export {
  createJurisdiction,
  JURISDICTION_CACHE_MS,
  type Jurisdiction,
  type LeverageCaps,
} from './service.ts';
export type { JurisdictionTables } from './tables.ts';

import type { Jurisdiction } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The jurisdiction service (contracts and options ask it; tests switch profiles through it). */
    jurisdiction: Jurisdiction;
  }
}
