import { privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  outboxCode,
  registerByEmail,
  rowCounts,
  startTestApp,
  type TestApp,
} from '../../../test/harness.ts';
import { inTransaction } from '../../db/database.ts';
import * as repo from './repo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('verification codes', () => {
  it('sends a 6-digit code to the outbox, stores only its hash, and enforces the 60 s cool-down', async () => {
    const sent = await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: 'code1@example.com', scene: 'register' },
    });
    expect(sent).toMatchObject({ code: 1, data: { expires_in: 600, resend_in: 60 } });
    expect(JSON.stringify(sent.data)).not.toMatch(/\d{6}/);
    const code = await outboxCode(t.db, 'code1@example.com');
    const stored = await t.db
      .selectFrom('accounts_code')
      .select('code_hash')
      .where('target', '=', 'code1@example.com')
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.code_hash).not.toContain(code);

    const again = await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: 'code1@example.com', scene: 'register' },
    });
    expect(again).toMatchObject({ code: 0, reason: 'CODE_COOLDOWN', params: { seconds: 60 } });
    t.clock.advance(60_000);
    const later = await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: 'code1@example.com', scene: 'register' },
    });
    expect(later.code).toBe(1);
  });

  it('refuses an expired code, counts wrong tries to 5, and never accepts a used code', async () => {
    const email = 'code2@example.com';
    await call(t.app, { method: 'GET', call: 'getCode', fields: { account: email, scene: 'register' } });
    const code = await outboxCode(t.db, email);
    const register = (c: string) =>
      call(t.app, {
        call: 'userRegister',
        fields: {
          type: 'email',
          account: email,
          code: c,
          password: 'secret123',
          password2: 'secret123',
          agree: '1',
        },
      });
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 1; i <= 4; i++)
      expect(await register(wrong)).toMatchObject({ reason: 'CODE_WRONG', params: { triesLeft: 5 - i } });
    expect(await register(wrong)).toMatchObject({ reason: 'CODE_TRIES_EXHAUSTED', params: { maxTries: 5 } });
    expect(await register(code)).toMatchObject({ reason: 'CODE_TRIES_EXHAUSTED' });

    t.clock.advance(61_000);
    await call(t.app, { method: 'GET', call: 'getCode', fields: { account: email, scene: 'register' } });
    const fresh = await outboxCode(t.db, email);
    t.clock.advance(10 * 60_000 + 1);
    expect(await register(fresh)).toMatchObject({ code: 0, reason: 'CODE_EXPIRED' });

    await call(t.app, { method: 'GET', call: 'getCode', fields: { account: email, scene: 'register' } });
    const last = await outboxCode(t.db, email);
    expect(await register(last)).toMatchObject({ code: 1 });
    // The code is spent: a second try is refused by the code, not by "already registered".
    expect((await register(last)).reason).toBe('CODE_EXPIRED');
  });

  it('answers a reset code request for an unknown address as for a known one, sending a notice, not a code', async () => {
    const answer = await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: 'nobody@example.com', scene: 'reset' },
    });
    expect(answer).toMatchObject({ code: 1, data: { expires_in: 600, resend_in: 60 } });
    const [notice] = await t.db
      .selectFrom('notify_outbox')
      .select('body')
      .where('recipient', '=', 'nobody@example.com')
      .execute();
    expect(notice?.body).toMatch(/no account uses it/);
    expect(notice?.body).not.toMatch(/\d{6}/);
  });
});

