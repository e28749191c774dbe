import { closeAll, closePosition } from './close.ts';
import {
  allSettings,
  type ContractsContext,
  type ContractsDeps,
  conversionNow,
  createContext,
  instrumentOf,
  maxLeverageOf,
  pairOf,
} from './context.ts';
import { addMargin } from './margin.ts';
import type { InstrumentInfo } from './math.ts';
import { cancelOrder, open, quote } from './open.ts';
import { closes, contracts, funding, history, orders, positions } from './queries.ts';
import { setTpSl } from './tpsl.ts';
import { closeData, instrumentData, orderData, positionData } from './views.ts';

export type { ContractsDeps, LeverageCaps, RatingCaps } from './context.ts';
export { kindOf } from './views.ts';

/**
 * The customer side of contracts, wired from its parts on one context (context.ts): order intake
 * (open.ts), closing (close.ts), TP/SL (tpsl.ts), margin top-ups (margin.ts), reads (queries.ts) and
 * wire shapes (views.ts). The engine's actions — TP/SL and liquidation triggers, fills, funding,
 * delivery — are the consumer's (consumer.ts).
 */
export function createContractsService(deps: ContractsDeps) {
  const ctx = createContext(deps);
  /** A use case `f(ctx, ...args)` as the service's `f(...args)`. */
  const on =
    <A extends unknown[], R>(f: (c: ContractsContext, ...args: A) => R) =>
    (...args: A): R =>
      f(ctx, ...args);
  return {
    instrument: on(instrumentOf),
    pairOf: (quote: string) => pairOf(deps.market, quote),
    conversionNow: (i: InstrumentInfo) => conversionNow(deps.market, i),
    allSettings: on(allSettings),
    instrumentData: on(instrumentData),
    positionData: on(positionData),
    orderData: on(orderData),
    closeData: on(closeData),
    maxLeverageOf: on(maxLeverageOf),
    contracts: on(contracts),
    quote: on(quote),
    open: on(open),
    cancelOrder: on(cancelOrder),
    close: on(closePosition),
    closeAll: on(closeAll),
    setTpSl: on(setTpSl),
    addMargin: on(addMargin),
    positions: on(positions),
    orders: on(orders),
    history: on(history),
    closes: on(closes),
    funding: on(funding),
  };
}

export type ContractsService = ReturnType<typeof createContractsService>;
