import type { AdminContractSettingsBody, AdminContractSettingsData } from '@bourse/protocol';
import { effectiveMaxLeverage, LOTS_SCALE, leverageClassOf, USDT_SCALE } from '@bourse/risk';
import { type Db, inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimalText, type InstrumentInfo } from './math.ts';
import { loadSettings, type SettingRow, updateSetting } from './repo.ts';
import type { ContractsService } from './service.ts';
import { parseSetting, settingDecimal } from './settings.ts';
import { kindOf } from './views.ts';

/**
 * Contract settings in the back office: listed with the effective leverage cap, changed with a
 * reason (audited with before and after). A change applies to new orders only: an order and its
 * position keep the fee per lot and level they were placed with. Every bad value is refused
 * `CONTRACT_SETTING_INVALID {field}`.
 */

type SettingsDeps = { db: Db; clock: Clock; audit: AuditLog; service: ContractsService };
type Change = Partial<Omit<SettingRow, 'symbol' | 'created_at'>>;

export async function listSettings(
  deps: Pick<SettingsDeps, 'service'>,
  symbol?: string,
): Promise<AdminContractSettingsData[]> {
  const { service } = deps;
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

export async function updateSettings(
  deps: SettingsDeps,
  staff: StaffContext,
  body: AdminContractSettingsBody,
) {
  const [before] = await listSettings(deps, body.symbol);
  if (!before) refuse('CONTRACT_UNAVAILABLE', { symbol: body.symbol });
  const i = deps.service.instrument(body.symbol);
  const change = settingsChange(i, body, before);
  await inTransaction(deps.db, async (tx) => {
    await updateSetting(tx, body.symbol, { ...change, updated_at: deps.clock.now() });
    const [row] = await loadSettings(tx, body.symbol);
    if (!row) throw new Error('setting vanished');
    const s = parseSetting(row, i);
    await deps.audit.record(tx, {
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
  const [after] = await listSettings(deps, body.symbol);
  return after;
}

/** The fields the body changes, each checked against the instrument (the first bad one is named). */
function settingsChange(
  i: InstrumentInfo,
  body: AdminContractSettingsBody,
  before: AdminContractSettingsData,
): Change {
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
  Object.assign(change, fundingChange(i, body, bad));
  return change as Change;
}

/** Funding fields: perpetuals only. */
function fundingChange(
  i: InstrumentInfo,
  body: AdminContractSettingsBody,
  bad: (field: string) => never,
): Record<string, unknown> {
  const change: Record<string, unknown> = {};
  if (body.funding_rate === undefined && body.funding_interval_hours === undefined) return change;
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
  if (body.funding_interval_hours !== undefined) change.funding_interval_hours = body.funding_interval_hours;
  return change;
}

function storedLots(text: string): bigint {
  return settingDecimal(text, { scale: LOTS_SCALE }) ?? 0n;
}
