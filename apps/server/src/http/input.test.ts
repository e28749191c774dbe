import { once } from 'node:events';
import net from 'node:net';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from './envelope.ts';
import { clientErrorHandler, INPUT_LIMITS, registerInputGate } from './input.ts';

/** The input gate on a bare app: one route with a schema, one without, the real error handler. */
let app: FastifyInstance;
let handled = 0;
beforeAll(async () => {
  app = Fastify({
    logger: false,
    http: { maxHeaderSize: INPUT_LIMITS.headerBytesMax },
    clientErrorHandler,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });
  await app.register(formbody);
  app.setErrorHandler(errorHandler(64 * 1024));
  registerInputGate(app);
  const body = Type.Object(
    {
      name: Type.Optional(Type.String({ maxLength: 8000 })),
      note: Type.Optional(Type.String()),
      amount: Type.Optional(Type.String({ maxLength: 64 })),
      list: Type.Optional(Type.Array(Type.String())),
      lang: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  );
  app.post('/typed', { schema: { body } }, async () => {
    handled += 1;
    return { code: 1, msg: 'ok', data: null };
  });
  app.get('/open', async () => {
    handled += 1;
    return { code: 1, msg: 'ok', data: null };
  });
  app.get('/path/:id', async () => {
    handled += 1;
    return { code: 1, msg: 'ok', data: null };
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

async function post(payload: unknown, headers: Record<string, string> = {}) {
  const before = handled;
  const response = await app.inject({ method: 'POST', url: '/typed', payload: payload as object, headers });
  return { status: response.statusCode, ...response.json(), reached: handled > before };
}

describe('the input gate', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['bell', 'a\u0007'],
    ['escape', '\u001b[31m'],
    ['DEL', 'x\u007f'],
    ['lone high surrogate', 'a\ud800'],
    ['lone low surrogate', '\udc00z'],
  ])('refuses %s in a string as INVALID_CHARACTERS naming the field', async (_name, value) => {
    const answer = await post({ note: value });
    expect(answer).toMatchObject({ status: 400, code: 400, reason: 'INVALID_CHARACTERS', data: null });
    expect(answer.params).toEqual({ field: 'note' });
    expect(answer.msg).toMatch(/\bnote\b/i); // the field's label ("Note")
    expect(answer.reached).toBe(false);
  });

  it('lets tab, line feed, carriage return and well-formed non-BMP characters through', async () => {
    expect(await post({ note: 'a\tb\nc\r\nd 😀 中文' })).toMatchObject({ code: 1, reached: true });
  });

  it('names the top-level field for a bad string deep inside an array', async () => {
    const answer = await post({ list: ['ok', 'b\u0000'] });
    expect(answer).toMatchObject({ reason: 'INVALID_CHARACTERS', params: { field: 'list' } });
  });

  it('refuses a control character in the query and in path parameters', async () => {
    const q = await app.inject({ method: 'GET', url: '/open?x=a%00b' });
    expect(q.json()).toMatchObject({ reason: 'INVALID_CHARACTERS', params: { field: 'x' } });
    const p = await app.inject({ method: 'GET', url: '/path/a%01b' });
    expect(p.json()).toMatchObject({ reason: 'INVALID_CHARACTERS', params: { field: 'id' } });
  });

  it('refuses a control character in a form field too, in the requested language', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/typed',
      payload: 'note=a%00&lang=zh',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.json()).toMatchObject({ reason: 'INVALID_CHARACTERS', params: { field: 'note' } });
    expect(response.json().msg).toContain('不允许的字符');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses a %s key at any depth', async (key) => {
    const top = await app.inject({
      method: 'GET',
      url: `/open?${key}=1`,
    });
    expect(top.json()).toMatchObject({ code: 400, reason: 'UNKNOWN_FIELD', params: { field: key } });
    // Raw JSON, so `__proto__` is an own key as an attacker would send it.
    const nested = await app.inject({
      method: 'POST',
      url: '/typed',
      payload: `{"list":[{"a":{"${key}":{"polluted":true}}}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(nested.statusCode).toBeLessThan(500);
    expect(nested.json().code).not.toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('caps strings whose schema sets no maxLength, and leaves declared limits to the schema', async () => {
    const capped = await post({ note: 'x'.repeat(INPUT_LIMITS.stringMax + 1) });
    expect(capped).toMatchObject({
      reason: 'FIELD_TOO_LONG',
      params: { field: 'note', max: INPUT_LIMITS.stringMax },
      reached: false,
    });
    expect(await post({ note: 'x'.repeat(INPUT_LIMITS.stringMax) })).toMatchObject({ code: 1 });
    expect(await post({ name: 'x'.repeat(6000) })).toMatchObject({ code: 1 });
    expect(await post({ name: 'x'.repeat(8001) })).toMatchObject({
      reason: 'FIELD_TOO_LONG',
      params: { field: 'name', max: 8000 },
    });
    const query = await app.inject({
      method: 'GET',
      url: `/open?q=${'y'.repeat(INPUT_LIMITS.stringMax + 1)}`,
    });
    expect(query.json()).toMatchObject({ reason: 'FIELD_TOO_LONG', params: { field: 'q' } });
  });

  it('refuses nesting deeper than the limit', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 50; i++) deep = [deep];
    expect(await post({ list: deep })).toMatchObject({ code: 400, reason: 'BAD_INPUT', reached: false });
  });

  it('refuses arrays and objects where the schema wants a string (no coercion)', async () => {
    expect(await post({ amount: ['1', '2'] })).toMatchObject({
      reason: 'BAD_INPUT',
      params: { field: 'amount' },
    });
    expect(await post({ amount: { a: 1 } })).toMatchObject({
      reason: 'BAD_INPUT',
      params: { field: 'amount' },
    });
    expect(await post({ amount: 1e3 })).toMatchObject({ reason: 'BAD_INPUT', params: { field: 'amount' } });
  });

  it('refuses a query string over the limit in the envelope, in the language asked', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/open?a=${'z'.repeat(INPUT_LIMITS.queryBytesMax)}`,
      headers: { 'accept-language': 'zh-TW' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 413,
      data: null,
      reason: 'QUERY_TOO_LONG',
      params: { maxBytes: INPUT_LIMITS.queryBytesMax },
    });
    expect(response.json().msg).toContain('網址過長');
  });
});

describe('the client-error handler (a real socket)', () => {
  async function raw(request: string): Promise<string> {
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const socket = net.connect(address.port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(request);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await once(socket, 'close');
    return Buffer.concat(chunks).toString();
  }

  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('answers a request line over the header limit with an envelope, not a bare 431', async () => {
    const text = await raw(
      `GET /open?a=${'q'.repeat(INPUT_LIMITS.headerBytesMax + 10)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(text.startsWith('HTTP/1.1 431')).toBe(true);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({
      code: 413,
      data: null,
      reason: 'HEADERS_TOO_LARGE',
      params: { maxBytes: INPUT_LIMITS.headerBytesMax },
    });
    expect(body.msg).toMatch(/headers are too large/);
  });

  it('answers a 20 KB query (over Node’s default 16 KB header limit) in the envelope with QUERY_TOO_LONG', async () => {
    const text = await raw(
      `GET /open?a=${'q'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(text.startsWith('HTTP/1.1 413')).toBe(true);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ reason: 'QUERY_TOO_LONG' });
  });

  it('answers garbage with a MALFORMED_BODY envelope', async () => {
    const text = await raw('NOT A REQUEST\r\n\r\n');
    expect(text.startsWith('HTTP/1.1 400')).toBe(true);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ reason: 'MALFORMED_BODY' });
  });
});
