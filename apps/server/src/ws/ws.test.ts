import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { expectLogLine } from '../../test/logwatch.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startTestApp({ wsIdleTimeoutMs: 1_000 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(async () => {
  await t.close();
});

function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function nextMessage(socket: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
}

describe('websocket /ws', () => {
  it('answers the heartbeat with the timestamp and the server time', async () => {
    const socket = await connect();
    socket.send(JSON.stringify({ main_type: 1, timestamp: 1234 }));
    expect(await nextMessage(socket)).toEqual({
      main_type: 1,
      pong: 1234,
      server_time: t.clock.now().getTime(),
    });
    socket.close();
  });

  it('drops a client silent past the idle limit and keeps one that beats', async () => {
    const silent = await connect();
    const beating = await connect();
    const closed = new Promise<number>((resolve) => silent.once('close', (code) => resolve(code)));
    t.clock.advance(600);
    beating.send(JSON.stringify({ main_type: 1, timestamp: 1 }));
    await nextMessage(beating);
    t.clock.advance(600);
    await closed;
    expect(silent.readyState).toBe(WebSocket.CLOSED);
    expect(beating.readyState).toBe(WebSocket.OPEN);
    beating.close();
  });

  it('closes on invalid JSON', async () => {
    const socket = await connect();
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('not json');
    expect(await closed).toBe(1007);
  });

  it('an unknown token is refused LOGIN_REQUIRED: an expected refusal, no error line', async () => {
    const socket = await connect();
    socket.send(JSON.stringify({ main_type: 4, token: 'no-such-session-token' }));
    expect(await nextMessage(socket)).toEqual({ main_type: 4, reason: 'LOGIN_REQUIRED', params: {} });
    socket.close();
  });

  it('a database fault while authenticating is logged as an error and the socket refused', async () => {
    const selectFrom = t.db.selectFrom.bind(t.db);
    const spy = vi.spyOn(t.db, 'selectFrom').mockImplementation(((table: never) => {
      if (table === 'accounts_session as s') throw new Error('database gone');
      return selectFrom(table);
    }) as never);
    expectLogLine(/websocket authentication failed/);
    try {
      const socket = await connect();
      socket.send(JSON.stringify({ main_type: 4, token: 'any-token-at-all' }));
      expect(await nextMessage(socket)).toEqual({ main_type: 4, reason: 'LOGIN_REQUIRED', params: {} });
      socket.close();
    } finally {
      spy.mockRestore();
    }
  });
});
