import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { type Customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import type { Message } from '../notify/index.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import { rate, ratedCustomer } from '../suitability/testing.ts';
import { verifiedPrimary } from '../verification/testing.ts';
import { type LaunchpadNotice, notifyLaunchpad } from './notices.ts';
import type { ProjectRow, SubscriptionRow } from './repo.ts';
import { createLaunchpad } from './service.ts';
import { DAY, HOUR, projectBody } from './testing.ts';

/**
 * The subscriber is told what the launchpad job did with their money (issue 20 item 4): allocated
 * (coins, cost, fee, the refund of the rest, the lock-up date), not allocated, not passed at the
 * review, refunded when the project failed, coins released after the lock-up — each once, after
 * the commit, in their language, filed in their in-app inbox; a job re-run and a crash inside an
 * allocation's transaction tell nothing more; a notifier that throws is a warning.
 */

let t: TestApp;
let admin: StaffLogin;
beforeAll(async () => {
  t = await startTestApp();
  // The tests step the job themselves (and one builds a second service over the same tables).
  t.app.launchpad.job.stop();
  admin = await staffSession(t, ['administrator']);
}, 120_000);
afterAll(async () => t?.close());

const runJob = () => t.app.launchpad.job.runOnce();
const post = (path: string, body: object) =>
  adminCall(t.app, { call: path, token: admin.token, fields: body as Record<string, string> });

async function subscriber(lang: 'en' | 'zh' | 'ft', usdt = 1000): Promise<Customer> {
  const c = await ratedCustomer(t, 'balanced');
  await verifiedPrimary(t, c.token, (await staffSession(t, ['compliance'])).token);
  await fund(t, c.id, 'USDT', USDT(usdt));
  const set = await call(t.app, { call: 'setLanguage', fields: { token: c.token, language: lang } });
  expect(set.code).toBe(1);
  return c;
}

async function announced(over: Parameters<typeof projectBody>[1] = {}) {
  const created = await post('launchpad/projects', projectBody(t.clock.now().getTime(), over));
  expect(created.code, created.msg).toBe(1);
  const id = created.data.project_id as string;
  const a = await post(`launchpad/projects/${id}/action`, { action: 'announce', reason: 'announce now' });
  expect(a.code, a.msg).toBe(1);
  return { id, coin: created.data.coin as string };
}

async function subscribe(c: Customer, projectId: string, quantity: string): Promise<string> {
  const s = await call(t.app, {
    call: 'subscribe',
    fields: { project_id: projectId, quantity, accept_terms: '1' },
    headers: { token: c.token },
  });
  expect(s.code, s.msg).toBe(1);
  return s.data.subscription_id;
}

/** The customer's launchpad messages in their in-app inbox, as the app reads them (`web/getNotices`), oldest first. */
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
  return [...page.data.items].reverse().filter((n: { kind: string }) => n.kind === 'launchpad');
}

async function outboxOf(c: Customer) {
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('email')
    .where('id', '=', c.id)
    .executeTakeFirstOrThrow();
  return t.db
    .selectFrom('notify_outbox')
    .select(['channel', 'subject', 'body'])
    .where('recipient', '=', row.email ?? '')
    .execute();
}

const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

