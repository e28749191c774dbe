import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ageCapUnits,
  C2C_EVENTS,
  C2C_ORDER_STATES,
  C2C_TRANSITIONS,
  type C2cEvent,
  type C2cOrderState,
  c2cLimitProblem,
  c2cStep,
  isC2cFinal,
  quoteC2c,
  sameName,
} from './index.ts';

/**
 * C2C orders: the transition table against a list written out again here, then fast-check over
 * random event sequences (a naive ledger of the seller, the buyer and the escrow replays every move):
 * only listed transitions happen, nothing goes from paid to expired, escrow in = escrow out for
 * every order that ends, and no coin is created.
 */
const SEED = Number(process.env.PROPERTY_SEED ?? 20261210);
const RUNS = { seed: SEED, numRuns: 500 };
const U = 100_000_000n;

/** The allowed transitions, written out by hand (from → event → to). */
const LISTED: ReadonlyArray<[C2cOrderState, C2cEvent, C2cOrderState]> = [
  ['pending_match', 'match', 'matched'],
  ['matched', 'mark_paid', 'paid'],
  ['matched', 'cancel', 'cancelled'],
  ['matched', 'expire', 'expired'],
  ['paid', 'confirm', 'completed'],
  ['paid', 'dispute', 'disputed'],
  ['paid', 'confirm_deadline', 'disputed'],
  ['disputed', 'decide_release', 'completed'],
  ['disputed', 'decide_return', 'rejected'],
];

describe('the transition table', () => {
  it('holds exactly the listed transitions', () => {
    const found: Array<[C2cOrderState, C2cEvent, C2cOrderState]> = [];
    for (const s of C2C_ORDER_STATES)
      for (const e of C2C_EVENTS) {
        const step = c2cStep(s, e);
        if (step) found.push([s, e, step.to]);
      }
    expect(found).toEqual(LISTED);
  });

  it('final states have no way out', () => {
    for (const s of C2C_ORDER_STATES) if (isC2cFinal(s)) expect(Object.keys(C2C_TRANSITIONS[s])).toEqual([]);
  });

  it('no state reachable from paid is expired', () => {
    const seen = new Set<C2cOrderState>(['paid']);
    const todo: C2cOrderState[] = ['paid'];
    while (todo.length > 0) {
      const s = todo.pop() as C2cOrderState;
      for (const e of C2C_EVENTS) {
        const to = c2cStep(s, e)?.to;
        if (to && !seen.has(to)) {
          seen.add(to);
          todo.push(to);
        }
      }
    }
    expect(seen.has('expired')).toBe(false);
    expect(seen.has('cancelled')).toBe(false);
  });
});

type World = { seller: bigint; buyer: bigint; escrow: bigint };

describe('random event sequences', () => {
  it('only listed transitions, never paid → expired, escrow in = escrow out, no coin created', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.array(fc.constantFrom(...C2C_EVENTS), { maxLength: 30 }),
        (amount, events) => {
          const w: World = { seller: amount * 3n, buyer: 0n, escrow: 0n };
          const total = w.seller;
          let state: C2cOrderState = 'pending_match';
          let inUnits = 0n;
          let outUnits = 0n;
          let wasPaid = false;
          for (const e of events) {
            const step = c2cStep(state, e);
            if (!step) continue; // refused: nothing changes
            expect(LISTED).toContainEqual([state, e, step.to]);
            if (step.move === 'escrow_in') {
              w.seller -= amount;
              w.escrow += amount;
              inUnits += amount;
            } else if (step.move === 'release_to_buyer') {
              w.escrow -= amount;
              w.buyer += amount;
              outUnits += amount;
            } else if (step.move === 'return_to_seller') {
              w.escrow -= amount;
              w.seller += amount;
              outUnits += amount;
            }
            if (step.to === 'paid') wasPaid = true;
            if (wasPaid) expect(['expired', 'cancelled']).not.toContain(step.to);
            state = step.to;
            expect(w.escrow).toBeGreaterThanOrEqual(0n);
            expect(w.seller + w.buyer + w.escrow).toBe(total);
          }
          if (isC2cFinal(state)) {
            expect(outUnits).toBe(inUnits);
            expect(w.escrow).toBe(0n);
          } else expect(w.escrow).toBe(inUnits - outUnits);
          expect(inUnits).toBeLessThanOrEqual(amount);
        },
      ),
      RUNS,
    );
  });
});

