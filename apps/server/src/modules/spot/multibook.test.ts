import { SPOT_LIMITS } from '@bourse/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { type Customer, customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { LEDGER_LIMITS, type Ledger } from '../ledger/index.ts';

/**
 * Books of different markets settle side by side and share customers (every active trader, and the
 * market maker on every book). A batch locks its ledger accounts in one round per transaction. When
 * the settlement took its round (the makers' accounts) in the journal's transaction, after the
 * freezes' round, two books could each wait for an account the other held: PostgreSQL broke the
 * cycle after a second, the batch was rebuilt and run again — up to three times, then answered 500.
 * The first test builds that cycle on purpose (it failed on the first pair before); the second is
 * twelve customers trading on BTC/USDT and ETH/USDT at once: every order answered, no rebuild, no
 * 5xx, and the ledger and the frozen funds add up.
 */
let t: TestApp;
/** Books rebuilt after a batch failed once it had matched (before: a deadlock). */
let rebuilds = 0;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  await t.app.market.step();
  for (const b of BOOKS) {
    const runner = t.app.spot.runner(b.symbol, 'real');
    const recover = runner.recover.bind(runner);
    runner.recover = () => {
      rebuilds += 1;
      return recover();
    };
  }
});
afterAll(async () => t?.close());

const ROUNDS = 6;
const PER_ROUND = 48;
const BOOKS = [
  { symbol: 'BTC/USDT', quantity: '0.001' },
  { symbol: 'ETH/USDT', quantity: '0.03' },
] as const;

function order(c: Customer, fields: Record<string, string>) {
  return call(t.app, { call: 'createOrder', fields, headers: { token: c.token } });
}

