import { parseUnitsOrThrow, scaleOf } from '@bourse/money';
import type { FundModelId, Lang, RiskRating } from '@bourse/protocol';
import type { FundsDeps } from './context.ts';
import { BPS, CASH, decimalUnits, USDT_SCALE, worthOf } from './plan.ts';
import * as repo from './repo.ts';
import type { StoredWeight } from './tables.ts';

/**
 * The two model portfolios, as data: target weights over listed spot markets' base assets plus a
 * USDT cash slice (basis points, summing to 10,000), the drift threshold, the amounts, the rating
 * required, and plain-language texts in the three languages. Seeded at start from the spot markets
 * that exist; a weight whose market does not exist goes to cash. Weights are fixed once created.
 */

type ModelDefault = {
  id: FundModelId;
  weights: Array<{ asset: string; weight_bps: number }>;
  drift_bps: number;
  min_amount: string;
  max_amount: string;
  min_rating: RiskRating;
  names: Record<Lang, string>;
  descriptions: Record<Lang, string>;
};

export const FUND_MODEL_DEFAULTS: readonly ModelDefault[] = [
  {
    id: 'balanced',
    weights: [
      { asset: 'BTC', weight_bps: 4000 },
      { asset: 'ETH', weight_bps: 3000 },
    ],
    drift_bps: 500,
    min_amount: '100',
    max_amount: '100000',
    min_rating: 'balanced',
    names: { en: 'Balanced ETF', zh: '平衡型 ETF', ft: '平衡型 ETF' },
    descriptions: {
      en: 'About 40 % Bitcoin, 30 % Ether and 30 % kept in USDT. Your money buys these coins for you, in your own account, through the spot market at market prices with the ordinary trading fees. The value goes up and down with the prices of the coins: you can lose part of what you put in. There is no fixed or promised return. When one weight drifts more than 5 points from its target, the order is traded back to the targets (every trade appears in your records).',
      zh: '约 40% 比特币、30% 以太坊，30% 以 USDT 持有。您的资金通过现货市场按市价为您买入这些币，资产在您自己的账户中，收取普通交易手续费。价值随币价涨跌：您可能损失部分本金。没有固定或承诺的收益。当某一权重偏离目标超过 5 个百分点时，订单会交易回目标权重（每笔交易都会出现在您的记录中）。',
      ft: '約 40% 比特幣、30% 以太坊，30% 以 USDT 持有。您的資金透過現貨市場按市價為您買入這些幣，資產在您自己的帳戶中，收取一般交易手續費。價值隨幣價漲跌：您可能損失部分本金。沒有固定或承諾的收益。當某一權重偏離目標超過 5 個百分點時，訂單會交易回目標權重（每筆交易都會出現在您的紀錄中）。',
    },
  },
  {
    id: 'low_risk',
    weights: [
      { asset: 'BTC', weight_bps: 1000 },
      { asset: 'ETH', weight_bps: 1000 },
    ],
    drift_bps: 300,
    min_amount: '100',
    max_amount: '100000',
    min_rating: 'conservative',
    names: { en: 'Low-risk ETF', zh: '低风险 ETF', ft: '低風險 ETF' },
    descriptions: {
      en: 'Mostly cash: about 80 % kept in USDT, with 10 % Bitcoin and 10 % Ether bought for you in your own account through the spot market, with the ordinary trading fees. Smaller price swings than the balanced portfolio, but the coin slice can still lose value, and there is no fixed or promised return. When one weight drifts more than 3 points from its target, the order is traded back (every trade appears in your records).',
      zh: '以现金为主：约 80% 以 USDT 持有，10% 比特币和 10% 以太坊通过现货市场在您自己的账户中为您买入，收取普通交易手续费。价格波动小于平衡型组合，但币种部分仍可能贬值，没有固定或承诺的收益。当某一权重偏离目标超过 3 个百分点时，订单会交易回目标（每笔交易都会出现在您的记录中）。',
      ft: '以現金為主：約 80% 以 USDT 持有，10% 比特幣和 10% 以太坊透過現貨市場在您自己的帳戶中為您買入，收取一般交易手續費。價格波動小於平衡型組合，但幣種部分仍可能貶值，沒有固定或承諾的收益。當某一權重偏離目標超過 3 個百分點時，訂單會交易回目標（每筆交易都會出現在您的紀錄中）。',
    },
  },
];

