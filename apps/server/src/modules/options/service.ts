import type {
  AdminOptionExposureData,
  AdminOptionOrderData,
  AdminOptionOrdersQuery,
  AdminOptionSettingsBody,
  AdminOptionSettingsData,
  BuyOptionBody,
  DerivativesBook,
  OptionInstrumentData,
  OptionOrderData,
  OptionOrdersQuery,
  Paged,
} from '@bourse/protocol';
import { DERIVATIVES_LIMITS } from '@bourse/protocol';
import type { Logger } from 'pino';
import { type Db, inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { dateRangeOf, pageOf } from '../../http/paging.ts';
import { expectRefusal, refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { EXPORT_PAGING } from '../../lib/csv.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import type { OrderRow, SettingRow } from './repo.ts';
import * as repo from './repo.ts';
import {
  durationData,
  durationsText,
  OPTION_CURRENCY,
  OPTION_DEFAULTS,
  parseDurations,
  parseStakeSetting,
  usdtText,
} from './settings.ts';
import { createOptionsConsumer } from './settle.ts';
import type { StoredDuration } from './tables.ts';

/** What options need from the jurisdiction profile (modules/jurisdiction satisfies it). */
export type OptionsJurisdiction = { optionsEnabled(): Promise<boolean> };

/** What options need from the customer's risk rating (modules/suitability implements it; wiring.ts injects it). */
export type OptionsRatingCaps = {
  checkCap(customerId: string, req: { productClass: 'options'; amountUnits: bigint }): Promise<void>;
};

function orderData(o: OrderRow): OptionOrderData {
  const opt = (u: string | null) => (u === null ? null : usdtText(BigInt(u)));
  return {
    order_id: o.id,
    client_oid: o.client_oid,
    symbol: o.symbol,
    book: o.book,
    direction: o.direction,
    stake: usdtText(BigInt(o.stake_units)),
    currency: OPTION_CURRENCY,
    duration: o.duration_s,
    payout_rate: String(o.payout_rate),
    open_price: String(o.open_price),
    open_price_source: o.open_price_source,
    open_price_at: o.open_price_at.getTime(),
    opened_at: o.opened_at.getTime(),
    expires_at: o.expires_at.getTime(),
    status: o.status,
    settlement_price: o.settlement_price === null ? null : String(o.settlement_price),
    settlement_price_source: o.settlement_price_source,
    settlement_price_at: o.settlement_price_at?.getTime() ?? null,
    payout: opt(o.payout_units),
    profit: opt(o.profit_units),
    settled_at: o.settled_at?.getTime() ?? null,
  };
}

/**
 * Time-based up/down options with the platform as counterparty (README.md). Buying freezes the
 * stake in the customer's `options` account and records the opening price from the feed; the
 * consumer (`settle.ts`) settles each option on the recorded feed at expiry. There is no call
 * that sets a price, a settlement price or a result.
 */
export function createOptions(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: Market;
  audit: AuditLog;
  jurisdiction: OptionsJurisdiction;
  /** The risk rating's stake cap, asked for every real-book buy (the demo book is play money: not capped). */
  ratingCaps: OptionsRatingCaps;
  /** Back-office labels (email, phone or uid) of customers; accounts owns them, app.ts wires it. */
  customerLabels?: (customerIds: string[]) => Promise<Map<string, string>>;
}) {
  const { db, clock, log, ledger, market, audit, jurisdiction, ratingCaps } = deps;
  const customerLabels = deps.customerLabels ?? (async () => new Map<string, string>());
  const consumer = createOptionsConsumer({ ledger, log, clock });

  function instrumentOrNull(symbol: string) {
    try {
      return market.instrument(symbol);
    } catch (error) {
      expectRefusal(error, 'INSTRUMENT_UNKNOWN');
      return null;
    }
  }

  function isOpen(symbol: string): boolean {
    try {
      const state = market.ticker(symbol).state;
      return state === 'live' || state === 'stale';
    } catch (error) {
      expectRefusal(error, 'INSTRUMENT_UNKNOWN');
      return false;
    }
  }

  function settingData(s: SettingRow): AdminOptionSettingsData | null {
    const i = instrumentOrNull(s.symbol);
    if (!i) return null;
    return {
      symbol: s.symbol,
      name: i.name,
      asset_class: i.assetClass,
      enabled: s.enabled,
      min_stake: usdtText(BigInt(s.min_stake_units)),
      max_stake: usdtText(BigInt(s.max_stake_units)),
      durations: durationData(s.durations),
      updated_at: s.updated_at.getTime(),
    };
  }

  async function seed(): Promise<number> {
    const now = clock.now();
    const values = OPTION_DEFAULTS.symbols
      .filter((symbol) => instrumentOrNull(symbol) !== null)
      .map((symbol) => ({
        symbol,
        enabled: true,
        min_stake_units: parseStakeSetting('min_stake', OPTION_DEFAULTS.minStake).toString(),
        max_stake_units: parseStakeSetting('max_stake', OPTION_DEFAULTS.maxStake).toString(),
        durations: JSON.stringify(OPTION_DEFAULTS.durations) as unknown as StoredDuration[],
        created_at: now,
        updated_at: now,
      }));
    return repo.insertMissingSettings(db, values);
  }

  function same(o: OrderRow, symbol: string, direction: string, stake: bigint, duration: number): boolean {
    return (
      o.symbol === symbol &&
      o.direction === direction &&
      BigInt(o.stake_units) === stake &&
      o.duration_s === duration
    );
  }

  async function buy(auth: AuthContext, body: BuyOptionBody): Promise<OptionOrderData> {
    if (!(await jurisdiction.optionsEnabled())) refuse('OPTIONS_NOT_PERMITTED');
    const setting = await repo.findSetting(db, body.symbol);
    const instrument = instrumentOrNull(body.symbol);
    if (!setting?.enabled || !instrument) refuse('OPTIONS_UNAVAILABLE', { symbol: body.symbol });
    const duration = setting.durations.find((d) => String(d.seconds) === String(Number(body.duration)));
    if (!duration)
      refuse('OPTION_DURATION_INVALID', { durations: setting.durations.map((d) => d.seconds).join(', ') });
    const stake = parseAmount('stake', body.stake, OPTION_CURRENCY);
    if (stake < BigInt(setting.min_stake_units))
      refuse('OPTION_STAKE_BELOW_MIN', { min: usdtText(BigInt(setting.min_stake_units)) });
    if (stake > BigInt(setting.max_stake_units))
      refuse('OPTION_STAKE_ABOVE_MAX', { max: usdtText(BigInt(setting.max_stake_units)) });
    const book: DerivativesBook = auth.isDemo ? 'demo' : 'real';
    const customerId = auth.customerId;
    if (book === 'real')
      await ratingCaps.checkCap(customerId, { productClass: 'options', amountUnits: stake });
    if (body.client_oid) {
      const existing = await repo.findOrderByClientOid(db, customerId, body.client_oid);
      if (existing) {
        if (same(existing, body.symbol, body.direction, stake, duration.seconds)) return orderData(existing);
        refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
      }
    }
    const row = await inTransaction(db, async (tx) => {
      // One customer's buys run one at a time: the open limit and a client_oid twin are exact.
      await repo.lockCustomerBuys(tx, customerId);
      if (body.client_oid) {
        const twin = await repo.findOrderByClientOid(tx, customerId, body.client_oid);
        if (twin) {
          if (same(twin, body.symbol, body.direction, stake, duration.seconds)) return twin;
          refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
        }
      }
      if ((await repo.countOpenOrders(tx, customerId)) >= DERIVATIVES_LIMITS.openOptionsMax)
        refuse('OPTION_OPEN_LIMIT', { max: DERIVATIVES_LIMITS.openOptionsMax });
      // The price is taken last, as close to the opening time as possible; it refuses a closed,
      // halted or stale market (MARKET_CLOSED, PRICE_STALE, …).
      const price = market.priceForTrading(instrument.symbol);
      const now = clock.now();
      const id = newId('opt', now.getTime());
      const entry = await ledger.freeze(tx, {
        book,
        customerId,
        accountType: 'options',
        currency: OPTION_CURRENCY,
        amountUnits: stake,
        reason: 'option.open',
        reference: { type: 'option', id },
        idempotencyKey: `option:open:${id}`,
      });
      const order: OrderRow = {
        id,
        customer_id: customerId,
        book,
        symbol: instrument.symbol,
        instrument_id: instrument.id,
        client_oid: body.client_oid ?? null,
        direction: body.direction,
        stake_units: stake.toString(),
        duration_s: duration.seconds,
        payout_rate: duration.payout_rate,
        open_price: price.last,
        open_price_source: price.source,
        open_price_at: price.at,
        open_tick_seq: String(price.tickSeq),
        opened_at: now,
        expires_at: new Date(now.getTime() + duration.seconds * 1_000),
        status: 'open',
        settlement_price: null,
        settlement_price_source: null,
        settlement_price_at: null,
        settlement_tick_seq: null,
        payout_units: null,
        profit_units: null,
        settled_at: null,
        open_entry_id: entry.id,
      };
      await repo.insertOrder(tx, order);
      return order;
    });
    return orderData(row);
  }

  /** A list query's filter: the wire's `start_time` / `end_time` read as a range (refused when bad). */
  function orderFilter(filter: {
    customerId?: string;
    book?: DerivativesBook;
    symbol?: string;
    status?: 'open' | 'settled';
    start_time?: string;
    end_time?: string;
  }): repo.OrderFilter {
    const { from, to } = dateRangeOf(filter);
    return {
      customerId: filter.customerId,
      book: filter.book,
      symbol: filter.symbol,
      status: filter.status,
      from,
      to,
    };
  }

  return {
    consumer,
    async start(): Promise<{ seeded: number }> {
      const seeded = await seed();
      log.info({ seeded }, 'options settings ready');
      return { seeded };
    },
    async instruments(symbol?: string): Promise<OptionInstrumentData[]> {
      const rows = await repo.listSettings(db, symbol);
      const out: OptionInstrumentData[] = [];
      for (const s of rows) {
        const i = instrumentOrNull(s.symbol);
        if (!i) continue;
        out.push({
          symbol: s.symbol,
          name: i.name,
          asset_class: i.assetClass,
          currency: OPTION_CURRENCY,
          min_stake: usdtText(BigInt(s.min_stake_units)),
          max_stake: usdtText(BigInt(s.max_stake_units)),
          durations: durationData(s.durations),
          trading_hours: i.schedule.text,
          open: isOpen(s.symbol),
          enabled: s.enabled,
        });
      }
      return out;
    },
    buy,
    async order(auth: AuthContext, orderId: string): Promise<OptionOrderData> {
      const o = await repo.findOrder(db, orderId, auth.customerId);
      if (!o) refuse('NOT_FOUND');
      return orderData(o);
    },
    /** `all`: every row up to the export cap (CSV export) instead of the query's page. */
    orders(auth: AuthContext, q: OptionOrdersQuery, all = false): Promise<Paged<OptionOrderData>> {
      return repo.ordersPage(
        db,
        orderFilter({ ...q, customerId: auth.customerId }),
        all ? EXPORT_PAGING : pageOf(q, DERIVATIVES_LIMITS),
        (rows) => rows.map(orderData),
      );
    },

    // ---- back office: settings (audited) and read-only views. Nothing here touches an order.
    async settings(): Promise<{ items: AdminOptionSettingsData[] }> {
      const rows = await repo.listSettings(db);
      return { items: rows.map(settingData).filter((s): s is AdminOptionSettingsData => s !== null) };
    },
    async updateSettings(
      staff: StaffContext,
      body: AdminOptionSettingsBody,
    ): Promise<AdminOptionSettingsData> {
      const instrument = instrumentOrNull(body.symbol);
      if (!instrument) refuse('INSTRUMENT_UNKNOWN', { symbol: body.symbol });
      const change: Partial<SettingRow> = {};
      if (body.enabled !== undefined) change.enabled = body.enabled;
      if (body.min_stake !== undefined)
        change.min_stake_units = parseStakeSetting('min_stake', body.min_stake).toString();
      if (body.max_stake !== undefined)
        change.max_stake_units = parseStakeSetting('max_stake', body.max_stake).toString();
      if (body.durations !== undefined)
        change.durations = JSON.stringify(parseDurations(body.durations)) as unknown as StoredDuration[];
      const saved = await inTransaction(db, async (tx) => {
        const now = clock.now();
        const before = await repo.findSetting(tx, instrument.symbol, { lock: true });
        const next = {
          symbol: instrument.symbol,
          enabled: change.enabled ?? before?.enabled ?? false,
          min_stake_units:
            change.min_stake_units ??
            before?.min_stake_units ??
            parseStakeSetting('min_stake', OPTION_DEFAULTS.minStake).toString(),
          max_stake_units:
            change.max_stake_units ??
            before?.max_stake_units ??
            parseStakeSetting('max_stake', OPTION_DEFAULTS.maxStake).toString(),
          durations:
            change.durations ?? (JSON.stringify(before?.durations ?? OPTION_DEFAULTS.durations) as never),
          created_at: before?.created_at ?? now,
          updated_at: now,
        };
        if (BigInt(next.min_stake_units) > BigInt(next.max_stake_units))
          refuse('CONTRACT_SETTING_INVALID', {
            field: body.max_stake !== undefined ? 'max_stake' : 'min_stake',
          });
        const row = await repo.upsertSetting(tx, next);
        const shape = (s: SettingRow | undefined) =>
          s
            ? {
                enabled: s.enabled,
                min_stake: usdtText(BigInt(s.min_stake_units)),
                max_stake: usdtText(BigInt(s.max_stake_units)),
                durations: durationsText(s.durations),
              }
            : null;
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'options.settings.update',
          targetType: 'options_setting',
          targetId: instrument.symbol,
          before: shape(before),
          after: shape(row),
          reason: body.reason,
        });
        return row;
      });
      return settingData(saved) as AdminOptionSettingsData;
    },
    async adminOrders(q: AdminOptionOrdersQuery): Promise<Paged<AdminOptionOrderData>> {
      return repo.ordersPage(
        db,
        orderFilter({ ...q, customerId: q.customer_id }),
        pageOf(q, DERIVATIVES_LIMITS),
        async (rows) => {
          const labels = await customerLabels([...new Set(rows.map((r) => r.customer_id))]);
          return rows.map((r) => ({
            ...orderData(r),
            customer_id: r.customer_id,
            customer_label: labels.get(r.customer_id) ?? r.customer_id,
          }));
        },
      );
    },
    async exposure(book: DerivativesBook): Promise<{ items: AdminOptionExposureData[] }> {
      const rows = await repo.openExposure(db, book);
      return {
        items: rows.map((r) => ({
          symbol: r.symbol,
          book,
          open_orders: Number(r.n),
          up_stake: usdtText(BigInt(r.up)),
          down_stake: usdtText(BigInt(r.down)),
          max_payout: usdtText(BigInt(r.max_payout)),
        })),
      };
    },
  };
}

export type Options = ReturnType<typeof createOptions>;
