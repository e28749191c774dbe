import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { expectLogLine } from '../../../test/logwatch.ts';
import { Refusal } from '../../http/refusal.ts';
import { customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import type { EntryInput, Ledger } from '../ledger/index.ts';
import { settledSeqOf } from './repo.ts';
import type { BookRunner, RunnerDeps } from './runner.ts';

/**
 * Group commit (issue 21 point 4): the orders a book takes together are journaled with their
 * requests' rtoken claims in one transaction, matched after it commits, and settled in the book's next
 * transaction, which journals the next batch (one ledger call, its accounts locked in one round: books
 * sharing customers never deadlock, multibook.test.ts). A failed settlement rebuilds the book, which
 * settles what was journaled exactly once; a deadlock is run again.
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

type Customer = Awaited<ReturnType<typeof customer>>;
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
    // A settlement posts through postAll (with the next batch's freezes, or alone).
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

/**
 * Replaces the runner's ledger with one that holds the first journal part made of freezes alone
 * until `release()` (a second batch can then queue behind it), and runs `onFused` before each ledger
 * call that both settles a batch and freezes the next one's orders.
 */
function holdFirstJournal(onFused: () => void = () => {}): {
  held: () => boolean;
  release: () => void;
  restore: () => void;
} {
  const deps = (runner as unknown as { deps: RunnerDeps }).deps;
  const original: Ledger = deps.ledger;
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let held = false;
  deps.ledger = {
    ...original,
    postAll: async (tx, entries: readonly EntryInput[], options) => {
      const trades = entries.some((e) => e.reason === 'spot.trade');
      const freezes = entries.some((e) => e.reason === 'spot.freeze');
      if (freezes && !trades && !held) {
        held = true;
        await gate;
      }
      if (trades && freezes) onFused();
      return original.postAll(tx, entries, options);
    },
  };
  return {
    held: () => held,
    release: () => release(),
    restore: () => {
      deps.ledger = original;
      release();
    },
  };
}

/** A seller with 1 BTC resting `quantity` at `price`, and `n` buyers with 1,000 USDT each. */
async function askAndBuyers(tag: string, price: number, quantity: string, n = 1) {
  const seller = await customer(t, `${tag}s`);
  await fund(t, seller.id, 'BTC', BASE(1));
  const buyers: Customer[] = [];
  for (let i = 0; i < n; i++) {
    const buyer = await customer(t, `${tag}b${i}`);
    await fund(t, buyer.id, 'USDT', USDT(1000));
    buyers.push(buyer);
  }
  const ask = await order(seller.token, { side: 'sell', price: String(price), quantity });
  expect(ask.code).toBe(1);
  return { seller, buyers };
}

async function invariants() {
  expect(await t.app.spot.checkFrozen()).toEqual([]);
  expect((await ledgerOf(t).verify()).ok).toBe(true);
}

describe('group commit: one transaction per batch, settling the batch before', () => {
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

  it('one transaction per batch: a batch settles in the transaction that journals the next one', async () => {
    const price = await referencePrice();
    const seller = await customer(t, 'gcp');
    await fund(t, seller.id, 'BTC', BASE(1));
    const buyers = await Promise.all(Array.from({ length: 6 }, (_, i) => customer(t, `gcp${i}`)));
    for (const b of buyers) await fund(t, b.id, 'USDT', USDT(2000));
    // Resting asks the buyers take: the settlements carry trades.
    for (let k = 0; k < 6; k++)
      expect(
        (await order(seller.token, { side: 'sell', price: String(price + 20 + k), quantity: '0.002' })).code,
      ).toBe(1);
    // Every statement each connection of this process sends, in order, while the orders run.
    const byClient = new Map<pg.Client, string[]>();
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      const list = byClient.get(this) ?? [];
      byClient.set(this, list);
      list.push(typeof first === 'string' ? first : (first.text ?? ''));
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query;
    const before = { ...runner.stats };
    let answers: Awaited<ReturnType<typeof order>>[];
    try {
      answers = await Promise.all(
        buyers.flatMap((b, i) =>
          Array.from({ length: 4 }, (_, k) =>
            order(b.token, {
              side: 'buy',
              price: String(k === 0 ? price + 30 : price - 70 - i),
              quantity: '0.001',
            }),
          ),
        ),
      );
    } finally {
      pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
    }
    expect(answers.map((a) => a.code)).toEqual(answers.map(() => 1));
    expect(answers.filter((a) => a.data.status === 'filled').length).toBe(6);
    const batches = runner.stats.batches - before.batches;
    // The book's transactions: those that journal (insert into spot_journal) or settle (the cursor).
    const transactions: string[][] = [];
    for (const statements of byClient.values()) {
      let open: string[] | null = null;
      for (const text of statements) {
        if (/^\s*begin/i.test(text)) open = [];
        else if (/^\s*(commit|rollback)/i.test(text)) {
          if (open) transactions.push(open);
          open = null;
        } else open?.push(text);
      }
    }
    const journals = (tx: string[]) => tx.some((text) => /insert into "spot_journal"/.test(text));
    const settles = (tx: string[]) => tx.some((text) => /insert into spot_cursor/.test(text));
    const book = transactions.filter((tx) => journals(tx) || settles(tx));
    // Batches overlapped (the first went alone, the rest queued behind it), so some transaction
    // settled one batch and journaled the next; with two transactions a batch this never happens.
    expect(batches).toBeGreaterThanOrEqual(2);
    expect(book.filter((tx) => journals(tx) && settles(tx)).length).toBeGreaterThanOrEqual(1);
    // One transaction per batch, and one more that settles the last batch alone.
    expect(book.length).toBe(batches + 1);
    await invariants();
  });

  it('a settlement that fails: the journaled order is settled once by the rebuild, its rtoken says applied', async () => {
    const price = await referencePrice();
    const [buyer] = (await askAndBuyers('gcf', price + 5, '0.02')).buyers as [Customer];
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

  it("a transaction that fails with a batch's settlement and the next one's journal: the first is settled by the rebuild, the second written nowhere", async () => {
    const price = await referencePrice();
    const [first, second] = (await askAndBuyers('gcx', price + 7, '0.01', 2)).buyers as [Customer, Customer];
    const counts = { orders: await count('spot_order'), trades: await count('spot_trade') };
    // The first order's journal part waits (its freeze alone) until the second is queued behind it;
    // the next transaction, the first's settlement with the second's freeze, fails.
    let failedCalls = 0;
    const hold = holdFirstJournal(() => {
      failedCalls += 1;
      throw new Error('injected failure of a settlement and a journal');
    });
    expectLogLine(/spot settlement failed; the book was rebuilt and settled what the batch journaled/);
    expectLogLine(/injected failure of a settlement and a journal/, { optional: true });
    const a = { side: 'buy', price: String(price + 7), quantity: '0.01', rtoken: 'gcx-first' };
    const b = { side: 'buy', price: String(price - 80), quantity: '0.01', rtoken: 'gcx-second' };
    let answers: Awaited<ReturnType<typeof order>>[];
    try {
      const firstAnswer = order(first.token, a);
      await expect.poll(hold.held, { timeout: 10_000 }).toBe(true);
      const secondAnswer = order(second.token, b);
      await expect.poll(() => runner.queued, { timeout: 10_000 }).toBe(1);
      hold.release();
      answers = await Promise.all([firstAnswer, secondAnswer]);
    } finally {
      hold.restore();
    }
    expect(failedCalls).toBe(1);
    expect(answers.map((x) => x.status >= 500)).toEqual([true, true]);
    // The first order was journaled: the rebuild settled it, once. The second left nothing.
    expect({ orders: await count('spot_order'), trades: await count('spot_trade') }).toEqual({
      orders: counts.orders + 1,
      trades: counts.trades + 1,
    });
    const rows = await t.db
      .selectFrom('spot_order')
      .select(['customer_id', 'status'])
      .where('customer_id', 'in', [first.id, second.id])
      .execute();
    expect(rows).toEqual([{ customer_id: first.id, status: 'filled' }]);
    await invariants();
    // Exactly once: the first request was applied; the second, sent again, is placed now.
    expect((await order(first.token, a)).reason).toBe('REQUEST_ALREADY_APPLIED');
    const again = await order(second.token, b);
    expect(again.code).toBe(1);
    expect(again.data.status).toBe('unfilled');
    expect(await count('spot_trade')).toBe(counts.trades + 1);
    await invariants();
  });

  it('a cancel of an order the batch before filled in part: its settlement and its release are one statement, the row holds nothing after', async () => {
    // Below every ask the other tests leave resting (their bids are far below): the buy takes this one.
    const price = await referencePrice();
    const seller = await customer(t, 'gcz');
    await fund(t, seller.id, 'BTC', BASE(1));
    const buyer = await customer(t, 'gczb');
    await fund(t, buyer.id, 'USDT', USDT(1000));
    const ask = await order(seller.token, { side: 'sell', price: String(price + 2), quantity: '0.02' });
    expect(ask.code).toBe(1);
    const askId = String(ask.data.order_id);
    // The buy's journal part waits (its freeze alone) until the cancel is queued behind it: the
    // next transaction carries the buy's settlement (the ask half filled) and the cancel's release.
    const deps = (runner as unknown as { deps: RunnerDeps }).deps;
    const hold = holdFirstJournal();
    const sent: string[] = [];
    // What the ask's row holds as each of the book's transactions begins: what the one before committed.
    const holds: string[] = [];
    const fence = deps.fence;
    deps.fence = async (tx) => {
      await fence?.(tx);
      if (!hold.held()) return;
      const r = await t.db
        .selectFrom('spot_order')
        .select('frozen_units')
        .where('id', '=', askId)
        .executeTakeFirst();
      holds.push(String(r?.frozen_units));
    };
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    let answers: Awaited<ReturnType<typeof order>>[];
    try {
      const buy = order(buyer.token, { side: 'buy', price: String(price + 2), quantity: '0.01' });
      await expect.poll(hold.held, { timeout: 10_000 }).toBe(true);
      const cancel = call(t.app, {
        call: 'cancelOrder',
        fields: { order_id: askId, rtoken: 'gcz-cancel-ask' },
        headers: { token: seller.token },
      });
      await expect.poll(() => runner.queued, { timeout: 10_000 }).toBe(1);
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const first = args[0] as string | { text?: string };
        sent.push(typeof first === 'string' ? first : (first.text ?? ''));
        return query.apply(this, args);
      } as typeof pg.Client.prototype.query;
      hold.release();
      answers = await Promise.all([buy, cancel]);
    } finally {
      pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
      hold.restore();
      if (fence) deps.fence = fence;
      else delete deps.fence;
    }
    expect(answers.map((a) => a.code)).toEqual([1, 1]);
    // The fused transaction's commit already left the ask holding nothing (the transaction after it,
    // which writes the cancel's settlement, began with that): rows and ledger agree at every commit.
    expect(holds.length).toBeGreaterThanOrEqual(2);
    expect(holds.at(-1)).toBe('0');
    expect(answers[0]?.data.status).toBe('filled');
    // One statement updated the ask's row for the fill and zeroed what it holds for the cancel.
    const fused = sent.filter(
      (text) => /settled_orders as \(/.test(text) && /insert into "spot_journal"/.test(text),
    );
    expect(fused.length).toBeGreaterThanOrEqual(1);
    const row = await t.db
      .selectFrom('spot_order')
      .select(['status', 'filled_lots', 'frozen_units'])
      .where('id', '=', askId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('cancelled');
    expect(String(row.frozen_units)).toBe('0');
    expect(Number(row.filled_lots)).toBeGreaterThan(0);
    await invariants();
  });

  it('the book moves away with a batch journaled and not settled: its requests are told so, the next owner settles it once', async () => {
    const price = await referencePrice();
    const [buyer] = (await askAndBuyers('gcm', price + 8, '0.01')).buyers as [Customer];
    const counts = { orders: await count('spot_order'), trades: await count('spot_trade') };
    const seq = runner.engineSeq;
    // The lease is lost while the order's journal part runs: its settlement is never this process's.
    const deps = (runner as unknown as { deps: RunnerDeps }).deps;
    const original: Ledger = deps.ledger;
    let moved = false;
    deps.owner = () => (moved ? new Refusal('SPOT_BOOK_MOVED', { symbol: SYMBOL, seconds: 1 }) : null);
    deps.ledger = {
      ...original,
      postAll: (tx, entries: readonly EntryInput[], options) => {
        if (entries.some((e) => e.reason === 'spot.freeze')) moved = true;
        return original.postAll(tx, entries, options);
      },
    };
    const fields = { side: 'buy', price: String(price + 8), quantity: '0.01', rtoken: 'gcm-moved' };
    let answer: Awaited<ReturnType<typeof order>>;
    try {
      answer = await order(buyer.token, fields);
    } finally {
      deps.ledger = original;
    }
    expect(answer.status).toBe(503);
    expect(answer.reason).toBe('SPOT_BOOK_MOVED');
    // Journaled, not settled: the order's row is there, no trade yet.
    expect({ orders: await count('spot_order'), trades: await count('spot_trade') }).toEqual({
      orders: counts.orders + 1,
      trades: counts.trades,
    });
    expect(await settledSeqOf(t.db, SYMBOL, 'real')).toBe(seq);
    // The book comes back (as a new owner would take it: recovery first), settling the batch once.
    moved = false;
    delete deps.owner;
    expect((await runner.recover()).settled).toBe(1);
    expect(runner.engineSeq).toBe(seq + 1);
    expect(await count('spot_trade')).toBe(counts.trades + 1);
    await invariants();
    const retry = await order(buyer.token, fields);
    expect(retry.reason).toBe('REQUEST_ALREADY_APPLIED');
    expect(await count('spot_trade')).toBe(counts.trades + 1);
    await invariants();
  });

  it('a deadlock in the settlement runs it again as computed: one order, one trade, a gap-free journal', async () => {
    const price = await referencePrice();
    const [buyer] = (await askAndBuyers('gcd', price + 6, '0.01')).buyers as [Customer];
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
