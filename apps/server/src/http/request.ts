import type { FastifyRequest } from 'fastify';
import type { AuthContext } from './context.ts';
import type { StaffContext } from './staff.ts';

/**
 * The customer session of a route declared `auth: 'required'` (the auth hook guarantees it).
 * Throwing here is a bug in the route declaration, not a user error: it becomes a 500.
 */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('route declared auth: required but no session was attached');
  return request.auth;
}

/**
 * The staff session of a route declared with a `permission` (or `staffSession`) — the staff hook
 * guarantees it. Throwing here is a bug in the route declaration, not a user error: it becomes a 500.
 */
export function staffOf(request: FastifyRequest): StaffContext {
  if (!request.staff)
    throw new Error('staff route declared no permission or staffSession but reads request.staff');
  return request.staff;
}
