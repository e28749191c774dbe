import { isKnownAsset, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import type {
  AdminC2cMerchantBody,
  AdminC2cOfferBody,
  AdminC2cStateBody,
  C2cMerchantApplyBody,
  C2cMerchantData,
  C2cOfferData,
  C2cOffersQuery,
} from '@bourse/protocol';
import { C2C_LIMITS } from '@bourse/protocol';
import { C2C_COIN, C2C_PRICE_SCALE, C2C_SPREAD_BPS_MAX, type C2cPricing, quoteC2c } from '@bourse/risk';
import { inTransaction, isUniqueViolation } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import {
  type Book,
  type C2cDeps,
  coinText,
  DEFAULT_WINDOW_MINUTES,
  FEED_SYMBOLS,
  ms,
  priceText,
} from './context.ts';
import type { MerchantRow, OfferRow } from './repo.ts';
import * as repo from './repo.ts';
import type { StoredMethod } from './tables.ts';

/**
 * Merchants and offers (README.md, "Merchants and offers"): staff approve merchants (advanced
 * verification required; the operator's desk is a merchant like any other) and create, update and
 * pause their offers; customers list the active offers of approved merchants with each merchant's
 * record and the price now — a spread offer shows the feed price, its source and time.
 */

// ---- merchants

type Stats = { completion_rate: string | null; avg_release_minutes: number | null; orders_done: number };

export async function statsOf(deps: C2cDeps, ids: readonly string[]): Promise<Map<string, Stats>> {
  const out = new Map<string, Stats>();
  for (const r of await repo.merchantStats(deps.db, ids)) {
    const finished = BigInt(r.finished);
    const completed = BigInt(r.completed);
    out.set(r.merchant_id, {
      completion_rate: finished === 0n ? null : toDecimalString((completed * 10_000n) / finished, 2),
      avg_release_minutes: r.avg_release_minutes === null ? null : Math.round(Number(r.avg_release_minutes)),
      orders_done: Number(completed),
    });
  }
  return out;
}

const NO_STATS: Stats = { completion_rate: null, avg_release_minutes: null, orders_done: 0 };

export async function merchantsData(deps: C2cDeps): Promise<C2cMerchantData[]> {
  const rows = await repo.merchants(deps.db);
  const stats = await statsOf(
    deps,
    rows.map((m) => m.id),
  );
  const uids = (await deps.customerUids?.(rows.map((m) => m.customer_id))) ?? new Map<string, string>();
  return rows.map((m) => ({
    merchant_id: m.id,
    uid: uids.get(m.customer_id) ?? null,
    name: m.name,
    state: m.state,
    is_operator: m.is_operator,
    ...(stats.get(m.id) ?? NO_STATS),
    created_at: m.created_at.getTime(),
    decided_at: ms(m.decided_at),
    reason: m.reason,
  }));
}

async function requireTier(deps: C2cDeps, customerId: string) {
  if (!(await deps.merchantTierApproved(customerId))) refuse('C2C_MERCHANT_TIER', { tier: 'advanced' });
}

async function insertMerchant(deps: C2cDeps, row: MerchantRow): Promise<MerchantRow> {
  const existing = await repo.merchantOfCustomer(deps.db, row.customer_id);
  if (existing) refuse('C2C_MERCHANT_EXISTS', { state: existing.state });
  try {
    await inTransaction(deps.db, async (tx) => {
      await repo.insertMerchant(tx, row);
      if (row.state === 'approved')
        await deps.audit.record(tx, {
          actorId: row.created_by,
          action: 'c2c.merchant.create',
          targetType: 'c2c_merchant',
          targetId: row.id,
          after: { state: row.state, name: row.name, is_operator: row.is_operator },
          reason: row.reason ?? undefined,
        });
    });
  } catch (error) {
    if (isUniqueViolation(error)) refuse('C2C_MERCHANT_EXISTS', { state: 'pending' });
    throw error;
  }
  return row;
}

/** A customer asks to become a merchant (advanced verification); staff approve it. */
export async function applyMerchant(deps: C2cDeps, auth: AuthContext, body: C2cMerchantApplyBody) {
  if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
  await deps.requireFeature(auth.customerId);
  await requireTier(deps, auth.customerId);
  const now = deps.clock.now();
  return insertMerchant(deps, {
    id: newId('cmr', now.getTime()),
    customer_id: auth.customerId,
    name: body.name.trim(),
    state: 'pending',
    is_operator: false,
    created_at: now,
    created_by: auth.customerId,
    decided_by: null,
    decided_at: null,
    reason: null,
  });
}

/** Staff make a customer (by uid) a merchant at once (the operator's desk, a known partner). */
export async function createMerchant(deps: C2cDeps, staff: StaffContext, body: AdminC2cMerchantBody) {
  const customerId = await deps.customerByUid?.(body.uid);
  if (!customerId) refuse('NOT_FOUND');
  await requireTier(deps, customerId);
  const now = deps.clock.now();
  return insertMerchant(deps, {
    id: newId('cmr', now.getTime()),
    customer_id: customerId,
    name: body.name.trim(),
    state: 'approved',
    is_operator: body.is_operator === true,
    created_at: now,
    created_by: staff.staffId,
    decided_by: staff.staffId,
    decided_at: now,
    reason: body.reason.trim(),
  });
}

export async function setMerchantState(
  deps: C2cDeps,
  staff: StaffContext,
  id: string,
  body: AdminC2cStateBody,
) {
  if (body.state !== 'approved' && body.state !== 'suspended') refuse('BAD_INPUT', { field: 'state' });
  return inTransaction(deps.db, async (tx) => {
    const m = await repo.findMerchant(tx, id, { lock: true });
    if (!m) refuse('NOT_FOUND');
    if (body.state === 'approved') await requireTier(deps, m.customer_id);
    const now = deps.clock.now();
    const patch = {
      state: body.state as 'approved' | 'suspended',
      decided_by: staff.staffId,
      decided_at: now,
      reason: body.reason.trim(),
    };
    await repo.updateMerchant(tx, id, patch);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: `c2c.merchant.${body.state === 'approved' ? 'approve' : 'suspend'}`,
      targetType: 'c2c_merchant',
      targetId: id,
      before: { state: m.state },
      after: { state: body.state },
      reason: patch.reason,
    });
    return { ...m, ...patch };
  });
}

