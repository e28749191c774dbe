import type { FastifyInstance, InjectOptions } from 'fastify';
import { generate } from 'otplib';
import type { StaffRole } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newToken } from '../../lib/crypto.ts';

/**
 * Test helpers for every module with staff calls. `staffSession(t, ['finance'])` creates a staff
 * member with those roles, logs in (password, then a TOTP code computed with otplib at the app's
 * clock) and returns the staff bearer token; `adminCall(app, { call, token, fields })` calls
 * `/api/admin/<call>` with it.
 */
export type AdminAnswer = {
  status: number;
  code: number;
  msg: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
  data: any;
  reason?: string;
  params?: Record<string, unknown>;
};

let counter = 0;
function rtoken(): string {
  counter += 1;
  return `st${process.pid.toString(36)}${counter.toString(36)}`.slice(0, 16).padEnd(6, 'x');
}

/** Calls `/api/admin/<call>`: GET in the query, POST as JSON (or form with `form: true`); the staff token as Bearer. */
export async function adminCall(
  app: FastifyInstance,
  input: {
    method?: 'GET' | 'POST';
    call: string;
    token?: string;
    fields?: Record<string, string>;
    form?: boolean;
    headers?: InjectOptions['headers'];
  },
): Promise<AdminAnswer> {
  const method = input.method ?? 'POST';
  const fields = { rtoken: rtoken(), ...input.fields };
  const url = `/api/admin/${input.call}`;
  const headers = { ...(input.token ? { authorization: `Bearer ${input.token}` } : {}), ...input.headers };
  const response =
    method === 'GET'
      ? await app.inject({ method, url, query: fields, headers })
      : input.form
        ? await app.inject({
            method,
            url,
            payload: new URLSearchParams(fields).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          })
        : await app.inject({ method, url, payload: fields, headers });
  return { status: response.statusCode, ...response.json() };
}

/** The current TOTP code of a secret at the app's clock. */
export function totpCode(secret: string, clock: Clock): Promise<string> {
  return generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
}

export type StaffLogin = { token: string; staffId: string; email: string; password: string; secret: string };

/** Logs an existing staff member in (enrolling TOTP when needed). Pass `secret` once enrolled. */
export async function staffLogin(
  t: { app: FastifyInstance; clock: Clock },
  input: { email: string; password: string; secret?: string },
): Promise<StaffLogin> {
  const step1 = await adminCall(t.app, {
    call: 'staffLogin',
    fields: { email: input.email, password: input.password },
  });
  if (step1.code !== 1) throw new Error(`staffLogin failed: ${step1.reason} ${step1.msg}`);
  const secret: string | undefined = step1.data.secret ?? input.secret;
  if (!secret) throw new Error('staff member is enrolled: pass their TOTP secret');
  const code = await totpCode(secret, t.clock);
  const step2 = await adminCall(t.app, {
    call: 'staffLoginCode',
    fields: { ticket: step1.data.ticket, code },
  });
  if (step2.code !== 1) throw new Error(`staffLoginCode failed: ${step2.reason} ${step2.msg}`);
  const me = await adminCall(t.app, { method: 'GET', call: 'staffMe', token: step2.data.token });
  return {
    token: step2.data.token,
    staffId: me.data.staff_id,
    email: input.email,
    password: input.password,
    secret,
  };
}

/** A new staff member with these roles, logged in. */
export async function staffSession(
  t: { app: FastifyInstance; clock: Clock & { advance?(ms: number): void } },
  roles: readonly StaffRole[],
  options: { email?: string; password?: string } = {},
): Promise<StaffLogin> {
  const email =
    options.email ??
    `staff-${newToken()
      .slice(0, 10)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, 'x')}@test.local`;
  const password = options.password ?? 'correct-horse-battery-staple';
  await t.app.staffService.createMember({
    email,
    name: email.split('@')[0] ?? 'staff',
    password,
    roles: [...roles],
  });
  return staffLogin(t, { email, password });
}
