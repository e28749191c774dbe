import { C2C_LIMITS, type C2cPrivateMessage } from '@bourse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { ledgerOf } from '../assets/testing.ts';
import { formatReport } from '../ledger/index.ts';
import { createC2c } from './service.ts';
import {
  adminGet,
  cget,
  cpost,
  escrowOf,
  HOUR,
  markPaid,
  merchant,
  offer,
  type Staff,
  spotOf,
  staffOf,
  USDT,
  verifiedCustomer,
} from './testing.ts';

/**
 * Concurrency and crashes on a real PostgreSQL: many customers racing for the last amount of one
 * offer (exactly the offer's amount is sold, never more), and the deadline job dying inside its
 * transactions at chosen points (a second C2C service on the app's database carries the crash hook
 * after each ledger entry, as loans' job test does) — every order resolved exactly once, the escrow
 * empty, the desk's coins back to the unit. The same service's `publish` port shows the live events.
 */

let t: TestApp;
let staff: Staff;
let desk: Awaited<ReturnType<typeof merchant>>;
const published: Array<{ customerId: string; message: C2cPrivateMessage }> = [];
let calls = 0;
let crashAt = -1;
class Crash extends Error {}

let spy: ReturnType<typeof createC2c>;

beforeAll(async () => {
  t = await startTestApp({ sessionTtlDays: 365 });
  t.app.c2c.job.stop();
  staff = await staffOf(t);
  desk = await merchant(t, staff, 10_000);
  spy = createC2c({
    db: t.db,
    clock: t.clock,
    log: testLogger(),
    ledger: ledgerOf(t),
    audit: t.app.audit,
    verifiedName: (id) => t.app.verification.verifiedName(id),
    requireFeature: async () => {},
    featureTier: async () => 'primary',
    merchantTierApproved: async () => true,
    accountCreatedAt: async () => null,
    feedPrice: () => null,
    uploads: t.app.uploads.service,
    documentRetainUntil: async (at) => at,
    publish: (customerId, message) => {
      published.push({ customerId, message });
    },
    afterJobPost: () => {
      calls += 1;
      if (calls === crashAt) throw new Crash('crash inside a deadline transaction, after its ledger entry');
    },
  });
}, 120_000);
afterAll(async () => t?.close());

describe('racing for the last amount', () => {
  it('sells exactly the offer’s amount, never more', async () => {
    const offerId = await offer(t, staff, desk.merchantId, { total_amount: '300', max_amount: '50' });
    const buyers = [];
    for (let i = 0; i < 12; i += 1) buyers.push(await verifiedCustomer(t));
    const deskBefore = await spotOf(t, desk.customer.id);
    const answers = await Promise.all(
      buyers.map((c) => cpost(t, c, 'c2cCreateOrder', { offer_id: offerId, amount: '50', method: 'bank' })),
    );
    const won = answers.filter((a) => a.code === 1);
    const lost = answers.filter((a) => a.code !== 1);
    expect(won).toHaveLength(6);
    for (const a of lost) expect(['C2C_OFFER_REMAINING']).toContain(a.reason);
    expect((await spotOf(t, desk.customer.id)).available).toBe(deskBefore.available - USDT(300));
    const offers = await adminGet(t, staff.admin, 'c2c/offers');
    expect(offers.data.find((o: { offer_id: string }) => o.offer_id === offerId).remaining).toBe('0');
    // Cancelled orders give their amount back to the offer: one more customer may take it.
    const first = won[0]?.data.order_id as string;
    const owner = buyers[answers.indexOf(won[0] as (typeof answers)[number])];
    if (!owner) throw new Error('no owner');
    await cpost(t, owner, 'c2cCancel', { order_id: first });
    const late = await verifiedCustomer(t);
    const again = await cpost(t, late, 'c2cCreateOrder', { offer_id: offerId, amount: '50', method: 'bank' });
    expect(again.code, again.msg).toBe(1);
    for (const a of won.slice(1))
      await cpost(t, buyers[answers.indexOf(a)] ?? late, 'c2cCancel', { order_id: a.data.order_id });
    await cpost(t, late, 'c2cCancel', { order_id: again.data.order_id });
  });
});

