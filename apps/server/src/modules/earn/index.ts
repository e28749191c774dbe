/** Earn: fixed-term custody and VIP products with a named, reserved source for every reward (README.md). */

export { earnAdminRoutes } from './admin-routes.ts';
export { EARN_JOB_INTERVAL_MS, type EarnDeps } from './context.ts';
export { DEMO_SEED_ACTOR } from './demo.ts';
export { earnMigrations } from './migrations.ts';
export { earnRoutes } from './routes.ts';
export { createEarn, type Earn } from './service.ts';
export type { EarnTables } from './tables.ts';
export { ledgerVipInputs } from './vip.ts';

import type { JobSchedule } from '../../db/schedule.ts';
import type { Earn } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The earn service and its job (tests run the job through it). */
    earn: { service: Earn; job: JobSchedule };
  }
}
