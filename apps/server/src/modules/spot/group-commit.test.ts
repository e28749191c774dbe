import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { expectLogLine } from '../../../test/logwatch.ts';
import { customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import type { EntryInput, Ledger } from '../ledger/index.ts';
import type { BookRunner, RunnerDeps } from './runner.ts';

/**
 * Group commit (issue 21 point 4): the orders a book takes together are journaled with their
 * requests' rtoken claims in one transaction, matched, and settled in a second one (each locks its
 * ledger accounts in one round: books sharing customers never deadlock, multibook.test.ts). A failed
 * settlement rebuilds the book, which settles what was journaled exactly once; a deadlock is run again.
 */
let t: TestApp;
let runner: BookRunner;
const SYMBOL = 'BTC/USDT';
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  await t.app.market.step();
  runner = t.app.spot.runner(SYMBOL, 'real');
});
afterAll(async () => t?.close());

const BASE = (n: number) => BigInt(Math.round(n * 1e8));

function order(token: string, fields: Record<string, string>) {
  return call(t.app, { call: 'createOrder', fields: { symbol: SYMBOL, ...fields }, headers: { token } });
}

/** A price inside the band (the tests of spot.test.ts trade BTC there too). */
async function referencePrice(): Promise<number> {
  return 50_000;
}