describe('the job tells every subscriber what happened to their money, once', () => {
  it('allocated, not allocated, not passed, refunded, released', async () => {
    const t0 = t.clock.now().getTime();
    // P1: oversubscribed pro rata, the cap binds (600 asked, 400 each); a rating asked for.
    const p1 = await announced({ min_rating: 'balanced', lockup_days: 1 });
    // P2: two lots for three one-lot subscribers: the third (latest) gets none.
    const p2 = await announced({ supply: '2', soft_cap: '1', per_customer_cap: '1', min_subscription: '1' });
    // P3: misses its soft cap.
    const p3 = await announced({ soft_cap: '900' });
    t.clock.advance(HOUR);
    await runJob();

    const [a, b, r] = [await subscriber('en'), await subscriber('zh'), await subscriber('ft')];
    const sa = await subscribe(a, p1.id, '600');
    const sb = await subscribe(b, p1.id, '600');
    const sr = await subscribe(r, p1.id, '50');
    const xs = [await subscriber('en'), await subscriber('en'), await subscriber('en')];
    const sx: string[] = [];
    for (const x of xs) sx.push(await subscribe(x, p2.id, '1'));
    const z = await subscriber('zh');
    const sz = await subscribe(z, p3.id, '50');
    // R's rating falls below the project's before the close (the cooling-off is over; a later
    // instant, so the new assessment is the newest).
    t.clock.advance(1_000);
    await t.db
      .updateTable('suitability_assessment')
      .set({ retake_after: t.clock.now() })
      .where('customer_id', '=', r.id)
      .execute();
    await rate(t, r.id, 'conservative');
    // Nothing is told while money is only frozen.
    expect(await inbox(a)).toEqual([]);

    t.clock.advance(DAY);
    await runJob();
    await runJob();
    const release = utc(t0 + HOUR + 3 * DAY);

    const ga = await inbox(a);
    expect(ga).toHaveLength(1);
    expect(ga[0]).toMatchObject({
      title: `New-coin allocation: 400 ${p1.coin}`,
      link: '/subscriptionRecord',
    });
    expect(ga[0]?.body).toBe(
      `Your subscription ${sa} to Test coin: 400 of the 600 ${p1.coin} you asked for were allocated. Paid 400 USDT and a fee of 2 USDT; 201 USDT of the 603 USDT frozen is available in your spot account again. The coins are locked until ${release} (UTC), then released to your spot account.`,
    );
    expect((await outboxOf(a)).filter((m) => m.subject.startsWith('New-coin'))).toEqual([
      { channel: 'email', subject: ga[0]?.title, body: ga[0]?.body },
    ]);

    const gb = await inbox(b);
    expect(gb.map((n) => n.title)).toEqual([`新币配售结果：400 ${p1.coin}`]);
    expect(gb[0]?.body).toContain(`您对 测试币 的申购 ${sb}：申购数量 600，获配 400 ${p1.coin}`);
    expect(gb[0]?.body).toContain('已支付 400 USDT 及手续费 2 USDT；冻结的 603 USDT 中有 201 USDT 已退回');

    const gr = await inbox(r);
    expect(gr.map((n) => n.title)).toEqual(['新幣申購未通過：50.25 USDT 已退回']);
    expect(gr[0]?.body).toBe(
      `您對 測試幣 的申購 ${sr}（50 ${p1.coin}）未通過截止時的審核：您的風險評級低於該項目的要求。為此凍結的 50.25 USDT 已重新存入您的現貨帳戶，可隨時使用。`,
    );

    const gx = await Promise.all(xs.map(inbox));
    expect(gx.map((g) => g.map((n) => n.title))).toEqual([
      [`New-coin allocation: 1 ${p2.coin}`],
      [`New-coin allocation: 1 ${p2.coin}`],
      ['New-coin subscription not allocated: 1.005 USDT returned'],
    ]);
    expect(gx[2]?.[0]?.body).toBe(
      `Your subscription ${sx[2]} to Test coin (1 ${p2.coin}) received no allocation. Nothing was charged: the 1.005 USDT frozen for it is available in your spot account again.`,
    );

    const gz = await inbox(z);
    expect(gz.map((n) => n.title)).toEqual(['新币申购已退款：50.25 USDT']);
    expect(gz[0]?.body).toBe(
      `测试币 项目未能进行：截止时申购量未达到软顶。您的申购 ${sz}（50 ${p3.coin}）已全额退款：50.25 USDT 已重新存入您的现货账户，可随时使用。`,
    );

    // The lock-up ends: released once, whatever the runs.
    t.clock.set(new Date(t0 + HOUR + 3 * DAY - 1));
    await runJob();
    expect(await inbox(a)).toHaveLength(1);
    t.clock.set(new Date(t0 + HOUR + 3 * DAY));
    await runJob();
    await runJob();
    t.clock.advance(HOUR);
    await runJob();
    const after = await inbox(a);
    expect(after.map((n) => n.title)).toEqual([
      `New-coin allocation: 400 ${p1.coin}`,
      `New coins released: 400 ${p1.coin}`,
    ]);
    expect(after[1]?.body).toBe(
      `The lock-up of your Test coin allocation ended: 400 ${p1.coin} are available in your spot account.`,
    );
    expect((await inbox(b)).map((n) => n.title)).toEqual([
      `新币配售结果：400 ${p1.coin}`,
      `新币已解锁：400 ${p1.coin}`,
    ]);
    // Nobody else heard anything more.
    expect(await inbox(r)).toHaveLength(1);
    expect(await inbox(z)).toHaveLength(1);
    expect(await inbox(xs[2] as Customer)).toHaveLength(1);
  }, 120_000);
});