describe('two books, one set of customers', () => {
  it('A and B each take the resting order of the other on the other book, at once: both fill, no rebuild', async () => {
    const mids = BOOKS.map((b) => Number.parseFloat(t.app.market.priceForTrading(b.symbol).mark));
    const price = (b: number) => (mids[b] as number).toFixed(2);
    for (let pair = 0; pair < 8; pair++) {
      const [a, b] = [await customer(t, 'mba'), await customer(t, 'mbb')];
      for (const c of [a, b]) {
        await fund(t, c.id, 'USDT', USDT(10_000));
        await fund(t, c.id, 'BTC', 10n ** 8n);
        await fund(t, c.id, 'ETH', 10n ** 18n);
      }
      // A rests a sell on ETH/USDT, B on BTC/USDT.
      const rest = [
        await order(a, { symbol: 'ETH/USDT', side: 'sell', price: price(1), quantity: '0.03' }),
        await order(b, { symbol: 'BTC/USDT', side: 'sell', price: price(0), quantity: '0.001' }),
      ];
      expect(rest.map((r) => r.data?.status)).toEqual(['unfilled', 'unfilled']);
      const before = rebuilds;
      // At once: A buys on BTC/USDT (freezes A's USDT, then settles with B), B on ETH/USDT (the mirror).
      const [ab, ba] = await Promise.all([
        order(a, { symbol: 'BTC/USDT', side: 'buy', price: price(0), quantity: '0.001' }),
        order(b, { symbol: 'ETH/USDT', side: 'buy', price: price(1), quantity: '0.03' }),
      ]);
      expect([ab.status, ba.status, ab.data?.status, ba.data?.status]).toEqual([
        200,
        200,
        'filled',
        'filled',
      ]);
      expect(rebuilds).toBe(before);
    }
    expect(await t.app.spot.checkFrozen()).toEqual([]);
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });

  it('orders crossing on two books at once are all answered, none with a 5xx; the ledger adds up', async () => {
    const traders: Customer[] = [];
    for (let i = 0; i < 12; i++) {
      const c = await customer(t, 'mb');
      await fund(t, c.id, 'USDT', USDT(1_000_000));
      await fund(t, c.id, 'BTC', 10n * 10n ** 8n);
      await fund(t, c.id, 'ETH', 100n * 10n ** 18n);
      traders.push(c);
    }
    const mids = BOOKS.map((b) => Number.parseFloat(t.app.market.priceForTrading(b.symbol).mark));
    // Rounds of 48 orders at once, half on each book, every trader on both, sides alternating within
    // ±0.1 % of the price: about half cross resting orders of other traders (the makers' accounts).
    const rebuiltBefore = rebuilds;
    const answers: Array<{ status: number; code: number; reason?: string }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const batch = Array.from({ length: PER_ROUND }, (_, i) => {
        const b = i % 2;
        const book = BOOKS[b] as (typeof BOOKS)[number];
        const offset = (((i * 7 + round * 5) % 21) - 10) / 10_000;
        return order(traders[(i + round) % traders.length] as Customer, {
          symbol: book.symbol,
          side: (i >> 1) % 2 === 0 ? 'buy' : 'sell',
          price: ((mids[b] as number) * (1 + offset)).toFixed(2),
          quantity: book.quantity,
        });
      });
      answers.push(...(await Promise.all(batch)));
    }
    expect(rebuilds).toBe(rebuiltBefore);
    const failed = answers.filter((a) => a.status >= 500);
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    expect(answers.filter((a) => a.code !== 1)).toEqual([]);
    const trades = await t.db
      .selectFrom('spot_trade')
      .select(['symbol', (eb) => eb.fn.countAll().as('n')])
      .groupBy('symbol')
      .execute();
    // Both books traded: the makers of each were the traders busy on the other.
    for (const b of BOOKS)
      expect(Number(trades.find((r) => r.symbol === b.symbol)?.n ?? 0)).toBeGreaterThan(10);
    expect(await t.app.spot.checkFrozen()).toEqual([]);
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });

  it('a settlement larger than one postBatch locks every account first, in one round', async () => {
    // The ledger posts at most batchEntriesMax entries a call; each call locks its own accounts in id
    // order, but call after call is no one order. One order taking 1,001 resting orders settles
    // 1,001 trade entries: two calls (`postAll`), after one lockAccounts over all of them.
    const makers = LEDGER_LIMITS.batchEntriesMax + 1;
    // Sellers of up to SPOT_LIMITS.openOrdersPerMarketMax resting orders each.
    const perSeller = SPOT_LIMITS.openOrdersPerMarketMax;
    const buyer = await customer(t, 'mbt');
    await fund(t, buyer.id, 'USDT', USDT(1_000_000));
    const price = (Number.parseFloat(t.app.market.priceForTrading('BTC/USDT').mark) * 1.001).toFixed(2);
    for (let from = 0; from < makers; from += perSeller) {
      const seller = await customer(t, 'mbs');
      await fund(t, seller.id, 'BTC', 10n ** 8n);
      const rests = await Promise.all(
        Array.from({ length: Math.min(perSeller, makers - from) }, () =>
          order(seller, { symbol: 'BTC/USDT', side: 'sell', price, quantity: '0.001' }),
        ),
      );
      expect(rests.filter((r) => r.data?.status !== 'unfilled')).toEqual([]);
    }
    const runner = t.app.spot.runner('BTC/USDT', 'real') as unknown as { deps: { ledger: Ledger } };
    const lockAccounts = vi.spyOn(runner.deps.ledger, 'lockAccounts');
    const postBatch = vi.spyOn(runner.deps.ledger, 'postBatch');
    try {
      const taken = await order(buyer, {
        symbol: 'BTC/USDT',
        side: 'buy',
        price,
        quantity: (makers / 1000).toFixed(3),
      });
      expect([taken.status, taken.data?.status]).toEqual([200, 'filled']);
      expect(lockAccounts).toHaveBeenCalledTimes(1);
      // Locked before the first of the settlement's posting calls.
      const settlementPosts = postBatch.mock.invocationCallOrder.filter(
        (n) => n > (lockAccounts.mock.invocationCallOrder[0] as number),
      );
      expect(settlementPosts.length).toBe(2);
      // Every entry of the settlement: the 1,001 trades (and the buyer's release, if any).
      expect(lockAccounts.mock.calls[0]?.[1].length).toBeGreaterThanOrEqual(makers);
    } finally {
      lockAccounts.mockRestore();
      postBatch.mockRestore();
    }
    const trades = await t.db
      .selectFrom('spot_trade')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('taker_customer_id', '=', buyer.id)
      .executeTakeFirstOrThrow();
    expect(Number(trades.n)).toBe(makers);
    expect(await t.app.spot.checkFrozen()).toEqual([]);
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  }, 120_000);
});
