import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerByEmail, rowCounts, startTestApp, type TestApp } from '../../../test/harness.ts';

/**
 * Bad input for every access call: each is refused with a reason, nothing is written (the
 * idempotency record of the refused request aside), and nothing answers 500.
 */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ bodyLimitBytes: 4096 });
  token = (await registerByEmail(t, 'owner@example.com', 'ownerpass')).token;
});
afterAll(async () => {
  await t.close();
});

const long = (n: number) => 'x'.repeat(n);
const good = {
  type: 'email',
  account: 'new@example.com',
  code: '123456',
  password: 'secret123',
  password2: 'secret123',
  agree: '1',
};

type Case = {
  name: string;
  method?: 'GET' | 'POST';
  call: string;
  fields: Record<string, string>;
  reason: string;
  auth?: boolean;
};

const cases: Case[] = [
  // getCode
  {
    name: 'getCode without account',
    method: 'GET',
    call: 'getCode',
    fields: { scene: 'register' },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'getCode empty account',
    method: 'GET',
    call: 'getCode',
    fields: { account: '', scene: 'register' },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'getCode unknown scene',
    method: 'GET',
    call: 'getCode',
    fields: { account: 'a@b.io', scene: 'steal' },
    reason: 'BAD_INPUT',
  },
  {
    name: 'getCode malformed email',
    method: 'GET',
    call: 'getCode',
    fields: { account: 'a@b', scene: 'register' },
    reason: 'EMAIL_INVALID',
  },
  {
    name: 'getCode malformed phone',
    method: 'GET',
    call: 'getCode',
    fields: { account: '12', area_code: '86', scene: 'register' },
    reason: 'PHONE_INVALID',
  },
  {
    name: 'getCode over-long account',
    method: 'GET',
    call: 'getCode',
    fields: { account: long(300), scene: 'register' },
    reason: 'FIELD_TOO_LONG',
  },
  {
    name: 'getCode unknown field',
    method: 'GET',
    call: 'getCode',
    fields: { account: 'a@b.io', scene: 'register', admin: '1' },
    reason: 'UNKNOWN_FIELD',
  },
  {
    name: 'getCode bind without login',
    method: 'GET',
    call: 'getCode',
    fields: { account: 'x@y.io', scene: 'bind' },
    reason: 'LOGIN_REQUIRED',
  },
  {
    name: 'getCode short rtoken',
    method: 'GET',
    call: 'getCode',
    fields: { account: 'a@b.io', scene: 'register', rtoken: 'abc' },
    reason: 'FIELD_TOO_SHORT',
  },
  {
    name: 'getCode long rtoken',
    method: 'GET',
    call: 'getCode',
    fields: { account: 'a@b.io', scene: 'register', rtoken: long(17) },
    reason: 'FIELD_TOO_LONG',
  },
  // userRegister
  {
    name: 'register empty account',
    call: 'userRegister',
    fields: { ...good, account: '' },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'register empty password',
    call: 'userRegister',
    fields: { ...good, password: '' },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'register missing code',
    call: 'userRegister',
    fields: { ...good, code: undefined as never },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'register over-long password',
    call: 'userRegister',
    fields: { ...good, password: long(25), password2: long(25) },
    reason: 'FIELD_TOO_LONG',
  },
  {
    name: 'register short password',
    call: 'userRegister',
    fields: { ...good, password: 'abc', password2: 'abc' },
    reason: 'PASSWORD_LENGTH',
  },
  {
    name: 'register mismatched passwords',
    call: 'userRegister',
    fields: { ...good, password2: 'secret124' },
    reason: 'PASSWORDS_MISMATCH',
  },
  {
    name: 'register malformed email',
    call: 'userRegister',
    fields: { ...good, account: 'new@' },
    reason: 'EMAIL_INVALID',
  },
  {
    name: 'register malformed phone',
    call: 'userRegister',
    fields: { ...good, type: 'phone', account: '999', area_code: '86' },
    reason: 'PHONE_INVALID',
  },
  { name: 'register bad type', call: 'userRegister', fields: { ...good, type: 'fax' }, reason: 'BAD_INPUT' },
  {
    name: 'register not agreed',
    call: 'userRegister',
    fields: { ...good, agree: '0' },
    reason: 'AGREEMENT_REQUIRED',
  },
  {
    name: 'register unknown invitation',
    call: 'userRegister',
    fields: { ...good, invitation_code: 'ZZZZ9999' },
    reason: 'INVITATION_INVALID',
  },
  { name: 'register wrong code', call: 'userRegister', fields: good, reason: 'CODE_EXPIRED' },
  {
    name: 'register existing email (the code decides, not the address)',
    call: 'userRegister',
    fields: { ...good, account: 'owner@example.com' },
    reason: 'CODE_EXPIRED',
  },
  {
    name: 'register unknown field',
    call: 'userRegister',
    fields: { ...good, is_admin: '1' },
    reason: 'UNKNOWN_FIELD',
  },
  // userLogin
  {
    name: 'login empty account',
    call: 'userLogin',
    fields: { account: '', password: 'x' },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'login empty password',
    call: 'userLogin',
    fields: { account: 'owner@example.com', password: '' },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'login neither password nor code',
    call: 'userLogin',
    fields: { account: 'owner@example.com' },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'login nonsense account',
    call: 'userLogin',
    fields: { account: '!!', password: 'secret123' },
    reason: 'ACCOUNT_NAME_INVALID',
  },
  {
    name: 'login unknown account',
    call: 'userLogin',
    fields: { account: 'ghost@example.com', password: 'secret123' },
    reason: 'LOGIN_FAILED',
  },
  {
    name: 'login over-long password',
    call: 'userLogin',
    fields: { account: 'owner@example.com', password: long(40) },
    reason: 'FIELD_TOO_LONG',
  },
  // updatePassword
  {
    name: 'reset without code',
    call: 'updatePassword',
    fields: { account: 'owner@example.com', password: 'newpass1', password2: 'newpass1' },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'reset mismatched',
    call: 'updatePassword',
    fields: { account: 'owner@example.com', code: '123456', password: 'newpass1', password2: 'newpass2' },
    reason: 'PASSWORDS_MISMATCH',
  },
  {
    name: 'reset unknown account',
    call: 'updatePassword',
    fields: { account: 'ghost@example.com', code: '123456', password: 'newpass1', password2: 'newpass1' },
    reason: 'CODE_EXPIRED',
  },
  {
    name: 'reset wrong code',
    call: 'updatePassword',
    fields: { account: 'owner@example.com', code: '123456', password: 'newpass1', password2: 'newpass1' },
    reason: 'CODE_EXPIRED',
  },
  {
    name: 'change without login',
    call: 'updatePassword',
    fields: { old_password: 'ownerpass', password: 'newpass1', password2: 'newpass1' },
    reason: 'LOGIN_REQUIRED',
  },
  {
    name: 'change short',
    call: 'updatePassword',
    auth: true,
    fields: { old_password: 'ownerpass', password: 'ab', password2: 'ab' },
    reason: 'PASSWORD_LENGTH',
  },
  {
    name: 'change same',
    call: 'updatePassword',
    auth: true,
    fields: { old_password: 'ownerpass', password: 'ownerpass', password2: 'ownerpass' },
    reason: 'PASSWORD_UNCHANGED',
  },
  // the rest
  {
    name: 'info with a forged token',
    method: 'GET',
    call: 'info',
    fields: { token: 'forged-token' },
    reason: 'SESSION_EXPIRED',
  },
  {
    name: 'info with an unknown field',
    method: 'GET',
    call: 'info',
    auth: true,
    fields: { debug: '1' },
    reason: 'UNKNOWN_FIELD',
  },
  { name: 'logout without login', call: 'userLogout', fields: {}, reason: 'LOGIN_REQUIRED' },
  {
    name: 'setLanguage unknown',
    call: 'setLanguage',
    auth: true,
    fields: { language: 'jp' },
    reason: 'BAD_INPUT',
  },
  {
    name: 'walletNonce bad address',
    method: 'GET',
    call: 'walletNonce',
    fields: { address: '0x123' },
    reason: 'BAD_INPUT',
  },
  {
    name: 'walletLogin empty',
    call: 'walletLogin',
    fields: { message: '', signature: '' },
    reason: 'FIELD_REQUIRED',
  },
  {
    name: 'walletLogin garbage',
    call: 'walletLogin',
    fields: { message: 'hello', signature: '0x00' },
    reason: 'WALLET_MESSAGE_INVALID',
  },
  { name: 'no such call', call: 'stealFunds', fields: {}, reason: 'NOT_FOUND' },
];

