/** The seven-day sign-in reward and its marketing budget (README.md). */

export { signinAdminRoutes } from './admin-routes.ts';
export type { SigninDeps } from './context.ts';
export { signinMigrations } from './migrations.ts';
export { signinRoutes } from './routes.ts';
export { createSignin, type Signin } from './service.ts';
export type { SigninTables } from './tables.ts';

import type { Signin } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sign-in service (tests reach it through the app). */
    signin: Signin;
  }
}
