import { baseUnits, notionalUnits, parseRate, qtyText, spotFee } from '@bourse/risk';
import { inTransaction, type Tx } from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { PostingInput } from '../ledger/index.ts';
import type { FundsDeps, SpotFill } from './context.ts';
import { CASH, lotsOf, planBuy, priceTicksUp } from './plan.ts';
import type { LegRow, OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import type { StoredRefusal } from './tables.ts';

/**
 * One trade (leg) of an ETF order, through the customer's own spot account, in three steps each
 * exactly once:
 *  1. move what the trade needs out of the order's earn holding into spot (`fund.trade.out`, key
 *     `fund:out:<leg>`): for a buy the USDT its freeze needs, for a sell the quantity; leg → funded / released;
 *  2. the spot order (`spot.placeFor`, market, client_oid = the leg id: a retry answers the same order);
 *  3. move the result back into the order (`fund.trade.in`, key `fund:in:<leg>`): what a buy bought
 *     and the USDT it did not spend; what a rebalance sale received and what it did not sell. A
 *     redemption's sale leaves its proceeds in spot (they are the customer's, paid back).
 * A crash between steps resumes at the leg's state; the keys and the client_oid make each step once.
 */

/** Headroom over the reference price for a buy's freeze (spot freezes at the band limit of the mark then). */
const FUND_MARGIN_BPS = 100n;

function earnFrozen(o: OrderRow, asset: string, amountUnits: bigint): PostingInput {
  return {
    account: { book: o.book, customerId: o.customer_id, accountType: 'earn' },
    currency: asset,
    bucket: 'frozen',
    amountUnits,
  };
}
function spotAvailable(o: OrderRow, asset: string, amountUnits: bigint): PostingInput {
  return {
    account: { book: o.book, customerId: o.customer_id, accountType: 'spot' },
    currency: asset,
    amountUnits,
  };
}

/** Moves `units` of `asset` between the order's earn holding and the customer's spot account (+: into spot). */
export async function move(
  deps: FundsDeps,
  tx: Tx,
  o: OrderRow,
  moves: Array<{ asset: string; toSpot: bigint }>,
  entry: { reason: string; key: string; reference: string },
): Promise<void> {
  const postings: PostingInput[] = [];
  for (const m of moves) {
    if (m.toSpot === 0n) continue;
    postings.push(earnFrozen(o, m.asset, -m.toSpot), spotAvailable(o, m.asset, m.toSpot));
    await repo.addHolding(tx, o.id, m.asset, -m.toSpot);
  }
  if (postings.length === 0) return;
  await deps.ledger.post(tx, {
    reason: entry.reason,
    reference: { type: 'fund_order', id: entry.reference },
    idempotencyKey: entry.key,
    postings,
  });
}

/** What the customer's spot account holds available of `asset` (locked for the caller's transaction). */
async function spotHeld(deps: FundsDeps, tx: Tx, o: OrderRow, asset: string): Promise<bigint> {
  const b = await deps.ledger.balance(tx, {
    book: o.book,
    customerId: o.customer_id,
    accountType: 'spot',
    currency: asset,
    lock: true,
  });
  return b.availableUnits;
}

async function heldInOrder(tx: Tx, orderId: string, asset: string): Promise<bigint> {
  const rows = await repo.holdings(tx, [orderId]);
  return BigInt(rows.find((r) => r.asset === asset)?.quantity_units ?? '0');
}

/** Step 1 of a buy: the USDT its freeze needs, at most the order's cash (the quantity shrinks to fit). */
async function fundBuy(deps: FundsDeps, o: OrderRow, l: LegRow): Promise<void> {
  const m = deps.spot.market(l.symbol);
  await inTransaction(deps.db, async (tx) => {
    const leg = await repo.leg(tx, l.id, { lock: true });
    if (leg?.state !== 'planned') return;
    const cash = await heldInOrder(tx, o.id, CASH);
    const mark = deps.market.ticker(l.symbol).mark;
    const ticks = priceTicksUp(m.math, mark);
    const band = ticks + (ticks * (BigInt(m.priceBandBps) + FUND_MARGIN_BPS) + 9_999n) / 10_000n;
    const rate = parseRate(m.takerFeeRate);
    const needOf = (lots: bigint) => {
      const v = notionalUnits(m.math, band, lots);
      return v + spotFee(v, rate) + 1n;
    };
    let lots = lotsOf(m, BigInt(leg.quantity_units));
    if (needOf(lots) > cash) {
      // Not enough cash for the freeze at the band: buy what the cash can freeze for.
      const fit = planBuy(m, cash - 1n, bandPrice(m, band));
      lots = fit.qtyLots;
    }
    if (lots === 0n || lots < m.minQtyLots) {
      await repo.updateLeg(tx, leg.id, {
        state: 'skipped',
        quantity_units: '0',
        refusal: {
          code: 'FUNDS_LEG_TOO_SMALL',
          params: { symbol: l.symbol, min: qtyText(m.math, m.minQtyLots) },
        },
        updated_at: deps.clock.now(),
      });
      return;
    }
    const funded = needOf(lots);
    await move(deps, tx, o, [{ asset: CASH, toSpot: funded }], {
      reason: 'fund.trade.out',
      key: `fund:out:${leg.id}`,
      reference: o.id,
    });
    await repo.updateLeg(tx, leg.id, {
      state: 'funded',
      quantity_units: baseUnits(m.math, lots).toString(),
      funded_units: funded.toString(),
      updated_at: deps.clock.now(),
    });
  });
}

function bandPrice(m: ReturnType<FundsDeps['spot']['market']>, ticks: bigint): string {
  const units = ticks * m.math.tickUnits;
  const s = units.toString().padStart(m.math.priceScale + 1, '0');
  return m.math.priceScale === 0 ? s : `${s.slice(0, -m.math.priceScale)}.${s.slice(-m.math.priceScale)}`;
}

/** Step 1 of a sale: the quantity out of the order's holding into spot. */
async function releaseSell(deps: FundsDeps, o: OrderRow, l: LegRow): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const leg = await repo.leg(tx, l.id, { lock: true });
    if (leg?.state !== 'planned') return;
    await move(deps, tx, o, [{ asset: leg.asset, toSpot: BigInt(leg.quantity_units) }], {
      reason: leg.phase === 'redeem' ? 'fund.redeem' : 'fund.trade.out',
      key: `fund:out:${leg.id}`,
      reference: o.id,
    });
    await repo.updateLeg(tx, leg.id, { state: 'released', updated_at: deps.clock.now() });
  });
}

