import { parseUnitsOrThrow } from '@bourse/money';
import {
  type ContractMath,
  feeFor,
  fundingUsdt,
  marginFor,
  pnlUsdt,
  type Ratio,
  ratioFromDecimal,
  reachesLevel,
  releasedMargin,
  riskRate,
  USDT_SCALE,
} from '@bourse/risk';
import type { Tx } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import type { Ledger, PostingInput } from '../ledger/index.ts';
import { type Conversion, type InstrumentInfo, lotsText, mathOf, priceText, storedPrice } from './math.ts';
import {
  type CloseRow,
  type FundingRow,
  insertClose,
  insertFundingOnce,
  insertPosition,
  lockInsurance,
  type OrderRow,
  type PositionRow,
  setFundingEntry,
  updatePosition,
} from './repo.ts';

/**
 * The money flows of contracts: each is ONE ledger entry posted inside the caller's transaction,
 * together with the row change it belongs to, under an idempotency key derived from the row id.
 * The amounts come from `@bourse/risk`; this file only routes them to accounts (README, "Flows").
 */

export type Book = 'real' | 'demo';
export type Side = 'buy' | 'sell';
export type { OrderRow, PositionRow };
export type CloseReason = 'user' | 'close_all' | 'take_profit' | 'stop_loss' | 'liquidation' | 'delivery';

/** A position row parsed into units (prices at the instrument's scale). */
export type Position = Readonly<{
  row: PositionRow;
  id: string;
  customerId: string;
  book: Book;
  symbol: string;
  side: Side;
  leverage: number;
  lotsUnits: bigint;
  openedLotsUnits: bigint;
  openUnits: bigint;
  marginUnits: bigint;
  feeUnits: bigint;
  fundingUnits: bigint;
  realizedUnits: bigint;
  tpUnits: bigint | null;
  slUnits: bigint | null;
  feePerLotUnits: bigint;
  level: Ratio;
}>;

export function positionOf(row: PositionRow, i: InstrumentInfo): Position {
  return Object.freeze({
    row,
    id: row.id,
    customerId: row.customer_id,
    book: row.book,
    symbol: row.symbol,
    side: row.side,
    leverage: row.leverage,
    lotsUnits: BigInt(row.lots_units),
    openedLotsUnits: BigInt(row.opened_lots_units),
    openUnits: storedPrice(i, row.open_price),
    marginUnits: BigInt(row.margin_units),
    feeUnits: BigInt(row.fee_units),
    fundingUnits: BigInt(row.funding_units),
    realizedUnits: BigInt(row.realized_pnl_units),
    tpUnits: row.tp_price === null ? null : storedPrice(i, row.tp_price),
    slUnits: row.sl_price === null ? null : storedPrice(i, row.sl_price),
    feePerLotUnits: parseUnitsOrThrow(row.fee_per_lot, { scale: USDT_SCALE }),
    level: ratioFromDecimal(row.liquidation_level),
  });
}

function usdtOf(text: string): bigint {
  return parseUnitsOrThrow(text, { scale: USDT_SCALE });
}

const customer = (p: { book: Book; customerId: string }) => ({
  book: p.book,
  customerId: p.customerId,
  accountType: 'contract' as const,
});
const platform = (book: Book, code: 'fee_income' | 'contract_house' | 'insurance' | 'insurance_capital') => ({
  book,
  platform: code,
});

function postings(list: Array<PostingInput | null>): PostingInput[] {
  return list.filter((p): p is PostingInput => p !== null && p.amountUnits !== 0n);
}

export type Fill = Readonly<{
  priceUnits: bigint;
  source: string;
  at: Date;
  tickSeq: bigint;
  conversion: Conversion;
}>;

type OpenInput = {
  i: InstrumentInfo;
  order: OrderRow;
  positionId: string;
  fill: Fill;
  now: Date;
  /** A pending order's frozen margin and fee: the margin stays what was frozen at placement. */
  frozen: { marginUnits: bigint; feeUnits: bigint } | null;
};