describe('once across crashes; a failure to tell is a warning', () => {
  it('a crash inside an allocation tells nothing for it; the run that commits it tells once', async () => {
    admin = await staffSession(t, ['administrator']);
    const p = await announced({ lockup_days: 1 });
    t.clock.advance(HOUR);
    await runJob();
    const [a, b] = [await subscriber('en'), await subscriber('en')];
    await subscribe(a, p.id, '100');
    await subscribe(b, p.id, '100');
    t.clock.advance(DAY);
    const sent: Message[] = [];
    let crashes = 1;
    const crashing = createLaunchpad({
      db: t.db,
      clock: t.clock,
      log: testLogger(),
      ledger: ledgerOf(t),
      audit: t.app.audit,
      activeProfile: async () => 'permissive',
      requireFeature: async () => {},
      featureTier: async () => 'none',
      tierApproved: async () => true,
      rating: async () => 'aggressive',
      checkCap: async () => {},
      notifier: {
        send: async (m: Message) => void sent.push(m),
        newId: () => 'obx_x',
        latest: async () => [],
      },
      contacts: { contactOf: async () => ({ email: 'x@example.com', phone: null, language: 'en' }) },
      afterAllocationPost: () => {
        if (crashes-- > 0) throw new Error('crash inside an allocation');
      },
    });
    await expect(crashing.job.runOnce()).rejects.toThrow('crash inside an allocation');
    expect(sent).toEqual([]);
    await crashing.job.runOnce();
    await crashing.job.runOnce();
    expect(sent.map((m) => m.subject).sort()).toEqual([
      `New-coin allocation: 100 ${p.coin}`,
      `New-coin allocation: 100 ${p.coin}`,
    ]);
    expect(sent.map((m) => m.customerId).sort()).toEqual([a.id, b.id].sort());
    expect(new Set(sent.map((m) => m.kind))).toEqual(new Set(['launchpad']));
    // The app's own job (the real notifier) finds nothing left to tell.
    await runJob();
    expect(await inbox(a)).toEqual([]);
  }, 60_000);

  it('notifyLaunchpad logs a warning and resolves when the notifier throws', async () => {
    const warnings: unknown[] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
    const notice: LaunchpadNotice = {
      type: 'refunded',
      sub: { id: 'lps_x', customer_id: 'cus_x', lots: '1', frozen_units: '100' } as SubscriptionRow,
      project: {
        coin: 'X',
        coin_scale: 8,
        lot_units: '100000000',
        names: { en: 'X', zh: 'X', ft: 'X' },
        release_at: new Date(0),
      } as unknown as ProjectRow,
    };
    const notifier = {
      send: async () => {
        throw new Error('smtp down');
      },
      newId: () => 'obx_x',
      latest: async () => [],
    };
    const contacts = { contactOf: async () => ({ email: 'x@example.com', phone: null, language: 'en' }) };
    await expect(notifyLaunchpad({ notifier, contacts, log }, notice)).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    await notifyLaunchpad({ notifier: null, contacts, log }, notice);
    expect(warnings).toHaveLength(1);
  });
});
