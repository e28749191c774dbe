import { toDecimalString } from '@bourse/money';
import type {
  AddMarginBody,
  CloseAllResult,
  ContractCloseData,
  ContractFundingData,
  ContractInstrumentData,
  ContractKind,
  ContractOrderData,
  ContractPositionData,
  ContractQuoteData,
  ContractQuoteQuery,
  LeverageClass,
  OpenContractBody,
  OpenContractResult,
  Paged,
  SetTpSlBody,
} from '@bourse/protocol';
import { DERIVATIVES_LIMITS } from '@bourse/protocol';
import {
  checkTpSl,
  effectiveMaxLeverage,
  executable,
  feeFor,
  formatRatio,
  leverageChoices,
  leverageClassOf,
  liquidationPrice,
  marginFor,
  notionalQuote,
  notionalUsdt,
  pnlUsdt,
  riskRate,
} from '@bourse/risk';
import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { reasonEnvelope } from '../../http/envelope.ts';
import { pageNewestFirst, pageOf } from '../../http/paging.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { EXPORT_PAGING } from '../../lib/csv.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import {
  type Book,
  type CloseReason,
  closeLots,
  type Fill,
  lockCustomer,
  lockPosition,
  type OrderRow,
  openPosition,
  type PositionRow,
  positionOf,
  releaseOrder,
} from './core.ts';
import {
  type Conversion,
  conversionFrom,
  IDENTITY,
  type InstrumentInfo,
  lotsText,
  mathOf,
  parseLevel,
  parseLots,
  parsePrice,
  priceText,
  storedPrice,
  usdtText,
} from './math.ts';
import { loadSettings, parseSetting, type Setting } from './settings.ts';

/** What contracts need from the jurisdiction profile (modules/jurisdiction implements it). */
export type LeverageCaps = { leverageCap(cls: LeverageClass): Promise<number> };

type Lang = Parameters<typeof reasonEnvelope>[0];

export function kindOf(assetClass: string): ContractKind {
  return assetClass === 'crypto_perp' ? 'perpetual' : assetClass === 'crypto_delivery' ? 'delivery' : 'cfd';
}

const USD_QUOTES = new Set(['USD', 'USDT']);

export type ContractsDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: Market;
  jurisdiction: LeverageCaps;
};

