import type { CustomerSummary } from '@bourse/protocol';

/**
 * What a staff member should look at twice before paying a withdrawal: named rules over facts the
 * queue already reads (the customer summary and the destination's history). Each raised flag is a
 * reason code with its parameters; the back office shows it in the staff member's language
 * (withdraw catalogue `admin.risk.<code>`). Flags inform the decision, they block nothing.
 */
export type DestinationHistory = {
  /** Earlier withdrawals of this customer to the same destination that were paid or are being paid. */
  used_before: number;
  first_used_at: number | null;
  /** Other customers who withdrew to the same address (addresses only: cards are sealed per customer). */
  other_customers: number;
};

export type RiskFacts = {
  amountUnits: bigint;
  /** This withdrawal's amount when the customer's totals do not count it (rejected, cancelled, failed), else 0. */
  notCountedUnits: bigint;
  currency: string;
  customer: CustomerSummary;
  destination: DestinationHistory;
};

export type RiskFlag = { code: RiskCode; params: Record<string, string | number> };

type RiskRule = {
  code: string;
  /** The rule's thresholds: data, shown in the flag's label. */
  params: Record<string, number>;
  raised: (facts: RiskFacts, params: Record<string, number>) => Record<string, string | number> | null;
};

export const RISK_RULES = [
  {
    code: 'new_account',
    params: { days: 7 },
    raised: (f, p) => (f.customer.age_days < (p.days ?? 0) ? { age: f.customer.age_days } : null),
  },
  {
    code: 'first_withdrawal',
    params: {},
    raised: (f) => (f.customer.totals.completed_withdrawals === 0 ? {} : null),
  },
  {
    code: 'new_destination',
    params: {},
    raised: (f) => (f.destination.used_before === 0 ? {} : null),
  },
  {
    code: 'shared_destination',
    params: {},
    raised: (f) => (f.destination.other_customers > 0 ? { customers: f.destination.other_customers } : null),
  },
  {
    // With this one, the customer's withdrawals in this currency (paid or being paid) come to more
    // than percent% of everything they ever deposited in it: cashing out what came in.
    code: 'above_deposits',
    params: { percent: 90 },
    raised: (f, p) => {
      const deposited = BigInt(f.customer.totals.deposits[f.currency] ?? '0');
      const withdrawn = BigInt(f.customer.totals.withdrawals[f.currency] ?? '0') + f.notCountedUnits;
      return withdrawn * 100n > deposited * BigInt(p.percent ?? 100) ? {} : null;
    },
  },
] as const satisfies readonly RiskRule[];
export type RiskCode = (typeof RISK_RULES)[number]['code'];

/** The flags a withdrawal raises, in the rules' order. */
export function riskFlags(facts: RiskFacts): RiskFlag[] {
  const flags: RiskFlag[] = [];
  for (const rule of RISK_RULES as readonly RiskRule[]) {
    const raised = rule.raised(facts, rule.params);
    if (raised) flags.push({ code: rule.code as RiskCode, params: { ...rule.params, ...raised } });
  }
  return flags;
}
