import { ADMIN_LIMITS, type StaffMe } from '@bourse/protocol';
import { hash, verify } from '@node-rs/argon2';
import type { Logger } from 'pino';
import { type Db, inTransaction, isUniqueViolation, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import { STAFF_ROLES, type StaffContext, type StaffRole } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newToken, open, seal, sha256 } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import { ARGON2 } from '../accounts/index.ts';
import type { AuditService } from './audit.ts';
import { permissionsOf } from './permissions.ts';
import * as repo from './repo.ts';
import { checkTotp, newTotpSecret, totpUri } from './totp.ts';

export type StaffConfig = {
  loginMaxFailures: number;
  loginLockMinutes: number;
  staffSessionIdleMinutes: number;
  staffSessionMaxHours: number;
  adminEmail: string | null;
  adminPassword: string | null;
};

export type StaffDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  /** The server secret: seals TOTP secrets at rest. */
  secret: string;
  config: StaffConfig;
  audit: AuditService;
};

export type StaffMeta = { ip: string; userAgent: string };

/** The generated first administrator's email when ADMIN_EMAIL is not set. */
export const DEFAULT_ADMIN_EMAIL = 'admin@bourse.local';
/** The id recorded as actor of what the server itself does (the first administrator). */
export const SYSTEM_ACTOR = 'system';
/** last_seen_at is written at most this often per session. */
const TOUCH_EVERY_MS = 30_000;

export type StaffSummary = {
  staff_id: string;
  email: string;
  name: string;
  roles: StaffRole[];
  status: 'active' | 'disabled';
  totp_enrolled: boolean;
  locked_until: number | null;
  created_at: number;
};

function summary(
  row: Pick<
    repo.MemberRow,
    'id' | 'email' | 'name' | 'roles' | 'status' | 'totp_enrolled_at' | 'locked_until' | 'created_at'
  >,
): StaffSummary {
  return {
    staff_id: row.id,
    email: row.email,
    name: row.name,
    roles: row.roles,
    status: row.status,
    totp_enrolled: row.totp_enrolled_at !== null,
    locked_until: row.locked_until?.getTime() ?? null,
    created_at: row.created_at.getTime(),
  };
}

export function parseRoles(list: string): StaffRole[] {
  const roles = [...new Set(list.split(',').map((r) => r.trim()))];
  for (const role of roles) {
    if (!(STAFF_ROLES as readonly string[]).includes(role)) refuse('BAD_INPUT', { field: 'roles' });
  }
  if (roles.length === 0) refuse('FIELD_REQUIRED', { field: 'roles' });
  return STAFF_ROLES.filter((r) => roles.includes(r));
}

function parseStaffEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > ADMIN_LIMITS.emailMax)
    refuse('EMAIL_INVALID');
  return email;
}

function checkStaffPassword(password: string): void {
  const min = ADMIN_LIMITS.staffPasswordMin;
  const max = ADMIN_LIMITS.staffPasswordMax;
  if (password.length < min || password.length > max) refuse('STAFF_PASSWORD_WEAK', { min, max });
}

export function checkReason(reason: string | undefined, field = 'reason'): string {
  const text = (reason ?? '').trim();
  if (text === '') refuse('FIELD_REQUIRED', { field });
  if (text.length < ADMIN_LIMITS.reasonMin) refuse('FIELD_TOO_SHORT', { field, min: ADMIN_LIMITS.reasonMin });
  if (text.length > ADMIN_LIMITS.reasonMax) refuse('FIELD_TOO_LONG', { field, max: ADMIN_LIMITS.reasonMax });
  return text;
}

