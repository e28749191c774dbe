/**
 * What other modules may use from verification (README.md): the service — `requireFeature`,
 * `tierOf`, `verifiedName` and the staff queues' `summaries` are the ports later issues build on —
 * and its routes. Gated modules receive `requireFeature` through wiring.ts, never by import.
 */
export { verificationMigrations } from './migrations.ts';
export { verificationAdminRoutes, verificationRoutes } from './routes.ts';
export { SEED_FEATURE_RULES, SEED_RETENTION_DAYS } from './seeds.ts';
export {
  type CustomerIdentity,
  createVerification,
  type RequireFeature,
  type Verification,
  type VerificationDeps,
} from './service.ts';
export type { VerificationTables } from './tables.ts';

import type { Verification } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The verification service (tests read and drive it). */
    verification: Verification;
  }
}