/** Opens a position (market order, or a pending order's fill). Margin and fees as given or computed. */
export async function openPosition(tx: Tx, ledger: Ledger, input: OpenInput): Promise<PositionRow> {
  const { i, order, fill } = input;
  const lots = BigInt(order.lots_units);
  const m = mathOf(i, fill.conversion.rate);
  const marginUnits = input.frozen?.marginUnits ?? marginFor(m, fill.priceUnits, lots, order.leverage);
  const feeUnits = input.frozen?.feeUnits ?? feeFor(usdtOf(order.fee_per_lot), lots);
  const entry = openEntry(order, { marginUnits, feeUnits, filled: input.frozen !== null });
  if (entry.postings.length >= 2)
    await ledger.post(tx, { ...entry, reference: { type: 'contract_position', id: input.positionId } });
  const row = positionRowOf(input, { marginUnits, feeUnits });
  await insertPosition(tx, row);
  return row;
}

/** A market open takes margin + fee from available; a pending order's fill only pays its frozen fee. */
function openEntry(order: OrderRow, a: { marginUnits: bigint; feeUnits: bigint; filled: boolean }) {
  const c = customer({ book: order.book, customerId: order.customer_id });
  const fee = { account: platform(order.book, 'fee_income'), currency: 'USDT', amountUnits: a.feeUnits };
  if (a.filled)
    return {
      reason: 'contract.fill',
      idempotencyKey: `contracts:fill:${order.id}`,
      postings: postings([{ account: c, currency: 'USDT', bucket: 'frozen', amountUnits: -a.feeUnits }, fee]),
    };
  return {
    reason: 'contract.open',
    idempotencyKey: `contracts:open:${order.id}`,
    postings: postings([
      { account: c, currency: 'USDT', amountUnits: -(a.marginUnits + a.feeUnits) },
      { account: c, currency: 'USDT', bucket: 'frozen', amountUnits: a.marginUnits },
      fee,
    ]),
  };
}

function positionRowOf(input: OpenInput, a: { marginUnits: bigint; feeUnits: bigint }): PositionRow {
  const { i, order, fill, now } = input;
  const lots = BigInt(order.lots_units).toString();
  return {
    id: input.positionId,
    customer_id: order.customer_id,
    book: order.book,
    symbol: order.symbol,
    instrument_id: i.id,
    order_id: order.id,
    side: order.side,
    leverage: order.leverage,
    lots_units: lots,
    opened_lots_units: lots,
    open_price: priceText(i, fill.priceUnits),
    open_price_source: fill.source,
    open_price_at: fill.at,
    open_tick_seq: fill.tickSeq.toString(),
    open_rate: fill.conversion.text,
    margin_units: a.marginUnits.toString(),
    fee_units: a.feeUnits.toString(),
    funding_units: '0',
    realized_pnl_units: '0',
    tp_price: order.tp_price,
    sl_price: order.sl_price,
    fee_per_lot: order.fee_per_lot,
    liquidation_level: order.liquidation_level,
    status: 'open',
    close_reason: null,
    close_price: null,
    close_price_source: null,
    close_price_at: null,
    opened_at: now,
    closed_at: null,
    updated_at: now,
  };
}

/** The pending order's frozen margin + fee go back to available. */
export async function releaseOrder(tx: Tx, ledger: Ledger, order: OrderRow): Promise<void> {
  const held = BigInt(order.margin_units) + BigInt(order.fee_units);
  await ledger.unfreeze(tx, {
    ...customer({ book: order.book, customerId: order.customer_id }),
    currency: 'USDT',
    amountUnits: held,
    reason: 'contract.order.cancel',
    reference: { type: 'contract_order', id: order.id },
    idempotencyKey: `contracts:cancel:${order.id}`,
  });
}

async function insuranceBalance(tx: Tx, ledger: Ledger, book: Book): Promise<bigint> {
  await lockInsurance(tx, book);
  const rows = await ledger.platformBalances(tx, { book, platform: 'insurance' });
  return rows.find((r) => r.currency === 'USDT')?.availableUnits ?? 0n;
}

export type CloseOutcome = Readonly<{
  closeId: string;
  lotsUnits: bigint;
  pnlUnits: bigint;
  feeUnits: bigint;
  releasedUnits: bigint;
  coveredUnits: bigint;
  uncoveredUnits: bigint;
  status: PositionRow['status'];
}>;

type CloseInput = {
  i: InstrumentInfo;
  p: Position;
  lotsUnits: bigint;
  fill: Fill;
  reason: CloseReason;
  now: Date;
};

