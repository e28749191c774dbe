import type {
  ContractCloseData,
  ContractFundingData,
  ContractInstrumentData,
  ContractKind,
  ContractOrderData,
  ContractPositionData,
} from '@bourse/protocol';
import {
  executable,
  formatRatio,
  leverageChoices,
  leverageClassOf,
  liquidationPrice,
  pnlUsdt,
  riskRate,
} from '@bourse/risk';
import {
  type ContractsContext,
  conversionOrNull,
  instrumentOf,
  maxLeverageOf,
  nextFundingAt,
} from './context.ts';
import { type Position, positionOf } from './core.ts';
import { type InstrumentInfo, lotsText, mathOf, priceText, storedPrice, usdtText } from './math.ts';
import type { CloseRow, FundingRow, OrderRow, PositionRow } from './repo.ts';
import type { Setting } from './settings.ts';

/** The wire shapes of contracts (packages/protocol/src/derivatives.ts), from rows and the prices now. */

export function kindOf(assetClass: string): ContractKind {
  return assetClass === 'crypto_perp' ? 'perpetual' : assetClass === 'crypto_delivery' ? 'delivery' : 'cfd';
}

export async function instrumentData(
  ctx: ContractsContext,
  i: InstrumentInfo,
  s: Setting,
  ratingCap?: number,
): Promise<ContractInstrumentData> {
  const max = await maxLeverageOf(ctx, i, s, ratingCap);
  const conversion = conversionOrNull(ctx.market, i);
  const ticker = ctx.market.ticker(i.symbol);
  return {
    symbol: i.symbol,
    name: i.name,
    asset_class: i.assetClass as ContractInstrumentData['asset_class'],
    kind: kindOf(i.assetClass),
    leverage_class: leverageClassOf(i) ?? 'crypto',
    base: i.base,
    quote: i.quote,
    margin_currency: 'USDT',
    price_tick: i.priceTick,
    lot_step: i.lotSize,
    min_lots: s.minLots,
    max_lots: s.maxLots,
    contract_size: i.contractSize,
    max_leverage: max,
    leverage_choices: leverageChoices(max),
    spread: s.spread,
    fee_per_lot: s.feePerLot,
    liquidation_level: s.liquidationLevel,
    margin_topup_max: s.marginTopupMax,
    funding_rate: s.fundingRate,
    funding_interval_hours: s.fundingIntervalHours,
    next_funding_at: nextFundingAt(s, ctx.clock.now().getTime()),
    expiry_at: i.expiryAt ? i.expiryAt.getTime() : null,
    trading_hours: ctx.market.instrument(i.symbol).schedule.text,
    open: ticker.state !== 'closed' && ticker.state !== 'halted',
    enabled: s.enabled,
    conversion: { rate: conversion?.text ?? '0', via: conversion?.via ?? null },
  };
}

export function orderData(ctx: ContractsContext, o: OrderRow): ContractOrderData {
  const i = instrumentOf(ctx, o.symbol);
  return {
    order_id: o.id,
    client_oid: o.client_oid,
    symbol: o.symbol,
    book: o.book,
    side: o.side,
    type: o.type,
    price: priceText(i, storedPrice(i, o.price)),
    lots: lotsText(BigInt(o.lots_units)),
    leverage: o.leverage,
    tp_price: o.tp_price === null ? null : priceText(i, storedPrice(i, o.tp_price)),
    sl_price: o.sl_price === null ? null : priceText(i, storedPrice(i, o.sl_price)),
    frozen: o.status === 'pending' ? usdtText(BigInt(o.margin_units) + BigInt(o.fee_units)) : '0',
    status: o.status,
    cancel_reason: o.cancel_reason as ContractOrderData['cancel_reason'],
    position_id: o.position_id,
    created_at: o.created_at.getTime(),
    updated_at: o.updated_at.getTime(),
  };
}

type LiveNumbers = {
  current_price: string | null;
  mark_price: string | null;
  unrealized_pnl: string | null;
  risk_rate: string | null;
  liquidation_price: string | null;
};

