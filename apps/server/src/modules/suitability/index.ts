/** The risk questionnaire: scoring table, assessments and ratings, caps per profile (README.md). */

export { DEFAULT_CAPS, DEFAULT_SCORING } from './defaults.ts';
export { suitabilityMigrations } from './migrations.ts';
export { suitabilityAdminRoutes, suitabilityRoutes } from './routes.ts';
export { type ActiveProfile, createSuitability, type RatingCaps, type Suitability } from './service.ts';
export type { SuitabilityTables } from './tables.ts';

import type { Suitability } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The suitability service (tests rate customers through it). */
    suitability: Suitability;
  }
}
