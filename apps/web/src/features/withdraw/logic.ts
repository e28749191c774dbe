import { bpsPercentText, isKnownAsset, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import type { WithdrawRuleView } from '@bourse/protocol';

export type AmountCheck =
  | { ok: true; units: bigint }
  | { ok: false; error: 'amount' | 'amountZero' | 'amountPrecise'; decimals: number };

/** The same parse the server does (@bourse/money): never a float. */
export function checkAmount(input: string, currency: string): AmountCheck {
  const decimals = isKnownAsset(currency) ? scaleOf(currency) : 8;
  const parsed = parseDecimal(input.trim(), { scale: decimals, maxIntegerDigits: 12 });
  if (parsed.ok)
    return parsed.units > 0n
      ? { ok: true, units: parsed.units }
      : { ok: false, error: 'amountZero', decimals };
  if (parsed.error === 'ZERO' || parsed.error === 'NEGATIVE')
    return { ok: false, error: 'amountZero', decimals };
  if (parsed.error === 'TOO_PRECISE') return { ok: false, error: 'amountPrecise', decimals };
  return { ok: false, error: 'amount', decimals };
}

function feeBps(rules: readonly WithdrawRuleView[], method: 'address' | 'bank'): number {
  const rule = rules.find((r) => r.code === 'fee');
  if (!rule?.enabled) return 0;
  const value = method === 'bank' ? rule.params.bank_bps : rule.params.address_bps;
  return typeof value === 'number' ? value : 0;
}

/** Fee (charged up, as the server does) and what arrives, as decimal strings; null for bad input. */
export function preview(
  rules: readonly WithdrawRuleView[],
  input: { method: 'address' | 'bank'; amount: string; currency: string },
): { fee: string; received: string } | null {
  const checked = checkAmount(input.amount, input.currency);
  if (!checked.ok) return null;
  const bps = BigInt(feeBps(rules, input.method));
  const fee = (checked.units * bps + 9_999n) / 10_000n;
  const scale = isKnownAsset(input.currency) ? scaleOf(input.currency) : 8;
  const received = checked.units - fee;
  return {
    fee: toDecimalString(fee, scale),
    received: toDecimalString(received > 0n ? received : 0n, scale),
  };
}

/** The parameters a rule's text interpolates. */
export function ruleParams(
  rule: WithdrawRuleView,
  usedToday: number,
  timezoneName: (tz: string) => string,
): Record<string, unknown> {
  const p = rule.params as Record<string, unknown>;
  switch (rule.code) {
    case 'currency_chain':
      return {
        allowed: ((p.allowed as string[] | undefined) ?? [])
          .map((pair) => pair.replace('/', ' (') + ')')
          .join(', '),
      };
    case 'window':
      return { start: p.start, end: p.end, timezone: timezoneName(String(p.timezone)) };
    case 'fee':
      return {
        address: bpsPercentText(Number(p.address_bps ?? 0)),
        bank: bpsPercentText(Number(p.bank_bps ?? 0)),
      };
    case 'daily_count':
      return { max: p.max, used: usedToday };
    default:
      return p;
  }
}

export function minimumOf(rules: readonly WithdrawRuleView[], currency: string): string | null {
  const rule = rules.find((r) => r.code === 'min_amount');
  if (!rule?.enabled || rule.params.currency !== currency) return null;
  return String(rule.params.amount);
}

/** Rule codes (server data) to their text keys in the `withdraw` namespace. */
export const RULE_KEYS: Readonly<
  Record<string, 'currencyChain' | 'window' | 'minAmount' | 'maxAmount' | 'fee' | 'dailyCount' | 'turnover'>
> = {
  currency_chain: 'currencyChain',
  window: 'window',
  min_amount: 'minAmount',
  max_amount: 'maxAmount',
  fee: 'fee',
  daily_count: 'dailyCount',
  turnover: 'turnover',
};
