import {
  type AssessedRating,
  RATING_CEILINGS,
  type RatingCeiling,
  type ScoringTable,
  SUITABILITY_LIMITS,
  SUITABILITY_QUESTIONS,
  type SuitabilityQuestionId,
} from '@bourse/protocol';
import { refuse } from '../../http/refusal.ts';

/**
 * The questionnaire's arithmetic, pure: a scoring table checked before it is published, answers
 * checked against the questions, and the rating the answers earn under a table — the sum of the
 * points against the thresholds, lowered to the lowest ceiling any answer carries.
 */

export type Answers = Record<SuitabilityQuestionId, string>;

export type Score = {
  points: number;
  /** What the points alone give. */
  pointsRating: AssessedRating;
  /** The lowest ceiling among the answers (null: none). */
  ceiling: RatingCeiling | null;
  rating: AssessedRating;
};

const ORDER: Record<AssessedRating, number> = { conservative: 0, balanced: 1, aggressive: 2 };

function bad(field: string): never {
  refuse('SUITABILITY_TABLE_INVALID', { field });
}

const whole = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** A table fit to publish: every question and option present with whole points in range, no unknown one, thresholds ascending. */
export function checkScoring(input: ScoringTable): ScoringTable {
  const given = (input.questions ?? {}) as Record<string, Record<string, unknown>>;
  const known = new Set<string>(SUITABILITY_QUESTIONS.map((q) => q.id));
  for (const id of Object.keys(given)) if (!known.has(id)) bad(`questions.${id}`);
  const questions: ScoringTable['questions'] = {};
  for (const q of SUITABILITY_QUESTIONS) {
    const options = given[q.id];
    if (!options || typeof options !== 'object') bad(`questions.${q.id}`);
    const optionIds = new Set<string>(q.options);
    for (const o of Object.keys(options as object)) if (!optionIds.has(o)) bad(`questions.${q.id}.${o}`);
    const lines: Record<string, { points: number; ceiling: RatingCeiling | null }> = {};
    questions[q.id] = lines;
    for (const o of q.options) {
      const line = (options as Record<string, unknown>)[o] as
        | { points?: unknown; ceiling?: unknown }
        | undefined;
      if (!line || typeof line !== 'object') bad(`questions.${q.id}.${o}`);
      const { points, ceiling } = line as { points?: unknown; ceiling?: unknown };
      if (!whole(points, 0, SUITABILITY_LIMITS.pointsMax)) bad(`questions.${q.id}.${o}.points`);
      if (ceiling !== null && !(RATING_CEILINGS as readonly unknown[]).includes(ceiling))
        bad(`questions.${q.id}.${o}.ceiling`);
      lines[o] = { points: points as number, ceiling: ceiling as RatingCeiling | null };
    }
  }
  const t = input.thresholds ?? ({} as ScoringTable['thresholds']);
  if (!whole(t.balanced, 1, SUITABILITY_LIMITS.thresholdMax)) bad('thresholds.balanced');
  if (!whole(t.aggressive, 1, SUITABILITY_LIMITS.thresholdMax) || t.aggressive <= t.balanced)
    bad('thresholds.aggressive');
  if (!whole(input.cooling_off_days, 0, SUITABILITY_LIMITS.coolingOffDaysMax)) bad('cooling_off_days');
  return {
    questions,
    thresholds: { balanced: t.balanced, aggressive: t.aggressive },
    cooling_off_days: input.cooling_off_days,
  };
}

/** Every question answered with one of its options (FIELD_REQUIRED / SUITABILITY_ANSWER_INVALID naming the question). */
export function checkAnswers(body: Partial<Record<string, unknown>>): Answers {
  const out = {} as Answers;
  for (const q of SUITABILITY_QUESTIONS) {
    const v = body[q.id];
    if (v === undefined || v === null || v === '') refuse('FIELD_REQUIRED', { field: q.id });
    if (typeof v !== 'string' || !(q.options as readonly string[]).includes(v))
      refuse('SUITABILITY_ANSWER_INVALID', { field: q.id });
    out[q.id] = v;
  }
  return out;
}

/** The rating `answers` earn under `table` (both already checked). */
export function score(table: ScoringTable, answers: Answers): Score {
  let points = 0;
  let ceiling: RatingCeiling | null = null;
  for (const q of SUITABILITY_QUESTIONS) {
    const line = table.questions[q.id]?.[answers[q.id]];
    if (!line) throw new Error(`scoring table has no line for ${q.id}=${answers[q.id]}`);
    points += line.points;
    if (line.ceiling && (ceiling === null || ORDER[line.ceiling] < ORDER[ceiling])) ceiling = line.ceiling;
  }
  const pointsRating: AssessedRating =
    points >= table.thresholds.aggressive
      ? 'aggressive'
      : points >= table.thresholds.balanced
        ? 'balanced'
        : 'conservative';
  const rating = ceiling !== null && ORDER[ceiling] < ORDER[pointsRating] ? ceiling : pointsRating;
  return { points, pointsRating, ceiling, rating };
}
