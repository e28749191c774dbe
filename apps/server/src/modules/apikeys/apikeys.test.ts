import { sql } from 'kysely';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { expectLogLine } from '../../../test/logwatch.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { customer, TRADE_PASSWORD } from '../withdrawals/testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
});
afterAll(async () => t?.close());

function create(token: string, fields: Record<string, string> = {}) {
  return call(t.app, {
    call: 'createApiKey',
    fields: { token, label: 'my bot', permission: 'trade', trade_password: TRADE_PASSWORD, ...fields },
  });
}

async function keyRows(customerId: string) {
  return t.db.selectFrom('apikeys_key').selectAll().where('customer_id', '=', customerId).execute();
}

async function events(customerId: string) {
  const rows = await t.db
    .selectFrom('accounts_security_event')
    .select(['kind', 'detail'])
    .where('customer_id', '=', customerId)
    .orderBy('id')
    .execute();
  return rows.filter((r) => r.kind.startsWith('api_key'));
}

async function outbox(email: string) {
  return t.db
    .selectFrom('notify_outbox')
    .select(['subject', 'body'])
    .where('recipient', '=', email)
    .orderBy('created_at')
    .execute();
}

describe('API keys', () => {
  it('creates a key with the trade password: the secret once, sealed in the database, an event and a notice', async () => {
    const c = await customer(t);
    const answer = await create(c.token, {
      ips: '10.0.0.0/8 2001:db8::1',
      expires_days: '30',
      permission: 'read',
    });
    expect(answer.code).toBe(1);
    expect(answer.data).toMatchObject({
      label: 'my bot',
      permission: 'read',
      ips: ['10.0.0.0/8', '2001:db8::1'],
      state: 'active',
      expires_at: t.clock.now().getTime() + 30 * 86_400_000,
    });
    expect(answer.data.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.data.api_key).toMatch(/^[0-9a-f]{64}$/);
    const [row] = await keyRows(c.customerId);
    expect(row?.secret_sealed).not.toContain(answer.data.secret);
    expect(JSON.stringify(row)).not.toContain(answer.data.secret);

    const list = await call(t.app, { method: 'GET', call: 'getApiKeys', fields: { token: c.token } });
    expect(list.data.max).toBe(20);
    expect(list.data.items).toHaveLength(1);
    expect(list.data.items[0]).not.toHaveProperty('secret');
    expect(JSON.stringify(list.data)).not.toContain(answer.data.secret);

    expect(await events(c.customerId)).toEqual([
      { kind: 'api_key_created', detail: 'my bot (read, 10.0.0.0/8 2001:db8::1)' },
    ]);
    const mail = await outbox(c.email);
    const notice = mail.find((m) => m.subject === 'New API key: my bot');
    expect(notice?.body).toContain('read only');
  });

  it('refuses bad input and a wrong trade password by name, and creates nothing', async () => {
    const c = await customer(t);
    const cases: Array<[Record<string, string>, string, Record<string, unknown>?]> = [
      [{ trade_password: '999999' }, 'TRADE_PASSWORD_WRONG'],
      [{ label: '   ' }, 'APIKEY_LABEL_INVALID', { min: 1, max: 40 }],
      [{ label: 'x'.repeat(41) }, 'APIKEY_LABEL_INVALID'],
      [{ label: 'bad\u202Elabel' }, 'APIKEY_LABEL_INVALID'],
      [{ ips: '1.2.3.4, 300.1.1.1' }, 'APIKEY_IP_INVALID', { value: '300.1.1.1' }],
      [{ expires_days: '0' }, 'APIKEY_EXPIRY_INVALID', { min: 1, max: 365 }],
      [{ expires_days: '366' }, 'APIKEY_EXPIRY_INVALID'],
      [{ permission: 'withdraw' }, 'BAD_INPUT'],
    ];
    for (const [fields, reason, params] of cases) {
      const answer = await create(c.token, fields);
      expect(answer.reason, JSON.stringify(fields)).toBe(reason);
      if (params) expect(answer.params).toMatchObject(params);
    }
    const noPassword = await customer(t, { trade: false });
    expect((await create(noPassword.token)).reason).toBe('TRADE_PASSWORD_NOT_SET');
    expect(await keyRows(c.customerId)).toEqual([]);
    expect(await keyRows(noPassword.customerId)).toEqual([]);
    expect(await events(c.customerId)).toEqual([]);
  });

  it('allows 20 active keys: two racing for the last slot never both win', async () => {
    const c = await customer(t);
    for (let i = 0; i < 19; i++) expect((await create(c.token, { label: `k${i}` })).code).toBe(1);
    const [a, b] = await Promise.all([create(c.token, { label: 'a' }), create(c.token, { label: 'b' })]);
    expect([a.code, b.code].sort()).toEqual([0, 1]);
    expect([a.reason, b.reason]).toContain('APIKEY_LIMIT');
    expect(await keyRows(c.customerId)).toHaveLength(20);
    // A revoked key frees its slot.
    const revoked = await call(t.app, {
      call: 'revokeApiKey',
      fields: { token: c.token, id: (a.code === 1 ? a : b).data.id },
    });
    expect(revoked.data.state).toBe('revoked');
    expect((await create(c.token, { label: 'again' })).code).toBe(1);
  });

  it('revokes a key once; another customer cannot see or revoke it', async () => {
    const c = await customer(t);
    const other = await customer(t);
    const key = (await create(c.token)).data;
    const foreign = await call(t.app, { call: 'revokeApiKey', fields: { token: other.token, id: key.id } });
    expect(foreign.reason).toBe('NOT_FOUND');
    const otherList = await call(t.app, {
      method: 'GET',
      call: 'getApiKeys',
      fields: { token: other.token },
    });
    expect(otherList.data.items).toEqual([]);
    const revoked = await call(t.app, { call: 'revokeApiKey', fields: { token: c.token, id: key.id } });
    expect(revoked.data).toMatchObject({
      state: 'revoked',
      revoked_by: 'customer',
      revoked_at: t.clock.now().getTime(),
    });
    const again = await call(t.app, { call: 'revokeApiKey', fields: { token: c.token, id: key.id } });
    expect(again.reason).toBe('APIKEY_ALREADY_REVOKED');
    expect((await events(c.customerId)).map((e) => e.kind).sort()).toEqual([
      'api_key_created',
      'api_key_revoked',
    ]);
    expect((await outbox(c.email)).map((m) => m.subject)).toContain('API key revoked: my bot');
  });

  it('staff see a customer’s keys and revoke one with a reason: audited, in the customer’s events, told', async () => {
    const c = await customer(t);
    const key = (await create(c.token, { label: 'grid bot' })).data;
    const support = await staffSession(t, ['support']);
    const compliance = await staffSession(t, ['compliance']);
    const seen = await adminCall(t.app, {
      method: 'GET',
      call: 'customerApiKeys',
      token: support.token,
      fields: { customer_id: c.customerId },
    });
    expect(seen.data.items.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(seen.data)).not.toContain(key.secret);
    const denied = await adminCall(t.app, {
      call: 'revokeApiKey',
      token: support.token,
      fields: { id: key.id, reason: 'leaked on a forum' },
    });
    expect(denied.reason).toBe('FORBIDDEN');
    const noReason = await adminCall(t.app, {
      call: 'revokeApiKey',
      token: compliance.token,
      fields: { id: key.id, reason: ' ' },
    });
    expect(noReason.reason).toBe('FIELD_TOO_SHORT');
    const done = await adminCall(t.app, {
      call: 'revokeApiKey',
      token: compliance.token,
      fields: { id: key.id, reason: 'leaked on a forum' },
    });
    expect(done.data).toMatchObject({
      state: 'revoked',
      revoked_by: 'staff',
      revoke_reason: 'leaked on a forum',
    });
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('action', '=', 'apikey.revoke')
      .where('target_id', '=', c.customerId)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.reason).toBe('leaked on a forum');
    expect(audit[0]?.actor_id).toBe(compliance.staffId);
    expect(await events(c.customerId)).toContainEqual({
      kind: 'api_key_revoked_by_staff',
      detail: 'grid bot: leaked on a forum',
    });
    const mail = (await outbox(c.email)).find((m) => m.subject === 'API key revoked by support: grid bot');
    expect(mail?.body).toContain('leaked on a forum');
  });
});