describe('bad input is refused with a reason and writes nothing', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const before = await rowCounts(t.db);
      const fields = Object.fromEntries(
        Object.entries({ ...c.fields, ...(c.auth ? { token } : {}) }).filter(([, v]) => v !== undefined),
      );
      const answer = await call(t.app, { method: c.method ?? 'POST', call: c.call, fields });
      expect(answer.reason).toBe(c.reason);
      expect(answer.status).toBeLessThan(500);
      expect(answer.msg.length).toBeGreaterThan(0);
      expect(await rowCounts(t.db)).toEqual(before);
    });
  }
});

describe('transport refusals', () => {
  async function raw(payload: string, contentType: string) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/web/userLogin',
      payload,
      headers: { 'content-type': contentType },
    });
    return { status: response.statusCode, ...response.json() };
  }

  it('a wrong content type gets 415', async () => {
    expect(await raw('account=x', 'text/plain')).toMatchObject({
      status: 415,
      code: 415,
      reason: 'UNSUPPORTED_MEDIA_TYPE',
    });
    expect(await raw('<x/>', 'application/xml')).toMatchObject({
      status: 415,
      reason: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });

  it('an oversized body gets 413 naming the limit', async () => {
    expect(await raw(`account=${long(5000)}`, 'application/x-www-form-urlencoded')).toMatchObject({
      status: 413,
      reason: 'BODY_TOO_LARGE',
      params: { maxBytes: 4096 },
    });
  });

  it('malformed JSON gets 400', async () => {
    expect(await raw('{"account":', 'application/json')).toMatchObject({
      status: 400,
      reason: 'MALFORMED_BODY',
    });
    expect(await raw('[1,2]', 'application/json')).toMatchObject({ status: 400 });
  });

  it('JSON bodies are accepted like forms', async () => {
    const answer = await call(t.app, {
      call: 'userLogin',
      json: true,
      fields: { account: 'owner@example.com', password: 'ownerpass' },
    });
    expect(answer.code).toBe(1);
  });

  it('repeated form keys are refused, not merged', async () => {
    expect(
      await raw('account=a&account=b&password=x&rtoken=abcdefg', 'application/x-www-form-urlencoded'),
    ).toMatchObject({
      status: 400,
      reason: 'BAD_INPUT',
    });
  });

  it('a non-string JSON value is refused', async () => {
    const answer = await raw(
      JSON.stringify({ account: 5, password: 'x', rtoken: 'abcdefg' }),
      'application/json',
    );
    expect(answer).toMatchObject({ status: 400, reason: 'BAD_INPUT', params: { field: 'account' } });
  });
});

