/** API keys for bots: what other modules may use (the bot API verifies signed calls through `verifySigned`). */
export { ipAllowed, parseIps } from './ips.ts';
export { apikeysMigrations } from './migrations.ts';
export { apiKeysAdminRoutes, apiKeysRoutes } from './routes.ts';
export { type ApiKeys, createApiKeys, type KeyedRequest, type KeyPrincipal } from './service.ts';
export { hmacHex, SIGNING } from './signing.ts';
export type { ApikeysTables } from './tables.ts';

import type { ApiKeys } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API keys service (tests create keys through it). */
    apiKeys: ApiKeys;
  }
}
