/**
 * The back office: staff accounts, sessions (password + TOTP), permissions, the audit log, and the
 * staff calls under `/api/admin`. Other modules use the contract in `http/staff.ts`: route config
 * `permission`, `request.staff`, and the `AuditLog` built here and passed to them.
 */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type AuditService, createAuditLog as createAudit } from './audit.ts';

export {
  type AuditRecord,
  type AuditService,
  type ChainReport,
  canonicalJson,
  GENESIS_HASH,
} from './audit.ts';
export { type BackOffice, createBackOffice } from './backoffice.ts';
export { backOfficeRoutes } from './backoffice-routes.ts';
export {
  ACTIVITY_DAYS,
  type CustomerSummaries,
  customerSummaries,
  type VerificationSummaries,
} from './customer-context.ts';
export { registerStaffHook, staffBearer, staffOf } from './hook.ts';
export { staffMigrations } from './migrations.ts';
export { can, permissionsOf, ROLE_PERMISSIONS } from './permissions.ts';
export { staffRoutes } from './routes.ts';
export { createStaff, DEFAULT_ADMIN_EMAIL, type Staff, type StaffConfig, type StaffDeps } from './service.ts';
export type { StaffTables } from './tables.ts';

/** The audit log (implements `AuditLog` of http/staff.ts, plus the viewer's list and chain check). */
declare module 'fastify' {
  interface FastifyInstance {
    /** The audit log: modules offering staff calls get it passed in; tests read it. */
    audit: AuditService;
    /** The staff service (tests create staff members through it). */
    staffService: import('./service.ts').Staff;
  }
}

export function createAuditLog(deps: { db: Db; clock: Clock }): AuditService {
  return createAudit(deps);
}
