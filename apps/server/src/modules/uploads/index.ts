/**
 * What other modules may use from uploads (README.md): the service with its `attach` port and link
 * helpers, the document cipher (identity data other modules seal with the same key), the routes and
 * the retention job.
 */
export {
  createDocumentCipher,
  type DocumentCipher,
  documentKey,
} from './cipher.ts';
export { uploadsMigrations } from './migrations.ts';
export { filesRoutes, uploadsAdminRoutes, uploadsRoutes } from './routes.ts';
export {
  type AttachInput,
  createUploads,
  type FileFacts,
  type Uploads,
  type UploadsDeps,
} from './service.ts';
export { type SweepSchedule, scheduleSweep } from './sweep.ts';
export type { UploadsTables } from './tables.ts';

import type { Uploads } from './service.ts';
import type { SweepSchedule } from './sweep.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The upload pipeline and its retention job (tests drive the job through it). */
    uploads: { service: Uploads; sweep: SweepSchedule };
  }
}
