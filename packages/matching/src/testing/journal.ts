import fc from 'fast-check';
import type { BookConfig, Command, StpMode } from '../types.ts';

/**
 * Random command journals for the property tests: small price and size ranges so orders cross,
 * rest, collide with their own users and get amended often; a few invalid values mixed in.
 */
export const configArb: fc.Arbitrary<BookConfig> = fc.record({
  market: fc.constant('TEST-USDT'),
  minQtyLots: fc.integer({ min: 1, max: 2 }),
  maxQtyLots: fc.constant(50),
  maxPriceTicks: fc.constant(1_000),
  maxOpenOrders: fc.integer({ min: 5, max: 40 }),
  band: fc.oneof(
    fc.record({ ticks: fc.integer({ min: 1, max: 6 }) }),
    fc.record({ bps: fc.integer({ min: 1, max: 800 }) }),
  ),
  stpDefault: fc.constantFrom<StpMode>('cancel-taker', 'cancel-maker', 'cancel-both'),
});

export type Intent =
  | {
      t: 'place';
      user: number;
      side: 'buy' | 'sell';
      kind: 'limit' | 'market';
      price: number;
      qty: number;
      tif: 'GTC' | 'IOC' | 'FOK' | undefined;
      postOnly: boolean;
      stp: StpMode | undefined;
      ref: number | undefined;
      reuseId: number | undefined;
    }
  | { t: 'cancel'; target: number; user: number | undefined }
  | { t: 'amend'; target: number; qty: number; user: number | undefined };

export const intentArb: fc.Arbitrary<Intent> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('place' as const),
      user: fc.integer({ min: 0, max: 2 }),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      kind: fc.constantFrom('limit' as const, 'limit' as const, 'limit' as const, 'market' as const),
      price: fc.integer({ min: 95, max: 105 }),
      qty: fc.oneof(
        { weight: 12, arbitrary: fc.integer({ min: 1, max: 12 }) },
        { weight: 1, arbitrary: fc.constantFrom(0, -1, 2.5, 60) },
      ),
      tif: fc.constantFrom(undefined, undefined, 'GTC' as const, 'IOC' as const, 'FOK' as const),
      postOnly: fc.constant(false),
      stp: fc.constantFrom(
        undefined,
        undefined,
        'cancel-taker' as const,
        'cancel-maker' as const,
        'cancel-both' as const,
      ),
      ref: fc.option(fc.integer({ min: 94, max: 106 }), { nil: undefined }),
      reuseId: fc.oneof(
        { weight: 15, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.nat() },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('place' as const),
      user: fc.integer({ min: 0, max: 2 }),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      kind: fc.constant('limit' as const),
      price: fc.integer({ min: 95, max: 105 }),
      qty: fc.integer({ min: 1, max: 8 }),
      tif: fc.constant(undefined),
      postOnly: fc.constant(true),
      stp: fc.constant(undefined),
      ref: fc.constant(undefined),
      reuseId: fc.constant(undefined),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('cancel' as const),
      target: fc.nat(),
      user: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 }) },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('amend' as const),
      target: fc.nat(),
      qty: fc.oneof(
        { weight: 10, arbitrary: fc.integer({ min: 1, max: 12 }) },
        { weight: 1, arbitrary: fc.constantFrom(0, 1.5) },
      ),
      user: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 }) },
      ),
    }),
  },
);

/** Turns intents into a concrete journal: sequence numbers, ids, and targets among ids seen so far. */
export function journalOf(intents: readonly Intent[]): Command[] {
  const ids: Array<{ id: string; user: string }> = [];
  return intents.map((intent, i): Command => {
    const seq = (i + 1) * 2; // gaps are allowed: seq only has to increase
    const timestampMs = 1_700_000_000_000 + i * 7;
    if (intent.t === 'place') {
      const reused =
        intent.reuseId !== undefined && ids.length > 0 ? ids[intent.reuseId % ids.length]! : undefined;
      const orderId = reused?.id ?? `o${i}`;
      const userId = `u${intent.user}`;
      if (!reused) ids.push({ id: orderId, user: userId });
      return {
        type: 'place',
        seq,
        timestampMs,
        orderId,
        userId,
        side: intent.side,
        kind: intent.kind,
        ...(intent.kind === 'limit' ? { priceTicks: intent.price } : {}),
        ...(intent.kind === 'market' && intent.ref !== undefined ? { referencePriceTicks: intent.ref } : {}),
        qtyLots: intent.qty,
        ...(intent.tif !== undefined && !(intent.kind === 'market' && intent.tif === 'GTC')
          ? { tif: intent.tif }
          : {}),
        ...(intent.postOnly ? { postOnly: true } : {}),
        ...(intent.stp !== undefined ? { stp: intent.stp } : {}),
      };
    }
    // Mostly recent ids (likelier to be live), sometimes any id ever used, or one never used.
    const pool = intent.target % 3 === 0 ? ids : ids.slice(-8);
    const target =
      pool.length > 0 && intent.target % 17 !== 0
        ? pool[intent.target % pool.length]!
        : { id: 'nope', user: 'u0' };
    const userId = intent.user === undefined ? target.user : `u${intent.user}`;
    if (intent.t === 'cancel') return { type: 'cancel', seq, timestampMs, orderId: target.id, userId };
    return { type: 'amend', seq, timestampMs, orderId: target.id, userId, qtyLots: intent.qty };
  });
}

export const journalArb = fc.tuple(
  configArb,
  fc.array(intentArb, { minLength: 1, maxLength: 200, size: 'max' }),
);