/** What a close moves, in USDT units: every figure from `@bourse/risk`, the insurance cover from its balance. */
type CloseAmounts = Readonly<{
  /** The margin share released from frozen. */
  share: bigint;
  pnl: bigint;
  feeTaken: bigint;
  payout: bigint;
  shortfall: bigint;
  covered: bigint;
  /** contract_house's side: the balance of the entry. */
  house: bigint;
}>;

/**
 * Closes `lotsUnits` of a locked open position at `fill` (one entry): the released margin share
 * leaves frozen; P&L against contract_house; the closing fee (not on liquidations) to fee_income;
 * a loss beyond the share is paid to contract_house by `insurance` up to its balance — the
 * customer never gets less than 0 back, so no customer balance goes negative.
 */
export async function closeLots(tx: Tx, ledger: Ledger, input: CloseInput): Promise<CloseOutcome> {
  const { p, reason, now } = input;
  const a = await closeAmounts(tx, ledger, input);
  const closeId = newId('ccl', now.getTime());
  const entryId = await postClose(tx, ledger, { p, reason, closeId, a });
  const left = p.lotsUnits - input.lotsUnits;
  const status = statusAfterClose(left, reason);
  await insertClose(tx, closeRowOf(input, { closeId, entryId, a }));
  await updatePosition(tx, p.id, {
    lots_units: left.toString(),
    margin_units: (p.marginUnits - a.share).toString(),
    fee_units: (p.feeUnits + a.feeTaken).toString(),
    realized_pnl_units: (p.realizedUnits + a.pnl).toString(),
    status,
    close_reason: reason,
    close_price: priceText(input.i, input.fill.priceUnits),
    close_price_source: input.fill.source,
    close_price_at: input.fill.at,
    closed_at: left > 0n ? null : now,
    updated_at: now,
  });
  return Object.freeze({
    closeId,
    lotsUnits: input.lotsUnits,
    pnlUnits: a.pnl,
    feeUnits: a.feeTaken,
    releasedUnits: a.payout,
    coveredUnits: a.covered,
    uncoveredUnits: a.shortfall - a.covered,
    status,
  });
}

async function closeAmounts(tx: Tx, ledger: Ledger, input: CloseInput): Promise<CloseAmounts> {
  const { i, p, fill, reason } = input;
  const m: ContractMath = mathOf(i, fill.conversion.rate);
  const share = releasedMargin(p.marginUnits, input.lotsUnits, p.lotsUnits);
  const pnl = pnlUsdt(m, p.side, p.openUnits, fill.priceUnits, input.lotsUnits);
  const fee = reason === 'liquidation' ? 0n : feeFor(p.feePerLotUnits, input.lotsUnits);
  const gross = share + pnl;
  const feeTaken = gross <= 0n ? 0n : fee < gross ? fee : gross;
  const payout = gross - feeTaken > 0n ? gross - feeTaken : 0n;
  const shortfall = gross < 0n ? -gross : 0n;
  let covered = 0n;
  if (shortfall > 0n) {
    const fund = await insuranceBalance(tx, ledger, p.book);
    covered = shortfall < fund ? shortfall : fund;
  }
  const house = share - payout - feeTaken + covered;
  return { share, pnl, feeTaken, payout, shortfall, covered, house };
}

/** The close's one ledger entry (none when nothing moves); its id. */
async function postClose(
  tx: Tx,
  ledger: Ledger,
  input: { p: Position; reason: CloseReason; closeId: string; a: CloseAmounts },
): Promise<string | null> {
  const { p, a, reason } = input;
  const c = customer(p);
  const list = postings([
    { account: c, currency: 'USDT', bucket: 'frozen', amountUnits: -a.share },
    { account: c, currency: 'USDT', amountUnits: a.payout },
    { account: platform(p.book, 'fee_income'), currency: 'USDT', amountUnits: a.feeTaken },
    { account: platform(p.book, 'insurance'), currency: 'USDT', amountUnits: -a.covered },
    { account: platform(p.book, 'contract_house'), currency: 'USDT', amountUnits: a.house },
  ]);
  if (list.length < 2) return null;
  const entry = await ledger.post(tx, {
    reason: `contract.${reason === 'user' || reason === 'close_all' ? 'close' : reason}`,
    reference: { type: 'contract_position', id: p.id },
    idempotencyKey: `contracts:close:${input.closeId}`,
    postings: list,
  });
  return entry.id;
}

