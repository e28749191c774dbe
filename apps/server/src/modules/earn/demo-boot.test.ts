import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';

/** A server started with DEMO_CONTENT shows the seeded products, the demo customer can buy one. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ demoContent: true });
}, 180_000);
afterAll(async () => t?.close());

describe('earn demo content at start', () => {
  it('lists the seeded custody and VIP products, funded, and a demo purchase goes through', async () => {
    const custody = await call(t.app, { method: 'GET', call: 'getProfitList', fields: { lang: 'ft' } });
    expect(custody.data.items.map((p: { term_days: number }) => p.term_days).sort()).toEqual([30, 7]);
    for (const p of custody.data.items) {
      expect(p.funding_account.source).toContain('營運方');
      expect(Number(p.funding_available)).toBeGreaterThan(0);
    }
    const vip = await call(t.app, { method: 'GET', call: 'getProfitList', fields: { kind: 'vip' } });
    expect(vip.data.items).toHaveLength(1);
    expect(vip.data.vip_levels.length).toBeGreaterThan(0);
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    const seven = custody.data.items.find((p: { term_days: number }) => p.term_days === 7);
    const bought = await call(t.app, {
      call: 'buyProfit',
      fields: { product_id: seven.product_id, amount: '1000', accept_terms: '1' },
      headers: { token: demo.data.token },
    });
    expect(bought.code, bought.msg).toBe(1);
    expect(bought.data).toMatchObject({ state: 'in_custody', term_days: 7, annual_rate: '4.00' });
  });
});
