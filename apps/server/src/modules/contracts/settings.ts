import { divRound, parseDecimal, parseUnitsOrThrow } from '@bourse/money';
import { LOTS_SCALE, notionalUsdt, type Ratio, ratioFromDecimal, USDT_SCALE } from '@bourse/risk';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimalText, type InstrumentInfo, lotsText, mathOf, priceText, usdtText } from './math.ts';
import { insertSettingsIfMissing, type SettingRow } from './repo.ts';

export type { SettingRow };

/** A setting row parsed once into units. */
export type Setting = Readonly<{
  symbol: string;
  enabled: boolean;
  spread: string;
  spreadUnits: bigint;
  feePerLot: string;
  feePerLotUnits: bigint;
  maxLeverage: number;
  minLots: string;
  minLotsUnits: bigint;
  maxLots: string;
  maxLotsUnits: bigint;
  liquidationLevel: string;
  level: Ratio;
  marginTopupMax: string;
  marginTopupMaxUnits: bigint;
  fundingRate: string | null;
  fundingIntervalHours: number | null;
  updatedAt: Date;
}>;

/** Defaults a setting is seeded with (each can be changed in the back office, for new orders). */
export const CONTRACT_DEFAULTS = {
  /** Spread in ticks per asset class. */
  spreadTicks: { crypto_perp: 1n, crypto_delivery: 1n, forex: 2n } as Record<string, bigint>,
  spreadTicksOther: 3n,
  /** Fee per lot ≈ this fraction (in basis points) of one lot's reference notional, rounded up to 0.01 USDT. */
  feeBpsOfLot: 2n,
  /** Largest order per asset class (lots); at least 100 lot steps. */
  maxLots: { crypto_perp: '100', crypto_delivery: '100', forex: '50', metal: '50', energy: '50' } as Record<
    string,
    string
  >,
  maxLotsOther: '5000',
  liquidationLevel: '0.8',
  /** One top-up ≤ 10 × one lot's margin at 1x, at most this many USDT. */
  topupLots: 10n,
  topupCapUsdt: 100_000n,
  fundingRate: '0.0001',
  fundingIntervalHours: 8,
} as const;

export function parseSetting(
  r: {
    symbol: string;
    enabled: boolean;
    spread: string;
    fee_per_lot: string;
    max_leverage: number;
    min_lots: string;
    max_lots: string;
    liquidation_level: string;
    margin_topup_max: string;
    funding_rate: string | null;
    funding_interval_hours: number | null;
    updated_at: Date;
  },
  i: InstrumentInfo,
): Setting {
  const d = (t: string) => decimalText(String(t));
  return Object.freeze({
    symbol: r.symbol,
    enabled: r.enabled,
    spread: d(r.spread),
    spreadUnits: parseUnitsOrThrow(d(r.spread), { scale: i.priceScale }),
    feePerLot: d(r.fee_per_lot),
    feePerLotUnits: parseUnitsOrThrow(d(r.fee_per_lot), { scale: USDT_SCALE }),
    maxLeverage: r.max_leverage,
    minLots: d(r.min_lots),
    minLotsUnits: parseUnitsOrThrow(d(r.min_lots), { scale: LOTS_SCALE }),
    maxLots: d(r.max_lots),
    maxLotsUnits: parseUnitsOrThrow(d(r.max_lots), { scale: LOTS_SCALE }),
    liquidationLevel: d(r.liquidation_level),
    level: ratioFromDecimal(d(r.liquidation_level)),
    marginTopupMax: d(r.margin_topup_max),
    marginTopupMaxUnits: parseUnitsOrThrow(d(r.margin_topup_max), { scale: USDT_SCALE }),
    fundingRate: r.funding_rate === null ? null : d(r.funding_rate),
    fundingIntervalHours: r.funding_interval_hours,
    updatedAt: r.updated_at,
  });
}

/**
 * The seeded setting of one instrument. `toUsdt` is the reference conversion (catalogue reference
 * prices) and `refUnits` the instrument's reference price: only defaults come from them.
 */
export function defaultSetting(i: InstrumentInfo, refUnits: bigint, toUsdt: Ratio, now: Date): SettingRow {
  const m = mathOf(i, toUsdt);
  const spreadTicks = CONTRACT_DEFAULTS.spreadTicks[i.assetClass] ?? CONTRACT_DEFAULTS.spreadTicksOther;
  const lotNotional = notionalUsdt(m, refUnits, 10n ** BigInt(LOTS_SCALE)); // one lot at 1x = its margin at 1x
  const cent = 10n ** BigInt(USDT_SCALE - 2);
  const fee = divRound(lotNotional * CONTRACT_DEFAULTS.feeBpsOfLot, 10_000n * cent, 'ceil') * cent;
  const whole = 10n ** BigInt(USDT_SCALE);
  const topup = divRound(lotNotional * CONTRACT_DEFAULTS.topupLots, whole, 'ceil') * whole;
  const topupCap = CONTRACT_DEFAULTS.topupCapUsdt * whole;
  const classMax = parseUnitsOrThrow(
    CONTRACT_DEFAULTS.maxLots[i.assetClass] ?? CONTRACT_DEFAULTS.maxLotsOther,
    {
      scale: LOTS_SCALE,
    },
  );
  const maxLots = classMax > i.lotUnits * 100n ? classMax : i.lotUnits * 100n;
  const perp = i.assetClass === 'crypto_perp';
  return {
    symbol: i.symbol,
    enabled: true,
    spread: decimalText(priceText(i, spreadTicks * i.tickUnits)),
    fee_per_lot: usdtText(fee > 0n ? fee : cent),
    max_leverage: i.maxLeverage,
    min_lots: lotsText(i.lotUnits),
    max_lots: lotsText(maxLots),
    liquidation_level: CONTRACT_DEFAULTS.liquidationLevel,
    margin_topup_max: usdtText(topup < topupCap ? (topup > 0n ? topup : whole) : topupCap),
    funding_rate: perp ? CONTRACT_DEFAULTS.fundingRate : null,
    funding_interval_hours: perp ? CONTRACT_DEFAULTS.fundingIntervalHours : null,
    created_at: now,
    updated_at: now,
  };
}

export async function seedSettings(
  db: Db,
  clock: Clock,
  rows: ReadonlyArray<ReturnType<typeof defaultSetting>>,
): Promise<number> {
  return insertSettingsIfMissing(
    db,
    rows.map((r) => ({ ...r, created_at: clock.now(), updated_at: clock.now() })),
  );
}

/** A decimal setting from the back office: parsed at `scale`, within [min, max], else the field is named. */
export function settingDecimal(
  text: string,
  options: { scale: number; min?: bigint; max?: bigint; allowNegative?: boolean },
): bigint | null {
  const p = parseDecimal(text.trim(), {
    scale: options.scale,
    maxIntegerDigits: 15,
    allowNegative: options.allowNegative ?? false,
  });
  if (!p.ok) return null;
  if (options.min !== undefined && p.units < options.min) return null;
  if (options.max !== undefined && p.units > options.max) return null;
  return p.units;
}
