import { min, parseUnitsOrThrow, scaleOf, toDecimalString } from '@bourse/money';
import {
  SIGNIN_BUDGET_ACCOUNT,
  type SigninState,
  type SigninTexts,
  type SigninVerification,
} from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { type Book, familyCode, type Ledger, type PlatformCode } from '../ledger/index.ts';
import * as repo from './repo.ts';

/** What the parts of the sign-in module share: the ports wiring.ts injects, the defaults, the programme as it stands. */

export type SigninDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  audit: AuditLog;
  /**
   * Whether the active jurisdiction profile allows promotional incentives (modules/jurisdiction:
   * permissive yes, eu_retail no — ESMA bans incentives for CFDs and binary options — custom editable).
   */
  promoIncentives: () => Promise<boolean>;
  /** Whether the customer's primary verification is approved (modules/verification). */
  primaryVerified: (customerId: string) => Promise<boolean>;
  /** Customers' public UIDs, for the back office's payouts list (modules/accounts). */
  customerUids: (customerIds: readonly string[]) => Promise<Map<string, string>>;
};

export type Q = Db | Tx;

/** The budget's ledger account in a book (`marketing_budget_signin`). */
export const BUDGET: PlatformCode = familyCode(
  'marketing_budget_',
  SIGNIN_BUDGET_ACCOUNT.slice('marketing_budget_'.length),
);
export const budgetAccount = (book: Book) => ({ book, platform: BUDGET });

/** Settings a fresh install starts with (README.md): on, Hong Kong days, USDT, a rising week. */
export const DEFAULT_SETTINGS = {
  enabled: true,
  timeZone: 'Asia/Hong_Kong',
  currency: 'USDT',
  amounts: ['0.1', '0.2', '0.3', '0.5', '0.8', '1', '2'],
  verification: 'none' as SigninVerification,
  condition: {
    en: 'Promotional credit, paid into your spot account. Where the withdrawal turnover rule is on, promotional credit can be withdrawn once your trading reaches the stated turnover.',
    zh: '推广赠金，发放至您的现货账户。如提现流水规则已开启，推广赠金须在交易量达到规定流水后方可提现。',
    ft: '推廣贈金，發放至您的現貨帳戶。如提現流水規則已開啟，推廣贈金須在交易量達到規定流水後方可提現。',
  } satisfies SigninTexts,
};

export type Settings = {
  enabled: boolean;
  timeZone: string;
  currency: string;
  amountUnits: bigint[];
  verification: SigninVerification;
  condition: SigninTexts;
  updatedAt: Date | null;
  updatedBy: string | null;
};

export function settingsOf(row: repo.SettingsRow | undefined): Settings {
  if (!row) {
    const scale = scaleOf(DEFAULT_SETTINGS.currency);
    return {
      enabled: DEFAULT_SETTINGS.enabled,
      timeZone: DEFAULT_SETTINGS.timeZone,
      currency: DEFAULT_SETTINGS.currency,
      amountUnits: DEFAULT_SETTINGS.amounts.map((a) => parseUnitsOrThrow(a, { scale })),
      verification: DEFAULT_SETTINGS.verification,
      condition: DEFAULT_SETTINGS.condition,
      updatedAt: null,
      updatedBy: null,
    };
  }
  return {
    enabled: row.enabled,
    timeZone: row.time_zone,
    currency: row.currency,
    amountUnits: row.amount_units.map((u) => BigInt(u)),
    verification: row.verification,
    condition: { en: row.condition_en, zh: row.condition_zh, ft: row.condition_ft },
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  };
}

export type Programme = {
  settings: Settings;
  /** The real budget's balance. */
  budgetUnits: bigint;
  promoIncentives: boolean;
  state: SigninState;
};

export async function budgetUnits(deps: Pick<SigninDeps, 'ledger'>, q: Q, book: Book, currency: string) {
  const rows = await deps.ledger.platformBalances(q, { book, platform: BUDGET });
  return rows.find((r) => r.currency === currency)?.availableUnits ?? 0n;
}

/** The programme as customers see it now: off, forbidden by the profile, out of budget, or on. */
export async function programme(deps: SigninDeps, q: Q = deps.db): Promise<Programme> {
  const settings = settingsOf(await repo.settings(q));
  const [budget, promo] = await Promise.all([
    budgetUnits(deps, q, 'real', settings.currency),
    deps.promoIncentives(),
  ]);
  const smallest = min(...(settings.amountUnits as [bigint, ...bigint[]]));
  const state: SigninState = !settings.enabled
    ? 'off'
    : !promo
      ? 'profile_forbids'
      : budget < smallest
        ? 'budget_empty'
        : 'on';
  return { settings, budgetUnits: budget, promoIncentives: promo, state };
}

export function amountText(units: bigint, currency: string): string {
  return toDecimalString(units, scaleOf(currency));
}