describe('rate limits on the access calls', () => {
  it('per address and per account, with the wait named', async () => {
    const limited = await startTestApp({ accessRateLimitPerIp: 1000, accessRateLimitPerAccount: 3 });
    try {
      const attempt = () =>
        call(limited.app, {
          call: 'userLogin',
          fields: { account: 'ghost@example.com', password: 'secret123' },
        });
      for (let i = 0; i < 3; i++) expect((await attempt()).reason).toBe('LOGIN_FAILED');
      const refused = await attempt();
      expect(refused).toMatchObject({ status: 429, code: 429, reason: 'RATE_LIMITED' });
      expect(refused.params?.seconds).toBeGreaterThan(0);
      const other = await call(limited.app, {
        call: 'userLogin',
        fields: { account: 'ghost2@example.com', password: 'secret123' },
      });
      expect(other.reason).toBe('LOGIN_FAILED');
    } finally {
      await limited.close();
    }
    const perIp = await startTestApp({ accessRateLimitPerIp: 2, accessRateLimitPerAccount: 1000 });
    try {
      for (const n of [1, 2])
        expect((await call(perIp.app, { method: 'GET', call: 'tempLogin' })).code, `call ${n}`).toBe(1);
      expect((await call(perIp.app, { method: 'GET', call: 'tempLogin' })).reason).toBe('RATE_LIMITED');
    } finally {
      await perIp.close();
    }
  });
});