describe('creating a key retried with its rtoken', () => {
  it('fails after the Google step: nothing is recorded, the retry with the same code creates one key', async () => {
    const c = await customer(t);
    const secret = await call(t.app, { method: 'GET', call: 'googleSecret', fields: { token: c.token } });
    const epoch = () => Math.floor(t.clock.now().getTime() / 1000);
    const enabled = await call(t.app, {
      call: 'googleEnable',
      fields: { token: c.token, google_code: await generate({ secret: secret.data.secret, epoch: epoch() }) },
    });
    expect(enabled.code).toBe(1);
    t.clock.advance(60_000); // the next step's code: the enabling one is used
    const code = await generate({ secret: secret.data.secret, epoch: epoch() });
    // The key's row cannot be written once (as a crash after the Google step would stop it).
    // A sequence is not rolled back with the failed transaction: the first insert only fails.
    await sql`create sequence if not exists apikeys_fault`.execute(t.db);
    await sql`create or replace function apikeys_fault() returns trigger language plpgsql as $$
      begin
        if nextval('apikeys_fault') = 1 then raise exception 'apikeys_fault'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger apikeys_fault before insert on apikeys_key
      for each row execute function apikeys_fault()`.execute(t.db);
    try {
      expectLogLine(/apikeys_fault/);
      const fields = { google_code: code, rtoken: 'apk-after-step-1' };
      const failed = await create(c.token, fields);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(await keyRows(c.customerId)).toHaveLength(0);
      // Before: the Google step's own transaction recorded the claim, and this answered
      // REQUEST_ALREADY_APPLIED with no key.
      const retried = await create(c.token, fields);
      expect(retried.code, retried.reason).toBe(1);
      expect(await keyRows(c.customerId)).toHaveLength(1);
      const replay = await create(c.token, fields);
      expect(replay.data.api_key).toBe(retried.data.api_key);
      expect(await keyRows(c.customerId)).toHaveLength(1);
    } finally {
      await sql`drop trigger if exists apikeys_fault on apikeys_key`.execute(t.db);
    }
  });
});
