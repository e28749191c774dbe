import { hash } from '@node-rs/argon2';
import { generate } from 'otplib';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { baseUrl, type LANGS, outboxCode, VIEWPORTS, type ViewportName } from './browser.ts';

/** What the tests do through the APIs rather than the screens: customer calls, staff set-up. */

// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
export type Envelope<T = any> = { code: number; data: T; msg: string; reason?: string };

/**
 * A customer call (`/api/web/<name>`, form-encoded as the app sends it, with a fresh rtoken), in
 * `lang`, with the session `token` when there is one; the answer's envelope.
 */
export async function webCall<T>(
  method: 'GET' | 'POST',
  name: string,
  params: Record<string, string>,
  token: string | null,
  lang = 'en',
): Promise<Envelope<T>> {
  const fields = new URLSearchParams({
    ...params,
    lang,
    rtoken: `e2e${Math.random().toString(36).slice(2, 12)}`,
    ...(token ? { token } : {}),
  });
  const response =
    method === 'GET'
      ? await fetch(`${baseUrl()}/api/web/${name}?${fields}`)
      : await fetch(`${baseUrl()}/api/web/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: fields.toString(),
        });
  return (await response.json()) as Envelope<T>;
}

/**
 * A staff call (`/api/admin/<name>`: JSON for POST, a query for GET, with a fresh rtoken) under a staff
 * session token; the answer's envelope.
 */
export async function staffCall<T>(
  method: 'GET' | 'POST',
  name: string,
  params: Record<string, string>,
  token: string,
): Promise<Envelope<T>> {
  const fields = { rtoken: `s${Math.random().toString(36).slice(2, 12)}`, ...params };
  const authorization = `Bearer ${token}`;
  const response =
    method === 'GET'
      ? await fetch(`${baseUrl()}/api/admin/${name}?${new URLSearchParams(fields)}`, {
          headers: { authorization },
        })
      : await fetch(`${baseUrl()}/api/admin/${name}`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify(fields),
        });
  return (await response.json()) as Envelope<T>;
}

/** A customer call that must succeed (in English); its data, else an error naming the call. */
export async function webData<T>(
  method: 'GET' | 'POST',
  name: string,
  params: Record<string, string>,
  token: string | null,
): Promise<T> {
  const answer = await webCall<T>(method, name, params, token);
  if (answer.code !== 1) throw new Error(`${name}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

/**
 * A new customer registered by e-mail (the code read from the outbox) with the login `password`
 * and, when given, the nationality `country`; its session token.
 */
export async function registerCustomer(
  email: string,
  password = 'secret123',
  country?: string,
): Promise<string> {
  const sent = await webCall('GET', 'getCode', { account: email, scene: 'register' }, null);
  expect(sent.code, sent.msg).toBe(1);
  const registered = await webCall<{ token_h5: string }>(
    'POST',
    'userRegister',
    {
      type: 'email',
      account: email,
      ...(country ? { country } : {}),
      code: await outboxCode(email),
      password,
      password2: password,
      agree: '1',
    },
    null,
  );
  expect(registered.code, registered.msg).toBe(1);
  return registered.data.token_h5;
}

/** A new demo customer (`tempLogin`: 100,000 virtual USDT in its demo spot account); its session token. */
export async function demoToken(): Promise<string> {
  const demo = await webCall<{ token: string }>('GET', 'tempLogin', {}, null);
  expect(demo.code, demo.msg).toBe(1);
  return demo.data.token;
}

/**
 * A staff member of the test's own (an administrator unless `roles` says otherwise), straight into
 * the database (TOTP not yet enrolled).
 */
export async function createAdministrator(
  label: string,
  name: string,
  roles: readonly string[] = ['administrator'],
): Promise<{ email: string; password: string }> {
  const email = `${label}-${Date.now()}@e2e.local`;
  const password = `${label}-password`;
  const client = new pg.Client({ connectionString: inject('pgUrl') });
  await client.connect();
  try {
    await client.query(
      `insert into staff_member (id, email, name, password_hash, roles, created_at, updated_at)
       values ($1, $2, $3, $4, $5::text[], now(), now())`,
      [
        `stf_${label.replace(/[^A-Za-z0-9]/g, '').toUpperCase()}${Date.now()}`,
        email,
        name,
        await hash(password),
        roles,
      ],
    );
  } finally {
    await client.end();
  }
  return { email, password };
}

/** Logs a staff member in through the staff API (enrolling TOTP, the code computed from the secret); the session token. */
export async function staffApiToken(staff: { email: string; password: string }): Promise<string> {
  const post = async (path: string, body: object) =>
    (await fetch(`${baseUrl()}/api/admin/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as Envelope<{ ticket: string; secret: string; token: string }>;
  const rtoken = () => `s${Math.random().toString(36).slice(2, 12)}`;
  const step1 = await post('staffLogin', { email: staff.email, password: staff.password, rtoken: rtoken() });
  expect(step1.code).toBe(1);
  const code = await generate({ secret: step1.data.secret });
  const step2 = await post('staffLoginCode', { ticket: step1.data.ticket, code, rtoken: rtoken() });
  expect(step2.code).toBe(1);
  return step2.data.token;
}

/**
 * A fresh back-office browser profile at a viewport and language, logged in with the staff
 * `token` when one is given; page errors are collected into `pageErrors`.
 */
export async function adminPage(
  browser: Browser,
  viewport: ViewportName,
  lang: (typeof LANGS)[number],
  token: string | null,
  pageErrors: string[],
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    baseURL: baseUrl(),
    isMobile: viewport === 'mobile',
    hasTouch: viewport === 'mobile',
  });
  await context.addInitScript({
    content: `localStorage.setItem('bourse.admin.lang', ${JSON.stringify(lang)});${
      token !== null ? `sessionStorage.setItem('bourse.admin.token', ${JSON.stringify(token)});` : ''
    }`,
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  return { context, page };
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/**
 * Trading hours that are closed now and for days, whatever the day and hour: one minute a week,
 * three UTC days away from `now`. The e2e server runs on the real clock, so a test that needs a
 * closed market sets these hours (`setTradingHours`) instead of hoping for a weekend.
 */
export function closedHours(now = new Date()): string {
  return `UTC ${WEEKDAYS[(now.getUTCDay() + 3) % 7]} 00:00-00:01`;
}

/**
 * Replaces an instrument's trading hours through the staff call `admin/market/hours` (audited,
 * live at once); returns the hours it had, for the test to put back, and the price state now.
 */
export async function setTradingHours(
  staff: string,
  symbol: string,
  hours: string,
): Promise<{ previous: string; state: string }> {
  const list = await staffCall<{ items: Array<{ symbol: string; trading_hours: string }> }>(
    'GET',
    'market/hours',
    { search: symbol },
    staff,
  );
  expect(list.code, list.msg).toBe(1);
  const previous = list.data.items.find((i) => i.symbol === symbol)?.trading_hours;
  if (previous === undefined) throw new Error(`no instrument ${symbol}`);
  const answer = await staffCall<{ trading_hours: string; state: string }>(
    'POST',
    'market/hours',
    { symbol, hours, reason: 'e2e: a market closed on purpose' },
    staff,
  );
  expect(answer.code, answer.msg).toBe(1);
  return { previous, state: answer.data.state };
}

/** The withdrawal window as the spec sets it (Hong Kong afternoons and evenings). */
export const WINDOW_SPEC = { start: '12:00', end: '24:00', timezone: 'Asia/Hong_Kong' } as const;
/** A withdrawal window open all day, for the files that must not depend on the wall clock. */
export const WINDOW_ALL_DAY = { start: '00:00', end: '24:00', timezone: 'Asia/Hong_Kong' } as const;

/**
 * Sets one withdrawal rule (`window`, `turnover`, `fee`, …) through the staff call
 * `admin/withdrawals/rules/update` (audited with `reason`, live at once) under the staff session `staff`.
 */
export async function setWithdrawRule(
  staff: string,
  code: string,
  enabled: boolean,
  params: object,
  reason = 'e2e: policy for this file',
): Promise<void> {
  const answer = await staffCall(
    'POST',
    'withdrawals/rules/update',
    { code, enabled: enabled ? '1' : '0', params: JSON.stringify(params), reason },
    staff,
  );
  expect(answer.code, answer.msg).toBe(1);
}

/** A query straight on the e2e server's database (state a screen does not show, or a fixture). */
export async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject('pgUrl') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