// ---- offers

function units(value: string, scale: number, field: string, allowZero = false): bigint {
  const p = parseDecimal(value, { scale, allowZero });
  if (!p.ok) refuse('C2C_OFFER_INVALID', { field });
  return p.units;
}

/** The offer's fields, checked; refusals name the field. */
function offerFields(body: AdminC2cOfferBody, coin: string, fiat: string, windowMin?: number) {
  const scale = scaleOf(coin);
  const min = units(body.min_amount, scale, 'min_amount');
  const max = units(body.max_amount, scale, 'max_amount');
  const total = units(body.total_amount, scale, 'total_amount');
  if (max < min) refuse('C2C_OFFER_INVALID', { field: 'max_amount' });
  const seen = new Set<string>();
  const methods: StoredMethod[] = body.methods.map((m) => {
    if (seen.has(m.method)) refuse('C2C_OFFER_INVALID', { field: 'methods' });
    seen.add(m.method);
    const w = m.window_minutes ?? DEFAULT_WINDOW_MINUTES;
    if (w < (windowMin ?? C2C_LIMITS.paymentWindowMinutesMin) || w > C2C_LIMITS.paymentWindowMinutesMax)
      refuse('C2C_OFFER_INVALID', { field: 'window_minutes' });
    const cap = m.max_amount ? units(m.max_amount, scale, 'methods.max_amount') : null;
    return { method: m.method, window_minutes: w, max_units: cap === null ? null : cap.toString() };
  });
  let price: bigint | null = null;
  let spread: number | null = null;
  let feed: string | null = null;
  if (body.price_kind === 'fixed') price = units(body.price ?? '', C2C_PRICE_SCALE, 'price');
  else {
    spread = body.spread_bps ?? 0;
    if (BigInt(spread) > C2C_SPREAD_BPS_MAX || BigInt(spread) < -C2C_SPREAD_BPS_MAX)
      refuse('C2C_OFFER_INVALID', { field: 'spread_bps' });
    feed = FEED_SYMBOLS[`${coin}/${fiat}`] ?? null;
    if (feed === null) refuse('C2C_OFFER_INVALID', { field: 'price_kind' });
  }
  return {
    price_kind: body.price_kind,
    price_units: price === null ? null : price.toString(),
    spread_bps: spread,
    feed_symbol: feed,
    min_units: min.toString(),
    max_units: max.toString(),
    total_units: total.toString(),
    methods,
    terms: body.terms.trim(),
  };
}

