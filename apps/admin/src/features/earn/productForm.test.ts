import { describe, expect, it } from 'vitest';
import {
  actionsOf,
  dailyRate,
  emptyProductForm,
  type ProductForm,
  productBody,
  settingsBody,
  settingsForm,
  termReward,
} from './productForm.ts';

function filled(overrides: Partial<ProductForm> = {}): ProductForm {
  return {
    ...emptyProductForm(),
    names: { en: 'USDT 7 days', zh: 'USDT 7 天', ft: 'USDT 7 天' },
    descriptions: { en: 'Seven days.', zh: '七天。', ft: '七天。' },
    funding_id: 'fund_1',
    term_days: '7',
    annual_rate: '5.25',
    min_amount: '100',
    max_amount: '5000',
    capacity: '100000',
    reason: 'launch the weekly product',
    ...overrides,
  };
}

describe('productBody', () => {
  it('builds the contract body from a filled form', () => {
    const { body, bad } = productBody(filled());
    expect([...bad]).toEqual([]);
    expect(body).toMatchObject({
      kind: 'custody',
      term_days: 7,
      annual_rate: '5.25',
      vip_level: null,
      sale_starts_at: null,
      sale_ends_at: null,
      redeem_delay_days: 0,
      min_tier: 'primary',
      jurisdictions: ['permissive'],
    });
  });

  it('names every bad field and sends nothing', () => {
    const { body, bad } = productBody(
      filled({
        names: { en: '', zh: 'x', ft: 'x' },
        term_days: '0',
        annual_rate: '50.0001',
        min_amount: '0',
        max_amount: '50',
        capacity: '10',
        reason: 'no',
        jurisdictions: [],
      }),
    );
    expect(body).toBeNull();
    expect([...bad].sort()).toEqual(
      ['annual_rate', 'capacity', 'jurisdictions', 'min_amount', 'names.en', 'reason', 'term_days'].sort(),
    );
  });

  it('refuses a maximum under the minimum and a capacity under the maximum', () => {
    expect([...productBody(filled({ max_amount: '99' })).bad]).toEqual(['max_amount']);
    expect([...productBody(filled({ capacity: '4999' })).bad]).toEqual(['capacity']);
  });

  it('asks for a penalty rate only under a principal rule, and a level only for VIP', () => {
    expect([...productBody(filled({ redeem_rule: 'principal_percent' })).bad]).toEqual(['penalty_rate']);
    expect(
      productBody(filled({ redeem_rule: 'principal_percent', penalty_rate: '5' })).body?.penalty_rate,
    ).toBe('5');
    expect(
      productBody(filled({ redeem_rule: 'forfeit_rewards', penalty_rate: '5' })).body,
    ).not.toHaveProperty('penalty_rate');
    expect([...productBody(filled({ kind: 'vip' })).bad]).toEqual(['vip_level']);
    expect(productBody(filled({ kind: 'vip', vip_level: '2' })).body?.vip_level).toBe(2);
  });

  it('needs the sale to end after it starts', () => {
    const bad = productBody(
      filled({ sale_starts_at: '2030-01-02T00:00', sale_ends_at: '2030-01-01T00:00' }),
    ).bad;
    expect([...bad]).toEqual(['sale_ends_at']);
    const ok = productBody(
      filled({ sale_starts_at: '2030-01-01T00:00', sale_ends_at: '2030-01-02T00:00' }),
    ).body;
    expect((ok?.sale_ends_at ?? 0) - (ok?.sale_starts_at ?? 0)).toBe(86_400_000);
  });
});

describe('figures of the preview', () => {
  it('derives the daily rate half-even at four places', () => {
    expect(dailyRate('3.65')).toBe('0.01');
    expect(dailyRate('5')).toBe('0.0137');
    expect(dailyRate('18.25')).toBe('0.05');
    expect(dailyRate('x')).toBeNull();
  });
  it('computes the term reward with the server rounding', () => {
    expect(termReward('1000', '5', '30', 8)).toBe('4.109589');
    expect(termReward('1000', '', '30', 8)).toBeNull();
  });
});

describe('settingsBody', () => {
  const data = {
    cutoff_hour: 0,
    time_zone: 'Asia/Hong_Kong',
    vip_levels: [{ level: 1, min_tier: 'primary' as const, min_volume_30d: '10000', min_balance: '5000' }],
  };
  it('round-trips the settings', () => {
    const { body, bad } = settingsBody({ ...settingsForm(data), reason: 'yearly review' });
    expect([...bad]).toEqual([]);
    expect(body).toEqual({ ...data, reason: 'yearly review' });
  });
  it('names a bad hour, zone, duplicate level and short reason', () => {
    const form = settingsForm(data);
    const { bad } = settingsBody({
      ...form,
      cutoff_hour: '24',
      time_zone: 'Mars/Base',
      levels: [...form.levels, { ...form.levels[0], min_balance: 'x' } as (typeof form.levels)[number]],
      reason: '',
    });
    expect([...bad].sort()).toEqual([
      'cutoff_hour',
      'levels.1.level',
      'levels.1.min_balance',
      'reason',
      'time_zone',
    ]);
  });
});

describe('actionsOf', () => {
  it('offers only the state changes the product allows; a closed product none', () => {
    expect(actionsOf('draft')).toEqual(['open', 'close']);
    expect(actionsOf('active')).toEqual(['pause', 'close']);
    expect(actionsOf('paused')).toEqual(['open', 'close']);
    expect(actionsOf('closed')).toEqual([]);
  });
});
