import { isWholeInRange } from '@bourse/money';
import {
  type CapsByRating,
  PRODUCT_CLASSES,
  type RatingCeiling,
  RISK_RATINGS,
  type ScoringTable,
  SUITABILITY_LIMITS,
  SUITABILITY_QUESTIONS,
} from '@bourse/protocol';

/**
 * The editors' forms as text (what the inputs hold) and back: a value that is not a whole number in
 * its range is named by its path before anything is sent; the server checks the same rules again.
 */

export type ScoringForm = {
  points: Record<string, string>;
  ceilings: Record<string, RatingCeiling | ''>;
  balanced: string;
  aggressive: string;
  days: string;
};

const key = (q: string, o: string) => `${q}.${o}`;

export function scoringForm(table: ScoringTable): ScoringForm {
  const points: Record<string, string> = {};
  const ceilings: Record<string, RatingCeiling | ''> = {};
  for (const q of SUITABILITY_QUESTIONS)
    for (const o of q.options) {
      const line = table.questions[q.id]?.[o];
      points[key(q.id, o)] = String(line?.points ?? 0);
      ceilings[key(q.id, o)] = line?.ceiling ?? '';
    }
  return {
    points,
    ceilings,
    balanced: String(table.thresholds.balanced),
    aggressive: String(table.thresholds.aggressive),
    days: String(table.cooling_off_days),
  };
}

/** The table a form stands for, or the paths of its bad values. */
export function scoringFromForm(form: ScoringForm): { table: ScoringTable | null; bad: Set<string> } {
  const bad = new Set<string>();
  const questions: ScoringTable['questions'] = {};
  for (const q of SUITABILITY_QUESTIONS) {
    const lines: ScoringTable['questions'][string] = {};
    questions[q.id] = lines;
    for (const o of q.options) {
      const k = key(q.id, o);
      const text = form.points[k] ?? '';
      if (!isWholeInRange(text, 0, SUITABILITY_LIMITS.pointsMax)) bad.add(k);
      lines[o] = { points: Number.parseInt(text, 10), ceiling: form.ceilings[k] || null };
    }
  }
  if (!isWholeInRange(form.balanced, 1, SUITABILITY_LIMITS.thresholdMax)) bad.add('balanced');
  if (
    !isWholeInRange(form.aggressive, 1, SUITABILITY_LIMITS.thresholdMax) ||
    Number.parseInt(form.aggressive, 10) <= Number.parseInt(form.balanced, 10)
  )
    bad.add('aggressive');
  if (!isWholeInRange(form.days, 0, SUITABILITY_LIMITS.coolingOffDaysMax)) bad.add('days');
  if (bad.size > 0) return { table: null, bad };
  return {
    table: {
      questions,
      thresholds: {
        balanced: Number.parseInt(form.balanced, 10),
        aggressive: Number.parseInt(form.aggressive, 10),
      },
      cooling_off_days: Number.parseInt(form.days, 10),
    },
    bad,
  };
}

/** Caps as text: `<rating>.<product>.max_leverage|max_amount` → the input's value. */
export type CapsForm = Record<string, string>;

export function capsForm(caps: CapsByRating): CapsForm {
  const out: CapsForm = {};
  for (const r of RISK_RATINGS)
    for (const p of PRODUCT_CLASSES) {
      const cell = caps[r]?.[p];
      if (p === 'contracts') out[`${r}.${p}.max_leverage`] = String(cell?.max_leverage ?? 0);
      out[`${r}.${p}.max_amount`] = cell?.max_amount ?? '0';
    }
  return out;
}

/** Whole USDT 0…1,000,000,000 (more digits than isWholeInRange takes). */
function wholeAmount(text: string): boolean {
  return /^\d{1,10}$/.test(text) && BigInt(text) <= BigInt(SUITABILITY_LIMITS.amountMax);
}

export function capsFromForm(form: CapsForm): { caps: CapsByRating | null; bad: Set<string> } {
  const bad = new Set<string>();
  const caps = {} as CapsByRating;
  for (const r of RISK_RATINGS) {
    caps[r] = {} as CapsByRating[typeof r];
    for (const p of PRODUCT_CLASSES) {
      const lev = form[`${r}.${p}.max_leverage`] ?? '';
      const amount = (form[`${r}.${p}.max_amount`] ?? '').trim();
      if (p === 'contracts' && !isWholeInRange(lev, 0, SUITABILITY_LIMITS.leverageMax))
        bad.add(`${r}.${p}.max_leverage`);
      if (!wholeAmount(amount)) bad.add(`${r}.${p}.max_amount`);
      caps[r][p] = {
        max_leverage: p === 'contracts' ? Number.parseInt(lev, 10) : null,
        max_amount: amount.replace(/^0+(?=\d)/, ''),
      };
    }
  }
  return bad.size > 0 ? { caps: null, bad } : { caps, bad };
}
