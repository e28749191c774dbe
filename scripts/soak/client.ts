import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import pg from 'pg';
import { sleep } from './server.ts';

/** HTTP calls of the scripted customers and staff, as docs/api.md describes them. */

// biome-ignore lint/suspicious/noExplicitAny: the scripts read answers field by field
export type Envelope<T = any> = { code: number; data: T; msg: string; reason?: string };

/** A call's outcome: an envelope, or no answer at all (connection refused or cut, timeout). */
export type Outcome<T = unknown> =
  | { ok: true; http: number; body: Envelope<T> }
  | { ok: false; error: string };

export const newRtoken = (prefix = 'k'): string => `${prefix}${randomBytes(6).toString('hex')}`.slice(0, 16);

/** A definitive answer: the server decided (success or a refusal), not a crash, a 5xx or "still in progress". */
export function definitive(outcome: Outcome): boolean {
  if (!outcome.ok) return false;
  if (outcome.http >= 500) return false;
  return outcome.body.reason !== 'REQUEST_IN_PROGRESS';
}

export class Api {
  readonly baseUrl: string;
  calls = 0;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /** `/api/web/<name>`, form-encoded like the app, with `rtoken` (a fresh one unless given; some GETs need one too). */
  async web<T = unknown>(
    method: 'GET' | 'POST',
    name: string,
    params: Record<string, string>,
    token: string | null,
    rtoken?: string,
    timeoutMs = 20_000,
  ): Promise<Outcome<T>> {
    const fields = new URLSearchParams({
      ...params,
      lang: 'en',
      rtoken: rtoken ?? newRtoken(),
      ...(token ? { token } : {}),
    });
    this.calls += 1;
    try {
      const response =
        method === 'GET'
          ? await fetch(`${this.baseUrl}/api/web/${name}?${fields}`, {
              signal: AbortSignal.timeout(timeoutMs),
            })
          : await fetch(`${this.baseUrl}/api/web/${name}`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: fields.toString(),
              signal: AbortSignal.timeout(timeoutMs),
            });
      return { ok: true, http: response.status, body: (await response.json()) as Envelope<T> };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** `/api/admin/<name>` with a staff session (Bearer), JSON; POSTs carry `rtoken`. */
  async admin<T = unknown>(
    method: 'GET' | 'POST',
    name: string,
    params: Record<string, string>,
    staffToken: string | null,
    rtoken?: string,
    timeoutMs = 20_000,
  ): Promise<Outcome<T>> {
    const headers: Record<string, string> = staffToken ? { authorization: `Bearer ${staffToken}` } : {};
    this.calls += 1;
    try {
      const response =
        method === 'GET'
          ? await fetch(
              `${this.baseUrl}/api/admin/${name}?${new URLSearchParams({ ...params, lang: 'en' })}`,
              {
                headers,
                signal: AbortSignal.timeout(timeoutMs),
              },
            )
          : await fetch(`${this.baseUrl}/api/admin/${name}`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ ...params, lang: 'en', rtoken: rtoken ?? newRtoken('s') }),
              signal: AbortSignal.timeout(timeoutMs),
            });
      return { ok: true, http: response.status, body: (await response.json()) as Envelope<T> };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** A call that must succeed: its data, else an error naming the call and the answer. */
  async webData<T>(
    method: 'GET' | 'POST',
    name: string,
    params: Record<string, string>,
    token: string | null,
  ): Promise<T> {
    return must(name, await this.web<T>(method, name, params, token));
  }

  async adminData<T>(
    method: 'GET' | 'POST',
    name: string,
    params: Record<string, string>,
    staffToken: string,
  ): Promise<T> {
    return must(`admin/${name}`, await this.admin<T>(method, name, params, staffToken));
  }
}

export function must<T>(name: string, outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`${name}: no answer (${outcome.error})`);
  if (outcome.body.code !== 1) {
    throw new Error(
      `${name}: ${outcome.http} ${outcome.body.code} ${outcome.body.reason ?? ''} ${outcome.body.msg}`,
    );
  }
  return outcome.body.data;
}

/** Staff login through the staff API; enrols TOTP on first login (the secret is kept in `secrets`). */
export async function staffLogin(
  api: Api,
  who: { email: string; password: string },
  secrets: Map<string, string>,
): Promise<string> {
  const step1 = await api.adminData<{ stage: string; ticket: string; secret?: string }>(
    'POST',
    'staffLogin',
    { email: who.email, password: who.password },
    '',
  );
  if (step1.secret) secrets.set(who.email, step1.secret);
  const secret = secrets.get(who.email);
  if (!secret) throw new Error(`no TOTP secret known for ${who.email}`);
  const code = await generate({ secret });
  const step2 = await api.adminData<{ token: string }>(
    'POST',
    'staffLoginCode',
    { ticket: step1.ticket, code },
    '',
  );
  return step2.token;
}

