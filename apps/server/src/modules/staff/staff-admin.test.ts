import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, type StaffLogin, staffLogin, staffSession } from './testing.ts';

let t: TestApp;
let admin: StaffLogin;
beforeAll(async () => {
  t = await startTestApp();
  admin = await staffSession(t, ['administrator']);
});
afterAll(async () => t?.close());

describe('staff management', () => {
  it('an administrator creates staff with roles; the new member enrols at first login', async () => {
    const created = await adminCall(t.app, {
      call: 'createStaff',
      token: admin.token,
      fields: {
        email: 'New.Finance@Example.com',
        name: 'Fin',
        password: 'finance-password-1',
        roles: 'finance,support',
      },
    });
    expect(created.data).toMatchObject({
      email: 'new.finance@example.com',
      roles: ['finance', 'support'],
      totp_enrolled: false,
    });
    const dup = await adminCall(t.app, {
      call: 'createStaff',
      token: admin.token,
      fields: {
        email: 'new.finance@example.com',
        name: 'Fin',
        password: 'finance-password-1',
        roles: 'finance',
      },
    });
    expect(dup.reason).toBe('STAFF_EMAIL_TAKEN');
    const weak = await adminCall(t.app, {
      call: 'createStaff',
      token: admin.token,
      fields: { email: 'x@example.com', name: 'X', password: 'short', roles: 'finance' },
    });
    expect(weak.reason).toBe('STAFF_PASSWORD_WEAK');
    const badRole = await adminCall(t.app, {
      call: 'createStaff',
      token: admin.token,
      fields: { email: 'y@example.com', name: 'Y', password: 'finance-password-1', roles: 'root' },
    });
    expect(badRole.reason).toBe('BAD_INPUT');
    const s = await staffLogin(t, { email: 'new.finance@example.com', password: 'finance-password-1' });
    expect(s.staffId).toBe(created.data.staff_id);
    const list = await adminCall(t.app, { method: 'GET', call: 'getStaffList', token: admin.token });
    expect(list.data.list.find((m: { staff_id: string }) => m.staff_id === s.staffId).totp_enrolled).toBe(
      true,
    );
    const audit = await t.app.audit.list({ limit: 20, targetId: s.staffId });
    expect(audit.map((r) => r.action)).toContain('staff.create');
  });

  it('disabling a staff member ends their sessions; they cannot log in; nobody disables themselves', async () => {
    const s = await staffSession(t, ['support']);
    const off = await adminCall(t.app, {
      call: 'disableStaff',
      token: admin.token,
      fields: { staff_id: s.staffId, reason: 'left the company' },
    });
    expect(off.data).toMatchObject({ status: 'disabled', ended_sessions: 1 });
    expect((await adminCall(t.app, { method: 'GET', call: 'staffMe', token: s.token })).code).toBe(1000);
    const login = await adminCall(t.app, {
      call: 'staffLogin',
      fields: { email: s.email, password: s.password },
    });
    expect(login.reason).toBe('ACCOUNT_DISABLED');
    const self = await adminCall(t.app, {
      call: 'disableStaff',
      token: admin.token,
      fields: { staff_id: admin.staffId, reason: 'oops' },
    });
    expect(self.reason).toBe('STAFF_SELF_ACTION');
  });

  it('resetting TOTP ends sessions and the next login enrols a new secret', async () => {
    const s = await staffSession(t, ['finance']);
    const reset = await adminCall(t.app, {
      call: 'resetStaffTotp',
      token: admin.token,
      fields: { staff_id: s.staffId, reason: 'lost phone' },
    });
    expect(reset.data).toMatchObject({ totp_enrolled: false, ended_sessions: 1 });
    t.clock.advance(30_000);
    const step1 = await adminCall(t.app, {
      call: 'staffLogin',
      fields: { email: s.email, password: s.password },
    });
    expect(step1.data.stage).toBe('enrol');
    expect(step1.data.secret).not.toBe(s.secret);
    expect(step1.data.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
  });

  it('roles change with a reason and take effect at once; nobody changes their own roles', async () => {
    const s = await staffSession(t, ['support']);
    const noReason = await adminCall(t.app, {
      call: 'setStaffRoles',
      token: admin.token,
      fields: { staff_id: s.staffId, roles: 'compliance', reason: '' },
    });
    expect(noReason.reason).toBe('FIELD_REQUIRED');
    const changed = await adminCall(t.app, {
      call: 'setStaffRoles',
      token: admin.token,
      fields: { staff_id: s.staffId, roles: 'compliance', reason: 'moved team' },
    });
    expect(changed.data.roles).toEqual(['compliance']);
    const me = await adminCall(t.app, { method: 'GET', call: 'staffMe', token: s.token });
    expect(me.data.permissions).toContain('audit.read');
    expect((await adminCall(t.app, { method: 'GET', call: 'getOutbox', token: s.token })).reason).toBe(
      'FORBIDDEN',
    );
    const self = await adminCall(t.app, {
      call: 'setStaffRoles',
      token: admin.token,
      fields: { staff_id: admin.staffId, roles: 'finance', reason: 'demote' },
    });
    expect(self.reason).toBe('STAFF_SELF_ACTION');
    const unknown = await adminCall(t.app, {
      call: 'setStaffRoles',
      token: admin.token,
      fields: { staff_id: 'stf_nobody', roles: 'finance', reason: 'demote' },
    });
    expect(unknown.reason).toBe('NOT_FOUND');
    const records = await t.app.audit.list({ limit: 5, targetId: s.staffId });
    expect(records[0]).toMatchObject({
      action: 'staff.roles',
      before: { roles: ['support'] },
      after: { roles: ['compliance'] },
      reason: 'moved team',
    });
  });
});
