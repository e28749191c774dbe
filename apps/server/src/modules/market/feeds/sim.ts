import { parseUnitsOrThrow } from '@bourse/money';
import type { AssetClass } from '@bourse/protocol';
import { type Instrument, QTY_SCALE } from '../instrument.ts';
import { createPrng, hashUnit, type Prng } from '../prng.ts';
import { isOpenAt } from '../schedule.ts';
import { type FeedTick, midTicks, type PriceFeed } from './types.ts';

/**
 * The simulated feed (the default, labelled SIMULATED in the app). Each instrument's mid price
 * follows a mean-reverting geometric random walk in tick space (log-price Ornstein–Uhlenbeck,
 * pulled slowly towards the catalogue's reference price so a long-running demo stays realistic),
 * with a per-class volatility, a spread around the mid and a random traded size.
 *
 * Deterministic: instrument i's ticks depend only on FEED_SEED, its symbol, its starting price
 * and the times it is polled at. Closed markets (trading hours) produce nothing and do not move;
 * the first poll after the open carries the gap since the close. Floats appear only in drawing
 * the random move; every price it reports is a whole number of ticks.
 */
type ClassParams = {
  /** Annualised volatility of the mid. */
  vol: number;
  /** Full bid/ask spread in basis points of the mid (at least one tick each side). */
  spreadBps: number;
  /** Chance an open instrument ticks on a poll (a tick is forced after SIM_LIMITS.maxSilenceMs). */
  activity: number;
  /** Typical traded value per print, in quote units. */
  notional: number;
};

export const SIM_CLASS_PARAMS: Readonly<Record<AssetClass, ClassParams>> = {
  crypto_spot: { vol: 0.65, spreadBps: 2, activity: 0.8, notional: 4_000 },
  crypto_perp: { vol: 0.65, spreadBps: 1, activity: 0.9, notional: 15_000 },
  crypto_delivery: { vol: 0.6, spreadBps: 3, activity: 0.5, notional: 8_000 },
  forex: { vol: 0.08, spreadBps: 0.8, activity: 0.85, notional: 250_000 },
  metal: { vol: 0.18, spreadBps: 2.5, activity: 0.6, notional: 60_000 },
  energy: { vol: 0.35, spreadBps: 3, activity: 0.6, notional: 40_000 },
  stock: { vol: 0.32, spreadBps: 2, activity: 0.55, notional: 12_000 },
  etf: { vol: 0.18, spreadBps: 1, activity: 0.55, notional: 20_000 },
};

export const SIM_LIMITS = {
  /** An open instrument ticks at least this often, so a healthy sim never looks stale. */
  maxSilenceMs: 5_000,
  /** The longest gap one poll may carry (a long weekend), so a long outage does not jump absurdly. */
  maxGapMs: 4 * 24 * 3_600_000,
  /** Half-life of the pull towards the reference price. */
  reversionHalfLifeMs: 14 * 24 * 3_600_000,
} as const;

const YEAR_MS = 365.25 * 24 * 3_600_000;

type SimState = {
  rng: Prng;
  /** log of the mid in ticks. */
  x: number;
  anchor: number;
  vol: number;
  lastStepMs: number | null;
  lastTickMs: number;
  sizeStep: bigint;
  tickValue: number;
};

