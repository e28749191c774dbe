import type { OptionInstrumentData } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import {
  countdownText,
  durationParts,
  payoutOnWin,
  pickInstrument,
  ratePercent,
  secondsLeft,
  showStake,
  signOf,
  stakeBreaks,
  stakeFigures,
  stakePresets,
  stakeTextError,
  stakeUnits,
  standingAt,
} from './logic.ts';

const u = (text: string): bigint => {
  const units = stakeUnits(text);
  if (units === null) throw new Error(text);
  return units;
};

describe('option arithmetic', () => {
  it('parses stakes exactly at the USDT scale and names what is wrong', () => {
    expect(u('10')).toBe(1_000_000_000n);
    expect(u('0.00000001')).toBe(1n);
    expect(stakeUnits('0.000000001')).toBeNull();
    expect(stakeUnits('1e3')).toBeNull();
    expect(stakeUnits('-5')).toBeNull();
    expect(stakeTextError('')).toBe('empty');
    expect(stakeTextError('abc')).toBe('invalid');
    expect(stakeTextError('1.123456789')).toBe('precision');
    expect(stakeTextError('12.5')).toBeNull();
  });

  it('pays stake × (1 + rate) on a win, rounded down to the minor unit', () => {
    expect(showStake(payoutOnWin(u('10'), '0.85'))).toBe('18.5');
    expect(showStake(payoutOnWin(u('100'), '0.925'))).toBe('192.5');
    // 0.1 + 0.2 style inputs stay exact.
    expect(showStake(payoutOnWin(u('0.1'), '0.2'))).toBe('0.12');
    // 0.00000001 × 0.85 = 0.0000000085: the profit rounds down to nothing.
    expect(payoutOnWin(1n, '0.85')).toBe(1n);
    // 0.00000003 × 0.5 = 0.000000015 → 0.00000001.
    expect(payoutOnWin(3n, '0.5')).toBe(4n);
    // 12345678.12345678 × 1.8 = 22222220.622222204: the last digit is cut.
    expect(showStake(payoutOnWin(u('12345678.12345678'), '0.8'))).toBe('22222220.6222222');
    expect(payoutOnWin(u('10'), '0')).toBe(u('10'));
  });

  it('shows rates as exact percentages', () => {
    expect(ratePercent('0.85')).toBe('85');
    expect(ratePercent('0.925')).toBe('92.5');
    expect(ratePercent('1')).toBe('100');
    expect(ratePercent('0.001')).toBe('0.1');
  });

  it('lists every stake rule broken', () => {
    const base = { min: u('10'), max: u('1000') };
    expect(stakeBreaks({ ...base, stake: u('10'), available: u('10') })).toEqual([]);
    expect(stakeBreaks({ ...base, stake: u('9.99999999'), available: u('100') })).toEqual(['min']);
    expect(stakeBreaks({ ...base, stake: u('1000.00000001'), available: u('5000') })).toEqual(['max']);
    expect(stakeBreaks({ ...base, stake: u('1001'), available: u('5') })).toEqual(['max', 'balance']);
    expect(stakeBreaks({ ...base, stake: u('50'), available: null })).toEqual([]);
  });

  it('offers round presets between the minimum and the maximum', () => {
    expect(stakePresets('10', '1000')).toEqual(['10', '20', '50', '100']);
    expect(stakePresets('5', '15')).toEqual(['5', '10']);
    expect(stakePresets('2.5', '100000')).toEqual(['2.5', '5', '10', '20']);
    expect(stakePresets('100', '10')).toEqual([]);
  });
});