export async function createOffer(
  deps: C2cDeps,
  staff: StaffContext,
  body: AdminC2cOfferBody,
): Promise<OfferRow> {
  if (!body.merchant_id || !body.side || !body.coin || !body.fiat)
    refuse('FIELD_REQUIRED', {
      field: !body.merchant_id ? 'merchant_id' : !body.side ? 'side' : !body.coin ? 'coin' : 'fiat',
    });
  // The published limits (age bands, four eyes) are USDT amounts: an offer trades USDT only.
  if (!isKnownAsset(body.coin) || body.coin !== C2C_COIN) refuse('C2C_OFFER_INVALID', { field: 'coin' });
  if (!/^[A-Z]{3}$/.test(body.fiat)) refuse('C2C_OFFER_INVALID', { field: 'fiat' });
  const merchant = await repo.findMerchant(deps.db, body.merchant_id);
  if (!merchant) refuse('NOT_FOUND');
  const now = deps.clock.now();
  const row: OfferRow = {
    id: newId('cof', now.getTime()),
    merchant_id: merchant.id,
    side: body.side,
    coin: body.coin,
    fiat: body.fiat,
    ...offerFields(body, body.coin, body.fiat, deps.windowMinutesMin),
    sold_units: '0',
    state: 'active',
    book: body.book ?? 'real',
    created_at: now,
    updated_at: now,
  };
  await inTransaction(deps.db, async (tx) => {
    await repo.insertOffer(tx, row);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'c2c.offer.create',
      targetType: 'c2c_offer',
      targetId: row.id,
      after: { ...row, created_at: undefined, updated_at: undefined },
      reason: body.reason.trim(),
    });
  });
  return row;
}

/** Price, limits, total, methods and terms; the total never below what orders hold already. */
export async function updateOffer(deps: C2cDeps, staff: StaffContext, id: string, body: AdminC2cOfferBody) {
  return inTransaction(deps.db, async (tx) => {
    const o = await repo.findOffer(tx, id, { lock: true });
    if (!o) refuse('NOT_FOUND');
    const fields = offerFields(body, o.coin, o.fiat, deps.windowMinutesMin);
    if (BigInt(fields.total_units) < BigInt(o.sold_units))
      refuse('C2C_OFFER_INVALID', { field: 'total_amount' });
    const patch = { ...fields, updated_at: deps.clock.now() };
    await repo.updateOffer(tx, id, patch);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'c2c.offer.update',
      targetType: 'c2c_offer',
      targetId: id,
      before: { ...o, created_at: undefined, updated_at: undefined },
      after: fields,
      reason: body.reason.trim(),
    });
    return { ...o, ...patch };
  });
}

export async function setOfferState(deps: C2cDeps, staff: StaffContext, id: string, body: AdminC2cStateBody) {
  if (body.state !== 'active' && body.state !== 'paused') refuse('BAD_INPUT', { field: 'state' });
  return inTransaction(deps.db, async (tx) => {
    const o = await repo.findOffer(tx, id, { lock: true });
    if (!o) refuse('NOT_FOUND');
    const patch = { state: body.state as 'active' | 'paused', updated_at: deps.clock.now() };
    await repo.updateOffer(tx, id, patch);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: `c2c.offer.${body.state === 'active' ? 'open' : 'pause'}`,
      targetType: 'c2c_offer',
      targetId: id,
      before: { state: o.state },
      after: { state: body.state },
      reason: body.reason.trim(),
    });
    return { ...o, ...patch };
  });
}

