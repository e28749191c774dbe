import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { type Customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import type { Message } from '../notify/index.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import type { EarnDeps } from './context.ts';
import { createEarn } from './service.ts';
import { fundedAccount, openProduct } from './testing.ts';

/**
 * The customer is told when earn money comes back (issue 20 item 4): an order matured by the job,
 * an early redemption at once (with its penalty), a delayed one requested and then paid out — each
 * once, after the commit, in their language, filed in their in-app inbox; a job re-run, a crash
 * inside the maturity's transaction and a second confirmation of the same quote tell nothing more;
 * a notifier that throws is a warning and the money moves anyway.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // The tests step the job themselves (and one builds a second service over the same tables).
  t.app.earn.job.stop();
}, 120_000);
afterAll(async () => t?.close());

const DAY = 86_400_000;
type Who = Customer & { email: string };

async function buyer(lang: 'en' | 'zh' | 'ft'): Promise<Who> {
  const c = await ratedCustomer(t, 'aggressive', 'en');
  const set = await call(t.app, { call: 'setLanguage', fields: { token: c.token, language: lang } });
  expect(set.code).toBe(1);
  await fund(t, c.id, 'USDT', USDT(5000));
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('email')
    .where('id', '=', c.id)
    .executeTakeFirstOrThrow();
  return { ...c, email: row.email ?? '' };
}

async function buy(c: Customer, productId: string, amount: string): Promise<string> {
  const a = await call(t.app, {
    call: 'buyProfit',
    fields: { product_id: productId, amount, accept_terms: '1' },
    headers: { token: c.token },
  });
  expect(a.code, a.msg).toBe(1);
  return a.data.order_id;
}

async function redeem(c: Customer, orderId: string) {
  const q = await call(t.app, {
    call: 'quoteRedeem',
    fields: { order_id: orderId },
    headers: { token: c.token },
  });
  expect(q.code, q.msg).toBe(1);
  const sell = () =>
    call(t.app, {
      call: 'sellProfit',
      fields: { order_id: orderId, quote_id: q.data.quote_id },
      headers: { token: c.token },
    });
  const sold = await sell();
  expect(sold.code, sold.msg).toBe(1);
  // The same quote confirmed again: the same redemption, nothing new to tell.
  expect((await sell()).code).toBe(1);
  return { quote: q.data, order: sold.data };
}

/** The customer's earn messages in their in-app inbox, as the app reads them (`web/getNotices`), oldest first. */
async function inbox(
  c: Customer,
): Promise<Array<{ kind: string; title: string; body: string; link: string }>> {
  const page: Answer = await call(t.app, {
    method: 'GET',
    call: 'getNotices',
    fields: { kind: 'message', page_size: '50' },
    headers: { token: c.token },
  });
  expect(page.code).toBe(1);
  return [...page.data.items].reverse().filter((n: { kind: string }) => n.kind === 'earn');
}

async function outbox(c: Who) {
  return t.db
    .selectFrom('notify_outbox')
    .select(['channel', 'subject', 'body'])
    .where('recipient', '=', c.email)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

const runJob = () => t.app.earn.job.runOnce();

async function orderRow(id: string) {
  return t.db.selectFrom('earn_order').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('an order matured by the job', () => {
  it('one message with principal, rewards and total; daily accruals and re-runs tell nothing', async () => {
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id);
    const c = await buyer('en');
    const id = await buy(c, p.product_id, '1000');
    const o = await orderRow(id);
    // Day 1: accrued, nothing to tell.
    t.clock.set(o.next_accrual_at as Date);
    await runJob();
    expect(await inbox(c)).toEqual([]);
    // The server comes back after the term: the missed days and the maturity, told once.
    t.clock.set(new Date(o.matures_at.getTime() + 60_000));
    await runJob();
    await runJob();
    t.clock.advance(DAY);
    await runJob();
    const got = await inbox(c);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      title: 'Earn order completed: 1000.7 USDT returned',
      link: '/profit_wdtg',
    });
    expect(got[0]?.body).toBe(
      `Your Test 7d order ${id} completed its 7 days: the principal of 1000 USDT and rewards of 0.7 USDT, 1000.7 USDT in all, are available in your spot account.`,
    );
    const sent = (await outbox(c)).filter((m) => m.subject.startsWith('Earn'));
    expect(sent).toEqual([{ channel: 'email', subject: got[0]?.title, body: got[0]?.body }]);
  }, 60_000);
});

