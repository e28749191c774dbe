import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { customer, fund, USDT } from '../modules/assets/testing.ts';
import { staffSession } from '../modules/staff/testing.ts';
import { STAFF_ROLES } from './staff.ts';

/**
 * Hostile input over the whole route table (issue 12 item 6). Every route of the OpenAPI document —
 * customer calls with a customer session, staff calls with a staff session holding every role —
 * gets each input of the corpus in each field its schema declares, and in an unknown field, with
 * the other required fields filled with plausible values so the input gets past the schema to the
 * handler where it can. Never a 5xx, always the envelope, and no change of state: a checksum of
 * every table (the idempotency records of refused requests aside) is equal before and after.
 */
type Json = Record<string, unknown>;
type FieldSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  anyOf?: FieldSchema[];
  items?: FieldSchema;
  properties?: Record<string, FieldSchema>;
  required?: string[];
};
type Field = { name: string; schema: FieldSchema; required: boolean };
type Route = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  query: Field[];
  body: Field[] | null;
};

/** Hostile: must be refused wherever it goes. */
const HOSTILE: Array<[string, unknown]> = [
  ['nul', 'a\u0000b'],
  ['control', 'a\u0001\u001b[0m'],
  ['lone surrogate', 'x\ud800'],
  ['100 KB string', 'x'.repeat(100 * 1024)],
  ['array', ['1', '2']],
  ['object', { a: '1' }],
  ['__proto__ key', JSON.parse('{"__proto__":{"polluted":"1"}}')],
  ['constructor key', { constructor: { prototype: { polluted: '1' } } }],
  ['deeply nested', JSON.parse(`${'['.repeat(40)}"x"${']'.repeat(40)}`)],
];
/** Odd numbers and odd strings: never a 5xx; a money field refuses them. */
const ODD: Array<[string, unknown]> = [
  ['1e309', '1e309'],
  ['1e3', '1e3'],
  ['0x1f', '0x1f'],
  ['-0', '-0'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['empty', ''],
  ['number 1e400', Number.POSITIVE_INFINITY],
  ['constructor', 'constructor'],
];
const MONEY = /amount|price|volume|quantity|qty|stake|margin/i;
const ENVELOPE_FIELDS = new Set(['token', 'rtoken']);

let t: TestApp;
let customerToken = '';
let staffToken = '';
const routes: Route[] = [];

function parameters(op: Json): Field[] {
  const list = (op.parameters ?? []) as Array<{
    in: string;
    name: string;
    schema: FieldSchema;
    required?: boolean;
  }>;
  return list
    .filter((p) => p.in === 'query')
    .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true }));
}

function bodyFields(op: Json): Field[] | null {
  const content = (op.requestBody as { content?: Record<string, { schema?: FieldSchema }> } | undefined)
    ?.content;
  const schema = content?.['application/json']?.schema;
  if (!schema) return null;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    schema: s,
    required: required.has(name),
  }));
}

const CANDIDATES = ['BTC/USDT', 'BTCUSDT', 'USDT', 'BTC', 'ERC20', '1', 'abc123', 'x', '2026-11-21', 'en'];

/** A plausible value for a field, so the fuzzed field is the only wrong one. */
function plausible(field: Field): unknown {
  const s = field.schema.anyOf?.[0] ?? field.schema;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer' || type === 'number') return s.minimum !== undefined ? Math.max(s.minimum, 1) : 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [plausible({ name: field.name, schema: s.items ?? {}, required: true })];
  if (type === 'object') return {};
  if (MONEY.test(field.name)) return '1';
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    const hit = CANDIDATES.find((c) => re.test(c));
    if (hit) return hit;
  }
  return 'x'.repeat(Math.max(s.minLength ?? 1, 1));
}

/** Percent-encodes like a browser, except that a lone surrogate goes out as its raw (invalid) UTF-8 bytes. */
function encode(value: string): string {
  return value
    .split(/([\ud800-\udfff])/)
    .map((part) =>
      /^[\ud800-\udfff]$/.test(part)
        ? [
            ...Buffer.from([
              0xe0 | (part.charCodeAt(0) >> 12),
              0x80 | ((part.charCodeAt(0) >> 6) & 63),
              0x80 | (part.charCodeAt(0) & 63),
            ]),
          ]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(part),
    )
    .join('');
}