/** How an offer is priced now: its fixed price, or the feed's price with the spread (null when no live price). */
export function pricingOf(
  deps: C2cDeps,
  o: OfferRow,
): { pricing: C2cPricing; feed: ReturnType<C2cDeps['feedPrice']> } | null {
  if (o.price_kind === 'fixed')
    return { pricing: { kind: 'fixed', priceUnits: BigInt(o.price_units ?? 0) }, feed: null };
  const feed = deps.feedPrice(o.feed_symbol ?? '');
  if (!feed) return null;
  const p = parseDecimal(feed.price, { scale: C2C_PRICE_SCALE, allowZero: false });
  if (!p.ok) return null;
  return { pricing: { kind: 'spread', spreadBps: BigInt(o.spread_bps ?? 0), feedPriceUnits: p.units }, feed };
}

export function offerData(deps: C2cDeps, o: OfferRow, m: MerchantRow, stats: Stats): C2cOfferData {
  const scale = scaleOf(o.coin);
  const priced = pricingOf(deps, o);
  const one = 10n ** BigInt(scale);
  const price = priced
    ? quoteC2c({ side: o.side, pricing: priced.pricing, coinUnits: one, coinScale: scale }).priceUnits
    : null;
  const remaining = BigInt(o.total_units) - BigInt(o.sold_units);
  return {
    offer_id: o.id,
    merchant_id: m.id,
    merchant_name: m.name,
    is_operator: m.is_operator,
    book: o.book,
    side: o.side,
    coin: o.coin,
    fiat: o.fiat,
    state: o.state,
    price_kind: o.price_kind,
    price: price === null ? null : priceText(price),
    spread_bps: o.spread_bps,
    feed:
      priced?.feed && o.feed_symbol
        ? {
            symbol: o.feed_symbol,
            price: priced.feed.price,
            source: priced.feed.source,
            at: priced.feed.at.getTime(),
          }
        : null,
    min_amount: coinText(o.min_units, scale),
    max_amount: coinText(o.max_units, scale),
    total_amount: coinText(o.total_units, scale),
    remaining: coinText(remaining, scale),
    methods: o.methods.map((x) => ({
      method: x.method,
      window_minutes: x.window_minutes,
      max_amount: x.max_units === null ? null : coinText(x.max_units, scale),
    })),
    terms: o.terms,
    ...stats,
  };
}

export async function offersData(
  deps: C2cDeps,
  query: C2cOffersQuery & { all?: boolean; book?: Book },
  page: { page: number; pageSize: number },
): Promise<C2cOfferData[]> {
  const rows = await repo.offers(deps.db, {
    side: query.side,
    coin: query.coin,
    fiat: query.fiat,
    activeOnly: query.all !== true,
    ...(query.book ? { book: query.book } : {}),
    limit: page.pageSize,
    offset: (page.page - 1) * page.pageSize,
  });
  const filtered = query.method ? rows.filter((o) => o.methods.some((m) => m.method === query.method)) : rows;
  const merchantIds = [...new Set(filtered.map((o) => o.merchant_id))];
  const merchants = new Map((await repo.merchantsByIds(deps.db, merchantIds)).map((m) => [m.id, m]));
  const stats = await statsOf(deps, merchantIds);
  return filtered.flatMap((o) => {
    const m = merchants.get(o.merchant_id);
    return m ? [offerData(deps, o, m, stats.get(m.id) ?? NO_STATS)] : [];
  });
}

/** One offer of a book (paused ones too: the screen says so); another book's or none is NOT_FOUND. */
export async function offerOf(deps: C2cDeps, offerId: string, book: Book): Promise<C2cOfferData> {
  const o = await repo.findOffer(deps.db, offerId);
  const m = o && o.book === book ? await repo.findMerchant(deps.db, o.merchant_id) : undefined;
  if (!o || !m) refuse('NOT_FOUND');
  return offerData(deps, o, m, (await statsOf(deps, [m.id])).get(m.id) ?? NO_STATS);
}