describe('early redemption', () => {
  it('at once, with a principal penalty: one message in Simplified Chinese, not again for the same quote', async () => {
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id, {
      redeem_rule: 'principal_percent',
      penalty_rate: '5',
      jurisdictions: ['permissive', 'custom'],
    });
    const c = await buyer('zh');
    const id = await buy(c, p.product_id, '1000');
    t.clock.set((await orderRow(id)).next_accrual_at as Date);
    await runJob();
    const { quote } = await redeem(c, id);
    expect(quote).toMatchObject({ penalty: '50', returned: '950', rewards_forfeited: '0.1' });
    await runJob();
    const got = await inbox(c);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ title: '理财订单已提前赎回：950 USDT 已返还', link: '/profit_wdtg' });
    expect(got[0]?.body).toBe(
      `您的测试 7 天订单 ${id} 在 7 天中的第 1 天后提前赎回：本金 1000 USDT 中的 950 USDT 已存入您的现货账户，可随时使用。放弃的收益：0.1 USDT。提前赎回违约金：50 USDT。`,
    );
  }, 60_000);

  it('with a delay: told when requested and when paid out (Traditional Chinese), each once', async () => {
    const start = t.clock.now();
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id, { redeem_delay_days: 2 });
    const c = await buyer('ft');
    const id = await buy(c, p.product_id, '1000');
    const { quote } = await redeem(c, id);
    expect(quote).toMatchObject({ penalty: '0', returned: '1000', rewards_forfeited: '0' });
    const arrives = new Date(quote.arrives_at).toISOString().slice(0, 16).replace('T', ' ');
    const asked = await inbox(c);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.title).toBe(`理財贖回已受理：1000 USDT 將於 ${arrives}（UTC）到帳`);
    expect(asked[0]?.body).toContain('放棄的收益：0 USDT。本金 1000 USDT 中的 1000 USDT');
    expect(asked[0]?.body).not.toContain('違約金');
    t.clock.set(new Date(start.getTime() + 2 * DAY - 1));
    await runJob();
    expect(await inbox(c)).toHaveLength(1);
    t.clock.set(new Date(quote.arrives_at + 1_000));
    await runJob();
    await runJob();
    const got = await inbox(c);
    expect(got.map((n) => n.title)).toEqual([asked[0]?.title, '理財贖回已到帳：1000 USDT']);
    expect(got[1]?.body).toBe(
      `您的測試 7 天訂單 ${id} 的提前贖回已完成：1000 USDT 已存入您的現貨帳戶，可隨時使用。`,
    );
    expect((await orderRow(id)).state).toBe('redeemed');
  }, 60_000);
});

describe('a demo account is told nothing (no address to tell, as in every other module)', () => {
  it('a demo order matures without a message', async () => {
    const f = await fundedAccount(t, '1');
    const p = await openProduct(t, f.funding_id);
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    const c = { token: demo.data.token as string, uid: demo.data.uid as string, id: '' };
    const id = await buy(c, p.product_id, '1000');
    const o = await orderRow(id);
    expect(o.book).toBe('demo');
    t.clock.set(new Date(o.matures_at.getTime() + 60_000));
    await runJob();
    expect((await orderRow(id)).state).toBe('completed');
    const filed = await t.db
      .selectFrom('inbox_message')
      .select('id')
      .where('customer_id', '=', o.customer_id)
      .execute();
    expect(filed).toEqual([]);
  }, 60_000);
});

/** A second earn service over the same tables, with its own notifier and crash hook. */
function service(over: Partial<EarnDeps>) {
  const deps: EarnDeps = {
    db: t.db,
    clock: t.clock,
    log: testLogger(),
    ledger: ledgerOf(t),
    audit: t.app.audit,
    jurisdiction: t.app.jurisdiction,
    requireFeature: async () => {},
    featureTier: async () => 'none',
    tierApproved: async () => true,
    rating: async () => 'aggressive',
    ratingCaps: { checkCap: async () => {} },
    usdtValue: (_c, units) => units,
    vipInputs: async () => ({ volume30d: 0n, balance: 0n }),
    contacts: { contactOf: async () => ({ email: 'x@example.com', phone: null, language: 'en' }) },
    ...over,
  };
  return createEarn(deps);
}

describe('once across crashes; a failure to tell is a warning', () => {
  it('a crash inside the maturity transaction tells nothing; the run that commits it tells once', async () => {
    const sent: Message[] = [];
    const notifier = {
      send: async (m: Message) => void sent.push(m),
      newId: () => 'obx_x',
      latest: async () => [],
    };
    let crash = true;
    const earn = service({
      notifier,
      afterAccrualPost: (_id, day) => {
        if (crash && day === 7) throw new Error('crash inside the maturity');
      },
    });
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id);
    const c = await buyer('en');
    const id = await buy(c, p.product_id, '1000');
    t.clock.set(new Date((await orderRow(id)).matures_at.getTime() + 60_000));
    await expect(earn.job.runOnce()).rejects.toThrow('crash inside the maturity');
    expect((await orderRow(id)).state).toBe('in_custody');
    expect(sent).toEqual([]);
    crash = false;
    await earn.job.runOnce();
    await earn.job.runOnce();
    expect((await orderRow(id)).state).toBe('completed');
    expect(sent.map((m) => [m.customerId, m.kind, m.subject])).toEqual([
      [c.id, 'earn', 'Earn order completed: 1000.7 USDT returned'],
    ]);
    // The app's own job (the real notifier) finds nothing left to tell either.
    await runJob();
    expect(await inbox(c)).toEqual([]);
  }, 60_000);

  it('a notifier that throws: the order completes and the money arrives, one warning', async () => {
    const warnings: unknown[] = [];
    const log = testLogger();
    const spy = Object.assign(Object.create(log), {
      warn: (...args: unknown[]) => void warnings.push(args),
    }) as Logger;
    const notifier = {
      send: async () => {
        throw new Error('smtp down');
      },
      newId: () => 'obx_x',
      latest: async () => [],
    };
    const earn = service({ notifier, log: spy });
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id);
    const c = await buyer('en');
    const id = await buy(c, p.product_id, '1000');
    t.clock.set(new Date((await orderRow(id)).matures_at.getTime() + 60_000));
    await earn.job.runOnce();
    expect((await orderRow(id)).state).toBe('completed');
    const spot = await ledgerOf(t).balance(t.db, {
      book: 'real',
      customerId: c.id,
      accountType: 'spot',
      currency: 'USDT',
    });
    expect(spot.availableUnits).toBe(USDT(5000) + USDT(7) / 10n);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0])).toContain('earn notice could not be sent');
  }, 60_000);
});
