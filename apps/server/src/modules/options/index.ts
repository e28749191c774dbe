/** Time-based up/down options: settings, buying, settlement on the recorded feed, the back office (README.md). */

export { optionsMigrations } from './migrations.ts';
export { optionsAdminRoutes, optionsRoutes } from './routes.ts';
export {
  createOptions,
  type Options,
  type OptionsJurisdiction,
  type OptionsRatingCaps,
} from './service.ts';
export { OPTION_DEFAULTS, parseDurations } from './settings.ts';
export { createOptionsConsumer, OPTION_SETTLE_CHUNK, OPTION_SETTLE_GRACE_MS } from './settle.ts';
export type { OptionsTables } from './tables.ts';

import type { Options } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The options service (tests drive its settlement consumer through it). */
    optionsService: Options;
  }
}
