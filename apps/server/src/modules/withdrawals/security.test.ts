import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import {
  addAddress,
  customer,
  fund,
  LOGIN_PASSWORD,
  setRule,
  TRADE_PASSWORD,
  WEBHOOK_SECRET,
  withdraw,
} from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ custodyWebhookSecret: WEBHOOK_SECRET });
  await setRule(t, 'turnover', { enabled: false });
});
afterAll(async () => t?.close());

describe('trade password', () => {
  it('is exactly 6 digits, set once with the login password, and shows in web/info', async () => {
    const c = await customer(t, { trade: false });
    const info0 = await call(t.app, { method: 'GET', call: 'info', fields: { token: c.token } });
    expect(info0.data.transaction_password).toBe('0');
    for (const bad of ['12345', '1234567', 'abcdef', '12 456', '١٢٣٤٥٦']) {
      const r = await call(t.app, {
        call: 'bindTradePassword',
        fields: { token: c.token, password: LOGIN_PASSWORD, trade_password: bad, trade_password2: bad },
      });
      expect(r.reason, bad).toBe('TRADE_PASSWORD_FORMAT');
    }
    const mismatch = await call(t.app, {
      call: 'bindTradePassword',
      fields: {
        token: c.token,
        password: LOGIN_PASSWORD,
        trade_password: '123456',
        trade_password2: '123457',
      },
    });
    expect(mismatch.reason).toBe('PASSWORDS_MISMATCH');
    const wrongLogin = await call(t.app, {
      call: 'bindTradePassword',
      fields: {
        token: c.token,
        password: 'not-my-password',
        trade_password: '123456',
        trade_password2: '123456',
      },
    });
    expect(wrongLogin.reason).toBe('OLD_PASSWORD_WRONG');
    const ok = await call(t.app, {
      call: 'bindTradePassword',
      fields: {
        token: c.token,
        password: LOGIN_PASSWORD,
        trade_password: '123456',
        trade_password2: '123456',
      },
    });
    expect(ok.code).toBe(1);
    const again = await call(t.app, {
      call: 'bindTradePassword',
      fields: {
        token: c.token,
        password: LOGIN_PASSWORD,
        trade_password: '654321',
        trade_password2: '654321',
      },
    });
    expect(again.reason).toBe('TRADE_PASSWORD_ALREADY_SET');
    const info1 = await call(t.app, { method: 'GET', call: 'info', fields: { token: c.token } });
    expect(info1.data.transaction_password).toBe('1');
    const stored = await t.db
      .selectFrom('withdrawals_trade_password')
      .select('password_hash')
      .where('customer_id', '=', c.customerId)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect(stored.password_hash).not.toContain('123456');
  });

  it('a withdrawal before the trade password is set is refused naming it', async () => {
    const c = await customer(t, { trade: false });
    await fund(t, c.customerId, '500');
    const addressId = await addAddress(t, c.token);
    const r = await withdraw(t, c.token, { address_id: addressId, amount: '100' });
    expect(r.reason).toBe('TRADE_PASSWORD_NOT_SET');
  });

  it('changes with the current one; locks out after 5 wrong tries and names the minutes', async () => {
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    const addressId = await addAddress(t, c.token);
    const changed = await call(t.app, {
      call: 'editTradePassword',
      fields: {
        token: c.token,
        old_trade_password: TRADE_PASSWORD,
        trade_password: '135790',
        trade_password2: '135790',
      },
    });
    expect(changed.code).toBe(1);
    const attempts: Array<string | undefined> = [];
    for (let i = 0; i < 5; i++) {
      const r = await withdraw(t, c.token, {
        address_id: addressId,
        amount: '100',
        trade_password: TRADE_PASSWORD,
      });
      attempts.push(r.reason);
      if (i < 4) expect(r.params).toEqual({ attemptsLeft: 4 - i });
    }
    expect(attempts).toEqual([
      'TRADE_PASSWORD_WRONG',
      'TRADE_PASSWORD_WRONG',
      'TRADE_PASSWORD_WRONG',
      'TRADE_PASSWORD_WRONG',
      'TRADE_PASSWORD_LOCKED',
    ]);
    // Locked: even the right password is refused, with the minutes left.
    t.clock.advance(5 * 60_000);
    const locked = await withdraw(t, c.token, {
      address_id: addressId,
      amount: '100',
      trade_password: '135790',
    });
    expect(locked.reason).toBe('TRADE_PASSWORD_LOCKED');
    expect(locked.params).toEqual({ minutes: 10, maxFailures: 5 });
    expect(locked.msg).toContain('10');
    t.clock.advance(10 * 60_000);
    const ok = await withdraw(t, c.token, { address_id: addressId, amount: '100', trade_password: '135790' });
    expect(ok.code).toBe(1);
    t.clock.advance(-15 * 60_000);
  });
});

