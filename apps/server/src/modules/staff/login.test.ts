import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerByEmail, startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, staffLogin, staffSession, totpCode } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('staff login', () => {
  it('password then TOTP: enrolment on first login, a session token, me', async () => {
    const s = await staffSession(t, ['finance']);
    const me = await adminCall(t.app, { method: 'GET', call: 'staffMe', token: s.token });
    expect(me.code).toBe(1);
    expect(me.data.roles).toEqual(['finance']);
    expect(me.data.permissions).toContain('adjustments.create');
    expect(me.data.permissions).not.toContain('staff.manage');
    // Enrolled now: the next login asks for a code, without revealing the secret.
    t.clock.advance(30_000);
    const step1 = await adminCall(t.app, {
      call: 'staffLogin',
      fields: { email: s.email, password: s.password },
    });
    expect(step1.data.stage).toBe('totp');
    expect(step1.data.secret).toBeUndefined();
    const again = await staffLogin(t, { email: s.email, password: s.password, secret: s.secret });
    expect(again.staffId).toBe(s.staffId);
  });

  it('a wrong code is refused and counted; a used code cannot be reused', async () => {
    const s = await staffSession(t, ['support']);
    t.clock.advance(30_000);
    const step1 = await adminCall(t.app, {
      call: 'staffLogin',
      fields: { email: s.email, password: s.password },
    });
    const right = await totpCode(s.secret, t.clock);
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await adminCall(t.app, {
      call: 'staffLoginCode',
      fields: { ticket: step1.data.ticket, code: wrong },
    });
    expect(refused.reason).toBe('STAFF_CODE_WRONG');
    expect(refused.params).toEqual({ attemptsLeft: 4 });
    const okAnswer = await adminCall(t.app, {
      call: 'staffLoginCode',
      fields: { ticket: step1.data.ticket, code: right },
    });
    expect(okAnswer.code).toBe(1);
    // The ticket is spent, and the same code (same time step) cannot open another session.
    const replay = await adminCall(t.app, {
      call: 'staffLoginCode',
      fields: { ticket: step1.data.ticket, code: right },
    });
    expect(replay.reason).toBe('STAFF_CHALLENGE_EXPIRED');
    const step1b = await adminCall(t.app, {
      call: 'staffLogin',
      fields: { email: s.email, password: s.password },
    });
    const reused = await adminCall(t.app, {
      call: 'staffLoginCode',
      fields: { ticket: step1b.data.ticket, code: right },
    });
    expect(reused.reason).toBe('STAFF_CODE_WRONG');
  });

  it('locks after LOGIN_MAX_FAILURES wrong passwords, and unlocks after the lock time', async () => {
    const s = await staffSession(t, ['support']);
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(
        await adminCall(t.app, {
          call: 'staffLogin',
          fields: { email: s.email, password: 'wrong-password-123' },
        }),
      );
    }
    expect(answers.slice(0, 4).map((a) => a.reason)).toEqual([
      'LOGIN_FAILED',
      'LOGIN_FAILED',
      'LOGIN_FAILED',
      'LOGIN_FAILED',
    ]);
    expect(answers[4]?.reason).toBe('LOGIN_LOCKED');
    const locked = await adminCall(t.app, {
      call: 'staffLogin',
      fields: { email: s.email, password: s.password },
    });
    expect(locked.reason).toBe('LOGIN_LOCKED');
    t.clock.advance(15 * 60_000 + 1_000);
    const after = await adminCall(t.app, {
      call: 'staffLogin',
      fields: { email: s.email, password: s.password },
    });
    expect(after.code).toBe(1);
  });

  it('an unknown email costs a password check and says only LOGIN_FAILED', async () => {
    const a = await adminCall(t.app, {
      call: 'staffLogin',
      fields: { email: 'nobody@test.local', password: 'whatever-password' },
    });
    expect(a.reason).toBe('LOGIN_FAILED');
  });

  it('bad input is refused with a reason', async () => {
    const noCode = await adminCall(t.app, { call: 'staffLoginCode', fields: { ticket: 'x', code: '12ab' } });
    expect(noCode.status).toBe(400);
    expect(noCode.reason).toBe('BAD_INPUT');
    const missing = await adminCall(t.app, { call: 'staffLogin', fields: { email: 'a@b.co' } });
    expect(missing.reason).toBe('FIELD_REQUIRED');
  });

  it('a customer token never works on /api/admin, and a staff token is not a customer session', async () => {
    const customer = await registerByEmail(t, 'cust-staff-test@example.com');
    const me = await adminCall(t.app, { method: 'GET', call: 'staffMe', token: customer.token });
    expect(me.code).toBe(1000);
    expect(me.reason).toBe('LOGIN_REQUIRED');
    const asField = await adminCall(t.app, {
      method: 'GET',
      call: 'searchCustomers',
      fields: { q: 'x', token: customer.token },
    });
    expect(asField.reason).toBe('LOGIN_REQUIRED');
    const s = await staffSession(t, ['administrator']);
    const info = await call(t.app, {
      method: 'GET',
      call: 'info',
      headers: { authorization: `Bearer ${s.token}` },
    });
    expect(info.code).toBe(1000);
  });

  it('logout ends the session; idle and absolute expiry end it too', async () => {
    const s = await staffSession(t, ['support']);
    expect((await adminCall(t.app, { call: 'staffLogout', token: s.token })).code).toBe(1);
    expect((await adminCall(t.app, { method: 'GET', call: 'staffMe', token: s.token })).reason).toBe(
      'SESSION_EXPIRED',
    );
    const idle = await staffSession(t, ['support']);
    t.clock.advance(31 * 60_000);
    expect((await adminCall(t.app, { method: 'GET', call: 'staffMe', token: idle.token })).reason).toBe(
      'SESSION_EXPIRED',
    );
    const busy = await staffSession(t, ['support']);
    for (let i = 0; i < 25; i++) {
      t.clock.advance(29 * 60_000);
      const me = await adminCall(t.app, { method: 'GET', call: 'staffMe', token: busy.token });
      if (i < 24) expect(me.code).toBe(1);
      else expect(me.reason).toBe('SESSION_EXPIRED');
    }
  });
});