/** The model's hypothetical portfolio holds NAV_BASE units; it starts worth NAV_BASE USDT (NAV 1.0000). */
export const NAV_BASE = 1_000_000n;
export const NAV_ONE = 10n ** BigInt(USDT_SCALE);

/** Weights of a default over the spot markets that exist (a missing market's weight goes to cash). */
export function weightsOver(d: ModelDefault, symbolOf: (asset: string) => string | null): StoredWeight[] {
  const out: StoredWeight[] = [];
  let cash = 10_000;
  for (const w of d.weights) {
    const symbol = symbolOf(w.asset);
    if (!symbol) continue;
    out.push({ asset: w.asset, symbol, weight_bps: w.weight_bps });
    cash -= w.weight_bps;
  }
  out.push({ asset: CASH, symbol: null, weight_bps: cash });
  return out;
}

/** Hypothetical holdings worth `valueUnits` USDT at `prices`, split by the weights; cash takes the remainder. */
export function positionsFor(
  weights: readonly StoredWeight[],
  valueUnits: bigint,
  prices: ReadonlyMap<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  let spent = 0n;
  for (const w of weights) {
    if (w.symbol === null) continue;
    const price = prices.get(w.symbol);
    if (!price) throw new Error(`no price for ${w.symbol}`);
    const budget = (valueUnits * BigInt(w.weight_bps)) / BPS;
    const p18 = decimalUnits(price, 18);
    const qty = p18 === 0n ? 0n : (budget * 10n ** BigInt(scaleOf(w.asset) + 18 - USDT_SCALE)) / p18;
    out[w.asset] = qty.toString();
    spent += worthOf(w.asset, qty, price);
  }
  out[CASH] = (valueUnits - spent).toString();
  return out;
}

/** The hypothetical portfolio's value at `prices` (USDT minor units). */
export function positionsValue(
  weights: readonly StoredWeight[],
  positions: Record<string, string>,
  prices: ReadonlyMap<string, string>,
): bigint {
  let total = BigInt(positions[CASH] ?? '0');
  for (const w of weights) {
    if (w.symbol === null) continue;
    const price = prices.get(w.symbol);
    if (!price) throw new Error(`no price for ${w.symbol}`);
    total += worthOf(w.asset, BigInt(positions[w.asset] ?? '0'), price);
  }
  return total;
}

/** NAV per unit (USDT minor units) of a portfolio value. */
export const navOf = (valueUnits: bigint) => valueUnits / NAV_BASE;

/** Seeds the models that do not exist yet, at the reference prices now; returns how many. */
export async function seedModels(deps: FundsDeps, hour: (d: Date) => Date): Promise<number> {
  const { db, clock, spot, market } = deps;
  const enabled = new Map(
    spot
      .markets()
      .filter((m) => m.quote === CASH)
      .map((m) => [m.base, m.symbol]),
  );
  let seeded = 0;
  for (const d of FUND_MODEL_DEFAULTS) {
    const weights = weightsOver(d, (asset) => enabled.get(asset) ?? null);
    const prices = new Map<string, string>();
    for (const w of weights) if (w.symbol) prices.set(w.symbol, market.ticker(w.symbol).mark);
    const now = clock.now();
    const positions = positionsFor(weights, NAV_BASE * NAV_ONE, prices);
    const at = hour(now);
    const inserted = await repo.insertModelIfMissing(db, {
      id: d.id,
      names: d.names,
      descriptions: d.descriptions,
      weights,
      drift_bps: d.drift_bps,
      min_amount_units: parseUnitsOrThrow(d.min_amount, { scale: USDT_SCALE }).toString(),
      max_amount_units: parseUnitsOrThrow(d.max_amount, { scale: USDT_SCALE }).toString(),
      min_rating: d.min_rating,
      state: 'open',
      state_reason: null,
      positions,
      nav_through: at,
      created_at: now,
      updated_at: now,
    });
    if (!inserted) continue;
    seeded += 1;
    await repo.insertNav(db, {
      model_id: d.id,
      at,
      nav_units: navOf(positionsValue(weights, positions, prices)).toString(),
      prices: Object.fromEntries(prices),
      rebalanced: false,
    });
  }
  return seeded;
}
