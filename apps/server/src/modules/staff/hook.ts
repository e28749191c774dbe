import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { can } from './permissions.ts';

/** One definition in http/request.ts; re-exported so staff routes and modules/staff/index.ts keep their import. */
export { staffOf } from '../../http/request.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A staff call open to any signed-in staff member (no particular permission): `me`, `logout`. */
    staffSession?: boolean;
  }
}

export type StaffResolver = { resolve(token: string): Promise<StaffContext> };

/** Only `Authorization: Bearer <token>`: a staff token never travels in a query or a form field. */
export function staffBearer(request: FastifyRequest): string | null {
  return request.headers.authorization?.match(/^Bearer\s+(\S{1,128})$/i)?.[1] ?? null;
}

/**
 * The staff hook. For every route whose config names a `permission` (or `staffSession`), resolves the
 * staff session — only staff sessions: a customer token is unknown here — and checks the permission
 * against the staff member's roles. Refuses LOGIN_REQUIRED (no or unknown token), SESSION_EXPIRED
 * (logged out, idle or past its lifetime), ACCOUNT_DISABLED, FORBIDDEN; otherwise attaches `request.staff`.
 */
export function registerStaffHook(app: FastifyInstance, staff: StaffResolver): void {
  app.decorateRequest('staff', null);
  app.addHook('preHandler', async (request) => {
    const config = request.routeOptions.config;
    if (!config.permission && !config.staffSession) return;
    const token = staffBearer(request);
    if (!token) refuse('LOGIN_REQUIRED');
    const context = await staff.resolve(token);
    if (config.permission && !can(context.roles, config.permission)) refuse('FORBIDDEN');
    request.staff = context;
  });
}