function statusAfterClose(leftUnits: bigint, reason: CloseReason): PositionRow['status'] {
  if (leftUnits > 0n) return 'open';
  if (reason === 'liquidation') return 'liquidated';
  if (reason === 'delivery') return 'delivered';
  return 'closed';
}

function closeRowOf(
  input: CloseInput,
  r: { closeId: string; entryId: string | null; a: CloseAmounts },
): CloseRow {
  const { i, p, fill } = input;
  const { a } = r;
  return {
    id: r.closeId,
    position_id: p.id,
    customer_id: p.customerId,
    book: p.book,
    symbol: p.symbol,
    side: p.side,
    lots_units: input.lotsUnits.toString(),
    open_price: p.row.open_price,
    close_price: priceText(i, fill.priceUnits),
    price_source: fill.source,
    price_at: fill.at,
    tick_seq: fill.tickSeq.toString(),
    rate: fill.conversion.text,
    pnl_units: a.pnl.toString(),
    fee_units: a.feeTaken.toString(),
    released_units: a.payout.toString(),
    insurance_covered_units: a.covered.toString(),
    uncovered_units: (a.shortfall - a.covered).toString(),
    reason: input.reason,
    entry_id: r.entryId,
    closed_at: input.now,
  };
}

/** Whether the position's risk rate at `markUnits` reaches its liquidation level. */
export function liquidates(i: InstrumentInfo, p: Position, markUnits: bigint, toUsdt: Ratio): boolean {
  if (p.marginUnits <= 0n) return true;
  return reachesLevel(
    riskRate(mathOf(i, toUsdt), p.side, p.openUnits, markUnits, p.lotsUnits, p.marginUnits),
    p.level,
  );
}

type FundingInput = { i: InstrumentInfo; p: Position; fundingAt: Date; rate: string; mark: Fill; now: Date };

/**
 * Funding of one open position at one funding time (exactly once by `unique (position_id,
 * funding_at)`): paid from or into the position's margin against contract_house. A payment never
 * takes more than the margin holds. Null when the position was already charged for that time.
 */
export async function chargeFunding(tx: Tx, ledger: Ledger, input: FundingInput): Promise<bigint | null> {
  const { p, now } = input;
  const amount = fundingAmount(input);
  const id = newId('cfu', now.getTime());
  if (!(await insertFundingOnce(tx, fundingRowOf(input, id, amount)))) return null;
  if (amount !== 0n) {
    const entry = await ledger.post(tx, {
      reason: 'contract.funding',
      reference: { type: 'contract_position', id: p.id },
      idempotencyKey: `contracts:funding:${id}`,
      postings: [
        { account: customer(p), currency: 'USDT', bucket: 'frozen', amountUnits: amount },
        { account: platform(p.book, 'contract_house'), currency: 'USDT', amountUnits: -amount },
      ],
    });
    await setFundingEntry(tx, id, entry.id);
    await updatePosition(tx, p.id, {
      margin_units: (p.marginUnits + amount).toString(),
      funding_units: (p.fundingUnits + amount).toString(),
      updated_at: now,
    });
  }
  return amount;
}

/** The signed funding payment, capped so a payment never takes more than the margin. */
function fundingAmount(input: FundingInput): bigint {
  const { i, p, mark } = input;
  const raw = fundingUsdt(
    mathOf(i, mark.conversion.rate),
    p.side,
    mark.priceUnits,
    p.lotsUnits,
    ratioFromDecimal(input.rate),
  );
  return raw < 0n && -raw > p.marginUnits ? -p.marginUnits : raw;
}

function fundingRowOf(input: FundingInput, id: string, amount: bigint): FundingRow {
  const { i, p, mark } = input;
  return {
    id,
    position_id: p.id,
    customer_id: p.customerId,
    book: p.book,
    symbol: p.symbol,
    side: p.side,
    funding_at: input.fundingAt,
    rate: input.rate,
    mark_price: priceText(i, mark.priceUnits),
    mark_source: mark.source,
    mark_at: mark.at,
    usdt_rate: mark.conversion.text,
    amount_units: amount.toString(),
    entry_id: null,
    created_at: input.now,
  };
}

export { lotsText };
