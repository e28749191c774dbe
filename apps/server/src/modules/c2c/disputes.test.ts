import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import type { Customer } from '../assets/testing.ts';
import { staffSession } from '../staff/testing.ts';
import {
  adminGet,
  adminPost,
  cget,
  cpost,
  escrowOf,
  HOUR,
  markPaid,
  merchant,
  offer,
  proof,
  type Staff,
  spotOf,
  staffOf,
  USDT,
  verifiedCustomer,
} from './testing.ts';

/**
 * Disputes on PostgreSQL: opened by either side with evidence (escrow stays), decided by staff both
 * ways with a written reason, four eyes above the threshold (self-confirmation refused, a different
 * outcome refused), the confirm deadline turning a paid order into a dispute (never an expiry), the
 * published auto rule when one side never acted, staff in the chat, the timeline and permissions.
 */

let t: TestApp;
let staff: Staff;
let desk: Awaited<ReturnType<typeof merchant>>;
let offerId: string;
const DAY = 24 * HOUR;

beforeAll(async () => {
  t = await startTestApp({ sessionTtlDays: 365 });
  t.app.c2c.job.stop();
  staff = await staffOf(t);
  desk = await merchant(t, staff, 200_000);
  offerId = await offer(t, staff, desk.merchantId, { max_amount: '20000', total_amount: '100000' });
}, 120_000);
afterAll(async () => t?.close());

async function paidOrder(c: Customer, amount: string): Promise<string> {
  const o = await cpost(t, c, 'c2cCreateOrder', { offer_id: offerId, amount, method: 'bank' });
  expect(o.code, o.msg).toBe(1);
  const p = await markPaid(t, c, o.data.order_id);
  expect(p.code, p.msg).toBe(1);
  return o.data.order_id as string;
}

describe('disputes decided by staff', () => {
  it('release to the buyer, with evidence side by side and a written reason', async () => {
    const c = await verifiedCustomer(t);
    const id = await paidOrder(c, '100');
    const d = await cpost(t, c, 'c2cDispute', {
      order_id: id,
      reason: 'paid_not_confirmed',
      note: 'I paid an hour ago',
      evidence_ids: await proof(t, c),
    });
    expect(d.code, d.msg).toBe(1);
    expect(d.data.state).toBe('disputed');
    expect(await escrowOf(t, id)).toBe(USDT(100));
    const m = await adminPost(t, staff.admin, `c2c/orders/${id}/message`, {
      body: 'Please both send your statements',
    });
    expect(m.code, m.msg).toBe(1);
    const chat = await cget(t, desk.customer, 'c2cMessages', { order_id: id });
    expect(chat.data.map((x: { from: string }) => x.from)).toEqual(['customer', 'staff']);
    const detail = await adminGet(t, staff.admin, `c2c/orders/${id}`);
    expect(detail.code, detail.msg).toBe(1);
    expect(detail.data.evidence.buyer).toHaveLength(2); // the remittance proof and the evidence
    expect(detail.data.evidence.buyer[0].url).toMatch(/^\/api\/files\//);
    const list = await adminGet(t, staff.admin, 'c2c/disputes');
    expect(list.data.items.some((x: { order_id: string }) => x.order_id === id)).toBe(true);
    const r = await adminPost(t, staff.admin, `c2c/orders/${id}/decide`, {
      outcome: 'release',
      reason: 'bank statement matches',
    });
    expect(r.code, r.msg).toBe(1);
    expect(r.data).toMatchObject({ state: 'completed', outcome: { outcome: 'release', by: 'staff' } });
    expect((await spotOf(t, c.id)).available).toBe(USDT(100));
    expect(await escrowOf(t, id)).toBe(0n);
    const again = await adminPost(t, staff.second, `c2c/orders/${id}/decide`, {
      outcome: 'return',
      reason: 'not so',
    });
    expect(again.reason).toBe('C2C_ORDER_STATE');
    const audit = await t.db
      .selectFrom('staff_audit' as never)
      .select(['action' as never])
      .where('target_id' as never, '=', id as never)
      .execute();
    expect((audit as Array<{ action: string }>).map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'c2c.order.match',
        'c2c.order.mark_paid',
        'c2c.order.dispute',
        'c2c.order.decide_release',
      ]),
    );
  });

  it('return to the seller when the merchant disputes', async () => {
    const c = await verifiedCustomer(t);
    const before = await spotOf(t, desk.customer.id);
    const id = await paidOrder(c, '40');
    const d = await cpost(t, desk.customer, 'c2cDispute', {
      order_id: id,
      reason: 'payment_not_received',
      note: 'nothing arrived',
    });
    expect(d.code, d.msg).toBe(1);
    const r = await adminPost(t, staff.admin, `c2c/orders/${id}/decide`, {
      outcome: 'return',
      reason: 'proof was edited',
    });
    expect(r.data).toMatchObject({ state: 'rejected' });
    expect((await spotOf(t, desk.customer.id)).available).toBe(before.available);
    expect((await spotOf(t, c.id)).available).toBe(0n);
  });

  it('four eyes above the threshold: one asks, another confirms; self-confirm and another outcome refused', async () => {
    // An account older than 30 days has no age cap (its opening date moved back: a fixture).
    const s = {
      admin: await staffSession(t, ['administrator']),
      second: await staffSession(t, ['administrator']),
    };
    const finance = await staffSession(t, ['finance']);
    const c = await verifiedCustomer(t);
    await t.db
      .updateTable('accounts_customer')
      .set({ created_at: new Date(t.clock.now().getTime() - 40 * DAY) })
      .where('id', '=', c.id)
      .execute();
    const id = await paidOrder(c, '15000');
    await cpost(t, c, 'c2cDispute', { order_id: id, reason: 'paid_not_confirmed', note: 'paid' });
    const first = await adminPost(t, finance, `c2c/orders/${id}/decide`, {
      outcome: 'release',
      reason: 'statement ok',
    });
    expect(first.code, first.msg).toBe(1);
    expect(first.data).toMatchObject({ state: 'disputed', awaiting_second: true });
    expect(await escrowOf(t, id)).toBe(USDT(15_000));
    const self = await adminPost(t, finance, `c2c/orders/${id}/decide`, {
      outcome: 'release',
      reason: 'again',
    });
    expect(self.reason).toBe('C2C_DECIDE_SELF');
    const differs = await adminPost(t, s.admin, `c2c/orders/${id}/decide`, {
      outcome: 'return',
      reason: 'hmm',
    });
    expect(differs).toMatchObject({ reason: 'C2C_DECISION_DIFFERS', params: { outcome: 'release' } });
    const second = await adminPost(t, s.second, `c2c/orders/${id}/decide`, {
      outcome: 'release',
      reason: 'confirmed',
    });
    expect(second.code, second.msg).toBe(1);
    expect(second.data.state).toBe('completed');
    expect((await spotOf(t, c.id)).available).toBe(USDT(15_000));
  });

  it('permissions: compliance reads, cannot decide', async () => {
    const compliance = await staffSession(t, ['compliance']);
    expect((await adminGet(t, compliance, 'c2c/orders')).code).toBe(1);
    const r = await adminPost(t, compliance, 'c2c/orders/cod_x/decide', {
      outcome: 'release',
      reason: 'try',
    });
    expect(r.status).toBe(403);
  });
});

