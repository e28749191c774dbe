import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, startTestApp } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createDb } from '../../db/database.ts';
import { manualClock } from '../../lib/clock.ts';
import { adminCall, staffLogin } from './testing.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

describe('the first administrator', () => {
  it('from ADMIN_EMAIL and ADMIN_PASSWORD: created once, TOTP enrolled at first login, password never logged', async () => {
    const t = await startTestApp({ adminEmail: 'boss@example.com', adminPassword: 'a-long-admin-password' });
    try {
      const rows = await t.db
        .selectFrom('staff_member')
        .select(['email', 'roles', 'totp_enrolled_at'])
        .execute();
      expect(rows).toEqual([{ email: 'boss@example.com', roles: ['administrator'], totp_enrolled_at: null }]);
      const s = await staffLogin(t, { email: 'boss@example.com', password: 'a-long-admin-password' });
      const me = await adminCall(t.app, { method: 'GET', call: 'staffMe', token: s.token });
      expect(me.data.permissions).toContain('staff.manage');
      const audit = await t.app.audit.list({ limit: 10 });
      expect(audit.map((r) => r.action)).toEqual(['staff.enrol_totp', 'staff.bootstrap']);
      expect(audit[1]).toMatchObject({ actorId: 'system', after: { source: 'environment' } });
      // A restart with the same environment changes nothing.
      await t.app.staffService.ensureFirstAdministrator();
      expect(await t.db.selectFrom('staff_member').select('id').execute()).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('without the environment: a random password printed once, never again on the next start', async () => {
    const database = await createTestDatabase();
    const handle = createDb(database.url, { max: 5 });
    const config = Object.freeze({
      ...loadConfig({ LOG_LEVEL: 'info' }),
      demoContent: false,
      webDist: '/nonexistent',
      adminDist: '/nonexistent',
      feedTickMs: 0,
      simHistoryCandles: 0,
    });
    const clock = manualClock(new Date('2026-11-21T04:00:00Z'));
    const secret = 'test-secret-test-secret-test-secret!';
    try {
      const first = capture();
      const app1 = await buildApp({ config, db: handle.db, secret, clock, logger: first.logger });
      await app1.ready();
      const printed = first.lines.filter((l) => l.includes('first administrator created'));
      expect(printed).toHaveLength(1);
      const match = printed[0]?.match(/email=(\S+) password=(\S+)/);
      expect(match?.[1]).toBe('admin@bourse.local');
      const password = match?.[2] as string;
      expect(password.length).toBeGreaterThanOrEqual(16);
      const s = await staffLogin({ app: app1, clock }, { email: 'admin@bourse.local', password });
      expect(s.token).toBeTruthy();
      await app1.close();

      const second = capture();
      const app2 = await buildApp({ config, db: handle.db, secret, clock, logger: second.logger });
      await app2.ready();
      expect(second.lines.join('')).not.toContain('first administrator created');
      expect(second.lines.join('')).not.toContain(password);
      expect(await handle.db.selectFrom('staff_member').select('email').execute()).toEqual([
        { email: 'admin@bourse.local' },
      ]);
      await app2.close();
    } finally {
      await handle.db.destroy();
      await database.drop();
    }
  });

  it('refuses half or bad admin settings at start', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.co' })).toThrow(/go together/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: 'short' })).toThrow(/12 to 128/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'a-long-admin-password' })).toThrow(
      /email/,
    );
    expect(() => loadConfig({ ADJUSTMENT_APPROVAL_THRESHOLD_USDT: '1e3' })).toThrow(/decimal/);
  });
});