function asQuery(values: Json): string {
  const q: string[] = [];
  const add = (k: string, v: string) => q.push(`${encode(k)}=${encode(v)}`);
  for (const [k, v] of Object.entries(values)) {
    if (Array.isArray(v))
      for (const item of v) add(k, typeof item === 'string' ? item : JSON.stringify(item));
    else if (v !== null && typeof v === 'object') {
      for (const [ik, iv] of Object.entries(v)) add(`${k}[${ik}]`, JSON.stringify(iv));
    } else add(k, String(v));
  }
  return q.join('&');
}

let rcounter = 0;
async function send(route: Route, values: Json, raw?: string) {
  rcounter += 1;
  const rtoken = `fz${rcounter.toString(36).padStart(8, '0')}`;
  const path = route.path.replace(/\{[^}]+\}/g, 'x1');
  const isAdmin = path.startsWith('/api/admin');
  const headers: Record<string, string> = isAdmin ? { authorization: `Bearer ${staffToken}` } : {};
  const envelope: Json = isAdmin ? { rtoken } : { token: customerToken, rtoken };
  if (route.body === null) {
    const url = `${path}?${asQuery({ ...envelope, ...values })}`;
    return t.app.inject({ method: route.method, url, headers });
  }
  const payload = raw ?? JSON.stringify({ ...envelope, ...values });
  return t.app.inject({
    method: route.method,
    url: path,
    payload,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}

/** Row count and content hash of every table but the idempotency records. */
async function checksum(): Promise<Map<string, string>> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(t.db);
  const parts = tables
    .map((r) => r.name)
    .filter((n) => !/idempot|kysely_migration/.test(n))
    .map(
      (n) =>
        `select '${n}' as name, count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' order by md5(x::text))), '') as sum from "${n}" x`,
    );
  const { rows } = await sql<{ name: string; sum: string }>`${sql.raw(parts.join(' union all '))}`.execute(
    t.db,
  );
  return new Map(rows.map((r) => [r.name, r.sum]));
}

function changed(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...b.keys()].filter((k) => a.get(k) !== b.get(k));
}

beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0, ledgerVerifyIntervalMs: 86_400_000, proofIntervalMs: 86_400_000 });
  const c = await customer(t, 'fuzz');
  customerToken = c.token;
  await fund(t, c.id, 'USDT', USDT(1000));
  staffToken = (await staffSession(t, STAFF_ROLES)).token;
  // The first proof snapshot is published at start: let it finish before the first checksum.
  await (t.app as unknown as { proof: { schedule: { ready: Promise<unknown> } } }).proof.schedule.ready;
  const spec = t.app.swagger() as unknown as { paths: Record<string, Record<string, Json>> };
  for (const [path, ops] of Object.entries(spec.paths)) {
    if (!path.startsWith('/api/')) continue;
    // The bot API speaks Binance's dialect (`{code: -1121, msg}`), not the envelope; its refusals are
    // tested in modules/botapi (botapi.test.ts: signatures, parameters, Binance error mapping).
    if (path.startsWith('/api/v3/')) continue;
    for (const [method, op] of Object.entries(ops)) {
      const m = method.toUpperCase() as Route['method'];
      if (!['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(m)) continue;
      routes.push({ method: m, path, query: parameters(op), body: m === 'GET' ? null : bodyFields(op) });
    }
  }
  // Logging out (an odd but valid `lang` is accepted) would end the sessions the other routes use.
  routes.sort((a, b) => Number(/logout/i.test(a.path)) - Number(/logout/i.test(b.path)));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('amounts in exponent, hex or negative-zero form', () => {
  const odd = ['1e3', '1E3', '0x10', '-0', '+1', 'Infinity', 'NaN', '1_000', ' 1 0', '１０', '1.'];
  async function post(call: string, fields: Json) {
    rcounter += 1;
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/web/${call}`,
      payload: { token: customerToken, rtoken: `am${rcounter.toString(36).padStart(8, '0')}`, ...fields },
    });
    return { status: response.statusCode, ...(response.json() as Json) } as Json & { reason?: string };
  }

  it.each(odd)("refuses %j with the field's amount reason (transfer, spot order)", async (value) => {
    const transfer = await post('transferAsset', {
      currency: 'USDT',
      amount: value,
      from: 'spot',
      to: 'contract',
    });
    expect(transfer).toMatchObject({ code: 0, params: { field: 'amount' } });
    expect(String(transfer.reason)).toMatch(/^AMOUNT_(INVALID|NOT_POSITIVE)$/);
    for (const field of ['price', 'quantity'] as const) {
      const order = await post('createOrder', {
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'limit',
        price: '1',
        quantity: '1',
        [field]: value,
      });
      expect(order).toMatchObject({ params: { field } });
      expect(String(order.reason)).toMatch(/^(AMOUNT|ORDER)_/);
    }
  });
});

describe('fuzz over the route table', () => {
  it('answers every hostile input with an envelope refusal, never a 5xx, and changes nothing', async () => {
    const failures: string[] = [];
    const stateChanges: string[] = [];
    const oddAccepted: string[] = [];
    const oddOk: string[] = [];
    let requests = 0;
    let fiveXX = 0;
    let inputs = 0;
    const started = Date.now();
    let before = await checksum();
    for (const route of routes) {
      const fields = (route.body ?? route.query).filter((f) => !ENVELOPE_FIELDS.has(f.name));
      const baseline: Json = {};
      for (const f of fields) if (f.required) baseline[f.name] = plausible(f);
      const targets: Array<Field & { unknown?: true }> = [
        ...fields,
        { name: 'zz_unknown', schema: {}, required: false, unknown: true },
      ];
      const label = `${route.method} ${route.path}`;
      const check = (input: string, field: string, status: number, text: string, hostile: boolean) => {
        requests += 1;
        if (status >= 500) fiveXX += 1;
        let body: Json | null = null;
        try {
          body = JSON.parse(text) as Json;
        } catch {
          body = null;
        }
        const shaped = body !== null && 'code' in body && 'msg' in body && 'data' in body;
        if (status >= 500 || !shaped) {
          failures.push(`${label} [${field}=${input}] → ${status} ${text.slice(0, 160)}`);
          return false;
        }
        if (body?.code === 1 && hostile) failures.push(`${label} [${field}=${input}] accepted`);
        if (body?.code === 1 && !hostile && MONEY.test(field))
          oddAccepted.push(`${label} [${field}=${input}]`);
        return body?.code === 1;
      };
      const run = async (corpus: Array<[string, unknown]>, hostile: boolean) => {
        let accepted = 0;
        for (const target of targets) {
          for (const [name, value] of corpus) {
            // A query carries UTF-8 strings only: nesting arrives as one plain string, which may be fine,
            // and a lone surrogate cannot be encoded (its bytes decode to replacement characters).
            if (route.body === null && (name === 'deeply nested' || name === 'lone surrogate')) continue;
            inputs += 1;
            const values = { ...baseline, [target.name]: value };
            const raw =
              route.body !== null && name === 'number 1e400'
                ? JSON.stringify({
                    ...baseline,
                    [target.name]: 0,
                    token: customerToken,
                    rtoken: 'fzraw1e400',
                  }).replace(`"${target.name}":0`, `"${target.name}":1e400`)
                : undefined;
            const response = await send(route, values, raw);
            // A CSV export answers a good request with the file itself, not the envelope.
            const csv = String(response.headers['content-type'] ?? '').startsWith('text/csv');
            const text =
              csv && response.statusCode === 200 ? '{"code":1,"msg":"csv","data":null}' : response.body;
            if (check(name, target.name, response.statusCode, text, hostile)) {
              accepted += 1;
              if (!hostile) oddOk.push(`${label} [${target.name}=${name}]`);
            }
          }
        }
        const after = await checksum();
        const diff = changed(before, after);
        // An accepted odd string (a `lang` of "1e3", a name "constructor") may change state; a refusal never.
        if (diff.length > 0 && (hostile || accepted === 0)) {
          stateChanges.push(`${label} (${hostile ? 'hostile' : 'odd'}): ${diff.join(', ')}`);
        }
        before = after;
      };
      await run(HOSTILE, true);
      await run(ODD, false);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${routes.length} routes × ${HOSTILE.length + ODD.length} inputs over their fields = ${inputs} cases, ` +
        `${requests} requests in ${seconds} s; 5xx: ${fiveXX}; not an envelope or hostile accepted: ${failures.length}; ` +
        `state changes: ${stateChanges.length}; odd numbers accepted in money fields: ${oddAccepted.length}; ` +
        `odd strings accepted elsewhere (valid text): ${oddOk.length}`,
    );
    if (process.env.FUZZ_VERBOSE) for (const line of oddOk) console.log(`  ok: ${line}`);
    for (const line of [...failures, ...stateChanges, ...oddAccepted].slice(0, 80)) console.log(`  ${line}`);
    expect(routes.length).toBeGreaterThan(100);
    expect(fiveXX).toBe(0);
    expect(failures).toEqual([]);
    expect(stateChanges).toEqual([]);
    expect(oddAccepted).toEqual([]);
  }, 300_000);
});
