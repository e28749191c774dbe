import type { LaunchpadProjectState } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import {
  actionsOf,
  emptyProjectForm,
  fieldsOfRefusal,
  localTimeMs,
  lotsOf,
  type ProjectForm,
  projectBody,
  releaseAtMs,
  subscriptionCost,
  validWhitepaper,
} from './projectForm.ts';

const NOW = Date.UTC(2030, 0, 1);
const DAY_MS = 86_400_000;

function filled(overrides: Partial<ProjectForm> = {}): ProjectForm {
  const three = (text: string) => ({ en: text, zh: `${text} 中`, ft: `${text} 中` });
  return {
    ...emptyProjectForm(),
    coin: 'nova',
    coin_scale: '6',
    names: three('Nova'),
    descriptions: three('A new coin.'),
    risk_warnings: three('You may lose everything.'),
    issuer: 'Nova Labs Ltd',
    whitepaper_url: 'https://nova.example/whitepaper.pdf',
    price: '0.25',
    lot_size: '10',
    circulation: '100000000',
    supply: '1000000',
    soft_cap: '200000',
    per_customer_cap: '50000',
    min_subscription: '100',
    fee_rate: '0.1',
    opens_at: '2030-02-01T10:00',
    closes_at: '2030-02-08T10:00',
    listing_at: '2030-02-10T10:00',
    lockup_days: '30',
    refund_hours: '48',
    reason: 'listing approved by the committee',
    ...overrides,
  };
}

const bad = (overrides: Partial<ProjectForm>) =>
  [...projectBody(filled(overrides), { nowMs: NOW }).bad].sort();

describe('projectBody', () => {
  it('builds the contract body from a filled form: coin upper-cased, margin fixed at 100, times in ms', () => {
    const { body, bad: problems } = projectBody(filled(), { nowMs: NOW });
    expect([...problems]).toEqual([]);
    expect(body).toMatchObject({
      coin: 'NOVA',
      coin_scale: 6,
      issuer: 'Nova Labs Ltd',
      mode: 'pro_rata',
      price: '0.25',
      supply: '1000000',
      margin_ratio: '100',
      fee_rate: '0.1',
      lockup_days: 30,
      refund_hours: 48,
      min_tier: 'primary',
      min_rating: 'conservative',
      jurisdictions: ['permissive'],
    });
    expect(body?.names).toEqual({ en: 'Nova', zh: 'Nova 中', ft: 'Nova 中' });
    expect((body?.closes_at ?? 0) - (body?.opens_at ?? 0)).toBe(7 * DAY_MS);
    expect(body?.opens_at).toBe(localTimeMs('2030-02-01T10:00'));
  });

  it('names every bad field and sends nothing', () => {
    const { body, bad: problems } = projectBody(
      filled({
        coin: 'n',
        coin_scale: '19',
        names: { en: '', zh: 'x', ft: 'x' },
        risk_warnings: { en: 'x', zh: 'x', ft: ' ' },
        issuer: '',
        whitepaper_url: 'http://nova.example',
        price: '0',
        fee_rate: '5.0001',
        lockup_days: '3651',
        refund_hours: '0',
        jurisdictions: [],
        reason: 'no',
      }),
      { nowMs: NOW },
    );
    expect(body).toBeNull();
    expect([...problems].sort()).toEqual(
      [
        'coin',
        'coin_scale',
        'fee_rate',
        'issuer',
        'jurisdictions',
        'lockup_days',
        'names.en',
        'price',
        'reason',
        'refund_hours',
        'risk_warnings.ft',
        'whitepaper_url',
      ].sort(),
    );
  });

  it('refuses a coin the platform already has (it would be LAUNCHPAD_COIN_TAKEN)', () => {
    expect(bad({ coin: 'usdt' })).toEqual(['coin']);
    expect(bad({ coin: 'BTC' })).toEqual(['coin']);
    expect(bad({ coin: 'N0VA2' })).toEqual([]);
  });

  it('keeps min ≤ cap ≤ supply ≤ circulation and soft cap ≤ supply', () => {
    expect(bad({ supply: '200000000' })).toEqual(['supply']);
    expect(bad({ soft_cap: '1000010' })).toEqual(['soft_cap']);
    expect(bad({ per_customer_cap: '1000010' })).toEqual(['per_customer_cap']);
    expect(bad({ min_subscription: '50010' })).toEqual(['min_subscription']);
    expect(bad({ soft_cap: '0' })).toEqual([]);
    expect(bad({ min_subscription: '0' })).toEqual(['min_subscription']);
  });

  it('counts every quantity in whole lots at the coin scale', () => {
    expect(bad({ min_subscription: '105' })).toEqual(['min_subscription']);
    expect(bad({ supply: '1000005' })).toEqual(['supply']);
    expect(bad({ lot_size: '0.0000001' })).toEqual(['lot_size']);
    expect(bad({ coin_scale: '0', lot_size: '0.5' })).toEqual(['lot_size']);
    expect(bad({ lot_size: '0.5' })).toEqual([]);
  });

  it('refuses more lots than the limit', () => {
    expect(bad({ lot_size: '0.000001', circulation: '10000000', supply: '1000001' })).toEqual(['supply']);
  });

  it('needs the window in the future, closing after it opens, listing at or after the close', () => {
    expect(bad({ opens_at: '2029-12-31T10:00' })).toEqual(['opens_at']);
    expect(bad({ closes_at: '2030-02-01T10:00' })).toEqual(['closes_at']);
    expect(bad({ listing_at: '2030-02-08T09:59' })).toEqual(['listing_at']);
    expect(bad({ listing_at: '2030-02-08T10:00' })).toEqual([]);
    expect(bad({ opens_at: '', listing_at: '' })).toEqual(['listing_at', 'opens_at']);
  });

  it('takes the price at most at the USDT scale and the fee from 0 to 5 %', () => {
    expect(bad({ price: '0.000000001' })).toEqual(['price']);
    expect(bad({ price: '0.00000001' })).toEqual([]);
    expect(bad({ fee_rate: '0' })).toEqual([]);
    expect(bad({ fee_rate: '5' })).toEqual([]);
    expect(bad({ fee_rate: '-1' })).toEqual(['fee_rate']);
    expect(bad({ fee_rate: '0.00001' })).toEqual(['fee_rate']);
  });
});

