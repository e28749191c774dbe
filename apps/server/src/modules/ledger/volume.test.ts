import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerId, key, type LedgerFixture, openLedgerFixture, ref, usdt } from './testing.ts';

/** `customerJournalVolume` is the journal page's rows summed: Σ |net| over the same scope, in one query. */
describe('customer journal volume', () => {
  let f: LedgerFixture;
  beforeAll(async () => {
    f = await openLedgerFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  it('sums |net| of the rows a page would list, in the scope only', async () => {
    const c = customerId();
    const post = (reason: string, units: bigint) =>
      f.ledger.post(f.db, {
        reason,
        reference: ref(),
        idempotencyKey: key(reason),
        postings: [
          {
            account: { book: 'real', customerId: c, accountType: 'spot' },
            currency: 'USDT',
            amountUnits: units,
          },
          {
            account: { book: 'real', platform: 'market_maker_capital' },
            currency: 'USDT',
            amountUnits: -units,
          },
        ],
      });
    await post('demo.seed', usdt(1000));
    await post('spot.trade.sell', usdt(250));
    await post('spot.trade.buy', -usdt(100));
    await post('spot.trade.buy', -usdt(40));
    await post('transfer', -usdt(7));
    const scope = {
      customerId: c,
      book: 'real' as const,
      reasonPrefixes: ['spot.trade'],
      currency: 'USDT',
      accountType: 'spot',
    };
    const volume = await f.ledger.customerJournalVolume(f.db, scope);
    expect(volume).toBe(usdt(390));
    const { rows } = await f.ledger.customerJournalPage(f.db, { ...scope, offset: 0, limit: 100 });
    expect(rows.reduce((s, r) => s + (r.netUnits < 0n ? -r.netUnits : r.netUnits), 0n)).toBe(volume);
    // A window after every entry, and another currency: nothing.
    const later = new Date(Date.UTC(2100, 0, 1));
    expect(await f.ledger.customerJournalVolume(f.db, { ...scope, from: later })).toBe(0n);
    expect(await f.ledger.customerJournalVolume(f.db, { ...scope, currency: 'BTC' })).toBe(0n);
  });
});
