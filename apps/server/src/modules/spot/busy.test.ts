import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { Refusal } from '../../http/refusal.ts';
import type { OrderState } from './order.ts';

/**
 * Bounded queues (issue 21 point 4): a book that already holds its limit of queued commands refuses
 * the next order at once with `SPOT_BUSY` — nothing journaled, nothing frozen — instead of growing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0, spotQueueMax: 2 });
});
afterAll(async () => {
  await t.close();
});

function order(i: number): OrderState {
  const now = t.clock.now();
  return {
    id: `ord_busy_${i}_${now.getTime()}`,
    customerId: 'usr_nobody_busy',
    symbol: 'BTC/USDT',
    book: 'real',
    clientOid: null,
    side: 'buy',
    type: 'limit',
    tif: 'GTC',
    postOnly: false,
    priceTicks: 100n,
    freezePriceTicks: null,
    qtyLots: 1n,
    filledLots: 0n,
    filledAmount: 0n,
    fee: 0n,
    frozen: 1n,
    frozenCurrency: 'USDT',
    makerRate: '0',
    takerRate: '0',
    status: 'unfilled',
    cancelReason: null,
    seq: 0n,
    createdAt: now,
    updatedAt: now,
  };
}

describe('a spot book queue is bounded', () => {
  it('takes one running batch and queueMax waiting commands, refuses the rest SPOT_BUSY at once', async () => {
    const runner = t.app.spot.runner('BTC/USDT', 'real');
    // Synchronously: the first starts a batch (leaves the queue), two wait, three are refused.
    const answers = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => runner.place({ order: order(i) })),
    );
    const reasons = answers.map((a) =>
      a.status === 'rejected' && a.reason instanceof Refusal ? a.reason.reason : 'other',
    );
    expect(reasons.filter((r) => r === 'SPOT_BUSY')).toHaveLength(3);
    // The others went through the book: an unfunded customer's freeze is refused by the ledger.
    expect(reasons.filter((r) => r === 'INSUFFICIENT_BALANCE')).toHaveLength(3);
    const busy = answers.find(
      (a) => a.status === 'rejected' && a.reason.reason === 'SPOT_BUSY',
    ) as PromiseRejectedResult;
    expect(busy.reason.params).toEqual({ symbol: 'BTC/USDT', seconds: 1 });
    expect(runner.queued).toBe(0);
    // Free again once drained: the next order reaches the book.
    const next = await runner.place({ order: order(9) }).catch((e: Refusal) => e.reason);
    expect(next).toBe('INSUFFICIENT_BALANCE');
  });

  it('a band change goes in between two batches while orders never stop arriving', async () => {
    const runner = t.app.spot.runner('BTC/USDT', 'real');
    let stop = false;
    let answered = 0;
    // Two customers' streams, each sending its next order when the last is answered: the queue is
    // never empty when a batch ends, so a book that waited for its queue to drain would wait for ever.
    const stream = async (k: number) => {
      for (let i = 0; !stop; i++) {
        await runner.place({ order: order(1_000 + k * 100_000 + i) }).catch(() => null);
        answered += 1;
      }
    };
    const streams = [stream(1), stream(2)];
    while (answered < 4) await new Promise((r) => setTimeout(r, 5));
    const band = runner.market.bandBps === 400 ? 450 : 400;
    const seq = runner.engineSeq;
    const changed = runner.reconfigure(band, runner.market.minQtyLots).then(() => 'journaled' as const);
    const outcome = await Promise.race([
      changed,
      new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), 10_000)),
    ]);
    const answeredThen = answered;
    stop = true;
    await Promise.all(streams);
    await changed;
    expect(outcome).toBe('journaled');
    expect(answered).toBeGreaterThan(answeredThen); // the streams were still running
    expect(runner.market.bandBps).toBe(band);
    expect(runner.engineSeq).toBe(seq + 1);
  }, 30_000);

  it("a band change on a broken book rebuilds it first and takes the journal's next number", async () => {
    const runner = t.app.spot.runner('BTC/USDT', 'real');
    await runner.drained();
    const journaled = async () =>
      Number(
        (
          await t.db
            .selectFrom('spot_journal')
            .select((eb) => eb.fn.max('seq').as('seq'))
            .where('symbol', '=', 'BTC/USDT')
            .where('book', '=', 'real')
            .executeTakeFirstOrThrow()
        ).seq,
      );
    const last = await journaled();
    // As a batch that matched in memory, failed to commit and could not be rebuilt leaves it: the
    // sequence past the journal, the book marked broken.
    const inside = runner as unknown as { broken: boolean; seq: number };
    inside.broken = true;
    inside.seq += 3;
    const band = runner.market.bandBps === 400 ? 450 : 400;
    await runner.reconfigure(band, runner.market.minQtyLots);
    expect(await journaled()).toBe(last + 1);
    expect(runner.engineSeq).toBe(last + 1);
    expect(runner.market.bandBps).toBe(band);
    // The book in memory is the journal's: a rebuild from it changes nothing and writes nothing.
    const hash = runner.hash();
    await runner.recover();
    expect(runner.hash()).toBe(hash);
    expect(await journaled()).toBe(last + 1);
  });
});