/** The six-digit code last sent to `recipient` (the notify outbox; no SMTP is configured). */
export async function outboxCode(pgUrl: string, recipient: string): Promise<string> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const result = await client.query<{ body: string }>(
        'select body from notify_outbox where recipient = $1 order by created_at desc, id desc limit 1',
        [recipient],
      );
      const code = result.rows[0]?.body.match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
      await sleep(100);
    }
  } finally {
    await client.end();
  }
  throw new Error(`no code in the outbox for ${recipient}`);
}

export type Customer = {
  label: string;
  book: 'real' | 'demo';
  token: string;
  customerId: string;
  uid: string;
};

export const CUSTOMER_PASSWORD = 'soak-password-1';

/** A real-book customer registered by e-mail (code from the outbox); its session and ids. */
export async function registerCustomer(
  api: Api,
  pgUrl: string,
  label: string,
): Promise<Customer & { email: string }> {
  const email = `${label}-${Date.now()}@soak.local`;
  await api.webData('GET', 'getCode', { account: email, scene: 'register' }, null);
  const code = await outboxCode(pgUrl, email);
  const reg = await api.webData<{ token_h5: string; uid: string }>(
    'POST',
    'userRegister',
    {
      type: 'email',
      account: email,
      code,
      password: CUSTOMER_PASSWORD,
      password2: CUSTOMER_PASSWORD,
      agree: '1',
    },
    null,
  );
  return {
    label,
    book: 'real',
    token: reg.token_h5,
    uid: String(reg.uid),
    customerId: await customerId(pgUrl, email),
    email,
  };
}

/** A demo customer (`tempLogin`: 100,000 virtual USDT in its demo spot account). */
export async function demoCustomer(api: Api, pgUrl: string, label: string): Promise<Customer> {
  const demo = await api.webData<{ token: string; uid: string }>('GET', 'tempLogin', {}, null);
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    const row = await client.query<{ id: string }>('select id from accounts_customer where uid = $1', [
      demo.uid,
    ]);
    const id = row.rows[0]?.id;
    if (!id) throw new Error(`demo customer ${demo.uid} not found`);
    return { label, book: 'demo', token: demo.token, uid: String(demo.uid), customerId: id };
  } finally {
    await client.end();
  }
}

async function customerId(pgUrl: string, email: string): Promise<string> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    const row = await client.query<{ id: string }>(
      'select id from accounts_customer where lower(email) = $1',
      [email.toLowerCase()],
    );
    const id = row.rows[0]?.id;
    if (!id) throw new Error(`customer ${email} not found`);
    return id;
  } finally {
    await client.end();
  }
}

/**
 * Credits a real customer's spot USDT by a staff adjustment: at or under the approval threshold
 * it posts at once; above it the maker's adjustment waits for a second staff member (four eyes).
 */
export async function fundByAdjustment(
  api: Api,
  staff: { maker: string; checker: string },
  customer: Customer,
  amount: string,
  reason: string,
): Promise<{ id: string; status: string; approved: boolean }> {
  const made = await api.adminData<{ adjustment_id: string; status: string }>(
    'POST',
    'createAdjustment',
    {
      customer_id: customer.customerId,
      account_type: 'spot',
      currency: 'USDT',
      direction: 'credit',
      amount,
      reason,
    },
    staff.maker,
  );
  if (made.status === 'posted') return { id: made.adjustment_id, status: made.status, approved: false };
  const approved = await api.adminData<{ adjustment_id: string; status: string }>(
    'POST',
    'approveAdjustment',
    { adjustment_id: made.adjustment_id, reason: 'soak: four-eyes approval' },
    staff.checker,
  );
  return { id: approved.adjustment_id, status: approved.status, approved: true };
}

/** The back office's first administrator logs in; a second administrator is created for four-eyes approvals. */
export async function staffPair(
  api: Api,
  admin: { email: string; password: string },
  secrets: Map<string, string>,
): Promise<{ maker: string; checker: string }> {
  const maker = await staffLogin(api, admin, secrets);
  const second = { email: `checker-${Date.now()}@soak.local`, password: 'soak-checker-password-1' };
  await api.adminData(
    'POST',
    'createStaff',
    { email: second.email, name: 'Soak checker', password: second.password, roles: 'administrator' },
    maker,
  );
  const checker = await staffLogin(api, second, secrets);
  return { maker, checker };
}
