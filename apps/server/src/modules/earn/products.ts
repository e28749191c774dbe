import {
  type AdminEarnProductBody,
  type AdminEarnProductData,
  type AdminEarnProductStateBody,
  EARN_LIMITS,
  type EarnExampleData,
  type EarnKind,
  type EarnProductData,
  type EarnProductState,
  type JurisdictionProfileId,
  type Lang,
  type RequiredTier,
} from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import type { Book } from '../ledger/index.ts';
import { familyCode } from '../ledger/index.ts';
import { type EarnDeps, platformAvailable, productData } from './context.ts';
import type { FundingRow, ProductRow } from './repo.ts';
import * as repo from './repo.ts';
import {
  amountText,
  dailyReward,
  maxAmountFunded,
  parseRate,
  penaltyOf,
  rate4Of,
  rateText,
  totalReward,
} from './rules.ts';

/** Profiles that never allow principal penalties, whatever is active; `custom` is asked live. */
const PENALTY_PROFILES: Record<Exclude<JurisdictionProfileId, 'custom'>, boolean> = {
  permissive: true,
  eu_retail: false,
};

export function isPrincipalRule(rule: string): rule is 'principal_percent' | 'principal_daily' {
  return rule === 'principal_percent' || rule === 'principal_daily';
}

/** Refuses a principal-penalty rule the active profile (or a listed built-in one) does not allow. */
export async function checkPenaltyAllowed(
  deps: Pick<EarnDeps, 'jurisdiction'>,
  rule: string,
  listed: readonly JurisdictionProfileId[] = [],
): Promise<void> {
  if (!isPrincipalRule(rule)) return;
  const active = await deps.jurisdiction.active();
  if (!active.earn_principal_penalty) refuse('EARN_PENALTY_NOT_PERMITTED', { rule, profile: active.id });
  for (const id of listed)
    if (id !== 'custom' && !PENALTY_PROFILES[id]) refuse('EARN_PENALTY_NOT_PERMITTED', { rule, profile: id });
}

/** A product's money figures: its reserve, its funding account's free balance, and what can still be bought. */
export async function productMoney(
  deps: EarnDeps,
  q: EarnDeps['db'] | Tx,
  p: ProductRow,
  fund: FundingRow,
  book: Book = 'real',
) {
  const [reserved, fundingAvailable] = await Promise.all([
    platformAvailable(deps, q, book, familyCode('earn_reserve_', p.code), p.currency),
    platformAvailable(deps, q, book, familyCode('earn_fund_', fund.code), p.currency),
  ]);
  const byCapacity = BigInt(p.capacity_units) - BigInt(p.subscribed_units);
  const byFunding = maxAmountFunded(fundingAvailable, rate4Of(p.annual_rate), p.term_days);
  let capacityLeft = byCapacity < byFunding ? byCapacity : byFunding;
  if (capacityLeft < 0n) capacityLeft = 0n;
  return { reserved, fundingAvailable, capacityLeft, byCapacity, byFunding };
}

export function exampleOf(p: ProductRow, amountUnits: bigint): EarnExampleData {
  const rate4 = rate4Of(p.annual_rate);
  const daily = dailyReward(amountUnits, rate4);
  const c = p.currency;
  return {
    amount: amountText(amountUnits, c),
    daily_reward: amountText(daily, c),
    total_reward: amountText(totalReward(amountUnits, rate4, p.term_days), c),
    penalty_day_one: amountText(
      penaltyOf({
        rule: p.redeem_rule,
        penaltyRate4: p.penalty_rate === null ? null : rate4Of(p.penalty_rate),
        principalUnits: amountUnits,
        remainingDays: p.term_days - 1,
      }),
      c,
    ),
    forfeit_last_day: amountText(daily * BigInt(Math.max(0, p.term_days - 1)), c),
  };
}

function invalid(field: string): never {
  refuse('EARN_PRODUCT_INVALID', { field });
}

function text(map: Record<Lang, string>, field: string): Record<Lang, string> {
  const out = {} as Record<Lang, string>;
  for (const lang of ['en', 'zh', 'ft'] as const) {
    const v = map[lang]?.trim() ?? '';
    if (v.length === 0) invalid(`${field}.${lang}`);
    out[lang] = v;
  }
  return out;
}