/** An open position's numbers at the current prices (all null while there is no price or rate). */
function liveNumbers(ctx: ContractsContext, i: InstrumentInfo, p: Position): LiveNumbers {
  const live: LiveNumbers = {
    current_price: null,
    mark_price: null,
    unrealized_pnl: null,
    risk_rate: null,
    liquidation_price: null,
  };
  const t = ctx.market.ticker(p.symbol);
  const bid = storedPrice(i, t.bid);
  const ask = storedPrice(i, t.ask);
  const mark = storedPrice(i, t.mark);
  const conversion = conversionOrNull(ctx.market, i);
  const spread = ctx.spreads.get(p.symbol) ?? 0n;
  if (!conversion || bid <= 0n || ask <= 0n) return live;
  const m = mathOf(i, conversion.rate);
  const exec = executable(bid, ask, spread);
  const close = p.side === 'buy' ? exec.closeLong : exec.closeShort;
  live.current_price = priceText(i, close);
  live.mark_price = priceText(i, mark);
  live.unrealized_pnl = usdtText(pnlUsdt(m, p.side, p.openUnits, close, p.lotsUnits));
  live.risk_rate =
    p.marginUnits > 0n
      ? formatRatio(riskRate(m, p.side, p.openUnits, mark, p.lotsUnits, p.marginUnits), 4)
      : null;
  const liq =
    p.marginUnits > 0n
      ? liquidationPrice(m, p.side, p.openUnits, p.lotsUnits, p.marginUnits, p.level, i.tickUnits)
      : null;
  live.liquidation_price = liq === null ? null : priceText(i, liq);
  return live;
}

const NO_LIVE_NUMBERS: LiveNumbers = Object.freeze({
  current_price: null,
  mark_price: null,
  unrealized_pnl: null,
  risk_rate: null,
  liquidation_price: null,
});

/** A position with the server's live numbers (open positions), from the current prices. */
export function positionData(ctx: ContractsContext, row: PositionRow): ContractPositionData {
  const i = instrumentOf(ctx, row.symbol);
  const p = positionOf(row, i);
  const price = (text: string | null) => (text === null ? null : priceText(i, storedPrice(i, text)));
  const live = row.status === 'open' ? liveNumbers(ctx, i, p) : NO_LIVE_NUMBERS;
  return {
    position_id: row.id,
    symbol: row.symbol,
    name: i.name,
    kind: kindOf(i.assetClass),
    book: row.book,
    side: row.side,
    leverage: row.leverage,
    lots: lotsText(p.lotsUnits),
    opened_lots: lotsText(p.openedLotsUnits),
    contract_size: i.contractSize,
    open_price: priceText(i, p.openUnits),
    margin: usdtText(p.marginUnits),
    fee: usdtText(p.feeUnits),
    funding: usdtText(p.fundingUnits),
    tp_price: price(row.tp_price),
    sl_price: price(row.sl_price),
    ...live,
    liquidation_level: row.liquidation_level,
    realized_pnl: usdtText(p.realizedUnits),
    close_price: price(row.close_price),
    close_reason: row.close_reason as ContractPositionData['close_reason'],
    status: row.status,
    opened_at: row.opened_at.getTime(),
    closed_at: row.closed_at ? row.closed_at.getTime() : null,
    close_price_source: row.close_price_source,
    close_price_at: row.close_price_at ? row.close_price_at.getTime() : null,
  };
}

export function closeData(ctx: ContractsContext, r: CloseRow): ContractCloseData {
  const i = instrumentOf(ctx, r.symbol);
  return {
    close_id: r.id,
    position_id: r.position_id,
    symbol: r.symbol,
    side: r.side,
    lots: lotsText(BigInt(r.lots_units)),
    open_price: priceText(i, storedPrice(i, r.open_price)),
    close_price: priceText(i, storedPrice(i, r.close_price)),
    pnl: usdtText(BigInt(r.pnl_units)),
    fee: usdtText(BigInt(r.fee_units)),
    released: usdtText(BigInt(r.released_units)),
    insurance_covered: usdtText(BigInt(r.insurance_covered_units)),
    reason: r.reason as ContractCloseData['reason'],
    price_source: r.price_source,
    price_at: r.price_at.getTime(),
    closed_at: r.closed_at.getTime(),
  };
}

export function fundingData(ctx: ContractsContext, r: FundingRow): ContractFundingData {
  const i = instrumentOf(ctx, r.symbol);
  return {
    funding_id: r.id,
    position_id: r.position_id,
    symbol: r.symbol,
    side: r.side,
    rate: r.rate,
    amount: usdtText(BigInt(r.amount_units)),
    mark_price: priceText(i, storedPrice(i, r.mark_price)),
    funding_at: r.funding_at.getTime(),
  };
}
