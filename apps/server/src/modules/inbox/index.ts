/** What other modules and the app may use from inbox (notices): the service, its routes, its job. */
export { inboxAdminRoutes } from './admin-routes.ts';
export { inboxMigrations } from './migrations.ts';
export { inboxRoutes } from './routes.ts';
export { createInbox, type Inbox, type InboxLive } from './service.ts';
export type { InboxTables } from './tables.ts';

import type { JobSchedule } from '../../db/schedule.ts';
import type { Inbox } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The inbox and its announcements job (tests run the job through it). */
    inbox: { service: Inbox; job: JobSchedule };
  }
}
