import { call, registerByEmail, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { signWebhook } from '../../lib/webhook.ts';
import { parseAmount } from '../assets/index.ts';
import { createLedger, type Ledger } from '../ledger/index.ts';

/** Test support for the withdrawals module (imported by *.test.ts only). */
export const WEBHOOK_SECRET = 'withdrawals-test-webhook-secret-0123456789';
export const LOGIN_PASSWORD = 'secret123';
export const TRADE_PASSWORD = '246810';
/** EIP-55 vector: a valid ERC20 address. */
export const ERC20_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

export function ledgerOf(t: TestApp): Ledger {
  return createLedger({ db: t.db, clock: t.clock, log: testLogger() });
}

let n = 0;
export async function customer(t: TestApp, options: { trade?: boolean } = {}) {
  n += 1;
  const email = `wd${n}-${process.pid}@example.com`;
  const { token, uid } = await registerByEmail(t, email, LOGIN_PASSWORD);
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('id')
    .where('uid', '=', uid)
    .executeTakeFirstOrThrow();
  if (options.trade !== false) {
    const bound = await call(t.app, {
      call: 'bindTradePassword',
      fields: {
        token,
        password: LOGIN_PASSWORD,
        trade_password: TRADE_PASSWORD,
        trade_password2: TRADE_PASSWORD,
      },
    });
    if (bound.code !== 1) throw new Error(`bindTradePassword failed: ${bound.msg}`);
  }
  return { token, customerId: row.id, email };
}

/** Real-book USDT as a deposit would bring it: credited from `deposits_clearing`. */
export async function fund(t: TestApp, customerId: string, amount: string, currency = 'USDT') {
  n += 1;
  await ledgerOf(t).credit(t.db, {
    book: 'real',
    customerId,
    accountType: 'spot',
    currency,
    amountUnits: parseAmount('amount', amount, currency),
    from: 'deposits_clearing',
    reason: 'deposit.test',
    reference: { type: 'deposit', id: `test-${n}` },
    idempotencyKey: `test-fund-${process.pid}-${n}-${customerId}`,
  });
}

export async function setRule(t: TestApp, code: string, patch: { enabled?: boolean; params?: object }) {
  await t.db
    .updateTable('withdrawals_rule')
    .set({
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.params ? { params: JSON.stringify(patch.params) } : {}),
    })
    .where('code', '=', code)
    .execute();
}

export async function addAddress(
  t: TestApp,
  token: string,
  fields: Partial<Record<'currency' | 'chain' | 'address' | 'remark' | 'memo', string>> = {},
): Promise<string> {
  const answer = await call(t.app, {
    call: 'addAddress',
    fields: { token, currency: 'USDT', chain: 'ERC20', address: ERC20_ADDRESS, ...fields },
  });
  if (answer.code !== 1) throw new Error(`addAddress failed: ${answer.msg}`);
  return answer.data.id;
}

export function withdraw(t: TestApp, token: string, fields: Record<string, string>) {
  return call(t.app, {
    call: 'withdraw',
    fields: { token, method: 'address', currency: 'USDT', trade_password: TRADE_PASSWORD, ...fields },
  });
}

export async function balance(t: TestApp, customerId: string, currency = 'USDT') {
  const b = await ledgerOf(t).balance(t.db, { book: 'real', customerId, accountType: 'spot', currency });
  return { available: b.availableUnits, frozen: b.frozenUnits };
}

export async function webhook(t: TestApp, body: object) {
  const raw = JSON.stringify(body);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/custody/withdrawals/webhook',
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'x-bourse-signature': signWebhook(WEBHOOK_SECRET, raw, t.clock.now().getTime()),
    },
  });
  return { status: response.statusCode, ...response.json() };
}

export async function withdrawalCount(t: TestApp): Promise<number> {
  const row = await t.db
    .selectFrom('withdrawals_withdrawal')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