describe('register, login, logout', () => {
  it('registers by email and returns token_h5 that opens web/info', async () => {
    const { token, uid } = await registerByEmail(t, 'Alice@Example.com');
    const info = await call(t.app, { method: 'GET', call: 'info', fields: { token } });
    expect(info.code).toBe(1);
    expect(info.data).toMatchObject({
      uid,
      email: 'alice@example.com',
      phone_display: 'alice@exampl',
      transaction_password: '0',
      is_demo: 0,
    });
    expect(info.data.invitation_code).toMatch(/^[2-9A-Z]{8}$/);
    expect(info.data.invite_link).toBe(`${t.config.publicUrl}/register?invite=${info.data.invitation_code}`);
  });

  it('registers by email with the country of the form as the nationality; an unknown country is refused by name', async () => {
    const register = async (email: string, country: string | undefined) => {
      await call(t.app, { method: 'GET', call: 'getCode', fields: { account: email, scene: 'register' } });
      const code = await outboxCode(t.db, email);
      return call(t.app, {
        call: 'userRegister',
        fields: {
          type: 'email',
          account: email,
          ...(country === undefined ? {} : { country }),
          code,
          password: 'secret123',
          password2: 'secret123',
          agree: '1',
        },
      });
    };
    const before = await rowCounts(t.db);
    for (const bad of ['ZZ', 'X', '12', 'g']) {
      expect(await register('nation-bad@example.com', bad)).toMatchObject({
        reason: 'BAD_INPUT',
        params: { field: 'country' },
      });
    }
    const after = await rowCounts(t.db);
    expect(after.accounts_customer).toBe(before.accounts_customer);
    // Refused before the code is used: the same code still registers with a known country.
    const ok = await register('nation-bad@example.com', 'gb');
    expect(ok.code).toBe(1);
    const info = await call(t.app, { method: 'GET', call: 'info', fields: { token: ok.data.token_h5 } });
    expect(info.data).toMatchObject({ email: 'nation-bad@example.com', country: 'GB' });
    // Without a country (older clients) the nationality stays empty, to be chosen at verification.
    const none = await register('nation-none@example.com', undefined);
    const noneInfo = await call(t.app, {
      method: 'GET',
      call: 'info',
      fields: { token: none.data.token_h5 },
    });
    expect(noneInfo.data.country).toBe('');
  });

  it('fixCountry records a nationality only where none is: racing writers all read the one winner', async () => {
    const { uid } = await registerByEmail(t, 'nation-race@example.com');
    const row = await t.db
      .selectFrom('accounts_customer')
      .select('id')
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    const countries = ['FR', 'DE', 'IT', 'ES', 'PT', 'NL'];
    const answers = await Promise.all(
      countries.map((country) =>
        inTransaction(t.db, (tx) => repo.fixCountry(tx, row.id, country, t.clock.now())),
      ),
    );
    const winner = answers[0];
    expect(countries).toContain(winner);
    expect(new Set(answers)).toEqual(new Set([winner]));
    expect(await repo.fixCountry(t.db, row.id, 'JP', t.clock.now())).toBe(winner);
    const after = await t.db
      .selectFrom('accounts_customer')
      .select('country')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(after.country).toBe(winner);
  });

  it('registers by phone with an area code and logs in by phone, email or name', async () => {
    await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: '13800138000', area_code: '86', scene: 'register' },
    });
    const code = await outboxCode(t.db, '+8613800138000');
    const reg = await call(t.app, {
      call: 'userRegister',
      fields: {
        type: 'phone',
        account: '13800138000',
        area_code: '86',
        country: 'CN',
        code,
        password: 'phonepass',
        password2: 'phonepass',
        agree: '1',
      },
    });
    expect(reg.code).toBe(1);
    const info = await call(t.app, { method: 'GET', call: 'info', fields: { token: reg.data.token_h5 } });
    expect(info.data).toMatchObject({
      phone: '13800138000',
      area_code: '86',
      country: 'CN',
      phone_display: '13800138000',
    });
    const login = await call(t.app, {
      call: 'userLogin',
      fields: { account: '13800138000', area_code: '86', password: 'phonepass' },
    });
    expect(login).toMatchObject({ code: 1, data: { uid: reg.data.uid } });
    const e164 = await call(t.app, {
      call: 'userLogin',
      fields: { account: '+8613800138000', password: 'phonepass' },
    });
    expect(e164.code).toBe(1);
  });

  it('requires the invitation code when the setting says so, and links the inviter', async () => {
    const strict = await startTestApp({ invitationRequired: true });
    try {
      const inviter = await registerByEmail(strict, 'inviter@example.com').catch((e: Error) => e);
      expect(inviter).toBeInstanceOf(Error);
      await call(strict.app, {
        method: 'GET',
        call: 'getCode',
        fields: { account: 'inv@example.com', scene: 'register' },
      });
      const code = await outboxCode(strict.db, 'inv@example.com');
      const fields = {
        type: 'email',
        account: 'inv@example.com',
        code,
        password: 'secret123',
        password2: 'secret123',
        agree: '1',
      };
      expect(await call(strict.app, { call: 'userRegister', fields })).toMatchObject({
        reason: 'INVITATION_REQUIRED',
      });
      expect(
        await call(strict.app, { call: 'userRegister', fields: { ...fields, invitation_code: 'NOPE2345' } }),
      ).toMatchObject({
        reason: 'INVITATION_INVALID',
      });
    } finally {
      await strict.close();
    }
    const host = await registerByEmail(t, 'host@example.com');
    const hostInfo = await call(t.app, { method: 'GET', call: 'info', fields: { token: host.token } });
    await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: 'guest@example.com', scene: 'register' },
    });
    const code = await outboxCode(t.db, 'guest@example.com');
    const guest = await call(t.app, {
      call: 'userRegister',
      fields: {
        type: 'email',
        account: 'guest@example.com',
        code,
        password: 'secret123',
        password2: 'secret123',
        agree: '1',
        invitation_code: hostInfo.data.invitation_code.toLowerCase(),
      },
    });
    expect(guest.code).toBe(1);
    const row = await t.db
      .selectFrom('accounts_customer')
      .select('invited_by')
      .where('email', '=', 'guest@example.com')
      .executeTakeFirstOrThrow();
    const hostRow = await t.db
      .selectFrom('accounts_customer')
      .select('id')
      .where('email', '=', 'host@example.com')
      .executeTakeFirstOrThrow();
    expect(row.invited_by).toBe(hostRow.id);
  });

  it('locks the account after repeated failures and names the rule, in the request language', async () => {
    await registerByEmail(t, 'lock@example.com', 'rightpass');
    const attempt = (password: string, lang = 'en') =>
      call(t.app, { call: 'userLogin', fields: { account: 'lock@example.com', password, lang } });
    for (let left = 4; left >= 1; left--)
      expect(await attempt('wrongpass')).toMatchObject({
        reason: 'LOGIN_FAILED',
        params: { attemptsLeft: left },
      });
    const locked = await attempt('wrongpass', 'zh');
    expect(locked).toMatchObject({
      code: 0,
      reason: 'LOGIN_LOCKED',
      params: { minutes: 15, maxFailures: 5 },
    });
    expect(locked.msg).toContain('锁定');
    expect(await attempt('rightpass')).toMatchObject({ reason: 'LOGIN_LOCKED' });
    t.clock.advance(15 * 60_000 + 1);
    expect((await attempt('rightpass')).code).toBe(1);
  });

  it('logs in by a login code instead of the password', async () => {
    await registerByEmail(t, 'codelogin@example.com');
    t.clock.advance(61_000);
    await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: 'codelogin@example.com', scene: 'login' },
    });
    const code = await outboxCode(t.db, 'codelogin@example.com');
    const login = await call(t.app, {
      call: 'userLogin',
      fields: { account: 'codelogin@example.com', code },
    });
    expect(login.code).toBe(1);
  });

  it('logout revokes the token: the next call gets 1000', async () => {
    const { token } = await registerByEmail(t, 'logout@example.com');
    expect((await call(t.app, { call: 'userLogout', fields: { token } })).code).toBe(1);
    const after = await call(t.app, { method: 'GET', call: 'info', fields: { token } });
    expect(after).toMatchObject({ code: 1000, reason: 'SESSION_EXPIRED', time: 2 });
    const none = await call(t.app, { method: 'GET', call: 'info' });
    expect(none).toMatchObject({ code: 1000, reason: 'LOGIN_REQUIRED' });
  });

  it('stores only token hashes', async () => {
    const { token } = await registerByEmail(t, 'hash@example.com');
    const found = await t.db
      .selectFrom('accounts_session')
      .select('id')
      .where('token_hash', '=', token)
      .execute();
    expect(found).toHaveLength(0);
    const anyPlain = await t.db.selectFrom('http_idempotency').select('response_sealed').execute();
    expect(anyPlain.some((r) => r.response_sealed?.includes(token))).toBe(false);
  });
});

