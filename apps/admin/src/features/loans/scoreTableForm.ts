import { parseDecimal } from '@bourse/money';
import {
  type AdminScoreTableBody,
  CREDIT_SCORE_FACTORS,
  type CreditScoreFactor,
  type CreditTableData,
} from '@bourse/protocol';
import { creditLimitTableProblems, creditTableProblems, LOAN_SCALE } from '@bourse/risk';

/**
 * The score table as staff edit it: one text per factor and one for the limits, a band a line
 * ("from points", "score limit"). A new version is published whole; the problems `@bourse/risk`
 * would refuse are named before sending (the server refuses the same).
 */

export type ScoreTableForm = {
  base_points: string;
  bands: Record<CreditScoreFactor, string>;
  limits: string;
  reason: string;
};

/** Factors whose band values are USDT amounts (decimals); the others are whole numbers. */
const USDT_FACTORS: readonly CreditScoreFactor[] = ['deposits', 'trading_volume'];

export function formOfTable(table: CreditTableData): ScoreTableForm {
  return {
    base_points: String(table.base_points),
    bands: Object.fromEntries(
      CREDIT_SCORE_FACTORS.map((f) => [
        f,
        (table.bands[f] ?? []).map((b) => `${b.from} ${b.points}`).join('\n'),
      ]),
    ) as Record<CreditScoreFactor, string>,
    limits: table.limits.map((l) => `${l.score_min} ${l.limit}`).join('\n'),
    reason: '',
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((l) => l.split(/[\s,]+/));

const INTEGER = /^-?[0-9]{1,6}$/;

function valueUnits(text: string, usdt: boolean): bigint | null {
  const parsed = parseDecimal(text, { scale: usdt ? LOAN_SCALE : 0, maxIntegerDigits: 15 });
  return parsed.ok ? parsed.units : null;
}

/** A named problem: `field` is `base_points`, a factor, `limits` or `reason`; `rule` a key of `scoreRule`. */
export type ScoreFormProblem = { field: string; rule: string; line: number | null };

export function scoreTableBody(form: ScoreTableForm): {
  body: Omit<AdminScoreTableBody, 'lang' | 'rtoken' | 'token'> | null;
  problems: ScoreFormProblem[];
} {
  const problems: ScoreFormProblem[] = [];
  if (!INTEGER.test(form.base_points.trim()))
    problems.push({ field: 'base_points', rule: 'unreadable', line: null });
  const bands = {} as AdminScoreTableBody['bands'];
  const riskBands = {} as Record<CreditScoreFactor, { from: bigint; points: number }[]>;
  for (const f of CREDIT_SCORE_FACTORS) {
    bands[f] = [];
    riskBands[f] = [];
    lines(form.bands[f]).forEach(([from = '', points = '', ...rest], i) => {
      const units = valueUnits(from, USDT_FACTORS.includes(f));
      if (units === null || !INTEGER.test(points) || rest.length > 0) {
        problems.push({ field: f, rule: 'unreadable', line: i + 1 });
        return;
      }
      bands[f].push({ from, points: Number(points) });
      riskBands[f].push({ from: units, points: Number(points) });
    });
  }
  const limits: AdminScoreTableBody['limits'] = [];
  const riskLimits: { scoreMin: number; limitUnits: bigint }[] = [];
  lines(form.limits).forEach(([score = '', limit = '', ...rest], i) => {
    const units = valueUnits(limit, true);
    if (!INTEGER.test(score) || units === null || rest.length > 0) {
      problems.push({ field: 'limits', rule: 'unreadable', line: i + 1 });
      return;
    }
    limits.push({ score_min: Number(score), limit });
    riskLimits.push({ scoreMin: Number(score), limitUnits: units });
  });
  if (form.reason.trim().length < 3) problems.push({ field: 'reason', rule: 'reason', line: null });
  if (problems.length > 0) return { body: null, problems };
  const basePoints = Number(form.base_points.trim());
  for (const p of creditTableProblems({ version: 0, basePoints, bands: riskBands }))
    problems.push({
      field: p.factor === 'base' ? 'base_points' : p.factor,
      rule: p.rule,
      line: p.index === null ? null : p.index + 1,
    });
  for (const p of creditLimitTableProblems(riskLimits))
    problems.push({ field: 'limits', rule: p.rule, line: p.index === null ? null : p.index + 1 });
  if (problems.length > 0) return { body: null, problems };
  return { body: { base_points: basePoints, bands, limits, reason: form.reason.trim() }, problems };
}
