import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, outboxCode, registerByEmail, startTestApp, type TestApp } from '../../test/harness.ts';
import { sha256 } from '../lib/crypto.ts';
import { fund } from '../modules/assets/testing.ts';
import { connectClient, type Received, type TestClient } from '../modules/market/fixtures/ws-client.ts';
import { adminCall, staffSession } from '../modules/staff/testing.ts';

/**
 * Sessions end everywhere: a socket authenticated with a session that ends (logout, password change
 * or reset, staff disabling the customer, demo expiry, another process) leaves its private channels
 * and is told `{main_type: 4, event: "session_ended"}` within 5 s; other sessions keep theirs.
 */

const PASSWORD = 'secret123';
let n = 0;

type Customer = { email: string; uid: string; id: string; tokens: string[] };

async function serve(t: TestApp): Promise<string> {
  await t.app.market.step();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
}

/** A real customer with `sessions` sessions (register, then log in again) and ETH to sell. */
async function customerWith(t: TestApp, sessions: number): Promise<Customer> {
  n += 1;
  const email = `ses${n}-${process.pid}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const { token, uid } = await registerByEmail(t, email, PASSWORD);
  const tokens = [token];
  for (let i = 1; i < sessions; i++) {
    const login = await call(t.app, { call: 'userLogin', fields: { account: email, password: PASSWORD } });
    expect(login.code).toBe(1);
    tokens.push(login.data.token);
  }
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('id')
    .where('uid', '=', uid)
    .executeTakeFirstOrThrow();
  await fund(t, row.id, 'ETH', 10n ** 18n);
  return { email, uid, id: row.id, tokens };
}

const privateOf = (uid: string) => `spot_private:${uid}`;
const isPrivate = (uid: string) => (m: Received) => m.channel === privateOf(uid);
const isEnded = (m: Received) => m.main_type === 4 && m.event === 'session_ended';

/** A socket authenticated with `token` and subscribed to the customer's private channel. */
async function privateSocket(url: string, token: string, uid: string): Promise<TestClient> {
  const client = await connectClient(url);
  client.send({ main_type: 4, token });
  expect(await client.next((m) => m.main_type === 4)).toEqual({ main_type: 4, uid });
  client.send({ main_type: 2, channel: privateOf(uid) });
  expect(await client.next(isPrivate(uid))).toMatchObject({ snapshot: true });
  return client;
}

/** A private event: the customer (session `token`) places a resting sell order. */
async function placeOrder(t: TestApp, token: string): Promise<void> {
  const answer = await call(t.app, {
    call: 'createOrder',
    fields: { symbol: 'ETH/USDT', side: 'sell', price: '3000', quantity: '0.1' },
    headers: { token },
  });
  expect(answer.code).toBe(1);
}

/** Everything the server sent before now has arrived: a heartbeat's answer comes after it. */
async function drain(client: TestClient): Promise<void> {
  const stamp = Math.floor(Math.random() * 1e9);
  client.send({ main_type: 1, timestamp: stamp });
  await client.next((m) => m.main_type === 1 && m.pong === stamp);
}

/**
 * `ended` got the end message (with `reason`) and no private event after it; `alive` (another
 * session, when given) still gets the private events the customer causes.
 */
async function expectEnded(
  t: TestApp,
  ended: TestClient,
  reason: string,
  who: Customer,
  alive?: { client: TestClient; token: string },
  timeoutMs = 5_000,
): Promise<void> {
  expect(await ended.next(isEnded, timeoutMs)).toEqual({
    main_type: 4,
    event: 'session_ended',
    code: reason === 'SESSION_PASSWORD_CHANGED' ? 2000 : 1000,
    reason,
    params: {},
    channels: [privateOf(who.uid)],
  });
  if (alive) {
    await placeOrder(t, alive.token);
    expect(await alive.client.next(isPrivate(who.uid))).toMatchObject({ data: { type: 'order' } });
  }
  await drain(ended);
  expect(ended.pending().filter(isPrivate(who.uid))).toEqual([]);
  // The socket itself stays open, anonymous: the private channel is refused until it authenticates again.
  ended.send({ main_type: 2, channel: privateOf(who.uid) });
  expect(await ended.next((m) => m.main_type === 2)).toMatchObject({ reason: 'LOGIN_REQUIRED' });
}

describe('sessions ended in this process (event): sockets leave private channels at once', () => {
  let t: TestApp;
  let url: string;
  // The periodic check is off here (an hour apart): only the event can tell these sockets.
  const PROMPT_MS = 2_500;
  beforeAll(async () => {
    t = await startTestApp({ feedTickMs: 0, wsSessionCheckMs: 3_600_000 });
    url = await serve(t);
  });
  afterAll(async () => t.close());

  it('logout ends that session’s socket; the customer’s other session keeps its channel', async () => {
    const c = await customerWith(t, 2);
    const [a, b] = [c.tokens[0] as string, c.tokens[1] as string];
    const socketA = await privateSocket(url, a, c.uid);
    const socketB = await privateSocket(url, b, c.uid);
    expect((await call(t.app, { call: 'userLogout', headers: { token: a } })).code).toBe(1);
    await expectEnded(t, socketA, 'SESSION_EXPIRED', c, { client: socketB, token: b }, PROMPT_MS);
    await socketA.close();
    await socketB.close();
  });

  it('a password change ends the other sessions’ sockets (2000) and keeps the changing one', async () => {
    const c = await customerWith(t, 2);
    const [a, b] = [c.tokens[0] as string, c.tokens[1] as string];
    const socketA = await privateSocket(url, a, c.uid);
    const socketB = await privateSocket(url, b, c.uid);
    const changed = await call(t.app, {
      call: 'updatePassword',
      fields: { old_password: PASSWORD, password: 'another456', password2: 'another456' },
      headers: { token: b },
    });
    expect(changed.code).toBe(1);
    await expectEnded(t, socketA, 'SESSION_PASSWORD_CHANGED', c, { client: socketB, token: b }, PROMPT_MS);
    await socketA.close();
    await socketB.close();
  });

  it('a password reset by code ends every session’s socket', async () => {
    const c = await customerWith(t, 2);
    const sockets = [
      await privateSocket(url, c.tokens[0] as string, c.uid),
      await privateSocket(url, c.tokens[1] as string, c.uid),
    ];
    // The reset code must be the outbox's latest for this address, after the registration's.
    t.clock.advance(1_000);
    const sent = await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: c.email, scene: 'reset' },
    });
    expect(sent.code).toBe(1);
    const code = await outboxCode(t.db, c.email);
    const reset = await call(t.app, {
      call: 'updatePassword',
      fields: { account: c.email, code, password: 'another456', password2: 'another456' },
    });
    expect(reset.code).toBe(1);
    for (const socket of sockets)
      await expectEnded(t, socket, 'SESSION_PASSWORD_CHANGED', c, undefined, PROMPT_MS);
    for (const socket of sockets) await socket.close();
  });

  it('staff disabling a customer ends all their sockets; another customer keeps theirs', async () => {
    const c = await customerWith(t, 2);
    const other = await customerWith(t, 1);
    const sockets = [
      await privateSocket(url, c.tokens[0] as string, c.uid),
      await privateSocket(url, c.tokens[1] as string, c.uid),
    ];
    const otherSocket = await privateSocket(url, other.tokens[0] as string, other.uid);
    const compliance = await staffSession(t, ['compliance']);
    const off = await adminCall(t.app, {
      call: 'disableCustomer',
      token: compliance.token,
      fields: { customer_id: c.id, reason: 'fraud report' },
    });
    expect(off.code).toBe(1);
    expect(off.data.ended_sessions).toBe(2);
    for (const socket of sockets) await expectEnded(t, socket, 'SESSION_EXPIRED', c, undefined, PROMPT_MS);
    await placeOrder(t, other.tokens[0] as string);
    expect(await otherSocket.next(isPrivate(other.uid))).toMatchObject({ data: { type: 'order' } });
    for (const socket of [...sockets, otherSocket]) await socket.close();
  });
});

describe('sessions that end without an event here (expiry, another process): the periodic check', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await startTestApp({ feedTickMs: 0, wsSessionCheckMs: 100 });
    url = await serve(t);
  });
  afterAll(async () => t.close());

  it('a demo session expires on the stepped clock: its socket is ended; a real customer’s stays', async () => {
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin' });
    expect(demo.code).toBe(1);
    const demoSocket = await privateSocket(url, demo.data.token, demo.data.uid);
    const real = await customerWith(t, 1);
    const realSocket = await privateSocket(url, real.tokens[0] as string, real.uid);
    t.clock.advance(t.config.demoTtlHours * 3_600_000);
    const who = { email: '', uid: demo.data.uid, id: '', tokens: [] };
    await expectEnded(t, demoSocket, 'DEMO_EXPIRED', who);
    await placeOrder(t, real.tokens[0] as string);
    expect(await realSocket.next(isPrivate(real.uid))).toMatchObject({ data: { type: 'order' } });
    await demoSocket.close();
    await realSocket.close();
  });

  it('a session past its lifetime (SESSION_TTL_DAYS) on the stepped clock is ended', async () => {
    const c = await customerWith(t, 1);
    const socket = await privateSocket(url, c.tokens[0] as string, c.uid);
    t.clock.advance(t.config.sessionTtlDays * 86_400_000);
    await expectEnded(t, socket, 'SESSION_EXPIRED', c);
    await socket.close();
  });

  it('a session revoked by another process (only the database changed) is caught', async () => {
    const c = await customerWith(t, 2);
    const [a, b] = [c.tokens[0] as string, c.tokens[1] as string];
    const socketA = await privateSocket(url, a, c.uid);
    const socketB = await privateSocket(url, b, c.uid);
    await t.db
      .updateTable('accounts_session')
      .set({ revoked_at: t.clock.now(), revoked_reason: 'logout' })
      .where('token_hash', '=', sha256(a))
      .execute();
    await expectEnded(t, socketA, 'SESSION_EXPIRED', c, { client: socketB, token: b });
    await socketA.close();
    await socketB.close();
  });
});