describe('trade password under concurrent guesses', () => {
  it('10 simultaneous wrong guesses: 5 are checked and counted, the rest refused as locked; the lock holds', async () => {
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    const addressId = await addAddress(t, c.token);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        withdraw(t, c.token, { address_id: addressId, amount: '100', trade_password: '000000' }),
      ),
    );
    const wrong = answers.filter((a) => a.reason === 'TRADE_PASSWORD_WRONG');
    const locked = answers.filter((a) => a.reason === 'TRADE_PASSWORD_LOCKED');
    // Each checked guess is counted once: attempts left 4, 3, 2, 1, then the fifth locks.
    expect(wrong.map((a) => a.params?.attemptsLeft).sort()).toEqual([1, 2, 3, 4]);
    expect(locked).toHaveLength(6);
    for (const a of locked) expect(a.params).toEqual({ minutes: 15, maxFailures: 5 });
    const row = await t.db
      .selectFrom('withdrawals_trade_password')
      .select(['failed_count', 'locked_until'])
      .where('customer_id', '=', c.customerId)
      .executeTakeFirstOrThrow();
    expect(row.locked_until).toEqual(new Date(t.clock.now().getTime() + 15 * 60_000));
    // The lock holds for its 15 minutes, even for the right password; then the right one passes.
    t.clock.advance(14 * 60_000);
    const still = await withdraw(t, c.token, { address_id: addressId, amount: '100' });
    expect(still.reason).toBe('TRADE_PASSWORD_LOCKED');
    expect(still.params).toEqual({ minutes: 1, maxFailures: 5 });
    t.clock.advance(60_000);
    const ok = await withdraw(t, c.token, { address_id: addressId, amount: '100' });
    expect(ok.code).toBe(1);
    const cleared = await t.db
      .selectFrom('withdrawals_trade_password')
      .select(['failed_count', 'locked_until'])
      .where('customer_id', '=', c.customerId)
      .executeTakeFirstOrThrow();
    expect(cleared).toEqual({ failed_count: 0, locked_until: null });
    t.clock.advance(-15 * 60_000);
  });
});

describe('Google authenticator', () => {
  it('is enabled with a code from the secret and then required on withdrawal, each code once', async () => {
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    const addressId = await addAddress(t, c.token);
    const secret = await call(t.app, { method: 'GET', call: 'googleSecret', fields: { token: c.token } });
    expect(secret.data.enabled).toBe('0');
    expect(secret.data.uri).toMatch(/^otpauth:\/\/totp\//);
    const epoch = () => Math.floor(t.clock.now().getTime() / 1000);
    const wrong = await call(t.app, {
      call: 'googleEnable',
      fields: { token: c.token, google_code: '000000' },
    });
    expect(wrong.reason).toBe('GOOGLE_CODE_WRONG');
    const code1 = await generate({ secret: secret.data.secret, epoch: epoch() });
    const enabled = await call(t.app, {
      call: 'googleEnable',
      fields: { token: c.token, google_code: code1 },
    });
    expect(enabled.code).toBe(1);
    const status = await call(t.app, { method: 'GET', call: 'hasTpassword', fields: { token: c.token } });
    expect(status.data).toMatchObject({ transaction_password: '1', google: '1' });

    const missing = await withdraw(t, c.token, { address_id: addressId, amount: '100' });
    expect(missing.reason).toBe('GOOGLE_CODE_REQUIRED');
    const replayed = await withdraw(t, c.token, { address_id: addressId, amount: '100', google_code: code1 });
    expect(replayed.reason).toBe('GOOGLE_CODE_WRONG');
    t.clock.advance(60_000);
    const code2 = await generate({ secret: secret.data.secret, epoch: epoch() });
    const ok = await withdraw(t, c.token, { address_id: addressId, amount: '100', google_code: code2 });
    expect(ok.code).toBe(1);
    t.clock.advance(60_000);
    const code3 = await generate({ secret: secret.data.secret, epoch: epoch() });
    const disabled = await call(t.app, {
      call: 'googleDisable',
      fields: { token: c.token, google_code: code3 },
    });
    expect(disabled.code).toBe(1);
    t.clock.advance(-120_000);
  });
});