export function createContractsService(deps: ContractsDeps) {
  const { db, clock, ledger, market } = deps;

  function instrument(symbol: string): InstrumentInfo {
    return market.instrument(symbol);
  }

  async function settingOf(q: Db | Tx, symbol: string): Promise<{ i: InstrumentInfo; s: Setting }> {
    const [row] = await loadSettings(q, symbol);
    if (!row) refuse('CONTRACT_UNAVAILABLE', { symbol });
    const i = instrument(symbol);
    return { i, s: parseSetting(row, i) };
  }

  /** The catalogue pair converting `quote` to USD: `USD/<Q>` (inverse) or `<Q>/USD`. */
  function pairOf(quote: string): { symbol: string; inverse: boolean; scale: number } | null {
    for (const [symbol, inverse] of [
      [`USD/${quote}`, true],
      [`${quote}/USD`, false],
    ] as const) {
      try {
        return { symbol, inverse, scale: market.instrument(symbol).priceScale };
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
      }
    }
    return null;
  }

  /** Quote → USDT now, from the pair's current bid/ask (USD and USDT → 1). */
  function conversionNow(i: InstrumentInfo): Conversion {
    if (USD_QUOTES.has(i.quote)) return IDENTITY;
    const pair = pairOf(i.quote);
    if (!pair) refuse('CONTRACT_UNAVAILABLE', { symbol: i.symbol });
    const t = market.ticker(pair.symbol);
    const p = instrument(pair.symbol);
    return conversionFrom(pair, storedPrice(p, t.bid), storedPrice(p, t.ask));
  }

  async function maxLeverageOf(i: InstrumentInfo, s: Setting): Promise<number> {
    const cls = leverageClassOf(i);
    const cap = cls ? await deps.jurisdiction.leverageCap(cls) : 1;
    return effectiveMaxLeverage(i.maxLeverage, s.maxLeverage, cap);
  }

  function parseLeverage(text: string, max: number): number {
    const value = Number.parseInt(text, 10);
    if (!Number.isInteger(value) || value < 1 || value > max) refuse('LEVERAGE_INVALID', { max });
    return value;
  }

  function bookOf(auth: AuthContext): Book {
    return auth.isDemo ? 'demo' : 'real';
  }

  /** The executable prices now (refuses MARKET_CLOSED naming the hours, PRICE_STALE …). */
  function pricesNow(i: InstrumentInfo, s: Setting) {
    const price = market.priceForTrading(i.symbol);
    return {
      price,
      exec: executable(price.bidTicks * i.tickUnits, price.askTicks * i.tickUnits, s.spreadUnits),
      markUnits: price.markTicks * i.tickUnits,
    };
  }

  function nextFundingAt(s: Setting, nowMs: number): number | null {
    if (s.fundingIntervalHours === null) return null;
    const every = s.fundingIntervalHours * 3_600_000;
    return (Math.floor(nowMs / every) + 1) * every;
  }

  async function instrumentData(i: InstrumentInfo, s: Setting): Promise<ContractInstrumentData> {
    const max = await maxLeverageOf(i, s);
    let conversion: Conversion | null = null;
    try {
      conversion = conversionNow(i);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
    }
    const ticker = market.ticker(i.symbol);
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
      next_funding_at: nextFundingAt(s, clock.now().getTime()),
      expiry_at: i.expiryAt ? i.expiryAt.getTime() : null,
      trading_hours: market.instrument(i.symbol).schedule.text,
      open: ticker.state !== 'closed' && ticker.state !== 'halted',
      enabled: s.enabled,
      conversion: { rate: conversion?.text ?? '0', via: conversion?.via ?? null },
    };
  }

  // ---- wire shapes ------------------------------------------------------------------------------

  function orderData(o: OrderRow): ContractOrderData {
    const i = instrument(o.symbol);
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

  /** A position with the server's live numbers (open positions), from the current prices. */
  function positionData(row: PositionRow): ContractPositionData {
    const i = instrument(row.symbol);
    const p = positionOf(row, i);
    const price = (text: string | null) => (text === null ? null : priceText(i, storedPrice(i, text)));
    const live = {
      current_price: null as string | null,
      mark_price: null as string | null,
      unrealized_pnl: null as string | null,
      risk_rate: null as string | null,
      liquidation_price: null as string | null,
    };
    if (row.status === 'open') {
      const t = market.ticker(row.symbol);
      const bid = storedPrice(i, t.bid);
      const ask = storedPrice(i, t.ask);
      const mark = storedPrice(i, t.mark);
      let spread = 0n;
      let conversion: Conversion | null = null;
      try {
        conversion = conversionNow(i);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
      }
      spread = spreadCache.get(row.symbol) ?? 0n;
      if (conversion && bid > 0n && ask > 0n) {
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
      }
    }
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

  function closeData(r: {
    id: string;
    position_id: string;
    symbol: string;
    side: 'buy' | 'sell';
    lots_units: string;
    open_price: string;
    close_price: string;
    pnl_units: string;
    fee_units: string;
    released_units: string;
    insurance_covered_units: string;
    reason: string;
    price_source: string;
    price_at: Date;
    closed_at: Date;
  }): ContractCloseData {
    const i = instrument(r.symbol);
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

  // The spread of each symbol as last read (display only; every action reads the setting in its transaction).
  const spreadCache = new Map<string, bigint>();

  async function allSettings(symbol?: string): Promise<Array<{ i: InstrumentInfo; s: Setting }>> {
    const rows = await loadSettings(db, symbol);
    const out: Array<{ i: InstrumentInfo; s: Setting }> = [];
    for (const row of rows) {
      let i: InstrumentInfo;
      try {
        i = instrument(row.symbol);
      } catch (error) {
        if (error instanceof Refusal) continue; // no longer in the catalogue
        throw error;
      }
      const s = parseSetting(row, i);
      spreadCache.set(s.symbol, s.spreadUnits);
      out.push({ i, s });
    }
    return out;
  }

  // ---- open -------------------------------------------------------------------------------------

  type Built = {
    i: InstrumentInfo;
    s: Setting;
    type: 'market' | 'limit';
    lots: bigint;
    leverage: number;
    /** Limit price, or the executable open price now (market). */
    priceUnits: bigint;
    tp: bigint | null;
    sl: bigint | null;
    fill: Fill | null;
  };

  async function build(body: OpenContractBody | ContractQuoteQuery, forOpen: boolean): Promise<Built> {
    const { i, s } = await settingOf(db, body.symbol);
    spreadCache.set(s.symbol, s.spreadUnits);
    if (!s.enabled) refuse('CONTRACT_UNAVAILABLE', { symbol: i.symbol });
    if (i.expiryAt && i.expiryAt.getTime() <= clock.now().getTime())
      refuse('CONTRACT_EXPIRED', { symbol: i.symbol });
    const leverage = parseLeverage(body.leverage, await maxLeverageOf(i, s));
    const lots = parseLots(i, body.lots, { minUnits: s.minLotsUnits, maxUnits: s.maxLotsUnits });
    const type =
      'type' in body && body.type
        ? body.type
        : body.price !== undefined && body.price !== '' && !forOpen
          ? 'limit'
          : 'market';
    let priceUnits: bigint;
    let fill: Fill | null = null;
    if (type === 'limit') {
      if (body.price === undefined || body.price === '') refuse('ORDER_PRICE_REQUIRED');
      priceUnits = parsePrice(i, 'price', body.price);
      // Outside trading hours nothing is accepted, pending orders included (the refusal names the hours).
      market.priceForTrading(i.symbol);
    } else {
      if (body.price !== undefined && body.price !== '') refuse('ORDER_PRICE_NOT_ALLOWED');
      const now = pricesNow(i, s);
      priceUnits = body.side === 'buy' ? now.exec.openBuy : now.exec.openSell;
      fill = {
        priceUnits,
        source: now.price.source,
        at: now.price.at,
        tickSeq: BigInt(now.price.tickSeq),
        conversion: conversionNow(i),
      };
    }
    let tp: bigint | null = null;
    let sl: bigint | null = null;
    if ('tp_price' in body || 'sl_price' in body) {
      const b = body as OpenContractBody;
      tp = parseLevel(i, 'tp_price', b.tp_price);
      sl = parseLevel(i, 'sl_price', b.sl_price);
      if (tp !== null || sl !== null) {
        const reference =
          type === 'limit'
            ? priceUnits
            : (() => {
                const e = pricesNow(i, s).exec;
                return body.side === 'buy' ? e.closeLong : e.closeShort;
              })();
        const bad = checkTpSl(body.side, reference, tp, sl);
        if (bad) refuse(bad.reason, { price: priceText(i, bad.priceUnits) });
      }
    }
    return { i, s, type, lots, leverage, priceUnits, tp, sl, fill };
  }

  async function quote(auth: AuthContext | null, q: ContractQuoteQuery): Promise<ContractQuoteData> {
    const b = await build(q, false);
    const conversion = b.fill?.conversion ?? conversionNow(b.i);
    const m = mathOf(b.i, conversion.rate);
    const margin = marginFor(m, b.priceUnits, b.lots, b.leverage);
    const fee = feeFor(b.s.feePerLotUnits, b.lots);
    const nq = notionalQuote(m, b.priceUnits, b.lots);
    const liq = liquidationPrice(m, q.side, b.priceUnits, b.lots, margin, b.s.level, b.i.tickUnits);
    let available = 0n;
    if (auth) {
      const bal = await ledger.balance(db, {
        book: bookOf(auth),
        customerId: auth.customerId,
        accountType: 'contract',
        currency: 'USDT',
      });
      available = bal.availableUnits;
    }
    return {
      symbol: b.i.symbol,
      side: q.side,
      lots: lotsText(b.lots),
      leverage: b.leverage,
      price: priceText(b.i, b.priceUnits),
      notional: toDecimalString(nq.units, nq.scale),
      notional_usdt: usdtText(notionalUsdt(m, b.priceUnits, b.lots)),
      margin: usdtText(margin),
      fee: usdtText(fee),
      required: usdtText(margin + fee),
      available: usdtText(available),
      liquidation_price: liq === null ? '' : priceText(b.i, liq),
      close_fee: usdtText(fee),
    };
  }

  function sameOrder(o: OrderRow, body: OpenContractBody, b: Built): boolean {
    return (
      o.symbol === body.symbol &&
      o.side === body.side &&
      o.type === b.type &&
      BigInt(o.lots_units) === b.lots &&
      o.leverage === b.leverage &&
      (b.type === 'market' || storedPrice(b.i, o.price) === b.priceUnits)
    );
  }

  async function findByClientOid(customerId: string, clientOid: string): Promise<OrderRow | undefined> {
    return db
      .selectFrom('contracts_order')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('client_oid', '=', clientOid)
      .executeTakeFirst();
  }

  async function answerExisting(o: OrderRow): Promise<OpenContractResult> {
    const position = o.position_id
      ? await db
          .selectFrom('contracts_position')
          .selectAll()
          .where('id', '=', o.position_id)
          .executeTakeFirst()
      : undefined;
    return { order: orderData(o), position: position ? positionData(position) : null };
  }

  async function open(auth: AuthContext, body: OpenContractBody): Promise<OpenContractResult> {
    const book = bookOf(auth);
    const customerId = auth.customerId;
    const b = await build(body, true);
    if (body.client_oid) {
      const existing = await findByClientOid(customerId, body.client_oid);
      if (existing) {
        if (sameOrder(existing, body, b)) return answerExisting(existing);
        refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
      }
    }
    const now = clock.now();
    const m = mathOf(b.i, (b.fill?.conversion ?? conversionNow(b.i)).rate);
    const margin = marginFor(m, b.priceUnits, b.lots, b.leverage);
    const fee = feeFor(b.s.feePerLotUnits, b.lots);
    const orderId = newId('cor', now.getTime());
    const positionId = b.fill ? newId('cpo', now.getTime()) : null;
    const order: OrderRow = {
      id: orderId,
      customer_id: customerId,
      book,
      symbol: b.i.symbol,
      client_oid: body.client_oid ?? null,
      side: body.side,
      type: b.type,
      price: priceText(b.i, b.priceUnits),
      lots_units: b.lots.toString(),
      leverage: b.leverage,
      tp_price: b.tp === null ? null : priceText(b.i, b.tp),
      sl_price: b.sl === null ? null : priceText(b.i, b.sl),
      margin_units: margin.toString(),
      fee_units: fee.toString(),
      fee_per_lot: b.s.feePerLot,
      liquidation_level: b.s.liquidationLevel,
      status: b.fill ? 'filled' : 'pending',
      cancel_reason: null,
      position_id: positionId,
      created_at: now,
      updated_at: now,
    };
    try {
      const position = await inTransaction(db, async (tx) => {
        await lockCustomer(tx, customerId);
        const held = await tx
          .selectFrom('contracts_position')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('customer_id', '=', customerId)
          .where('symbol', '=', b.i.symbol)
          .where('book', '=', book)
          .where('status', '=', 'open')
          .executeTakeFirstOrThrow();
        const pending = await tx
          .selectFrom('contracts_order')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('customer_id', '=', customerId)
          .where('symbol', '=', b.i.symbol)
          .where('book', '=', book)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow();
        if (Number(held.n) + Number(pending.n) >= DERIVATIVES_LIMITS.openPerInstrumentMax)
          refuse('CONTRACT_OPEN_LIMIT', { max: DERIVATIVES_LIMITS.openPerInstrumentMax });
        await tx.insertInto('contracts_order').values(order).execute();
        if (b.fill && positionId)
          return openPosition(tx, ledger, { i: b.i, order, positionId, fill: b.fill, now, frozen: null });
        await ledger.freeze(tx, {
          book,
          customerId,
          accountType: 'contract',
          currency: 'USDT',
          amountUnits: margin + fee,
          reason: 'contract.order',
          reference: { type: 'contract_order', id: orderId },
          idempotencyKey: `contracts:order:${orderId}`,
        });
        return null;
      });
      return { order: orderData(order), position: position ? positionData(position) : null };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === '23505' && body.client_oid) {
        const existing = await findByClientOid(customerId, body.client_oid);
        if (existing && sameOrder(existing, body, b)) return answerExisting(existing);
        refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
      }
      throw error;
    }
  }

  // ---- close ------------------------------------------------------------------------------------

  async function closeOne(
    customerId: string,
    positionId: string,
    lotsText_: string | undefined,
    reason: CloseReason,
  ): Promise<ContractCloseData> {
    const row0 = await db
      .selectFrom('contracts_position')
      .selectAll()
      .where('id', '=', positionId)
      .executeTakeFirst();
    if (!row0 || row0.customer_id !== customerId) refuse('NOT_FOUND');
    const { i, s } = await settingOf(db, row0.symbol);
    const lotsWanted = lotsText_ === undefined || lotsText_ === '' ? null : parseLots(i, lotsText_, null);
    if (row0.status !== 'open') refuse('POSITION_NOT_OPEN', { status: row0.status });
    const now0 = pricesNow(i, s);
    const conversion = conversionNow(i);
    const closeId = await inTransaction(db, async (tx) => {
      await lockCustomer(tx, customerId);
      const row = await lockPosition(tx, positionId);
      if (!row) refuse('NOT_FOUND');
      if (row.status !== 'open') refuse('POSITION_NOT_OPEN', { status: row.status });
      const p = positionOf(row, i);
      const lots = lotsWanted ?? p.lotsUnits;
      if (lots > p.lotsUnits) refuse('CLOSE_LOTS_ABOVE_OPEN', { lots: lotsText(p.lotsUnits) });
      const fill: Fill = {
        priceUnits: p.side === 'buy' ? now0.exec.closeLong : now0.exec.closeShort,
        source: now0.price.source,
        at: now0.price.at,
        tickSeq: BigInt(now0.price.tickSeq),
        conversion,
      };
      return (await closeLots(tx, ledger, { i, p, lotsUnits: lots, fill, reason, now: clock.now() })).closeId;
    });
    const r = await db
      .selectFrom('contracts_close')
      .selectAll()
      .where('id', '=', closeId)
      .executeTakeFirstOrThrow();
    return closeData(r);
  }

  async function closeAll(
    auth: AuthContext,
    symbol: string | undefined,
    lang: Lang,
  ): Promise<CloseAllResult> {
    let query = db
      .selectFrom('contracts_position')
      .select(['id', 'symbol'])
      .where('customer_id', '=', auth.customerId)
      .where('book', '=', bookOf(auth))
      .where('status', '=', 'open')
      .orderBy('opened_at');
    if (symbol) query = query.where('symbol', '=', symbol);
    const rows = await query.execute();
    const out: CloseAllResult = { closed: [], failed: [] };
    for (const r of rows) {
      try {
        out.closed.push(await closeOne(auth.customerId, r.id, undefined, 'close_all'));
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        if (error.reason === 'POSITION_NOT_OPEN') continue; // closed meanwhile (TP/SL, liquidation)
        out.failed.push({
          position_id: r.id,
          symbol: r.symbol,
          reason: error.reason,
          message: reasonEnvelope(lang, error.reason, error.params).msg,
        });
      }
    }
    return out;
  }

  // ---- pending orders, TP/SL, margin ------------------------------------------------------------

  async function cancelOrder(auth: AuthContext, orderId: string): Promise<ContractOrderData> {
    const row = await inTransaction(db, async (tx) => {
      await lockCustomer(tx, auth.customerId);
      const o = await tx
        .selectFrom('contracts_order')
        .selectAll()
        .where('id', '=', orderId)
        .forUpdate()
        .executeTakeFirst();
      if (!o || o.customer_id !== auth.customerId) refuse('NOT_FOUND');
      if (o.status !== 'pending') refuse('CONTRACT_ORDER_NOT_PENDING', { status: o.status });
      await releaseOrder(tx, ledger, o);
      const now = clock.now();
      await tx
        .updateTable('contracts_order')
        .set({ status: 'cancelled', cancel_reason: 'user', updated_at: now })
        .where('id', '=', o.id)
        .execute();
      return { ...o, status: 'cancelled' as const, cancel_reason: 'user', updated_at: now };
    });
    return orderData(row);
  }

  async function setTpSl(
    auth: AuthContext,
    body: SetTpSlBody,
  ): Promise<{ position: ContractPositionData | null; order: ContractOrderData | null }> {
    if (!body.position_id === !body.order_id) refuse('FIELD_REQUIRED', { field: 'position_id' });
    const table = body.position_id ? 'contracts_position' : 'contracts_order';
    const id = (body.position_id ?? body.order_id) as string;
    const current = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
    if (!current || current.customer_id !== auth.customerId) refuse('NOT_FOUND');
    const { i, s } = await settingOf(db, current.symbol);
    const level = (text: string | undefined, was: string | null, field: string) =>
      text === undefined ? (was === null ? null : storedPrice(i, was)) : parseLevel(i, field, text);
    const tp = level(body.tp_price, current.tp_price, 'tp_price');
    const sl = level(body.sl_price, current.sl_price, 'sl_price');
    let reference: bigint;
    if (table === 'contracts_position') {
      if (current.status !== 'open') refuse('POSITION_NOT_OPEN', { status: current.status });
      const e = pricesNow(i, s).exec;
      reference = current.side === 'buy' ? e.closeLong : e.closeShort;
    } else {
      if (current.status !== 'pending') refuse('CONTRACT_ORDER_NOT_PENDING', { status: current.status });
      reference = storedPrice(i, current.price);
    }
    const bad = checkTpSl(current.side, reference, tp, sl);
    if (bad) refuse(bad.reason, { price: priceText(i, bad.priceUnits) });
    const change = {
      tp_price: tp === null ? null : priceText(i, tp),
      sl_price: sl === null ? null : priceText(i, sl),
      updated_at: clock.now(),
    };
    await inTransaction(db, async (tx) => {
      await lockCustomer(tx, auth.customerId);
      const want = table === 'contracts_position' ? 'open' : 'pending';
      const r = await tx
        .updateTable(table)
        .set(change)
        .where('id', '=', id)
        .where('status', '=', want as never)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) {
        const now = await tx
          .selectFrom(table)
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        if (table === 'contracts_position') refuse('POSITION_NOT_OPEN', { status: now.status });
        refuse('CONTRACT_ORDER_NOT_PENDING', { status: now.status });
      }
    });
    if (table === 'contracts_position') {
      const row = await db
        .selectFrom('contracts_position')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return { position: positionData(row), order: null };
    }
    const row = await db
      .selectFrom('contracts_order')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { position: null, order: orderData(row) };
  }

  async function addMargin(auth: AuthContext, body: AddMarginBody): Promise<ContractPositionData> {
    const amount = parseAmount('amount', body.amount, 'USDT');
    const current = await db
      .selectFrom('contracts_position')
      .selectAll()
      .where('id', '=', body.position_id)
      .executeTakeFirst();
    if (!current || current.customer_id !== auth.customerId) refuse('NOT_FOUND');
    const { s } = await settingOf(db, current.symbol);
    if (amount > s.marginTopupMaxUnits) refuse('MARGIN_TOPUP_ABOVE_MAX', { max: s.marginTopupMax });
    const row = await inTransaction(db, async (tx) => {
      await lockCustomer(tx, auth.customerId);
      const row = await lockPosition(tx, body.position_id);
      if (!row) refuse('NOT_FOUND');
      if (row.status !== 'open') refuse('POSITION_NOT_OPEN', { status: row.status });
      const now = clock.now();
      const topupId = newId('ctu', now.getTime());
      await ledger.freeze(tx, {
        book: row.book,
        customerId: row.customer_id,
        accountType: 'contract',
        currency: 'USDT',
        amountUnits: amount,
        reason: 'contract.margin',
        reference: { type: 'contract_position', id: row.id },
        idempotencyKey: `contracts:topup:${topupId}`,
      });
      const margin = (BigInt(row.margin_units) + amount).toString();
      await tx
        .updateTable('contracts_position')
        .set({ margin_units: margin, updated_at: now })
        .where('id', '=', row.id)
        .execute();
      return { ...row, margin_units: margin, updated_at: now };
    });
    return positionData(row);
  }

  // ---- reads ------------------------------------------------------------------------------------

  async function positions(auth: AuthContext, symbol?: string): Promise<ContractPositionData[]> {
    await allSettings(symbol);
    let query = db
      .selectFrom('contracts_position')
      .selectAll()
      .where('customer_id', '=', auth.customerId)
      .where('book', '=', bookOf(auth))
      .where('status', '=', 'open')
      .orderBy('opened_at', 'desc')
      .orderBy('id', 'desc');
    if (symbol) query = query.where('symbol', '=', symbol);
    return (await query.execute()).map(positionData);
  }

  async function orders(
    auth: AuthContext,
    q: { symbol?: string; status?: 'pending' | 'filled' | 'cancelled'; page?: string; page_size?: string },
    /** Export: every row up to the export cap instead of the query's page. */
    all = false,
  ): Promise<Paged<ContractOrderData>> {
    const paging = all ? EXPORT_PAGING : pageOf(q, DERIVATIVES_LIMITS);
    let query = db
      .selectFrom('contracts_order')
      .where('customer_id', '=', auth.customerId)
      .where('book', '=', bookOf(auth))
      .where('status', '=', q.status ?? 'pending');
    if (q.symbol) query = query.where('symbol', '=', q.symbol);
    return pageNewestFirst(query, 'created_at', paging, (rows) => rows.map(orderData));
  }

  async function history(
    auth: AuthContext,
    q: {
      symbol?: string;
      status?: 'closed' | 'liquidated' | 'delivered';
      start_time?: string;
      end_time?: string;
      page?: string;
      page_size?: string;
    },
    /** Export: every row up to the export cap instead of the query's page. */
    all = false,
  ): Promise<Paged<ContractPositionData>> {
    const paging = all ? EXPORT_PAGING : pageOf(q, DERIVATIVES_LIMITS);
    if (q.start_time && q.end_time && Number(q.start_time) > Number(q.end_time)) refuse('DATE_RANGE_INVALID');
    let query = db
      .selectFrom('contracts_position')
      .where('customer_id', '=', auth.customerId)
      .where('book', '=', bookOf(auth))
      .where('status', 'in', q.status ? [q.status] : ['closed', 'liquidated', 'delivered']);
    if (q.symbol) query = query.where('symbol', '=', q.symbol);
    if (q.start_time) query = query.where('closed_at', '>=', new Date(Number(q.start_time)));
    if (q.end_time) query = query.where('closed_at', '<=', new Date(Number(q.end_time)));
    return pageNewestFirst(query, 'closed_at', paging, (rows) => rows.map(positionData));
  }

  async function closes(
    auth: AuthContext,
    q: { position_id?: string; symbol?: string; page?: string; page_size?: string },
    /** Export: every row up to the export cap instead of the query's page. */
    all = false,
  ): Promise<Paged<ContractCloseData>> {
    const paging = all ? EXPORT_PAGING : pageOf(q, DERIVATIVES_LIMITS);
    let query = db
      .selectFrom('contracts_close')
      .where('customer_id', '=', auth.customerId)
      .where('book', '=', bookOf(auth));
    if (q.position_id) query = query.where('position_id', '=', q.position_id);
    if (q.symbol) query = query.where('symbol', '=', q.symbol);
    return pageNewestFirst(query, 'closed_at', paging, (rows) => rows.map(closeData));
  }

  async function funding(
    auth: AuthContext,
    q: { position_id?: string; symbol?: string; page?: string; page_size?: string },
    /** Export: every row up to the export cap instead of the query's page. */
    all = false,
  ): Promise<Paged<ContractFundingData>> {
    const paging = all ? EXPORT_PAGING : pageOf(q, DERIVATIVES_LIMITS);
    let query = db
      .selectFrom('contracts_funding')
      .where('customer_id', '=', auth.customerId)
      .where('book', '=', bookOf(auth));
    if (q.position_id) query = query.where('position_id', '=', q.position_id);
    if (q.symbol) query = query.where('symbol', '=', q.symbol);
    return pageNewestFirst(query, 'funding_at', paging, (rows) =>
      rows.map((r) => {
        const i = instrument(r.symbol);
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
      }),
    );
  }

  return {
    instrument,
    pairOf,
    conversionNow,
    allSettings,
    instrumentData,
    positionData,
    orderData,
    closeData,
    maxLeverageOf,
    async contracts(symbol?: string): Promise<ContractInstrumentData[]> {
      const list = await allSettings(symbol);
      return Promise.all(list.map(({ i, s }) => instrumentData(i, s)));
    },
    quote,
    open,
    cancelOrder,
    async close(auth: AuthContext, positionId: string, lots?: string): Promise<ContractCloseData> {
      const row = await db
        .selectFrom('contracts_position')
        .select(['customer_id', 'book'])
        .where('id', '=', positionId)
        .executeTakeFirst();
      if (!row || row.customer_id !== auth.customerId || row.book !== bookOf(auth)) refuse('NOT_FOUND');
      return closeOne(auth.customerId, positionId, lots, 'user');
    },
    closeAll,
    setTpSl,
    addMargin,
    positions,
    orders,
    history,
    closes,
    funding,
  };
}

export type ContractsService = ReturnType<typeof createContractsService>;
