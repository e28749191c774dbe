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
});
