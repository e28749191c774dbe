/** New-coin subscription: a launchpad whose allocation anyone can recompute (README.md). */

export { launchpadAdminRoutes } from './admin-routes.ts';
export type { LaunchpadDeps } from './context.ts';
export { launchpadMigrations } from './migrations.ts';
export { launchpadRoutes } from './routes.ts';
export { createLaunchpad, type Launchpad, registerListedCoins } from './service.ts';
export type { LaunchpadTables } from './tables.ts';

import type { JobSchedule } from '../../db/schedule.ts';
import type { Launchpad } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The launchpad service and its job (tests run the job through it). */
    launchpad: { service: Launchpad; job: JobSchedule };
  }
}