describe('the white paper address', () => {
  it('is https with a host', () => {
    expect(validWhitepaper('https://nova.example/wp.pdf')).toBe(true);
    expect(validWhitepaper('https://')).toBe(false);
    expect(validWhitepaper('https://localhost')).toBe(false);
    expect(validWhitepaper('ftp://nova.example')).toBe(false);
    expect(validWhitepaper(`https://nova.example/${'x'.repeat(300)}`)).toBe(false);
  });
});

describe('the figures a customer reads', () => {
  it('freezes quantity × price plus the fee, the fee rounded down as the server charges it', () => {
    expect(
      subscriptionCost({ quantity: '100', coinScale: 6, price: '0.25', feeRate: '0.1', marginRatio: '100' }),
    ).toEqual({ cost: '25', margin: '25', fee: '0.025', frozen: '25.025' });
    // 3 USDT units at 0.33 %: 0.0099 of a unit, so no fee at all.
    expect(
      subscriptionCost({
        quantity: '1',
        coinScale: 6,
        price: '0.00000003',
        feeRate: '0.33',
        marginRatio: '100',
      }),
    ).toEqual({ cost: '0.00000003', margin: '0.00000003', fee: '0', frozen: '0.00000003' });
    expect(
      subscriptionCost({ quantity: '', coinScale: 6, price: '0.25', feeRate: '0.1', marginRatio: '100' }),
    ).toBeNull();
    expect(
      subscriptionCost({ quantity: '10', coinScale: 6, price: '0.25', feeRate: '6', marginRatio: '100' }),
    ).toBeNull();
    // The server stores the rate in basis points: a finer rate is refused here first.
    expect(
      subscriptionCost({ quantity: '10', coinScale: 6, price: '0.25', feeRate: '0.125', marginRatio: '100' }),
    ).toBeNull();
  });

  it('releases the tokens lock-up days after the listing', () => {
    expect(releaseAtMs(NOW, 30) - NOW).toBe(30 * DAY_MS);
    expect(releaseAtMs(NOW, 0)).toBe(NOW);
  });

  it('counts lots only for whole lots', () => {
    expect(lotsOf('1000000', '10', 6)).toBe('100000');
    expect(lotsOf('15', '10', 6)).toBeNull();
    expect(lotsOf('1', '0.5', 0)).toBeNull();
  });
});

describe('fieldsOfRefusal', () => {
  it('marks the field the server names, every language of a text, nothing it does not know', () => {
    expect(fieldsOfRefusal('supply')).toEqual(['supply']);
    expect(fieldsOfRefusal('names')).toEqual(['names.en', 'names.zh', 'names.ft']);
    expect(fieldsOfRefusal('descriptions.zh')).toEqual(['descriptions.zh']);
    expect(fieldsOfRefusal('margin_ratio')).toEqual([]);
    expect(fieldsOfRefusal('__proto__')).toEqual([]);
    expect(fieldsOfRefusal(undefined)).toEqual([]);
  });
});

describe('actionsOf', () => {
  const project = (state: LaunchpadProjectState, extra: { escrow?: string } = {}) => ({
    state,
    listing_at: NOW,
    escrow: '250',
    ...extra,
  });
  it('announces a draft, withdraws before allocation, offers nothing while the job runs or after a failure', () => {
    expect(actionsOf(project('draft'), NOW)).toEqual(['announce']);
    for (const state of ['announced', 'open', 'closed'] as const)
      expect(actionsOf(project(state), NOW)).toEqual(['withdraw']);
    for (const state of ['allocating', 'failed', 'refunded'] as const)
      expect(actionsOf(project(state), NOW)).toEqual([]);
  });
  it('pays the issuer only once distributed, the listing date reached and something in escrow', () => {
    expect(actionsOf(project('distributed'), NOW)).toEqual(['pay_issuer']);
    expect(actionsOf(project('distributed'), NOW - 1)).toEqual([]);
    expect(actionsOf(project('distributed', { escrow: '0' }), NOW)).toEqual([]);
  });
});