/** The checked row of a new product (draft), or a refusal naming the first bad field. */
export async function checkedProduct(
  deps: EarnDeps,
  staff: StaffContext,
  body: AdminEarnProductBody,
): Promise<ProductRow> {
  const fund = await repo.findFunding(deps.db, body.funding_id);
  if (!fund) invalid('funding_id');
  const c = fund.currency;
  const names = text(body.names, 'names');
  const descriptions = text(body.descriptions, 'descriptions');
  const rate4 = parseRate(body.annual_rate, EARN_LIMITS.annualRateMax);
  if (rate4 === null) invalid('annual_rate');
  const min = parseAmount('min_amount', body.min_amount, c);
  const max = parseAmount('max_amount', body.max_amount, c);
  const capacity = parseAmount('capacity', body.capacity, c);
  if (max < min) invalid('max_amount');
  if (capacity < min) invalid('capacity');
  if (dailyReward(min, rate4) === 0n) invalid('min_amount');
  if (body.sale_starts_at !== null && body.sale_ends_at !== null && body.sale_ends_at <= body.sale_starts_at)
    invalid('sale_ends_at');
  let penalty: string | null = null;
  if (isPrincipalRule(body.redeem_rule)) {
    const p4 =
      body.penalty_rate === undefined ? null : parseRate(body.penalty_rate, EARN_LIMITS.penaltyRateMax);
    if (p4 === null) invalid('penalty_rate');
    penalty = rateText(p4);
  } else if (body.penalty_rate !== undefined) invalid('penalty_rate');
  if ((body.kind === 'vip') !== (body.vip_level !== null)) invalid('vip_level');
  const jurisdictions = [...new Set(body.jurisdictions)];
  await checkPenaltyAllowed(deps, body.redeem_rule, jurisdictions);
  const now = deps.clock.now();
  const id = newId('epr', now.getTime());
  return {
    id,
    code: id.slice(4).toLowerCase(),
    kind: body.kind,
    state: 'draft',
    names,
    descriptions,
    funding_id: fund.id,
    currency: c,
    term_days: body.term_days,
    annual_rate: rateText(rate4),
    min_amount_units: min.toString(),
    max_amount_units: max.toString(),
    capacity_units: capacity.toString(),
    subscribed_units: '0',
    sale_starts_at: body.sale_starts_at === null ? null : new Date(body.sale_starts_at),
    sale_ends_at: body.sale_ends_at === null ? null : new Date(body.sale_ends_at),
    redeem_rule: body.redeem_rule,
    penalty_rate: penalty,
    redeem_delay_days: body.redeem_delay_days,
    min_tier: body.min_tier,
    min_rating: body.min_rating,
    vip_level: body.vip_level,
    jurisdictions,
    created_at: now,
    created_by: staff.staffId,
    updated_at: now,
  };
}

function shape(p: ProductRow) {
  return {
    kind: p.kind,
    state: p.state,
    names: p.names,
    funding_id: p.funding_id,
    currency: p.currency,
    term_days: p.term_days,
    annual_rate: p.annual_rate,
    min_amount: amountText(BigInt(p.min_amount_units), p.currency),
    max_amount: amountText(BigInt(p.max_amount_units), p.currency),
    capacity: amountText(BigInt(p.capacity_units), p.currency),
    redeem_rule: p.redeem_rule,
    penalty_rate: p.penalty_rate,
    redeem_delay_days: p.redeem_delay_days,
    min_tier: p.min_tier,
    min_rating: p.min_rating,
    vip_level: p.vip_level,
    jurisdictions: p.jurisdictions,
  };
}

/** Staff: a new product in `draft` (audited). Nothing of it changes later except its state. */
export async function createProduct(
  deps: EarnDeps,
  staff: StaffContext,
  body: AdminEarnProductBody,
  actor: { action?: string } = {},
): Promise<ProductRow> {
  const row = await checkedProduct(deps, staff, body);
  await inTransaction(deps.db, async (tx) => {
    await repo.insertProduct(tx, row);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: actor.action ?? 'earn.product.create',
      targetType: 'earn_product',
      targetId: row.id,
      after: shape(row),
      reason: body.reason,
    });
  });
  return row;
}

