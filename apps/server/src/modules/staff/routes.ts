import {
  AdminEmptyBody,
  AuditQuery,
  CreateStaffBody,
  StaffCodeBody,
  StaffLoginBody,
  StaffRolesBody,
  StaffTargetBody,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import type { AuditRecord, AuditService } from './audit.ts';
import { staffOf } from './hook.ts';
import type { Staff } from './service.ts';

export function pageLimit(raw: string | undefined, fallback = 50): number {
  const n = raw === undefined ? fallback : Number.parseInt(raw, 10);
  return Math.min(Math.max(n, 1), 100);
}

export function auditRow(r: AuditRecord, names: Record<string, string>) {
  return {
    seq: r.seq,
    id: r.id,
    actor_id: r.actorId,
    actor: names[r.actorId] ?? r.actorId,
    action: r.action,
    target_type: r.targetType,
    target_id: r.targetId,
    before: r.before,
    after: r.after,
    reason: r.reason,
    created_at: r.createdAt.getTime(),
    prev_hash: r.prevHash,
    hash: r.hash,
  };
}

/** Staff login, session and management calls, and the audit log viewer (prefix `/api/admin`). */
export function staffRoutes(deps: { staff: Staff; audit: AuditService }) {
  return async (app: FastifyInstance) => {
    sessionRoutes(app, deps.staff);
    memberRoutes(app, deps.staff);
    auditRoutes(app, deps);
  };
}

const meta = (request: { ip: string; headers: Record<string, unknown> }) => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
});

/** The two login steps, logout and the signed-in staff member. */
function sessionRoutes(app: FastifyInstance, staff: Staff) {
  const tags = ['admin'];

  app.post(
    '/staffLogin',
    {
      schema: {
        tags,
        summary: 'Staff login step 1: email and password → ticket (and TOTP enrolment)',
        body: StaffLoginBody,
      },
      config: { accessLimited: true },
    },
    async (request) => {
      const body = request.body as StaffLoginBody;
      return ok(request, await staff.loginPassword({ email: body.email, password: body.password }));
    },
  );

  app.post(
    '/staffLoginCode',
    {
      schema: {
        tags,
        summary: 'Staff login step 2: ticket and authenticator code → staff token',
        body: StaffCodeBody,
      },
      config: { accessLimited: true },
    },
    async (request) => {
      const body = request.body as StaffCodeBody;
      return ok(request, await staff.loginCode({ ticket: body.ticket, code: body.code }, meta(request)));
    },
  );

  app.post(
    '/staffLogout',
    {
      schema: { tags, summary: 'End this staff session', body: AdminEmptyBody },
      config: { staffSession: true },
    },
    async (request) => {
      await staff.logout(staffOf(request));
      return ok(request, null);
    },
  );

  app.get(
    '/staffMe',
    {
      schema: {
        tags,
        summary: 'The signed-in staff member and their permissions',
        querystring: AdminEmptyBody,
      },
      config: { staffSession: true },
    },
    async (request) => ok(request, await staff.me(staffOf(request))),
  );
}

/** Staff management (`staff.manage`): list, create, roles, disable / enable, reset the authenticator. */
function memberRoutes(app: FastifyInstance, staff: Staff) {
  const tags = ['admin'];

  app.get(
    '/getStaffList',
    {
      schema: { tags, summary: 'Staff members', querystring: AdminEmptyBody },
      config: { permission: 'staff.manage' },
    },
    async (request) => ok(request, { list: await staff.list() }),
  );

  app.post(
    '/createStaff',
    {
      schema: { tags, summary: 'Create a staff member (audited)', body: CreateStaffBody },
      config: { permission: 'staff.manage' },
    },
    async (request) => ok(request, await staff.create(staffOf(request), request.body as CreateStaffBody)),
  );

  app.post(
    '/setStaffRoles',
    {
      schema: { tags, summary: "Change a staff member's roles (audited)", body: StaffRolesBody },
      config: { permission: 'staff.manage' },
    },
    async (request) => {
      const body = request.body as StaffRolesBody;
      return ok(
        request,
        await staff.setRoles(staffOf(request), {
          staffId: body.staff_id,
          roles: body.roles,
          reason: body.reason,
        }),
      );
    },
  );

  for (const [path, status, summary] of [
    ['/disableStaff', 'disabled', 'Disable a staff member and end their sessions (audited)'],
    ['/enableStaff', 'active', 'Enable a staff member (audited)'],
  ] as const) {
    app.post(
      path,
      { schema: { tags, summary, body: StaffTargetBody }, config: { permission: 'staff.manage' } },
      async (request) => {
        const body = request.body as StaffTargetBody;
        return ok(
          request,
          await staff.setStatus(staffOf(request), { staffId: body.staff_id, status, reason: body.reason }),
        );
      },
    );
  }

  app.post(
    '/resetStaffTotp',
    {
      schema: {
        tags,
        summary: "Forget a staff member's authenticator; next login enrols again (audited)",
        body: StaffTargetBody,
      },
      config: { permission: 'staff.manage' },
    },
    async (request) => {
      const body = request.body as StaffTargetBody;
      return ok(
        request,
        await staff.resetTotp(staffOf(request), { staffId: body.staff_id, reason: body.reason }),
      );
    },
  );
}

/** The audit log viewer and chain check (`audit.read`). */
function auditRoutes(app: FastifyInstance, deps: { staff: Staff; audit: AuditService }) {
  const { staff, audit } = deps;
  const tags = ['admin'];

  app.get(
    '/getAuditLog',
    {
      schema: { tags, summary: 'Audit records, newest first', querystring: AuditQuery },
      config: { permission: 'audit.read' },
    },
    async (request) => {
      const q = request.query as AuditQuery;
      const records = await audit.list({
        limit: pageLimit(q.limit),
        ...(q.before_seq ? { beforeSeq: Number(q.before_seq) } : {}),
        ...(q.target_id ? { targetId: q.target_id } : {}),
        ...(q.actor_id ? { actorId: q.actor_id } : {}),
      });
      const names = await staff.names([...new Set(records.map((r) => r.actorId))]);
      return ok(request, { list: records.map((r) => auditRow(r, names)) });
    },
  );

  app.get(
    '/verifyAudit',
    {
      schema: { tags, summary: 'Recompute the audit hash chain', querystring: AdminEmptyBody },
      config: { permission: 'audit.read' },
    },
    async (request) => {
      const report = await audit.verifyChain();
      return ok(request, { ...report, checkedAt: report.checkedAt.getTime() });
    },
  );
}
