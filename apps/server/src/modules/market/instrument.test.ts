import { formatUnits, toDecimalString } from '@bourse/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketStart } from './candles.ts';
import { bySymbol, fixtureInstruments } from './fixtures/instruments.ts';
import { fixedPoint, nearestTicks, priceToTicks, ticksToPrice, turnoverUnits } from './instrument.ts';

describe('prices as ticks', () => {
  it('fixedPoint writes exactly what @bourse/money writes (padded and canonical)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (units, scale) => {
          expect(fixedPoint(units, scale, true)).toBe(
            formatUnits(units, { scale, minFractionDigits: scale }),
          );
          expect(fixedPoint(units, scale, false)).toBe(toDecimalString(units, scale));
        },
      ),
    );
  });

  it('round-trips through decimal text on every instrument of the default catalogue', () => {
    for (const instrument of fixtureInstruments()) {
      const text = ticksToPrice(instrument, instrument.refTicks);
      expect(text.split('.')[1]?.length ?? 0).toBe(instrument.priceScale);
      expect(priceToTicks(instrument, text)).toBe(instrument.refTicks);
    }
  });

  it('refuses prices off the grid, snaps external quotes to the nearest tick', () => {
    const btc = bySymbol(fixtureInstruments(), 'BTC/USDT-PERP'); // tick 0.1
    expect(priceToTicks(btc, '95000.15')).toBeNull();
    expect(priceToTicks(btc, '0')).toBeNull();
    expect(priceToTicks(btc, '1e5')).toBeNull();
    expect(nearestTicks(btc, '95000.15')).toBe(950002n); // half to even
    expect(nearestTicks(btc, '95000.25')).toBe(950002n);
    expect(nearestTicks(btc, '95000.26')).toBe(950003n);
  });

  it('turnover is price × size, rounded down at 8 decimals', () => {
    const shib = bySymbol(fixtureInstruments(), 'SHIB/USDT'); // tick 0.00000001
    // 0.00002135 × 1,234,567 = 26.35800545
    expect(turnoverUnits(shib, 2135n, 123_456_700_000_000n)).toBe(2_635_800_545n);
    const eur = bySymbol(fixtureInstruments(), 'EUR/USD'); // 1.08512 × 1000.123 = 1085.25346… → 1085.25346976
    expect(turnoverUnits(eur, 108_512n, 100_012_300_000n)).toBe(108_525_346_976n);
  });
});

describe('candle buckets', () => {
  it('are UTC-aligned; weeks start on Monday', () => {
    const at = Date.parse('2026-11-21T04:37:12.345Z'); // a Saturday
    expect(new Date(bucketStart(at, '1m')).toISOString()).toBe('2026-11-21T04:37:00.000Z');
    expect(new Date(bucketStart(at, '15m')).toISOString()).toBe('2026-11-21T04:30:00.000Z');
    expect(new Date(bucketStart(at, '4h')).toISOString()).toBe('2026-11-21T04:00:00.000Z');
    expect(new Date(bucketStart(at, '1d')).toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(new Date(bucketStart(at, '1w')).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(new Date(bucketStart(Date.parse('2026-11-23T00:00:00Z'), '1w')).toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
  });
});