/** Step 2: the market order through the spot books; a refusal is the leg's outcome, not an error. */
async function place(deps: FundsDeps, o: OrderRow, l: LegRow): Promise<SpotFill | StoredRefusal> {
  const m = deps.spot.market(l.symbol);
  try {
    return await deps.spot.placeFor(o.customer_id, o.book, {
      symbol: l.symbol,
      side: l.side,
      type: 'market',
      quantity: qtyText(m.math, lotsOf(m, BigInt(l.quantity_units))),
      client_oid: l.id,
    });
  } catch (error) {
    // Any refusal of the spot order path (halted market, kill switch, stale price, no balance …)
    // ends the leg with that reason; anything else is a fault and the job retries the leg.
    if (!(error instanceof Refusal)) throw error;
    return { code: error.reason, params: { ...error.params } as StoredRefusal['params'] };
  }
}

/** Step 3: the result back into the order (what the spot account no longer holds is capped, never overdrawn). */
async function settle(
  deps: FundsDeps,
  o: OrderRow,
  l: LegRow,
  fill: SpotFill | StoredRefusal,
): Promise<void> {
  const m = deps.spot.market(l.symbol);
  const filled = 'id' in fill ? baseUnits(m.math, fill.filledLots) : 0n;
  const value = 'id' in fill ? fill.filledAmount : 0n;
  const fee = 'id' in fill ? fill.fee : 0n;
  await inTransaction(deps.db, async (tx) => {
    const leg = await repo.leg(tx, l.id, { lock: true });
    if (!leg || (leg.state !== 'funded' && leg.state !== 'released')) return;
    const back: Array<{ asset: string; toSpot: bigint }> = [];
    if (leg.side === 'buy') {
      const unspent = BigInt(leg.funded_units) - value - fee;
      back.push({ asset: leg.asset, toSpot: -min(filled, await spotHeld(deps, tx, o, leg.asset)) });
      back.push({
        asset: CASH,
        toSpot: -min(unspent > 0n ? unspent : 0n, await spotHeld(deps, tx, o, CASH)),
      });
    } else if (leg.phase === 'rebalance') {
      const proceeds = value - fee;
      const unsold = BigInt(leg.quantity_units) - filled;
      back.push({ asset: CASH, toSpot: -min(proceeds, await spotHeld(deps, tx, o, CASH)) });
      back.push({ asset: leg.asset, toSpot: -min(unsold, await spotHeld(deps, tx, o, leg.asset)) });
    }
    await move(deps, tx, o, back, { reason: 'fund.trade.in', key: `fund:in:${leg.id}`, reference: o.id });
    const refusal = 'id' in fill ? null : fill;
    await repo.updateLeg(tx, leg.id, {
      state: filled === 0n ? 'failed' : filled < BigInt(leg.quantity_units) ? 'partial' : 'filled',
      spot_order_id: 'id' in fill ? fill.id : null,
      filled_units: filled.toString(),
      value_units: value.toString(),
      fee_units: fee.toString(),
      refusal:
        refusal ??
        (filled === 0n && 'id' in fill
          ? { code: 'FUNDS_LEG_NOT_FILLED', params: { symbol: leg.symbol } }
          : null),
      updated_at: deps.clock.now(),
    });
  });
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** Runs one leg from its state to its end (planned → funded/released → filled/partial/failed). */
export async function runLeg(deps: FundsDeps, o: OrderRow, l: LegRow): Promise<void> {
  if (l.state === 'planned') {
    if (l.side === 'buy') await fundBuy(deps, o, l);
    else await releaseSell(deps, o, l);
  }
  const now = await repo.leg(deps.db, l.id);
  if (!now || (now.state !== 'funded' && now.state !== 'released')) return;
  const fill = await place(deps, o, now);
  await settle(deps, o, now, fill);
}