describe('passwords', () => {
  it('change ends the other sessions (2000) and keeps this one', async () => {
    const { token: first } = await registerByEmail(t, 'change@example.com', 'oldpass1');
    const second = (
      await call(t.app, {
        call: 'userLogin',
        fields: { account: 'change@example.com', password: 'oldpass1' },
      })
    ).data.token;
    const wrongOld = await call(t.app, {
      call: 'updatePassword',
      fields: { token: second, old_password: 'nope123', password: 'newpass1', password2: 'newpass1' },
    });
    expect(wrongOld).toMatchObject({ code: 0, reason: 'OLD_PASSWORD_WRONG' });
    const changed = await call(t.app, {
      call: 'updatePassword',
      fields: { token: second, old_password: 'oldpass1', password: 'newpass1', password2: 'newpass1' },
    });
    expect(changed).toMatchObject({ code: 1, data: { ended_sessions: 1 } });
    expect(await call(t.app, { method: 'GET', call: 'info', fields: { token: first } })).toMatchObject({
      code: 2000,
      reason: 'SESSION_PASSWORD_CHANGED',
    });
    expect((await call(t.app, { method: 'GET', call: 'info', fields: { token: second } })).code).toBe(1);
    expect(
      (
        await call(t.app, {
          call: 'userLogin',
          fields: { account: 'change@example.com', password: 'oldpass1' },
        })
      ).reason,
    ).toBe('LOGIN_FAILED');
  });

  it('reset by code sets the password and ends every session', async () => {
    const { token } = await registerByEmail(t, 'reset@example.com', 'forgot12');
    t.clock.advance(61_000);
    await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: 'reset@example.com', scene: 'reset' },
    });
    const code = await outboxCode(t.db, 'reset@example.com');
    const reset = await call(t.app, {
      call: 'updatePassword',
      fields: { account: 'reset@example.com', code, password: 'remember1', password2: 'remember1' },
    });
    expect(reset.code).toBe(1);
    expect((await call(t.app, { method: 'GET', call: 'info', fields: { token } })).code).toBe(2000);
    expect(
      (
        await call(t.app, {
          call: 'userLogin',
          fields: { account: 'reset@example.com', password: 'remember1' },
        })
      ).code,
    ).toBe(1);
  });
});

