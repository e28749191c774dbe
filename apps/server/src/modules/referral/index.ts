/** Invitations and referral income: a share of fees invitees paid, per level (README.md). */

export { referralAdminRoutes } from './admin-routes.ts';
export { REFERRAL_JOB_INTERVAL_MS, type ReferralDeps } from './context.ts';
export { referralMigrations } from './migrations.ts';
export { referralRoutes } from './routes.ts';
export { createReferral, type Referral } from './service.ts';
export type { ReferralTables } from './tables.ts';

import type { JobSchedule } from '../../db/schedule.ts';
import type { Referral } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The referral service and its income job (tests run the job through it). */
    referral: { service: Referral; job: JobSchedule };
  }
}