/** Staff accounts, their logins (password + TOTP) and sessions. Every change is audited. */
export function createStaff(deps: StaffDeps) {
  const { db, clock, config, audit } = deps;
  const dummyHash = hash('not-a-password-at-all', ARGON2);
  const sealKey = `staff-totp|${deps.secret}`;
  const idleMs = config.staffSessionIdleMinutes * 60_000;
  const maxMs = config.staffSessionMaxHours * 3_600_000;

  /** A wrong password or code, counted in its own transaction so the refusal does not undo it. */
  async function recordFailure(staffId: string, kind: 'password' | 'code'): Promise<never> {
    const now = clock.now();
    const failures = await repo.addFailedLogin(db, staffId, now);
    const left = config.loginMaxFailures - failures;
    if (left <= 0) {
      await repo.updateMember(db, staffId, {
        locked_until: new Date(now.getTime() + config.loginLockMinutes * 60_000),
        failed_logins: 0,
      });
      refuse('LOGIN_LOCKED', { minutes: config.loginLockMinutes, maxFailures: config.loginMaxFailures });
    }
    if (kind === 'code') refuse('STAFF_CODE_WRONG', { attemptsLeft: left });
    refuse('LOGIN_FAILED', { attemptsLeft: left });
  }

  function checkUsable(member: { status: string; locked_until: Date | null }, now: Date): void {
    if (member.status !== 'active') refuse('ACCOUNT_DISABLED');
    if (member.locked_until && member.locked_until > now) {
      const minutes = Math.ceil((member.locked_until.getTime() - now.getTime()) / 60_000);
      refuse('LOGIN_LOCKED', { minutes, maxFailures: config.loginMaxFailures });
    }
  }

  async function insertMember(
    q: Db | Tx,
    input: { email: string; name: string; password: string; roles: StaffRole[]; createdBy: string | null },
  ) {
    const now = clock.now();
    const row: repo.MemberRow = {
      id: newId('stf', now.getTime()),
      email: input.email,
      name: input.name,
      password_hash: await hash(input.password, ARGON2),
      roles: input.roles,
      totp_secret_sealed: null,
      totp_enrolled_at: null,
      totp_last_step: null,
      status: 'active',
      failed_logins: 0,
      locked_until: null,
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
    };
    try {
      await repo.insertMember(q, row);
    } catch (error) {
      if (isUniqueViolation(error)) refuse('STAFF_EMAIL_TAKEN');
      throw error;
    }
    return row;
  }

  const staff = {
    /**
     * The first administrator: from ADMIN_EMAIL/ADMIN_PASSWORD when set and not yet there, or —
     * when no staff exists at all — `admin@bourse.local` with a random password printed once.
     */
    async ensureFirstAdministrator(): Promise<{ created: boolean; email?: string; generated?: boolean }> {
      if (config.adminEmail && config.adminPassword) {
        const email = parseStaffEmail(config.adminEmail);
        if (await repo.findMember(db, { email })) return { created: false };
        const created = await inTransaction(db, async (tx) => {
          const member = await insertMember(tx, {
            email,
            name: 'Administrator',
            password: config.adminPassword as string,
            roles: ['administrator'],
            createdBy: SYSTEM_ACTOR,
          }).catch((error) => (isUniqueViolation(error) ? null : Promise.reject(error)));
          if (!member) return null;
          await audit.record(tx, {
            actorId: SYSTEM_ACTOR,
            action: 'staff.bootstrap',
            targetType: 'staff',
            targetId: member.id,
            after: { email, roles: member.roles, source: 'environment' },
          });
          return member;
        }).catch((error) => {
          if ((error as { reason?: string }).reason === 'STAFF_EMAIL_TAKEN') return null;
          throw error;
        });
        if (created) deps.log.info({ email }, 'first administrator created from ADMIN_EMAIL');
        return { created: created !== null, email };
      }
      if (await repo.anyMember(db)) return { created: false };
      const password = newToken().slice(0, 20);
      const created = await inTransaction(db, async (tx) => {
        // One server wins when several start on one empty database at once.
        await repo.lockFirstAdministrator(tx);
        if (await repo.anyMember(tx)) return null;
        const member = await insertMember(tx, {
          email: DEFAULT_ADMIN_EMAIL,
          name: 'Administrator',
          password,
          roles: ['administrator'],
          createdBy: SYSTEM_ACTOR,
        });
        await audit.record(tx, {
          actorId: SYSTEM_ACTOR,
          action: 'staff.bootstrap',
          targetType: 'staff',
          targetId: member.id,
          after: { email: DEFAULT_ADMIN_EMAIL, roles: member.roles, source: 'generated' },
        });
        return member;
      });
      if (!created) return { created: false };
      // Printed once: the next start finds a staff member and prints nothing.
      deps.log.warn(
        `first administrator created: email=${DEFAULT_ADMIN_EMAIL} password=${password} ` +
          '(shown once; change it by creating your own administrator; the authenticator is enrolled at first login)',
      );
      return { created: true, email: DEFAULT_ADMIN_EMAIL, generated: true };
    },

    /** Step 1: email + password. Returns a ticket for step 2; a new staff member also gets their TOTP secret. */
    async loginPassword(input: { email: string; password: string }) {
      const email = input.email.trim().toLowerCase();
      const member = await repo.findMember(db, { email });
      const now = clock.now();
      if (!member) {
        await verify(await dummyHash, input.password);
        refuse('LOGIN_FAILED', { attemptsLeft: config.loginMaxFailures });
      }
      checkUsable(member, now);
      if (!(await verify(member.password_hash, input.password))) await recordFailure(member.id, 'password');
      const ticket = newToken();
      const enrolled = member.totp_enrolled_at !== null;
      let secret: string | null = null;
      await inTransaction(db, async (tx) => {
        if (!enrolled) {
          // A new secret at every password step until one is confirmed: shown once each time.
          secret = newTotpSecret();
          await repo.updateMember(tx, member.id, {
            totp_secret_sealed: seal(sealKey, secret),
            updated_at: now,
          });
        }
        await repo.insertChallenge(tx, {
          id: newId('stc', now.getTime()),
          staff_id: member.id,
          ticket_hash: sha256(ticket),
          kind: enrolled ? 'totp' : 'enrol',
          expires_at: new Date(now.getTime() + ADMIN_LIMITS.challengeSeconds * 1000),
          consumed_at: null,
          created_at: now,
        });
      });
      if (enrolled) return { stage: 'totp' as const, ticket };
      return {
        stage: 'enrol' as const,
        ticket,
        secret: secret as unknown as string,
        otpauth_uri: totpUri(member.email, secret as unknown as string),
      };
    },

    /** Step 2: the ticket and a TOTP code (which also confirms enrolment). Opens a staff session. */
    async loginCode(input: { ticket: string; code: string }, meta: StaffMeta) {
      const now = clock.now();
      const challenge = await repo.findChallengeByTicketHash(db, sha256(input.ticket));
      if (!challenge || challenge.consumed_at !== null || challenge.expires_at <= now) {
        refuse('STAFF_CHALLENGE_EXPIRED');
      }
      const member = await repo.findMember(db, { id: challenge.staff_id });
      if (!member?.totp_secret_sealed) refuse('STAFF_CHALLENGE_EXPIRED');
      checkUsable(member, now);
      const secret = open(sealKey, member.totp_secret_sealed);
      const step = await checkTotp({
        secret,
        code: input.code,
        now,
        afterStep: member.totp_last_step === null ? null : Number(member.totp_last_step),
      });
      if (step === null) await recordFailure(member.id, 'code');
      const token = newToken();
      const result = await inTransaction(db, async (tx) => {
        if (!(await repo.consumeChallenge(tx, challenge.id, now))) refuse('STAFF_CHALLENGE_EXPIRED');
        // The step only moves forward: a code racing itself opens one session.
        const moved = await repo.advanceTotpStep(tx, {
          id: member.id,
          step: String(step),
          patch: {
            failed_logins: 0,
            locked_until: null,
            updated_at: now,
            ...(challenge.kind === 'enrol' ? { totp_enrolled_at: now } : {}),
          },
        });
        if (!moved) refuse('STAFF_CODE_WRONG', { attemptsLeft: config.loginMaxFailures });
        const sessionId = newId('sss', now.getTime());
        await repo.insertSession(tx, {
          id: sessionId,
          staff_id: member.id,
          token_hash: sha256(token),
          created_at: now,
          last_seen_at: now,
          expires_at: new Date(now.getTime() + maxMs),
          revoked_at: null,
          ip: meta.ip.slice(0, 64),
          user_agent: meta.userAgent.slice(0, 256),
        });
        await audit.record(tx, {
          actorId: member.id,
          action: challenge.kind === 'enrol' ? 'staff.enrol_totp' : 'staff.login',
          targetType: 'staff_session',
          targetId: sessionId,
          after: { ip: meta.ip.slice(0, 64) },
        });
        return { sessionId };
      });
      return {
        token,
        session_id: result.sessionId,
        expires_at: now.getTime() + maxMs,
        idle_minutes: config.staffSessionIdleMinutes,
      };
    },

    /** The staff context of a bearer token; refuses LOGIN_REQUIRED, SESSION_EXPIRED or ACCOUNT_DISABLED. */
    async resolve(token: string): Promise<StaffContext> {
      const row = await repo.findSessionByTokenHash(db, sha256(token));
      if (!row) refuse('LOGIN_REQUIRED');
      const now = clock.now();
      if (row.revoked_at !== null || row.expires_at <= now) refuse('SESSION_EXPIRED');
      if (now.getTime() - row.last_seen_at.getTime() > idleMs) refuse('SESSION_EXPIRED');
      if (row.status !== 'active') refuse('ACCOUNT_DISABLED');
      if (now.getTime() - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
        await repo.touchSession(db, row.session_id, now);
      }
      return Object.freeze({
        staffId: row.staff_id,
        sessionId: row.session_id,
        roles: Object.freeze([...row.roles]),
      });
    },

    async logout(ctx: StaffContext): Promise<void> {
      await inTransaction(db, async (tx) => {
        await repo.revokeSession(tx, ctx.sessionId, clock.now());
        await audit.record(tx, {
          actorId: ctx.staffId,
          action: 'staff.logout',
          targetType: 'staff_session',
          targetId: ctx.sessionId,
        });
      });
    },

    async me(ctx: StaffContext): Promise<StaffMe> {
      const member = await repo.findMember(db, { id: ctx.staffId });
      if (!member) refuse('SESSION_EXPIRED');
      return {
        staff_id: member.id,
        email: member.email,
        name: member.name,
        roles: member.roles,
        permissions: permissionsOf(member.roles),
      };
    },

    /** A staff member without an acting administrator (tests and tools; not reachable over HTTP). */
    async createMember(input: { email: string; name: string; password: string; roles: StaffRole[] }) {
      checkStaffPassword(input.password);
      return inTransaction(db, async (tx) => {
        const member = await insertMember(tx, {
          ...input,
          email: parseStaffEmail(input.email),
          createdBy: SYSTEM_ACTOR,
        });
        await audit.record(tx, {
          actorId: SYSTEM_ACTOR,
          action: 'staff.create',
          targetType: 'staff',
          targetId: member.id,
          after: { email: member.email, name: member.name, roles: member.roles },
        });
        return summary(member);
      });
    },

    async list(): Promise<StaffSummary[]> {
      const rows = await repo.listMembers(db);
      return rows.map(summary);
    },

    /** Display names of staff ids (audit viewer, adjustments). */
    async names(ids: readonly string[]): Promise<Record<string, string>> {
      if (ids.length === 0) return {};
      const rows = await repo.memberEmails(db, ids);
      return Object.fromEntries(rows.map((r) => [r.id, r.email]));
    },

    async create(
      actor: StaffContext,
      input: { email: string; name: string; password: string; roles: string },
    ) {
      const email = parseStaffEmail(input.email);
      const name = input.name.trim();
      if (name === '') refuse('FIELD_REQUIRED', { field: 'name' });
      checkStaffPassword(input.password);
      const roles = parseRoles(input.roles);
      return inTransaction(db, async (tx) => {
        const member = await insertMember(tx, {
          email,
          name,
          password: input.password,
          roles,
          createdBy: actor.staffId,
        });
        await audit.record(tx, {
          actorId: actor.staffId,
          action: 'staff.create',
          targetType: 'staff',
          targetId: member.id,
          after: { email, name, roles },
        });
        return summary(member);
      });
    },

    async setRoles(actor: StaffContext, input: { staffId: string; roles: string; reason: string }) {
      const roles = parseRoles(input.roles);
      const reason = checkReason(input.reason);
      return inTransaction(db, async (tx) => {
        const member = await repo.findMember(tx, { id: input.staffId }, { lock: true });
        if (!member) refuse('NOT_FOUND');
        // The actor is an active administrator and cannot change themselves: one always remains.
        if (member.id === actor.staffId) refuse('STAFF_SELF_ACTION');
        await repo.updateMember(tx, member.id, { roles, updated_at: clock.now() });
        await audit.record(tx, {
          actorId: actor.staffId,
          action: 'staff.roles',
          targetType: 'staff',
          targetId: member.id,
          before: { roles: member.roles },
          after: { roles },
          reason,
        });
        return summary({ ...member, roles });
      });
    },

    /** Disable or enable a staff member; disabling ends their sessions. */
    async setStatus(
      actor: StaffContext,
      input: { staffId: string; status: 'active' | 'disabled'; reason: string },
    ) {
      const reason = checkReason(input.reason);
      return inTransaction(db, async (tx) => {
        const member = await repo.findMember(tx, { id: input.staffId }, { lock: true });
        if (!member) refuse('NOT_FOUND');
        if (member.id === actor.staffId) refuse('STAFF_SELF_ACTION');
        const now = clock.now();
        await repo.updateMember(tx, member.id, {
          status: input.status,
          updated_at: now,
          ...(input.status === 'active' ? { failed_logins: 0, locked_until: null } : {}),
        });
        const ended = input.status === 'disabled' ? await repo.revokeMemberSessions(tx, member.id, now) : 0;
        await audit.record(tx, {
          actorId: actor.staffId,
          action: input.status === 'disabled' ? 'staff.disable' : 'staff.enable',
          targetType: 'staff',
          targetId: member.id,
          before: { status: member.status },
          after: { status: input.status, ended_sessions: ended },
          reason,
        });
        return { ...summary({ ...member, status: input.status }), ended_sessions: ended };
      });
    },

    /** Forget a staff member's authenticator: their next login enrols a new one. Ends their sessions. */
    async resetTotp(actor: StaffContext, input: { staffId: string; reason: string }) {
      const reason = checkReason(input.reason);
      return inTransaction(db, async (tx) => {
        const member = await repo.findMember(tx, { id: input.staffId }, { lock: true });
        if (!member) refuse('NOT_FOUND');
        if (member.id === actor.staffId) refuse('STAFF_SELF_ACTION');
        const now = clock.now();
        await repo.updateMember(tx, member.id, {
          totp_secret_sealed: null,
          totp_enrolled_at: null,
          totp_last_step: null,
          updated_at: now,
        });
        const ended = await repo.revokeMemberSessions(tx, member.id, now);
        await audit.record(tx, {
          actorId: actor.staffId,
          action: 'staff.reset_totp',
          targetType: 'staff',
          targetId: member.id,
          before: { totp_enrolled: member.totp_enrolled_at !== null },
          after: { totp_enrolled: false, ended_sessions: ended },
          reason,
        });
        return { ...summary({ ...member, totp_enrolled_at: null }), ended_sessions: ended };
      });
    },
  };
  return staff;
}

export type Staff = ReturnType<typeof createStaff>;