describe('deadlines after "paid"', () => {
  it('a paid order never expires: at its confirm deadline it becomes a dispute; the silent receiver loses by the rule', async () => {
    const c = await verifiedCustomer(t);
    const id = await paidOrder(c, '30');
    t.clock.advance(4 * HOUR); // past the payment window and the confirm window
    await t.app.c2c.job.runOnce();
    const o = await cget(t, c, 'c2cOrder', { order_id: id });
    expect(o.data).toMatchObject({ state: 'disputed', dispute: { by: 'job', reason: 'paid_not_confirmed' } });
    expect(o.data.timeline.map((e: { to: string }) => e.to)).not.toContain('expired');
    expect(await escrowOf(t, id)).toBe(USDT(30));
    t.clock.advance(DAY + 1);
    await t.app.c2c.job.runOnce();
    const done = await cget(t, c, 'c2cOrder', { order_id: id });
    expect(done.data).toMatchObject({ state: 'completed', outcome: { outcome: 'release', by: 'rule' } });
    expect((await spotOf(t, c.id)).available).toBe(USDT(30));
  });

  it('when both sides spoke the rule stays out: staff decide', async () => {
    const c = await verifiedCustomer(t);
    const id = await paidOrder(c, '25');
    await cpost(t, c, 'c2cDispute', { order_id: id, reason: 'paid_not_confirmed', note: 'paid' });
    const w = await cpost(t, desk.customer, 'c2cSendMessage', { order_id: id, body: 'Not received yet' });
    expect(w.code, w.msg).toBe(1);
    t.clock.advance(DAY + 1);
    await t.app.c2c.job.runOnce();
    expect((await cget(t, c, 'c2cOrder', { order_id: id })).data.state).toBe('disputed');
    await t.app.c2c.job.runOnce();
    expect((await cget(t, c, 'c2cOrder', { order_id: id })).data.state).toBe('disputed');
  });
});
