/** Customer service: conversations, staff console, staffed hours, staff codes (README.md). */

export { supportAdminRoutes } from './admin-routes.ts';
export { DEFAULT_HOURS, type SupportDeps } from './context.ts';
export { supportMigrations } from './migrations.ts';
export { supportRoutes } from './routes.ts';
export { createSupport, type Support } from './service.ts';
export type { SupportTables } from './tables.ts';

import type { Support } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The support service (tests reach it through the app). */
    support: Support;
  }
}