const TRANSITIONS: Record<
  AdminEarnProductStateBody['action'],
  { from: EarnProductState[]; to: EarnProductState }
> = {
  open: { from: ['draft', 'paused'], to: 'active' },
  pause: { from: ['active'], to: 'paused' },
  close: { from: ['draft', 'active', 'paused'], to: 'closed' },
};

/** Staff: open, pause or close (audited). Closing leaves running orders to run to term. */
export async function changeState(
  deps: EarnDeps,
  staff: StaffContext,
  productId: string,
  body: AdminEarnProductStateBody,
): Promise<ProductRow> {
  const t = TRANSITIONS[body.action];
  return inTransaction(deps.db, async (tx) => {
    const p = await repo.findProduct(tx, productId, { lock: true });
    if (!p) refuse('NOT_FOUND');
    if (!t.from.includes(p.state)) refuse('EARN_STATE_CHANGE', { from: p.state, action: body.action });
    // A product whose principal rule the profile no longer allows is not opened again.
    if (t.to === 'active') await checkPenaltyAllowed(deps, p.redeem_rule, p.jurisdictions);
    const now = deps.clock.now();
    await repo.setProductState(tx, p.id, t.to, now);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: `earn.product.${body.action}`,
      targetType: 'earn_product',
      targetId: p.id,
      before: { state: p.state },
      after: { state: t.to },
      reason: body.reason,
    });
    return { ...p, state: t.to, updated_at: now };
  });
}

export async function cutoffSetting(deps: EarnDeps) {
  const s = await repo.setting(deps.db);
  return { hour: s.cutoff_hour, time_zone: s.time_zone };
}

/** Products of a kind with their money figures, for the web (`states`) or the back office. */
export async function productsWithMoney(
  deps: EarnDeps,
  filter: { kind?: EarnKind; states?: readonly EarnProductState[] },
) {
  const rows = await repo.products(deps.db, filter);
  const funds = new Map(
    (await repo.fundings(deps.db, [...new Set(rows.map((r) => r.funding_id))])).map((f) => [f.id, f]),
  );
  return Promise.all(
    rows.map(async (p) => {
      const fund = funds.get(p.funding_id) as FundingRow;
      return { p, fund, money: await productMoney(deps, deps.db, p, fund) };
    }),
  );
}

type WithMoney = { p: ProductRow; fund: FundingRow; money: Awaited<ReturnType<typeof productMoney>> };

function productOf(x: WithMoney, lang: Lang, cutoff: { hour: number; time_zone: string }) {
  return productData(x.p, lang, { id: x.fund.id, name: x.fund.name, source: x.fund.source }, x.money, cutoff);
}

/** What a customer reads of a product: with the active profile's `earn` rule (read once per answer). */
export function webProduct(
  x: WithMoney,
  lang: Lang,
  cutoff: { hour: number; time_zone: string },
  profileTier: RequiredTier,
): EarnProductData {
  return { ...productOf(x, lang, cutoff), profile_tier: profileTier };
}

export async function adminProducts(deps: EarnDeps): Promise<{ items: AdminEarnProductData[] }> {
  const [list, cutoff] = await Promise.all([productsWithMoney(deps, {}), cutoffSetting(deps)]);
  const stats = await repo.productStats(
    deps.db,
    list.map((x) => x.p.id),
  );
  return {
    items: list.map((x) => {
      const { name: _n, description: _d, ...rest } = productOf(x, 'en', cutoff);
      const s = stats.get(x.p.id) ?? { running: 0, paid: 0n };
      return {
        ...rest,
        names: x.p.names,
        descriptions: x.p.descriptions,
        orders_running: s.running,
        rewards_paid: amountText(s.paid, x.p.currency),
        created_at: x.p.created_at.getTime(),
        created_by: x.p.created_by,
      };
    }),
  };
}
