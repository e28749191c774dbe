import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, staffSession } from '../staff/testing.ts';

/** `admin/spotMarketCreate` refuses what cannot be a spot market, naming why, and changes nothing. */
describe('a new spot market: the refusals', () => {
  let t: TestApp;
  let token: string;
  const rules = {
    price_tick: '0.01',
    lot_size: '0.001',
    min_quantity: '0.001',
    min_notional: '5',
    max_notional: '1000000',
    maker_fee_rate: '0.001',
    taker_fee_rate: '0.002',
    price_band_bps: '1000',
  };
  beforeAll(async () => {
    t = await startTestApp({ feedTickMs: 0 });
    token = (await staffSession(t, ['administrator'])).token;
  });
  afterAll(async () => t.close());

  const create = (symbol: string) =>
    adminCall(t.app, { call: 'spotMarketCreate', token, fields: { symbol, ...rules } });
  const marketCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('spot_market')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('an unknown symbol, or an instrument that is not crypto spot, is INSTRUMENT_UNKNOWN', async () => {
    const before = await marketCount();
    expect(await create('NOPE/USDT')).toMatchObject({
      reason: 'INSTRUMENT_UNKNOWN',
      params: { symbol: 'NOPE/USDT' },
    });
    expect(await create('BTC/USDT-PERP')).toMatchObject({
      reason: 'INSTRUMENT_UNKNOWN',
      params: { symbol: 'BTC/USDT-PERP' },
    });
    expect(await marketCount()).toBe(before);
  });

  it('a market that exists is SPOT_MARKET_EXISTS', async () => {
    expect(await create('BTC/USDT')).toMatchObject({
      reason: 'SPOT_MARKET_EXISTS',
      params: { symbol: 'BTC/USDT' },
    });
  });
});
