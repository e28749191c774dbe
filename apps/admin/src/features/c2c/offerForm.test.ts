// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { emptyOfferForm, fieldsOfRefusal, type OfferForm, offerBody, offerFormOf } from './offerForm.ts';
import { offer } from './testing.ts';

const filled = (patch: Partial<OfferForm> = {}): OfferForm => ({
  ...emptyOfferForm(),
  merchantId: 'cmr_desk',
  price: '7.25',
  min: '100',
  max: '5000',
  total: '50000',
  reason: 'Desk launch',
  ...patch,
});

describe('the offer form', () => {
  it('posts decimal strings as typed, never through a float', () => {
    const { body, bad } = offerBody(
      filled({ price: '7.123456789', max: '5000.000000001', total: '90071992547409931' }),
      false,
    );
    expect(bad.size).toBe(0);
    expect(body).toMatchObject({
      price: '7.123456789',
      max_amount: '5000.000000001',
      total_amount: '90071992547409931',
    });
  });

  it('refuses min above max, max above total, no method, a window out of 15 min–24 h, a bad cap', () => {
    expect([...offerBody(filled({ min: '6000' }), false).bad]).toEqual(['max_amount']);
    expect([...offerBody(filled({ total: '4000' }), false).bad]).toEqual(['total_amount']);
    const none = filled();
    none.methods = { ...none.methods, bank: { ...none.methods.bank, on: false } };
    expect([...offerBody(none, false).bad]).toEqual(['methods']);
    const late = filled();
    late.methods = { ...late.methods, bank: { on: true, window: '1441', cap: '-1' } };
    expect([...offerBody(late, false).bad].sort()).toEqual(['cap.bank', 'window.bank']);
  });

  it('takes a whole spread within ±2,000 bps, and no price then', () => {
    expect(offerBody(filled({ priceKind: 'spread', spreadBps: '-150' }), false).body).toMatchObject({
      price_kind: 'spread',
      spread_bps: -150,
    });
    expect(offerBody(filled({ priceKind: 'spread', spreadBps: '-150' }), false).body).not.toHaveProperty(
      'price',
    );
    expect([...offerBody(filled({ priceKind: 'spread', spreadBps: '2001' }), false).bad]).toEqual([
      'spread_bps',
    ]);
    expect([...offerBody(filled({ priceKind: 'spread', spreadBps: '1.5' }), false).bad]).toEqual([
      'spread_bps',
    ]);
  });

  it('round-trips an offer for editing and leaves the fixed fields out of the body', () => {
    const form = { ...offerFormOf(offer()), reason: 'Edit' };
    const { body } = offerBody(form, true);
    expect(body).toEqual({
      price_kind: 'spread',
      spread_bps: 50,
      min_amount: '100',
      max_amount: '5000',
      total_amount: '50000',
      methods: [
        { method: 'bank', window_minutes: 180, max_amount: null },
        { method: 'alipay', window_minutes: 30, max_amount: '1000' },
      ],
      terms: 'Pay from your own account only.',
      reason: 'Edit',
    });
  });

  it('maps the server’s refused field onto the form’s fields', () => {
    expect(fieldsOfRefusal('window_minutes')).toEqual(['window.bank', 'window.alipay', 'window.wechat']);
    expect(fieldsOfRefusal('spread_bps')).toEqual(['spread_bps']);
    expect(fieldsOfRefusal(undefined)).toEqual([]);
  });
});