describe('open options', () => {
  it('tells winning from losing by direction, and equal as level', () => {
    const up = { direction: 'up' as const, openPrice: '100.50' };
    const down = { direction: 'down' as const, openPrice: '100.50' };
    expect(standingAt({ ...up, price: '100.51' })).toBe('winning');
    expect(standingAt({ ...up, price: '100.49' })).toBe('losing');
    expect(standingAt({ ...up, price: '100.5' })).toBe('level');
    expect(standingAt({ ...down, price: '100.49' })).toBe('winning');
    expect(standingAt({ ...down, price: '100.51' })).toBe('losing');
    expect(standingAt({ ...down, price: undefined })).toBeNull();
    expect(standingAt({ ...down, price: 'n/a' })).toBeNull();
  });

  it('counts down whole seconds to expiry and formats them', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
    expect(countdownText(30)).toBe('0:30');
    expect(countdownText(305)).toBe('5:05');
    expect(countdownText(3_725)).toBe('1:02:05');
    expect(countdownText(-3)).toBe('0:00');
  });

  it('names durations in their largest whole unit', () => {
    expect(durationParts(30)).toEqual({ unit: 's', count: 30 });
    expect(durationParts(90)).toEqual({ unit: 's', count: 90 });
    expect(durationParts(300)).toEqual({ unit: 'min', count: 5 });
    expect(durationParts(5_400)).toEqual({ unit: 'min', count: 90 });
    expect(durationParts(3_600)).toEqual({ unit: 'h', count: 1 });
    expect(durationParts(86_400)).toEqual({ unit: 'd', count: 1 });
  });

  it('signs settled profits', () => {
    expect(signOf('8.5')).toBe('up');
    expect(signOf('-10')).toBe('down');
    expect(signOf('0')).toBe('flat');
    expect(signOf(null)).toBe('flat');
  });
});

describe('instrument choice', () => {
  const item = (symbol: string, open: boolean, enabled = true): OptionInstrumentData => ({
    symbol,
    name: symbol,
    asset_class: 'crypto_spot',
    currency: 'USDT',
    min_stake: '10',
    max_stake: '1000',
    durations: [{ seconds: 30, payout_rate: '0.8' }],
    trading_hours: '24/7',
    open,
    enabled,
  });
  const list = [item('XAU/USD', false), item('ETH/USDT', true, false), item('BTC/USDT', true)];

  it('takes ?symbol=, else the first open one, else the first', () => {
    expect(pickInstrument(list, 'XAU/USD')?.symbol).toBe('XAU/USD');
    expect(pickInstrument(list, 'NOPE')).toBeUndefined();
    expect(pickInstrument(list, null)?.symbol).toBe('BTC/USDT');
    expect(pickInstrument([item('XAU/USD', false)], null)?.symbol).toBe('XAU/USD');
    expect(pickInstrument([], null)).toBeUndefined();
  });
});

describe('stakeFigures', () => {
  const instrument = { min_stake: '1', max_stake: '1000', enabled: true, open: true };
  const chosen = { seconds: 60, payout_rate: '0.85' } as OptionInstrumentData['durations'][number];
  const base = { availableText: '50', instrument, chosen };

  it('works out payout, profit and readiness exactly', () => {
    const f = stakeFigures({ ...base, stake: '10' });
    expect(f.stakeValue).toBe(u('10'));
    expect(f.breaks).toEqual([]);
    expect(f.payout === null ? null : showStake(f.payout)).toBe('18.5');
    expect(f.profit === null ? null : showStake(f.profit)).toBe('8.5');
    expect(f.ready).toBe(true);
    expect(f.maxStake).toBe(u('50'));
  });

  it('names broken rules and refuses what cannot be bought', () => {
    expect(stakeFigures({ ...base, stake: '60' }).breaks).toEqual(['balance']);
    expect(stakeFigures({ ...base, stake: '' })).toMatchObject({
      stakeValue: null,
      textError: null,
      ready: false,
    });
    expect(stakeFigures({ ...base, stake: 'abc' })).toMatchObject({ textError: 'invalid', ready: false });
    expect(stakeFigures({ ...base, stake: '0' })).toMatchObject({ breaks: [], ready: false });
    expect(stakeFigures({ ...base, stake: '10', chosen: null })).toMatchObject({
      payout: null,
      ready: false,
    });
    expect(stakeFigures({ ...base, stake: '10', instrument: { ...instrument, open: false } }).ready).toBe(
      false,
    );
    expect(stakeFigures({ ...base, stake: '10', availableText: null }).maxStake).toBe(u('1000'));
  });
});