describe('racing past the open-orders limit', () => {
  it('one customer’s simultaneous orders stop at the limit (counted under the customer’s lock)', async () => {
    const offerId = await offer(t, staff, desk.merchantId, { total_amount: '1000', max_amount: '50' });
    const c = await verifiedCustomer(t);
    const answers = await Promise.all(
      Array.from({ length: 9 }, () =>
        cpost(t, c, 'c2cCreateOrder', { offer_id: offerId, amount: '10', method: 'bank' }),
      ),
    );
    const won = answers.filter((a) => a.code === 1);
    expect(won).toHaveLength(C2C_LIMITS.openOrdersPerCustomerMax);
    for (const a of answers.filter((x) => x.code !== 1)) expect(a.reason).toBe('C2C_OPEN_ORDERS_LIMIT');
    for (const a of won) await cpost(t, c, 'c2cCancel', { order_id: a.data.order_id });
  });
});

describe('the deadline job with crashes', () => {
  it('resolves every order exactly once and resumes after every crash', async () => {
    const offerId = await offer(t, staff, desk.merchantId, { total_amount: '1000', max_amount: '100' });
    const deskBefore = await spotOf(t, desk.customer.id);
    const unpaid: string[] = [];
    const paid: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const c = await verifiedCustomer(t);
      const o = await cpost(t, c, 'c2cCreateOrder', {
        offer_id: offerId,
        amount: String(10 + i),
        method: 'bank',
      });
      expect(o.code, o.msg).toBe(1);
      if (i % 3 === 0) {
        expect((await markPaid(t, c, o.data.order_id)).code).toBe(1);
        paid.push(o.data.order_id);
      } else unpaid.push(o.data.order_id);
    }
    t.clock.advance(3 * HOUR + 1);
    let crashes = 0;
    for (let run = 1; run < 30; run += 1) {
      calls = 0;
      crashAt = run < 10 ? 1 + (run % 2) : 0; // the 1st or 2nd deadline of the run dies, then clean runs
      try {
        await spy.job.runOnce();
      } catch (error) {
        if (!(error instanceof Crash)) throw error;
        crashes += 1;
      }
    }
    crashAt = -1;
    expect(crashes).toBeGreaterThan(3);
    for (const id of unpaid) {
      const events = await t.db.selectFrom('c2c_event').selectAll().where('order_id', '=', id).execute();
      expect(events.filter((e) => e.to_state === 'expired')).toHaveLength(1);
      expect(await ledgerOf(t).entryIdByKey(t.db, `c2c:out:${id}`)).not.toBeNull();
      expect(await escrowOf(t, id)).toBe(0n);
    }
    for (const id of paid) {
      const row = await t.db
        .selectFrom('c2c_order')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.state).toBe('disputed'); // never expired
      expect(await escrowOf(t, id)).toBe(BigInt(row.amount_units));
    }
    const paidUnits = (
      await t.db.selectFrom('c2c_order').select('amount_units').where('id', 'in', paid).execute()
    ).reduce((s, r) => s + BigInt(r.amount_units), 0n);
    expect((await spotOf(t, desk.customer.id)).available).toBe(deskBefore.available - paidUnits);
    const report = await ledgerOf(t).verify();
    expect(report.ok, formatReport(report)).toBe(true);
  });
});

describe('live events', () => {
  it('a chat message and a state change reach both parties’ private channels', async () => {
    staff = await staffOf(t); // the stepped clock outlived the first staff sessions
    const offerId = await offer(t, staff, desk.merchantId);
    const c = await verifiedCustomer(t);
    const o = await cpost(t, c, 'c2cCreateOrder', { offer_id: offerId, amount: '12', method: 'bank' });
    const auth = { customerId: c.id, sessionId: 's', isDemo: false, token: c.token };
    published.length = 0;
    await spy.sendMessage(auth, { order_id: o.data.order_id, body: 'paying now' });
    await spy.cancel(auth, o.data.order_id);
    const to = published.map((p) => `${p.customerId === c.id ? 'c' : 'm'}:${p.message.type}`);
    expect(to.sort()).toEqual(['c:message', 'c:order', 'm:message', 'm:order']);
    const chat = await cget(t, desk.customer, 'c2cMessages', { order_id: o.data.order_id });
    expect(chat.data[0]).toMatchObject({ from: 'customer', body: 'paying now' });
  });
});