describe('demo accounts', () => {
  it('creates a separate demo customer that expires and can be regenerated', async () => {
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin' });
    expect(demo.code).toBe(1);
    expect(demo.data.expires_at).toBe(t.clock.now().getTime() + t.config.demoTtlHours * 3_600_000);
    const info = await call(t.app, { method: 'GET', call: 'info', fields: { token: demo.data.token } });
    expect(info.data).toMatchObject({ is_demo: 1, demo_expires_at: demo.data.expires_at });
    const customer = await t.db
      .selectFrom('accounts_customer')
      .select('id')
      .where('uid', '=', demo.data.uid)
      .executeTakeFirstOrThrow();
    const funds = await t.db
      .selectFrom('ledger_account')
      .select(['book', 'currency', 'available'])
      .where('customer_id', '=', customer.id)
      .execute();
    expect(funds).toEqual([{ book: 'demo', currency: 'USDT', available: '10000000000000' }]);
    const change = await call(t.app, {
      call: 'updatePassword',
      fields: { token: demo.data.token, old_password: 'x12345', password: 'y123456', password2: 'y123456' },
    });
    expect(change.reason).toBe('REAL_ACCOUNT_REQUIRED');
    t.clock.advance(t.config.demoTtlHours * 3_600_000);
    const expired = await call(t.app, {
      method: 'GET',
      call: 'info',
      fields: { token: demo.data.token, lang: 'en' },
    });
    expect(expired).toMatchObject({
      code: 1000,
      reason: 'DEMO_EXPIRED',
      msg: 'Virtual account expired, please regenerate',
    });
    const again = await call(t.app, { method: 'GET', call: 'tempLogin' });
    expect(again.code).toBe(1);
    expect(again.data.uid).not.toBe(demo.data.uid);
  });
});