async function count(table: 'spot_order' | 'spot_journal' | 'spot_trade' | 'http_idempotency') {
  const r = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Replaces the runner's ledger with one whose settlement posting runs `onSettle` first. */
function injectIntoSettlement(onSettle: (call: number) => void): {
  calls: () => number;
  restore: () => void;
} {
  const deps = (runner as unknown as { deps: RunnerDeps }).deps;
  const original: Ledger = deps.ledger;
  let calls = 0;
  deps.ledger = {
    ...original,
    // The settlement posts through postAll (the journal part through postBatch).
    postAll: (tx, entries: readonly EntryInput[]) => {
      if (entries.some((e) => e.reason === 'spot.trade')) {
        calls += 1;
        onSettle(calls);
      }
      return original.postAll(tx, entries);
    },
  };
  return {
    calls: () => calls,
    restore: () => {
      deps.ledger = original;
    },
  };
}

async function invariants() {
  expect(await t.app.spot.checkFrozen()).toEqual([]);
  expect((await ledgerOf(t).verify()).ok).toBe(true);
}

describe('group commit: a journal and a settlement transaction per batch', () => {
  it('forty orders arriving together commit in a few batches, each with its rtoken claim', async () => {
    const price = await referencePrice();
    const buyers = await Promise.all(Array.from({ length: 8 }, (_, i) => customer(t, `gcb${i}`)));
    for (const b of buyers) await fund(t, b.id, 'USDT', USDT(2000));
    const before = { ...runner.stats };
    const claimsBefore = await count('http_idempotency');
    const requests = buyers.flatMap((b, i) =>
      Array.from({ length: 5 }, (_, k) => ({
        token: b.token,
        rtoken: `gc-${i}-${k}-first`,
        price: String(price - 50 - k),
      })),
    );
    const answers = await Promise.all(
      requests.map((r) =>
        order(r.token, { side: 'buy', price: r.price, quantity: '0.001', rtoken: r.rtoken }),
      ),
    );
    expect(answers.map((a) => a.code)).toEqual(requests.map(() => 1));
    const after = runner.stats;
    expect(after.commands - before.commands).toBe(40);
    // The first order starts a batch alone; the rest wait for it and go together.
    expect(after.batches - before.batches).toBeLessThanOrEqual(5);
    expect(await count('http_idempotency')).toBe(claimsBefore + 40);
    // Each rtoken replays its own first answer: the claims committed with the batch.
    const replays = await Promise.all(
      requests.map((r) =>
        order(r.token, { side: 'buy', price: r.price, quantity: '0.001', rtoken: r.rtoken }),
      ),
    );
    expect(replays.map((a) => a.data.order_id)).toEqual(answers.map((a) => a.data.order_id));
    expect(new Set(answers.map((a) => a.data.order_id)).size).toBe(40);
    await invariants();
  });

  it('the claims are written by the orders and journal statement itself, not by one of their own', async () => {
    const price = await referencePrice();
    const buyers = await Promise.all(Array.from({ length: 4 }, (_, i) => customer(t, `gcs${i}`)));
    for (const b of buyers) await fund(t, b.id, 'USDT', USDT(2000));
    // One buy per buyer, each under its own rtoken (sent twice: the second time replays the first).
    const placeAll = () =>
      Promise.all(
        buyers.map((b, i) =>
          order(b.token, {
            side: 'buy',
            price: String(price - 60 - i),
            quantity: '0.001',
            rtoken: `gcs-${i}-one`,
          }),
        ),
      );
    // Every statement any connection of this process sends while the orders run.
    const sent: string[] = [];
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      sent.push(typeof first === 'string' ? first : (first.text ?? ''));
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query;
    let answers: Awaited<ReturnType<typeof order>>[];
    try {
      answers = await placeAll();
    } finally {
      pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
    }
    expect(answers.map((a) => a.code)).toEqual([1, 1, 1, 1]);
    // A claim is recorded `applied` (the answer, `done`, comes after the response is produced).
    const claiming = sent.filter(
      (text) => /insert into http_idempotency/.test(text) && /'applied'/.test(text),
    );
    const journaling = sent.filter((text) => /insert into "spot_journal"/.test(text));
    expect(journaling.length).toBeGreaterThanOrEqual(1);
    expect(claiming.length).toBe(journaling.length);
    expect(claiming.every((text) => journaling.includes(text))).toBe(true);
    // Each rtoken replays its first answer: the claims committed with their batch.
    const replays = await placeAll();
    expect(replays.map((a) => a.data.order_id)).toEqual(answers.map((a) => a.data.order_id));
    await invariants();
  });

  it('a settlement that fails: the journaled order is settled once by the rebuild, its rtoken says applied', async () => {
    const price = await referencePrice();
    const seller = await customer(t, 'gcs');
    await fund(t, seller.id, 'BTC', BASE(1));
    const buyer = await customer(t, 'gcf');
    await fund(t, buyer.id, 'USDT', USDT(1000));
    const ask = await order(seller.token, { side: 'sell', price: String(price + 5), quantity: '0.02' });
    expect(ask.code).toBe(1);
    const counts = {
      orders: await count('spot_order'),
      journal: await count('spot_journal'),
      trades: await count('spot_trade'),
    };
    const seq = runner.engineSeq;
    const injected = injectIntoSettlement((n) => {
      if (n === 1) throw new Error('injected settlement failure');
    });
    expectLogLine(/spot settlement failed; the book was rebuilt and settled what the batch journaled/);
    expectLogLine(/injected settlement failure/, { optional: true });
    const fields = { side: 'buy', price: String(price + 5), quantity: '0.01', rtoken: 'gc-fail-once' };
    let failed: Awaited<ReturnType<typeof order>>;
    try {
      failed = await order(buyer.token, fields);
    } finally {
      injected.restore();
    }
    // The batch's settlement failed once; the rebuild settled what its journal part had committed.
    expect(injected.calls()).toBe(2);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect({
      orders: await count('spot_order'),
      journal: await count('spot_journal'),
      trades: await count('spot_trade'),
    }).toEqual({ orders: counts.orders + 1, journal: counts.journal + 1, trades: counts.trades + 1 });
    expect(runner.engineSeq).toBe(seq + 1);
    const placed = await t.db
      .selectFrom('spot_order')
      .select(['status', 'filled_lots'])
      .where('customer_id', '=', buyer.id)
      .executeTakeFirstOrThrow();
    expect(placed.status).toBe('filled');
    await invariants();
    // Exactly once: the same rtoken is told the request was applied, and nothing more happens.
    const retry = await order(buyer.token, fields);
    expect(retry.reason).toBe('REQUEST_ALREADY_APPLIED');
    expect(await count('spot_trade')).toBe(counts.trades + 1);
    await invariants();
  });

  it('a deadlock in the settlement runs it again as computed: one order, one trade, a gap-free journal', async () => {
    const price = await referencePrice();
    const seller = await customer(t, 'gcd');
    await fund(t, seller.id, 'BTC', BASE(1));
    const buyer = await customer(t, 'gce');
    await fund(t, buyer.id, 'USDT', USDT(1000));
    expect(
      (await order(seller.token, { side: 'sell', price: String(price + 6), quantity: '0.01' })).code,
    ).toBe(1);
    const counts = { orders: await count('spot_order'), trades: await count('spot_trade') };
    const seq = runner.engineSeq;
    const injected = injectIntoSettlement((n) => {
      if (n === 1) throw Object.assign(new Error('injected deadlock'), { code: '40P01' });
    });
    let answer: Awaited<ReturnType<typeof order>>;
    try {
      answer = await order(buyer.token, { side: 'buy', price: String(price + 6), quantity: '0.01' });
    } finally {
      injected.restore();
    }
    expect(injected.calls()).toBe(2);
    expect(answer.code).toBe(1);
    expect(answer.data.status).toBe('filled');
    expect({ orders: await count('spot_order'), trades: await count('spot_trade') }).toEqual({
      orders: counts.orders + 1,
      trades: counts.trades + 1,
    });
    expect(runner.engineSeq).toBe(seq + 1);
    const seqs = await t.db
      .selectFrom('spot_journal')
      .select('seq')
      .where('symbol', '=', SYMBOL)
      .where('book', '=', 'real')
      .orderBy('seq')
      .execute();
    expect(seqs.map((r) => Number(r.seq))).toEqual(seqs.map((_, i) => i + 1));
    await invariants();
  });

  it('an amend moves the funds of the old quotes to the new ones in one batch, cancels first', async () => {
    const c = await customer(t, 'gca');
    // Enough for three bids of 0.001 BTC at about 49,900 (and their fees), not for six.
    await fund(t, c.id, 'USDT', USDT(160));
    const bid = (price: number) => ({
      symbol: SYMBOL,
      side: 'buy' as const,
      type: 'limit' as const,
      price: String(price),
      quantity: '0.001',
      post_only: '1' as const,
    });
    const first = await t.app.spot.amendFor(c.id, 'real', SYMBOL, [bid(49_900), bid(49_890), bid(49_880)]);
    expect([first.cancelled, first.placed.length, first.refused.length]).toEqual([0, 3, 0]);
    const before = runner.stats;
    const seq = runner.engineSeq;
    const second = await t.app.spot.amendFor(c.id, 'real', SYMBOL, [bid(49_905), bid(49_895), bid(49_885)]);
    expect([second.cancelled, second.placed.length, second.refused.map((r) => r.reason)]).toEqual([3, 3, []]);
    // One batch, numbered cancels first: the new bids could freeze only what the old ones released.
    expect(runner.stats.batches - before.batches).toBe(1);
    const journal = await t.db
      .selectFrom('spot_journal')
      .select(['seq', 'command'])
      .where('symbol', '=', SYMBOL)
      .where('book', '=', 'real')
      .where('seq', '>', String(seq))
      .orderBy('seq')
      .execute();
    expect(journal.map((r) => (r.command as { type: string }).type)).toEqual([
      'cancel',
      'cancel',
      'cancel',
      'place',
      'place',
      'place',
    ]);
    const open = [...runner.open.values()]
      .filter((o) => o.customerId === c.id)
      .map((o) => Number(o.priceTicks) / 100);
    expect(open.sort()).toEqual([49_885, 49_895, 49_905]);
    await invariants();
  });

  it('two cancels of one order in the same batch: one cancels it, the other is told it is not open', async () => {
    const c = await customer(t, 'gcx');
    await fund(t, c.id, 'USDT', USDT(200));
    const a = await order(c.token, { side: 'buy', price: '49000', quantity: '0.001' });
    const b = await order(c.token, { side: 'buy', price: '49001', quantity: '0.001' });
    const before = runner.stats;
    // The first cancel starts a batch alone; the two others wait for it and go together.
    const answers = await Promise.allSettled([
      runner.cancel(b.data.order_id, c.id, 'user'),
      runner.cancel(a.data.order_id, c.id, 'user'),
      runner.cancel(a.data.order_id, c.id, 'user'),
    ]);
    expect(runner.stats.batches - before.batches).toBe(2);
    expect(
      answers.map((x) =>
        x.status === 'fulfilled' ? x.value.status : (x.reason as { reason: string }).reason,
      ),
    ).toEqual(['cancelled', 'cancelled', 'ORDER_NOT_OPEN']);
    await invariants();
  });
});
