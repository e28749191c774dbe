/** C2C: buying and selling coins by bank transfer against escrow, never stranding money (README.md). */

export { c2cAdminRoutes } from './admin-routes.ts';
export { C2C_DEMO_NAME, C2C_JOB_INTERVAL_MS, type C2cDeps, FEED_SYMBOLS } from './context.ts';
export { DEMO_DESK } from './desk.ts';
export { c2cMigrations } from './migrations.ts';
export { c2cRoutes } from './routes.ts';
export { type C2c, createC2c } from './service.ts';
export type { C2cTables } from './tables.ts';

import type { JobSchedule } from '../../db/schedule.ts';
import type { C2c } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The C2C service and its deadline job (tests run the job through it). */
    c2c: { service: C2c; job: JobSchedule };
  }
}
