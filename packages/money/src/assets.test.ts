import { describe, expect, it } from 'vitest';
import {
  ASSET_SCALES,
  DEFAULT_CRYPTO_SCALE,
  isKnownAsset,
  MAX_SCALE,
  registerAsset,
  scaleOf,
} from './assets.ts';

describe('asset scales', () => {
  // This table is a contract with every stored amount. If this test fails
  // because an existing scale changed, the change is wrong, not the test.
  it('existing scales never change', () => {
    expect(ASSET_SCALES).toMatchObject({
      USD: 8,
      EUR: 8,
      HKD: 8,
      CNY: 8,
      USDT: 8,
      USDC: 8,
      BTC: 8,
      ETH: 18,
      TRX: 6,
      BNB: 18,
      SOL: 9,
    });
  });

  it('is frozen and within 0..MAX_SCALE', () => {
    expect(Object.isFrozen(ASSET_SCALES)).toBe(true);
    expect(MAX_SCALE).toBe(18);
    expect(DEFAULT_CRYPTO_SCALE).toBe(8);
    for (const scale of Object.values(ASSET_SCALES)) {
      expect(Number.isInteger(scale)).toBe(true);
      expect(scale).toBeGreaterThanOrEqual(0);
      expect(scale).toBeLessThanOrEqual(MAX_SCALE);
    }
  });

  it('scaleOf returns registered scales', () => {
    expect(scaleOf('BTC')).toBe(8);
    expect(scaleOf('ETH')).toBe(18);
    expect(scaleOf('TRX')).toBe(6);
    expect(scaleOf('SOL')).toBe(9);
    expect(scaleOf('USD')).toBe(8);
  });

  it.each(['XYZ', 'usdt', 'Btc', '', ' BTC', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'scaleOf throws for unknown asset %j',
    (asset) => {
      expect(isKnownAsset(asset)).toBe(false);
      expect(() => scaleOf(asset)).toThrow(RangeError);
    },
  );
});

describe('registerAsset (a coin listed while the platform runs)', () => {
  it('makes a new code known with its scale, once and for good', () => {
    expect(isKnownAsset('NOVAT')).toBe(false);
    registerAsset('NOVAT', 6);
    registerAsset('NOVAT', 6);
    expect(isKnownAsset('NOVAT')).toBe(true);
    expect(scaleOf('NOVAT')).toBe(6);
    expect(() => registerAsset('NOVAT', 8)).toThrow(/scale 6/);
  });

  it('refuses built-in codes, bad codes and bad scales', () => {
    expect(() => registerAsset('BTC', 8)).toThrow(/built-in/);
    expect(() => registerAsset('nova', 8)).toThrow(/Bad asset code/);
    expect(() => registerAsset('__proto__', 8)).toThrow(/Bad asset code/);
    expect(() => registerAsset('ZED', 19)).toThrow(/Bad scale/);
  });
});