describe('wallet login (Sign-In with Ethereum)', () => {
  const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

  async function signedMessage(overrides: { domain?: string } = {}) {
    const nonce = await call(t.app, {
      method: 'GET',
      call: 'walletNonce',
      fields: { address: account.address },
    });
    expect(nonce.code).toBe(1);
    const message = createSiweMessage({
      domain: overrides.domain ?? nonce.data.domain,
      address: account.address,
      statement: nonce.data.statement,
      uri: nonce.data.uri,
      version: '1',
      chainId: nonce.data.chain_id,
      nonce: nonce.data.nonce,
      issuedAt: new Date(nonce.data.issued_at),
      expirationTime: new Date(nonce.data.expiration_time),
    });
    return { message, signature: await account.signMessage({ message }) };
  }

  it('logs in with a valid signature once per nonce, creating the customer on first use', async () => {
    const signed = await signedMessage();
    const login = await call(t.app, { call: 'walletLogin', fields: signed });
    expect(login.code).toBe(1);
    const info = await call(t.app, { method: 'GET', call: 'info', fields: { token: login.data.token } });
    expect(info.data.wallet_address).toBe(account.address.toLowerCase());
    const replay = await call(t.app, { call: 'walletLogin', fields: signed });
    expect(replay).toMatchObject({ code: 0, reason: 'WALLET_NONCE_INVALID' });
    const second = await call(t.app, { call: 'walletLogin', fields: await signedMessage() });
    expect(second.data.uid).toBe(login.data.uid);
  });

  it('refuses a signature by another key, a foreign domain and a malformed message', async () => {
    const signed = await signedMessage();
    const other = privateKeyToAccount('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba');
    const forged = await call(t.app, {
      call: 'walletLogin',
      fields: { message: signed.message, signature: await other.signMessage({ message: signed.message }) },
    });
    expect(forged.reason).toBe('WALLET_SIGNATURE_INVALID');
    const foreign = await signedMessage({ domain: 'evil.example' });
    expect((await call(t.app, { call: 'walletLogin', fields: foreign })).reason).toBe(
      'WALLET_MESSAGE_INVALID',
    );
    expect(
      (await call(t.app, { call: 'walletLogin', fields: { message: 'hello', signature: signed.signature } }))
        .reason,
    ).toMatch(/WALLET_/);
  });
});

describe('idempotency and races', () => {
  it('an rtoken replay returns the first answer and changes nothing more', async () => {
    const { token } = await registerByEmail(t, 'replay@example.com', 'first123');
    const fields = {
      token,
      rtoken: 'replay-rtoken1',
      old_password: 'first123',
      password: 'second12',
      password2: 'second12',
    };
    const first = await call(t.app, { call: 'updatePassword', fields });
    const before = await t.db
      .selectFrom('accounts_customer')
      .select('password_hash')
      .where('email', '=', 'replay@example.com')
      .executeTakeFirstOrThrow();
    const second = await call(t.app, { call: 'updatePassword', fields });
    const after = await t.db
      .selectFrom('accounts_customer')
      .select('password_hash')
      .where('email', '=', 'replay@example.com')
      .executeTakeFirstOrThrow();
    expect(first.code).toBe(1);
    expect(second).toEqual(first);
    expect(after.password_hash).toBe(before.password_hash);
  });

  it('two registrations racing for one email make exactly one account', async () => {
    const email = 'race@example.com';
    await call(t.app, { method: 'GET', call: 'getCode', fields: { account: email, scene: 'register' } });
    const code = await outboxCode(t.db, email);
    const attempt = () =>
      call(t.app, {
        call: 'userRegister',
        fields: {
          type: 'email',
          account: email,
          code,
          password: 'secret123',
          password2: 'secret123',
          agree: '1',
        },
      });
    const answers = await Promise.all(Array.from({ length: 8 }, attempt));
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    for (const a of answers.filter((x) => x.code !== 1))
      expect(['ACCOUNT_EXISTS', 'CODE_EXPIRED']).toContain(a.reason);
    const rows = await t.db.selectFrom('accounts_customer').select('id').where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
  });

  it('concurrent code requests send exactly one code', async () => {
    const before = await rowCounts(t.db);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(t.app, {
          method: 'GET',
          call: 'getCode',
          fields: { account: 'burst@example.com', scene: 'register' },
        }),
      ),
    );
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    const after = await rowCounts(t.db);
    expect((after.notify_outbox ?? 0) - (before.notify_outbox ?? 0)).toBe(1);
  });
});