export function createSimFeed(options: {
  seed: string;
  intervalMs: number;
  covers?: (instrument: Instrument) => boolean;
}): PriceFeed {
  const states = new Map<string, SimState>();
  let instruments: readonly Instrument[] = [];
  const kappa = Math.LN2 / SIM_LIMITS.reversionHalfLifeMs;

  function initial(instrument: Instrument, lastMid: bigint | null): SimState {
    // Sizes are base quantities: one step is a lot of contracts (lot size × contract size).
    const contractUnits = 10n ** BigInt(QTY_SCALE);
    const product = instrument.lotUnits * parseUnitsOrThrow(instrument.contractSize, { scale: QTY_SCALE });
    const sizeStep =
      product % contractUnits === 0n && product > 0n ? product / contractUnits : instrument.lotUnits;
    return {
      rng: createPrng(`${options.seed}|${instrument.symbol}`),
      x: Math.log(Number(lastMid ?? instrument.refTicks)),
      anchor: Math.log(Number(instrument.refTicks)),
      vol: SIM_CLASS_PARAMS[instrument.assetClass].vol * (0.7 + 0.6 * hashUnit(instrument.symbol)),
      lastStepMs: null,
      lastTickMs: 0,
      sizeStep,
      tickValue: Number(instrument.tickUnits) / 10 ** instrument.priceScale,
    };
  }

  function step(instrument: Instrument, state: SimState, nowMs: number): FeedTick | null {
    const params = SIM_CLASS_PARAMS[instrument.assetClass];
    const dtMs = Math.min(nowMs - (state.lastStepMs ?? nowMs - options.intervalMs), SIM_LIMITS.maxGapMs);
    if (dtMs <= 0) return null;
    state.lastStepMs = nowMs;
    const z = state.rng.normal();
    const u = state.rng.next();
    const sideDraw = state.rng.next();
    const sizeDraw = state.rng.normal();
    const decay = Math.exp(-kappa * dtMs);
    const sd = state.vol * Math.sqrt((1 - decay * decay) / (2 * kappa) / YEAR_MS);
    state.x = state.anchor + (state.x - state.anchor) * decay + sd * z;
    const forced = nowMs - state.lastTickMs >= SIM_LIMITS.maxSilenceMs;
    if (!forced && u >= params.activity) return null;
    state.lastTickMs = nowMs;

    const mid = BigInt(Math.max(2, Math.round(Math.exp(state.x))));
    const halfSpread = BigInt(Math.max(1, Math.round((Number(mid) * params.spreadBps * (1 + u)) / 40_000)));
    const bid = mid - halfSpread > 0n ? mid - halfSpread : 1n;
    const ask = mid + halfSpread;
    const buy = sideDraw < 0.5;
    const price = Number(buy ? ask : bid) * state.tickValue;
    const quantity = (params.notional * Math.exp(0.8 * sizeDraw)) / price;
    const stepQuantity = Number(state.sizeStep) / 10 ** QTY_SCALE;
    const steps = BigInt(Math.max(1, Math.min(1e12, Math.round(quantity / stepQuantity))));
    return {
      instrument,
      atMs: nowMs,
      priceTicks: buy ? ask : bid,
      bidTicks: bid,
      askTicks: ask,
      markTicks: midTicks(bid, ask),
      sizeUnits: steps * state.sizeStep,
      source: 'sim',
    };
  }

  return {
    source: 'sim',
    intervalMs: options.intervalMs,
    covers: options.covers ?? (() => true),
    setInstruments(list, lastMid) {
      instruments = list;
      for (const instrument of list) {
        const kept = states.get(instrument.symbol);
        const fresh = initial(instrument, lastMid(instrument));
        // An edited catalogue row keeps the instrument's random stream and path, with its new traits.
        if (kept)
          Object.assign(fresh, {
            rng: kept.rng,
            x: kept.x,
            lastStepMs: kept.lastStepMs,
            lastTickMs: kept.lastTickMs,
          });
        states.set(instrument.symbol, fresh);
      }
    },
    async poll(nowMs) {
      const ticks: FeedTick[] = [];
      for (const instrument of instruments) {
        if (instrument.status !== 'active' || !isOpenAt(instrument.schedule, nowMs)) continue;
        if (instrument.expiryAt && nowMs >= instrument.expiryAt.getTime()) continue;
        const state = states.get(instrument.symbol);
        if (!state) continue;
        const tick = step(instrument, state, nowMs);
        if (tick) ticks.push(tick);
      }
      return ticks;
    },
    async close() {},
  };
}
