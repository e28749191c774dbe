import type {
  AdminContractSettingsBody,
  AdminContractSettingsData,
  AdminExposureData,
  AdminInsuranceData,
  AdminInsuranceFundBody,
  AdminPositionData,
  AdminPositionsQuery,
  Paged,
} from '@bourse/protocol';
import { DERIVATIVES_LIMITS } from '@bourse/protocol';
import {
  effectiveMaxLeverage,
  executable,
  LOTS_SCALE,
  leverageClassOf,
  pnlUsdt,
  USDT_SCALE,
} from '@bourse/risk';
import { sql } from 'kysely';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { parseAmount } from '../assets/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import { positionOf } from './core.ts';
import { decimalText, lotsText, mathOf, priceText, storedPrice, usdtText } from './math.ts';
import type { ContractsService } from './service.ts';
import { kindOf } from './service.ts';
import { loadSettings, parseSetting, settingDecimal } from './settings.ts';

/**
 * The back office of contracts: settings (audited, for new orders only), exposure, positions, the
 * insurance account and its funding. Nothing here sets a price or closes a position: there is no
 * such call (a test enumerates the admin routes).
 */
/** Insurance movements the back office shows. */
const INSURANCE_MOVEMENTS_MAX = 50;

export function createContractsAdmin(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  market: Market;
  audit: AuditLog;
  service: ContractsService;
  /** Customer id → what the back office shows (accounts' `customerLabels`, passed in by app.ts). */
  customerLabels(ids: readonly string[]): Promise<Map<string, string>>;
}) {
  const { db, clock, ledger, market, audit, service } = deps;

  async function settings(symbol?: string): Promise<AdminContractSettingsData[]> {
    const list = await service.allSettings(symbol);
    return Promise.all(
      list.map(async ({ i, s }) => ({
        symbol: i.symbol,
        name: i.name,
        asset_class: i.assetClass as AdminContractSettingsData['asset_class'],
        kind: kindOf(i.assetClass),
        leverage_class: leverageClassOf(i) ?? 'crypto',
        enabled: s.enabled,
        spread: s.spread,
        fee_per_lot: s.feePerLot,
        max_leverage: s.maxLeverage,
        instrument_max_leverage: i.maxLeverage,
        effective_max_leverage: await service.maxLeverageOf(i, s),
        min_lots: s.minLots,
        max_lots: s.maxLots,
        liquidation_level: s.liquidationLevel,
        margin_topup_max: s.marginTopupMax,
        funding_rate: s.fundingRate,
        funding_interval_hours: s.fundingIntervalHours,
        updated_at: s.updatedAt.getTime(),
      })),
    );
  }

  async function updateSettings(staff: StaffContext, body: AdminContractSettingsBody) {
    const [before] = await settings(body.symbol);
    if (!before) refuse('CONTRACT_UNAVAILABLE', { symbol: body.symbol });
    const i = service.instrument(body.symbol);
    const bad = (field: string): never => refuse('CONTRACT_SETTING_INVALID', { field });
    const change: Record<string, unknown> = {};
    const dec = (field: keyof AdminContractSettingsBody, scale: number, min?: bigint, max?: bigint) => {
      const text = body[field];
      if (text === undefined) return undefined;
      const units = settingDecimal(String(text), { scale, min, max });
      if (units === null) bad(field);
      change[field] = decimalText(String(text).trim());
      return units as bigint;
    };
    if (body.enabled !== undefined) change.enabled = body.enabled;
    const spread = dec('spread', i.priceScale, 0n);
    if (spread !== undefined && spread % i.tickUnits !== 0n) bad('spread');
    dec('fee_per_lot', USDT_SCALE, 0n, 10n ** 6n * 10n ** BigInt(USDT_SCALE));
    if (body.max_leverage !== undefined) {
      if (body.max_leverage < 1 || body.max_leverage > i.maxLeverage) bad('max_leverage');
      change.max_leverage = body.max_leverage;
    }
    const minLots = dec('min_lots', LOTS_SCALE, 1n) ?? BigInt(0);
    const maxLots = dec('max_lots', LOTS_SCALE, 1n) ?? BigInt(0);
    for (const [f, v] of [
      ['min_lots', minLots],
      ['max_lots', maxLots],
    ] as const)
      if (v !== 0n && v % i.lotUnits !== 0n) bad(f);
    const effMin = minLots || storedLots(before.min_lots);
    const effMax = maxLots || storedLots(before.max_lots);
    if (effMax < effMin) bad(maxLots ? 'max_lots' : 'min_lots');
    dec('liquidation_level', 8, 1n, 10n ** 8n);
    dec('margin_topup_max', USDT_SCALE, 0n, 10n ** 9n * 10n ** BigInt(USDT_SCALE));
    if (body.funding_rate !== undefined || body.funding_interval_hours !== undefined) {
      if (i.assetClass !== 'crypto_perp')
        bad(body.funding_rate !== undefined ? 'funding_rate' : 'funding_interval_hours');
      if (body.funding_rate !== undefined) {
        const units = settingDecimal(body.funding_rate, {
          scale: 8,
          allowNegative: true,
          min: -(10n ** 6n),
          max: 10n ** 6n,
        });
        if (units === null) bad('funding_rate');
        change.funding_rate = decimalText(body.funding_rate.trim());
      }
      if (body.funding_interval_hours !== undefined)
        change.funding_interval_hours = body.funding_interval_hours;
    }
    await inTransaction(db, async (tx) => {
      await tx
        .updateTable('contracts_setting')
        .set({ ...change, updated_at: clock.now() })
        .where('symbol', '=', body.symbol)
        .execute();
      const [row] = await loadSettings(tx, body.symbol);
      if (!row) throw new Error('setting vanished');
      const s = parseSetting(row, i);
      await audit.record(tx, {
        actorId: staff.staffId,
        action: 'contract.settings',
        targetType: 'contract_setting',
        targetId: body.symbol,
        before,
        after: {
          ...before,
          ...change,
          effective_max_leverage: effectiveMaxLeverage(i.maxLeverage, s.maxLeverage, 100),
        },
        reason: body.reason,
      });
    });
    const [after] = await settings(body.symbol);
    return after;
  }

  function storedLots(text: string): bigint {
    return settingDecimal(text, { scale: LOTS_SCALE }) ?? 0n;
  }

  async function exposure(book: 'real' | 'demo'): Promise<AdminExposureData[]> {
    const rows = await db
      .selectFrom('contracts_position')
      .selectAll()
      .where('book', '=', book)
      .where('status', '=', 'open')
      .orderBy('symbol')
      .execute();
    const spreads = new Map((await service.allSettings()).map(({ s }) => [s.symbol, s.spreadUnits]));
    const bySymbol = new Map<
      string,
      AdminExposureData & { l: bigint; sh: bigint; mg: bigint; pnl: bigint }
    >();
    for (const r of rows) {
      const i = service.instrument(r.symbol);
      const p = positionOf(r, i);
      const t = market.ticker(r.symbol);
      let e = bySymbol.get(r.symbol);
      if (!e) {
        e = {
          symbol: r.symbol,
          book,
          positions: 0,
          long_lots: '0',
          short_lots: '0',
          net_lots: '0',
          margin: '0',
          unrealized_pnl: '0',
          mark_price: t.mark,
          l: 0n,
          sh: 0n,
          mg: 0n,
          pnl: 0n,
        };
        bySymbol.set(r.symbol, e);
      }
      e.positions += 1;
      if (p.side === 'buy') e.l += p.lotsUnits;
      else e.sh += p.lotsUnits;
      e.mg += p.marginUnits;
      const exec = executable(storedPrice(i, t.bid), storedPrice(i, t.ask), spreads.get(r.symbol) ?? 0n);
      const m = mathOf(i, service.conversionNow(i).rate);
      e.pnl += pnlUsdt(
        m,
        p.side,
        p.openUnits,
        p.side === 'buy' ? exec.closeLong : exec.closeShort,
        p.lotsUnits,
      );
    }
    return [...bySymbol.values()].map(({ l, sh, mg, pnl, ...e }) => ({
      ...e,
      long_lots: lotsText(l),
      short_lots: lotsText(sh),
      net_lots: lotsText(l - sh),
      margin: usdtText(mg),
      unrealized_pnl: usdtText(pnl),
      mark_price: e.mark_price
        ? priceText(service.instrument(e.symbol), storedPrice(service.instrument(e.symbol), e.mark_price))
        : null,
    }));
  }

  async function positions(q: AdminPositionsQuery): Promise<Paged<AdminPositionData>> {
    const page = Math.max(1, Number(q.page ?? '1'));
    const pageSize = Number(q.page_size ?? String(DERIVATIVES_LIMITS.pageSizeDefault));
    if (pageSize < 1) refuse('BAD_INPUT', { field: 'page_size' });
    if (pageSize > DERIVATIVES_LIMITS.pageSizeMax)
      refuse('LIMIT_TOO_LARGE', { field: 'page_size', max: DERIVATIVES_LIMITS.pageSizeMax });
    let query = db.selectFrom('contracts_position').where('status', '=', q.status ?? 'open');
    if (q.book) query = query.where('book', '=', q.book);
    if (q.symbol) query = query.where('symbol', '=', q.symbol);
    if (q.customer_id) query = query.where('customer_id', '=', q.customer_id);
    const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await query
      .selectAll()
      .orderBy('opened_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    const labels = await deps.customerLabels([...new Set(rows.map((r) => r.customer_id))]);
    await service.allSettings();
    return {
      total,
      page,
      page_size: pageSize,
      items: rows.map((r) => ({
        ...service.positionData(r),
        customer_id: r.customer_id,
        customer_label: labels.get(r.customer_id) ?? r.customer_id,
      })),
    };
  }

  async function insurance(book: 'real' | 'demo'): Promise<AdminInsuranceData> {
    const balance = await insuranceBalance(db, book);
    const movements = await ledger.platformMovements(db, {
      book,
      platform: 'insurance',
      currency: 'USDT',
      limit: INSURANCE_MOVEMENTS_MAX,
    });
    return {
      book,
      currency: 'USDT',
      balance: usdtText(balance),
      movements: movements.map((m) => ({
        entry_id: m.entryId,
        reason: m.reason,
        amount: usdtText(m.amountUnits),
        reference: m.referenceId,
        created_at: m.createdAt.getTime(),
      })),
    };
  }

  /**
   * Pays capital into the insurance account once per (staff member, rtoken): the same rtoken again
   * with the same book and amount answers as the first call did (nothing posted twice); with another
   * book or amount it is refused (`BAD_INPUT {field: 'rtoken'}`), never a ledger error.
   */
  async function fundInsurance(staff: StaffContext, body: AdminInsuranceFundBody, requestId: string) {
    const amount = parseAmount('amount', body.amount, 'USDT');
    const key = `contracts:insurance:fund:${staff.staffId}:${requestId}`;
    await inTransaction(db, async (tx) => {
      // Twins with one rtoken queue here; the second sees the first's entry.
      await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(tx);
      if (await ledger.entryIdByKey(tx, key)) {
        const [prior] = await ledger.platformMovements(tx, {
          book: body.book,
          platform: 'insurance',
          currency: 'USDT',
          limit: 1,
          idempotencyKey: key,
        });
        if (prior?.amountUnits === amount && prior.reason === 'contract.insurance.fund') return;
        refuse('BAD_INPUT', { field: 'rtoken' });
      }
      const before = await insuranceBalance(tx, body.book);
      const entry = await ledger.post(tx, {
        reason: 'contract.insurance.fund',
        reference: { type: 'staff', id: staff.staffId },
        idempotencyKey: key,
        actorId: staff.staffId,
        memo: body.reason,
        postings: [
          {
            account: { book: body.book, platform: 'insurance_capital' },
            currency: 'USDT',
            amountUnits: -amount,
          },
          { account: { book: body.book, platform: 'insurance' }, currency: 'USDT', amountUnits: amount },
        ],
      });
      await audit.record(tx, {
        actorId: staff.staffId,
        action: 'contract.insurance.fund',
        targetType: 'insurance',
        targetId: body.book,
        before: { balance: usdtText(before) },
        after: { balance: usdtText(before + amount), entry_id: entry.id },
        reason: body.reason,
      });
    });
    return insurance(body.book);
  }

  async function insuranceBalance(q: Db | Tx, book: 'real' | 'demo'): Promise<bigint> {
    const balances = await ledger.platformBalances(q, { book, platform: 'insurance' });
    return balances.find((b) => b.currency === 'USDT')?.availableUnits ?? 0n;
  }

  return { settings, updateSettings, exposure, positions, insurance, fundInsurance };
}

export type ContractsAdmin = ReturnType<typeof createContractsAdmin>;
