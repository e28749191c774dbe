import { isKnownAsset } from '@bourse/money';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import {
  checkReason,
  fmt,
  loadRules,
  staffAudit,
  WITHDRAW_ACCOUNT_TYPE,
  type WithdrawalsContext,
  type WithdrawalsDeps,
} from './context.ts';
import {
  INT_BOUNDS,
  invalidParam,
  localTime,
  RULE_CODES,
  type RuleCode,
  type Rules,
  turnoverHold,
  units,
} from './policy.ts';
import * as repo from './repo.ts';

/**
 * The policy rules: as the withdrawal screen lists them (with what the customer may withdraw now
 * and what the turnover rule holds), and the staff edit of one rule.
 */

type Held = {
  code: RuleCode;
  params: Record<string, unknown>;
  amount: string;
  release: { trade_more: string };
};

/** The customer's available and withdrawable balance in `currency`, and the turnover rule's hold. */
async function balanceFor(
  deps: Pick<WithdrawalsDeps, 'db' | 'ledger'>,
  auth: AuthContext,
  input: { rules: Rules; currency: string },
) {
  const { rules, currency } = input;
  const balance = await deps.ledger.balance(deps.db, {
    book: 'real',
    customerId: auth.customerId,
    accountType: WITHDRAW_ACCOUNT_TYPE,
    currency,
  });
  const available = fmt(balance.availableUnits, currency);
  const held: Held[] = [];
  if (!rules.turnover.enabled) return { available, withdrawable: available, held };
  const figures = await repo.turnoverFigures(deps.db, { customerId: auth.customerId, currency });
  const hold = turnoverHold(rules, {
    availableUnits: balance.availableUnits,
    promotionalUnits: figures.promotional,
    consumedUnits: figures.consumed,
  });
  if (hold.heldUnits > 0n) {
    held.push({
      code: 'turnover',
      params: { ...rules.turnover.params },
      amount: fmt(hold.heldUnits, currency),
      release: { trade_more: fmt(hold.releaseMoreUnits, currency) },
    });
  }
  return { available, withdrawable: fmt(hold.withdrawableUnits, currency), held };
}

/** The rules as the withdrawal screen lists them before the customer submits. */
export async function rulesForScreen(
  deps: Pick<WithdrawalsDeps, 'db' | 'ledger' | 'clock' | 'security'>,
  auth: AuthContext,
  currency: string,
) {
  const rules = await loadRules(deps);
  const status = await deps.security.status(auth);
  const balance =
    isKnownAsset(currency) && !auth.isDemo
      ? await balanceFor(deps, auth, { rules, currency })
      : { available: '0', withdrawable: '0', held: [] as Held[] };
  const now = deps.clock.now();
  const day = localTime(now, rules.daily_count.params.timezone).day;
  return {
    rules: RULE_CODES.map((code) => ({ code, enabled: rules[code].enabled, params: rules[code].params })),
    available: balance.available,
    withdrawable: balance.withdrawable,
    held: balance.held,
    used_today: auth.isDemo ? 0 : await repo.countToday(deps.db, auth.customerId, day),
    ...status,
  };
}

/** The edited rule's code and parameters, each checked (range, shape); refused otherwise. */
function checkedRule(input: { code: string; params: unknown }) {
  if (!(RULE_CODES as readonly string[]).includes(input.code)) refuse('NOT_FOUND');
  const code = input.code as RuleCode;
  if (typeof input.params !== 'object' || input.params === null || Array.isArray(input.params)) {
    refuse('BAD_INPUT', { field: 'params' });
  }
  const params = input.params as Record<string, unknown>;
  const bad = invalidParam(code, params);
  if (bad) {
    const bounds = INT_BOUNDS[`${code}.${bad}`];
    if (bounds) refuse('WITHDRAW_RULE_RANGE', { field: bad, min: bounds[0], max: bounds[1] });
    refuse('BAD_INPUT', { field: bad });
  }
  return { code, params };
}

/** A minimum above the maximum in the same currency is refused (`other`: the other amount rule, locked). */
function checkMinMax(
  code: RuleCode,
  params: Record<string, unknown>,
  other: { params: unknown } | undefined,
) {
  if (code !== 'min_amount' && code !== 'max_amount') return;
  const mine = params as { amount: string; currency: string };
  const theirs = other?.params as { amount?: string; currency?: string } | undefined;
  if (theirs?.amount && theirs.currency === mine.currency) {
    const [min, max] = code === 'min_amount' ? [mine.amount, theirs.amount] : [theirs.amount, mine.amount];
    if (units(min, mine.currency) > units(max, mine.currency))
      refuse('WITHDRAW_RULE_MIN_ABOVE_MAX', { min, max, currency: mine.currency });
  }
}

/** Staff edit of one rule (settings.write), audited with before and after. */
export async function updateRule(
  deps: WithdrawalsContext,
  staffId: string,
  input: { code: string; enabled: boolean; params: unknown; reason: string },
) {
  const audit = staffAudit(deps);
  const { code, params } = checkedRule(input);
  const reason = checkReason(input.reason);
  return inTransaction(deps.db, async (tx) => {
    // Both amount rules locked in one order: a minimum above the maximum is refused, even
    // when two staff members change them at once.
    const locked = await repo.lockRules(tx, ['min_amount', 'max_amount', code]);
    const before = locked.get(code);
    if (!before) refuse('NOT_FOUND');
    checkMinMax(code, params, locked.get(code === 'min_amount' ? 'max_amount' : 'min_amount'));
    const now = deps.clock.now();
    await repo.updateRule(tx, code, { enabled: input.enabled, params, updated_at: now, updated_by: staffId });
    await audit.record(tx, {
      actorId: staffId,
      action: 'withdrawal_rule.update',
      targetType: 'withdrawal_rule',
      targetId: code,
      before: { enabled: before.enabled, params: before.params },
      after: { enabled: input.enabled, params },
      reason,
    });
    return { code, enabled: input.enabled, params };
  });
}
