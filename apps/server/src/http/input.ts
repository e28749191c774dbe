import type { Socket } from 'node:net';
import { translate } from '@bourse/i18n';
import { DEFAULT_LANG, REASONS } from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refuse } from './refusal.ts';

/**
 * The input gate (docs/api.md "Input rules"): before schema validation and before any handler,
 * every query, params and object-body value is walked once and hostile input is refused in the
 * envelope, so nothing reaches PostgreSQL that it would choke on (a NUL is a 500 there).
 */
export const INPUT_LIMITS = {
  /** A string whose schema declares no maxLength may be at most this long. */
  stringMax: 4096,
  /** Objects and arrays nested deeper than this are refused. */
  depthMax: 8,
  /** The query string (after `?`), in bytes as sent. */
  queryBytesMax: 8 * 1024,
  /** Node's limit for the request line and headers together: beyond it the client-error handler answers. */
  headerBytesMax: 64 * 1024,
} as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An upload route: a body over this many bytes is refused as UPLOAD_TOO_LARGE, not BODY_TOO_LARGE. */
    uploadMaxBytes?: number;
  }
}

/** C0 controls except tab, line feed and carriage return, and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Keys that reach an object's prototype when code copies or merges input. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

type Schema = {
  type?: string | string[];
  maxLength?: number;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema | Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

/** The schemas a value at this key may match (through unions), for finding a declared maxLength. */
function childSchemas(schemas: readonly Schema[], key: string | number): Schema[] {
  const out: Schema[] = [];
  for (const s of expand(schemas)) {
    if (typeof key === 'string' && s.properties?.[key]) out.push(s.properties[key]);
    else if (typeof key === 'string' && typeof s.additionalProperties === 'object')
      out.push(s.additionalProperties);
    if (typeof key === 'number' && s.items)
      out.push(...(Array.isArray(s.items) ? s.items.slice(key, key + 1) : [s.items]));
  }
  return out;
}

function expand(schemas: readonly Schema[]): Schema[] {
  const out: Schema[] = [];
  for (const s of schemas) {
    out.push(s);
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) {
      out.push(...expand([branch]));
    }
  }
  return out;
}

/** The largest maxLength a schema allows here, or null when none is declared. */
function declaredMax(schemas: readonly Schema[]): number | null {
  let max: number | null = null;
  for (const s of expand(schemas)) {
    if (typeof s.maxLength === 'number') max = Math.max(max ?? 0, s.maxLength);
  }
  return max;
}

function checkString(value: string, field: string, schemas: readonly Schema[]): void {
  if (CONTROL.test(value) || LONE_SURROGATE.test(value)) refuse('INVALID_CHARACTERS', { field });
  if (value.length > INPUT_LIMITS.stringMax && declaredMax(schemas) === null) {
    refuse('FIELD_TOO_LONG', { field, max: INPUT_LIMITS.stringMax });
  }
}

function walk(value: unknown, field: string | null, schemas: readonly Schema[], depth: number): void {
  if (typeof value === 'string') {
    checkString(value, field ?? 'body', schemas);
    return;
  }
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return;
  if (depth >= INPUT_LIMITS.depthMax) refuse('BAD_INPUT', { field: field ?? 'body' });
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      walk(item, field, childSchemas(schemas, index), depth + 1);
    });
    return;
  }
  for (const key of Object.keys(value)) {
    const name = field ?? key;
    if (FORBIDDEN_KEYS.has(key)) refuse('UNKNOWN_FIELD', { field: key });
    if (CONTROL.test(key) || LONE_SURROGATE.test(key))
      refuse('INVALID_CHARACTERS', { field: field ?? 'body' });
    if (key.length > 256) refuse('UNKNOWN_FIELD', { field: key.slice(0, 64) });
    walk((value as Record<string, unknown>)[key], name, childSchemas(schemas, key), depth + 1);
  }
}

/** Walks one request's params, query and (object) body; throws the first refusal. */
export function checkInput(
  request: Pick<FastifyRequest, 'params' | 'query' | 'body' | 'routeOptions'>,
): void {
  const schema = (request.routeOptions.schema ?? {}) as {
    params?: Schema;
    querystring?: Schema;
    body?: Schema;
  };
  walk(request.params, null, schema.params ? [schema.params] : [], 0);
  walk(request.query, null, schema.querystring ? [schema.querystring] : [], 0);
  // Raw bodies (upload bytes, signed webhook text) are not field input: their routes read them whole.
  if (request.body !== null && typeof request.body === 'object' && !Buffer.isBuffer(request.body)) {
    walk(request.body, null, schema.body ? [schema.body] : [], 0);
  }
}

function queryBytes(url: string): number {
  const at = url.indexOf('?');
  return at < 0 ? 0 : Buffer.byteLength(url) - at - 1;
}

/** Registers the gate on the root instance: the query length first thing, the fields before validation. */
export function registerInputGate(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (queryBytes(request.url) > INPUT_LIMITS.queryBytesMax) {
      refuse('QUERY_TOO_LONG', { maxBytes: INPUT_LIMITS.queryBytesMax });
    }
  });
  app.addHook('preValidation', async (request) => {
    checkInput(request);
  });
}

/**
 * Node refuses a request line and headers over `maxHeaderSize` before Fastify sees it; this answers
 * that (and any other unparsable request) with an envelope instead of a bare status line. The
 * request's language is unknown here, so the message is in the default language.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const timeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const reason = tooLarge ? 'HEADERS_TOO_LARGE' : 'MALFORMED_BODY';
  const params: Record<string, number> = tooLarge ? { maxBytes: INPUT_LIMITS.headerBytesMax } : {};
  const code = REASONS[reason].code;
  const body = JSON.stringify({
    code,
    msg: translate(DEFAULT_LANG, `reason.${reason}`, params),
    data: null,
    reason,
    params,
  });
  const status = tooLarge
    ? '431 Request Header Fields Too Large'
    : timeout
      ? '408 Request Timeout'
      : '400 Bad Request';
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