describe('quotes', () => {
  it('fixed price: 100 USDT at 7.1 CNY is 710.00 CNY', () => {
    const q = quoteC2c({
      side: 'buy',
      pricing: { kind: 'fixed', priceUnits: 710_000_000n },
      coinUnits: 100n * U,
      coinScale: 8,
    });
    expect(q).toEqual({ priceUnits: 710_000_000n, fiatCents: 71_000n });
  });

  it('spread: 7.2 +50 bps = 7.236; the rounding favours the orderer', () => {
    const pricing = { kind: 'spread' as const, spreadBps: 50n, feedPriceUnits: 720_000_000n };
    expect(quoteC2c({ side: 'buy', pricing, coinUnits: U, coinScale: 8 }).priceUnits).toBe(723_600_000n);
    const odd = { kind: 'fixed' as const, priceUnits: 712_345_678n };
    expect(quoteC2c({ side: 'buy', pricing: odd, coinUnits: U, coinScale: 8 }).fiatCents).toBe(712n);
    expect(quoteC2c({ side: 'sell', pricing: odd, coinUnits: U, coinScale: 8 }).fiatCents).toBe(713n);
  });

  it('is exact within one cent of the rational value, in the orderer\u2019s favour', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.bigInt({ min: 10n, max: 10n ** 11n }),
        fc.bigInt({ min: -2_000n, max: 2_000n }),
        fc.constantFrom('buy' as const, 'sell' as const),
        (coinUnits, feed, bps, side) => {
          const q = quoteC2c({
            side,
            pricing: { kind: 'spread', spreadBps: bps, feedPriceUnits: feed },
            coinUnits,
            coinScale: 8,
          });
          // exact fiat × 10^14: coins × price (the price itself already rounded)
          const exact = coinUnits * q.priceUnits;
          const cents = q.fiatCents * 10n ** 14n;
          if (side === 'buy') expect(cents <= exact && exact - cents < 10n ** 14n).toBe(true);
          else expect(cents >= exact && cents - exact < 10n ** 14n).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('refuses nonsense', () => {
    const pricing = { kind: 'fixed' as const, priceUnits: 1n };
    expect(() => quoteC2c({ side: 'buy', pricing, coinUnits: 0n, coinScale: 8 })).toThrow(RangeError);
    expect(() =>
      quoteC2c({
        side: 'buy',
        pricing: { kind: 'spread', spreadBps: 2_001n, feedPriceUnits: 1n },
        coinUnits: 1n,
        coinScale: 8,
      }),
    ).toThrow(RangeError);
  });
});

describe('limits', () => {
  const base = {
    offerMinUnits: 10n * U,
    offerMaxUnits: 500n * U,
    offerRemainingUnits: 300n * U,
    methodMaxUnits: 200n * U,
    accountAgeDays: 3,
  };
  it('names the first rule broken, in the published order', () => {
    expect(c2cLimitProblem({ ...base, coinUnits: 5n * U })).toEqual({
      rule: 'offer_min',
      limitUnits: 10n * U,
    });
    expect(c2cLimitProblem({ ...base, coinUnits: 600n * U })).toEqual({
      rule: 'offer_max',
      limitUnits: 500n * U,
    });
    expect(c2cLimitProblem({ ...base, coinUnits: 400n * U })?.rule).toBe('offer_remaining');
    expect(c2cLimitProblem({ ...base, coinUnits: 250n * U })?.rule).toBe('method_max');
    expect(c2cLimitProblem({ ...base, coinUnits: 150n * U, accountAgeDays: 40 })).toBeNull();
    expect(c2cLimitProblem({ ...base, coinUnits: 150n * U })).toBeNull();
  });
  it('the last amount below the minimum may be taken whole', () => {
    const last = { ...base, offerRemainingUnits: 4n * U };
    expect(c2cLimitProblem({ ...last, coinUnits: 4n * U })).toBeNull();
    expect(c2cLimitProblem({ ...last, coinUnits: 3n * U })?.rule).toBe('offer_min');
  });
  it('account age bands', () => {
    expect(ageCapUnits(0)).toBe(1_000n * U);
    expect(ageCapUnits(7)).toBe(10_000n * U);
    expect(ageCapUnits(30)).toBeNull();
    expect(
      c2cLimitProblem({
        ...base,
        methodMaxUnits: null,
        offerMaxUnits: 5_000n * U,
        offerRemainingUnits: 5_000n * U,
        coinUnits: 2_000n * U,
      }),
    ).toEqual({
      rule: 'account_age',
      limitUnits: 1_000n * U,
    });
  });
  it('never accepts more than what remains', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (a, r) => {
          const p = c2cLimitProblem({
            ...base,
            offerMinUnits: 1n,
            offerMaxUnits: 10n ** 13n,
            methodMaxUnits: null,
            accountAgeDays: 99,
            offerRemainingUnits: r,
            coinUnits: a,
          });
          if (p === null) expect(a <= r).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

describe('payer names', () => {
  it('equal up to case and spaces, nothing else', () => {
    expect(sameName('Chan Tai Man', '  CHAN  tai man ')).toBe(true);
    expect(sameName('Chan Tai Man', 'Chan Tai-Man')).toBe(false);
    expect(sameName('', '')).toBe(false);
    expect(sameName('陈大文', '陈大文')).toBe(true);
  });
});
