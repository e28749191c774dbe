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
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { dateRangeOf, pageNewestFirst, pageOf } from '../../http/paging.ts';
import { expectRefusal, refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { EXPORT_PAGING } from '../../lib/csv.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
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
import type { OptionsTables, StoredDuration } from './tables.ts';

type OrderRow = OptionsTables['options_order'];
type SettingRow = OptionsTables['options_setting'];

/** What options need from the jurisdiction profile (modules/jurisdiction satisfies it). */
export type OptionsJurisdiction = { optionsEnabled(): Promise<boolean> };

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
  /** Back-office labels (email, phone or uid) of customers; accounts owns them, app.ts wires it. */
  customerLabels?: (customerIds: string[]) => Promise<Map<string, string>>;
}) {
  const { db, clock, log, ledger, market, audit, jurisdiction } = deps;
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
    if (values.length === 0) return 0;
    const r = await db
      .insertInto('options_setting')
      .values(values)
      .onConflict((oc) => oc.column('symbol').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n);
  }

  async function findByClientOid(q: Db | Tx, customerId: string, clientOid: string) {
    return q
      .selectFrom('options_order')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('client_oid', '=', clientOid)
      .executeTakeFirst();
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
    const setting = await db
      .selectFrom('options_setting')
      .selectAll()
      .where('symbol', '=', body.symbol)
      .executeTakeFirst();
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
    if (body.client_oid) {
      const existing = await findByClientOid(db, customerId, body.client_oid);
      if (existing) {
        if (same(existing, body.symbol, body.direction, stake, duration.seconds)) return orderData(existing);
        refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
      }
    }
    const row = await inTransaction(db, async (tx) => {
      // One customer's buys run one at a time: the open limit and a client_oid twin are exact.
      await sql`select pg_advisory_xact_lock(hashtextextended(${`options:${customerId}`}, 0))`.execute(tx);
      if (body.client_oid) {
        const twin = await findByClientOid(tx, customerId, body.client_oid);
        if (twin) {
          if (same(twin, body.symbol, body.direction, stake, duration.seconds)) return twin;
          refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
        }
      }
      const open = await tx
        .selectFrom('options_order')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('customer_id', '=', customerId)
        .where('status', '=', 'open')
        .executeTakeFirstOrThrow();
      if (Number(open.n) >= DERIVATIVES_LIMITS.openOptionsMax)
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
      await tx.insertInto('options_order').values(order).execute();
      return order;
    });
    return orderData(row);
  }

  async function findOrder(customerId: string | null, id: string) {
    let q = db.selectFrom('options_order').selectAll().where('id', '=', id);
    if (customerId !== null) q = q.where('customer_id', '=', customerId);
    return q.executeTakeFirst();
  }

  function listQuery(filter: {
    customerId?: string;
    book?: DerivativesBook;
    symbol?: string;
    status?: 'open' | 'settled';
    start_time?: string;
    end_time?: string;
  }) {
    let q = db.selectFrom('options_order');
    if (filter.customerId) q = q.where('customer_id', '=', filter.customerId);
    if (filter.book) q = q.where('book', '=', filter.book);
    if (filter.symbol) q = q.where('symbol', '=', filter.symbol);
    if (filter.status === 'open') q = q.where('status', '=', 'open');
    if (filter.status === 'settled') q = q.where('status', '<>', 'open');
    const range = dateRangeOf(filter);
    if (range.from) q = q.where('opened_at', '>=', range.from);
    if (range.to) q = q.where('opened_at', '<', range.to);
    return q;
  }

  return {
    consumer,
    async start(): Promise<{ seeded: number }> {
      const seeded = await seed();
      log.info({ seeded }, 'options settings ready');
      return { seeded };
    },
    async instruments(symbol?: string): Promise<OptionInstrumentData[]> {
      let q = db.selectFrom('options_setting').selectAll().orderBy('symbol');
      if (symbol) q = q.where('symbol', '=', symbol);
      const rows = await q.execute();
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
      const o = await findOrder(auth.customerId, orderId);
      if (!o) refuse('NOT_FOUND');
      return orderData(o);
    },
    /** `all`: every row up to the export cap (CSV export) instead of the query's page. */
    orders(auth: AuthContext, q: OptionOrdersQuery, all = false): Promise<Paged<OptionOrderData>> {
      return pageNewestFirst(
        listQuery({ ...q, customerId: auth.customerId }),
        'opened_at',
        all ? EXPORT_PAGING : pageOf(q, DERIVATIVES_LIMITS),
        (rows) => rows.map(orderData),
      );
    },

    // ---- back office: settings (audited) and read-only views. Nothing here touches an order.
    async settings(): Promise<{ items: AdminOptionSettingsData[] }> {
      const rows = await db.selectFrom('options_setting').selectAll().orderBy('symbol').execute();
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
        const before = await tx
          .selectFrom('options_setting')
          .selectAll()
          .where('symbol', '=', instrument.symbol)
          .forUpdate()
          .executeTakeFirst();
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
        const row = await tx
          .insertInto('options_setting')
          .values(next)
          .onConflict((oc) =>
            oc.column('symbol').doUpdateSet({
              enabled: next.enabled,
              min_stake_units: next.min_stake_units,
              max_stake_units: next.max_stake_units,
              durations: next.durations,
              updated_at: now,
            }),
          )
          .returningAll()
          .executeTakeFirstOrThrow();
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
      return pageNewestFirst(
        listQuery({ ...q, customerId: q.customer_id }),
        'opened_at',
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
      const rows = await sql<{
        symbol: string;
        n: string;
        up: string;
        down: string;
        max_payout: string;
      }>`
        select symbol, count(*)::text as n,
          coalesce(sum(stake_units) filter (where direction = 'up'), 0)::text as up,
          coalesce(sum(stake_units) filter (where direction = 'down'), 0)::text as down,
          coalesce(sum(floor(stake_units * payout_rate)), 0)::text as max_payout
        from options_order where status = 'open' and book = ${book}
        group by symbol order by symbol`.execute(db);
      return {
        items: rows.rows.map((r) => ({
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
