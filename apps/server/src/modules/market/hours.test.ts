import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, staffSession } from '../staff/testing.ts';

let t: TestApp;
let admin: string;
let finance: string;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  admin = (await staffSession(t, ['administrator'])).token;
  finance = (await staffSession(t, ['finance'])).token;
});
afterAll(async () => t?.close());

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** A one-minute weekly window three days away from the clock's UTC day: closed now, whatever now is. */
function closedNow(): string {
  return `UTC ${DAYS[(t.clock.now().getUTCDay() + 3) % 7]} 00:00-00:01`;
}
const setHours = (token: string, fields: Record<string, string>) =>
  adminCall(t.app, { call: 'market/hours', token, fields });

describe('trading hours (back office)', () => {
  it('lists the hours and the state of each instrument to markets.write only', async () => {
    const list = await adminCall(t.app, {
      method: 'GET',
      call: 'market/hours',
      token: admin,
      fields: { search: 'btc/usdt' },
    });
    expect(list.code).toBe(1);
    expect(list.data.items.find((i: { symbol: string }) => i.symbol === 'BTC/USDT')).toMatchObject({
      trading_hours: '24/7',
      status: 'active',
    });
    const refused = await adminCall(t.app, { method: 'GET', call: 'market/hours', token: finance });
    expect(refused.reason).toBe('FORBIDDEN');
  });

  it('closes a market and opens it again, live and audited', async () => {
    await t.app.market.step();
    expect(t.app.market.priceForTrading('BTC/USDT').symbol).toBe('BTC/USDT');
    const hours = closedNow();
    const denied = await setHours(finance, { symbol: 'BTC/USDT', hours, reason: 'not mine' });
    expect(denied.reason).toBe('FORBIDDEN');
    const closed = await setHours(admin, { symbol: 'BTC/USDT', hours, reason: 'e2e closed market' });
    expect(closed.code, closed.msg).toBe(1);
    expect(closed.data).toMatchObject({ symbol: 'BTC/USDT', trading_hours: hours, state: 'closed' });
    expect(() => t.app.market.priceForTrading('BTC/USDT')).toThrow();
    try {
      t.app.market.priceForTrading('BTC/USDT');
    } catch (error) {
      expect(error).toMatchObject({ reason: 'MARKET_CLOSED', params: { symbol: 'BTC/USDT', hours } });
    }
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('action', '=', 'market.hours.update')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ target_id: 'BTC/USDT', reason: 'e2e closed market' });
    expect(audit.before).toEqual({ trading_hours: '24/7' });
    expect(audit.after).toEqual({ trading_hours: hours });

    const back = await setHours(admin, { symbol: 'BTC/USDT', hours: '24/7', reason: 'restore' });
    expect(back.data).toMatchObject({ trading_hours: '24/7' });
    await t.app.market.step();
    expect(t.app.market.priceForTrading('BTC/USDT').symbol).toBe('BTC/USDT');
  });

  it('refuses bad schedule text and unknown symbols, in the customer language, changing nothing', async () => {
    const before = await t.db
      .selectFrom('staff_audit')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    for (const hours of ['Mon-Fri 09:00-17:00', 'UTC Mon-Fri 9-17', 'Mars/Olympus Mon 00:00-01:00', ' ']) {
      const bad = await setHours(admin, { symbol: 'BTC/USDT', hours, reason: 'bad text', lang: 'zh' });
      expect(bad.reason, hours).toBe('TRADING_HOURS_INVALID');
      expect(bad.msg).toMatch(/[\u4e00-\u9fff]/);
    }
    const unknown = await setHours(admin, { symbol: 'NOPE/USD', hours: '24/7', reason: 'unknown' });
    expect(unknown.reason).toBe('INSTRUMENT_UNKNOWN');
    const after = await t.db
      .selectFrom('staff_audit')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    expect(t.app.market.instrument('BTC/USDT').schedule.text).toBe('24/7');
  });
});
