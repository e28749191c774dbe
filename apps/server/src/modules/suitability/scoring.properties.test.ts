import {
  type CapsByRating,
  PRODUCT_CLASSES,
  RISK_RATINGS,
  type ScoringTable,
  SUITABILITY_QUESTIONS,
} from '@bourse/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../http/refusal.ts';
import { checkCaps } from './caps.ts';
import { DEFAULT_CAPS, DEFAULT_SCORING } from './defaults.ts';
import { type Answers, checkAnswers, checkScoring, score } from './scoring.ts';

/**
 * The scoring and the caps checks against independent reference implementations written here:
 * the reference ranks ratings by position in a list and reads the table by walking the answers,
 * instead of the module's threshold comparisons and ceiling order map.
 */

const LADDER = ['conservative', 'balanced', 'aggressive'] as const;

function referenceRating(table: ScoringTable, answers: Record<string, string>): string {
  const lines = Object.entries(answers).map(([q, o]) => table.questions[q]?.[o]);
  const total = lines.reduce((sum, l) => sum + (l?.points ?? Number.NaN), 0);
  const reached = LADDER.filter(
    (r) => r === 'conservative' || total >= table.thresholds[r as 'balanced' | 'aggressive'],
  );
  let rank = reached.length - 1;
  for (const l of lines) if (l?.ceiling) rank = Math.min(rank, LADDER.indexOf(l.ceiling));
  return LADDER[rank] as string;
}

const tableArb: fc.Arbitrary<ScoringTable> = fc
  .record({
    lines: fc.tuple(
      ...SUITABILITY_QUESTIONS.map((q) =>
        fc.tuple(
          ...q.options.map(() =>
            fc.record({
              points: fc.integer({ min: 0, max: 100 }),
              ceiling: fc.constantFrom(null, null, null, 'conservative' as const, 'balanced' as const),
            }),
          ),
        ),
      ),
    ),
    balanced: fc.integer({ min: 1, max: 500 }),
    gap: fc.integer({ min: 1, max: 500 }),
    days: fc.integer({ min: 0, max: 365 }),
  })
  .map(({ lines, balanced, gap, days }) => ({
    questions: Object.fromEntries(
      SUITABILITY_QUESTIONS.map((q, i) => [
        q.id,
        Object.fromEntries(
          q.options.map((o, j) => [o, (lines[i] as { points: number; ceiling: null }[])[j]]),
        ),
      ]),
    ) as ScoringTable['questions'],
    thresholds: { balanced, aggressive: balanced + gap },
    cooling_off_days: days,
  }));

const answersArb: fc.Arbitrary<Answers> = fc
  .tuple(...SUITABILITY_QUESTIONS.map((q) => fc.constantFrom(...q.options)))
  .map((picked) => Object.fromEntries(SUITABILITY_QUESTIONS.map((q, i) => [q.id, picked[i]])) as Answers);

const refusalOf = (f: () => unknown): Refusal | null => {
  try {
    f();
    return null;
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
};

describe('scoring', () => {
  it('rates every answer set as the reference does, under any valid table', () => {
    fc.assert(
      fc.property(tableArb, answersArb, (table, answers) => {
        const checked = checkScoring(table);
        expect(checked).toEqual(table);
        const s = score(checked, answers);
        expect(s.rating).toBe(referenceRating(table, answers));
        expect(s.points).toBe(
          SUITABILITY_QUESTIONS.reduce(
            (sum, q) => sum + (table.questions[q.id]?.[answers[q.id]]?.points ?? 0),
            0,
          ),
        );
      }),
      { numRuns: 1_000 },
    );
  });

  it('the shipped table rates every answer set as the reference does', () => {
    fc.assert(
      fc.property(answersArb, (answers) => {
        expect(score(DEFAULT_SCORING, answers).rating).toBe(referenceRating(DEFAULT_SCORING, answers));
      }),
      { numRuns: 2_000 },
    );
  });

  it('checks answers: every question required, only its options', () => {
    fc.assert(
      fc.property(
        answersArb,
        fc.constantFrom(...SUITABILITY_QUESTIONS.map((q) => q.id)),
        fc.string({ maxLength: 12 }),
        (answers, q, junk) => {
          expect(checkAnswers(answers)).toEqual(answers);
          const { [q]: _, ...missing } = answers;
          expect(refusalOf(() => checkAnswers(missing))).toMatchObject({
            reason: 'FIELD_REQUIRED',
            params: { field: q },
          });
          const options = SUITABILITY_QUESTIONS.find((x) => x.id === q)?.options as readonly string[];
          if (junk !== '' && !options.includes(junk))
            expect(refusalOf(() => checkAnswers({ ...answers, [q]: junk }))).toMatchObject({
              reason: 'SUITABILITY_ANSWER_INVALID',
              params: { field: q },
            });
        },
      ),
    );
  });

  it('refuses a bad table naming the value', () => {
    fc.assert(
      fc.property(
        tableArb,
        fc.constantFrom(...SUITABILITY_QUESTIONS),
        fc.oneof(
          fc.integer({ min: 101, max: 10_000 }),
          fc.integer({ min: -10_000, max: -1 }),
          fc.constant(1.5),
        ),
        (table, q, points) => {
          const option = q.options[0];
          const bad = structuredClone(table);
          (bad.questions[q.id] as Record<string, { points: number }>)[option] = {
            ...(bad.questions[q.id]?.[option] as { points: number }),
            points,
          };
          expect(refusalOf(() => checkScoring(bad))).toMatchObject({
            reason: 'SUITABILITY_TABLE_INVALID',
            params: { field: `questions.${q.id}.${option}.points` },
          });
          const flat = {
            ...table,
            thresholds: { balanced: table.thresholds.aggressive, aggressive: table.thresholds.balanced },
          };
          expect(refusalOf(() => checkScoring(flat))?.params).toEqual({ field: 'thresholds.aggressive' });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('caps', () => {
  const capsArb: fc.Arbitrary<CapsByRating> = fc
    .tuple(
      ...RISK_RATINGS.flatMap(() =>
        PRODUCT_CLASSES.map(() =>
          fc.record({
            lev: fc.integer({ min: 0, max: 100 }),
            amount: fc.integer({ min: 0, max: 1_000_000 }),
          }),
        ),
      ),
    )
    .map((cells) => {
      const out = {} as CapsByRating;
      let k = 0;
      for (const r of RISK_RATINGS) {
        out[r] = {} as CapsByRating[typeof r];
        for (const p of PRODUCT_CLASSES) {
          const c = cells[k++] as { lev: number; amount: number };
          out[r][p] = { max_leverage: p === 'contracts' ? c.lev : null, max_amount: String(c.amount) };
        }
      }
      return out;
    });

  /** Sorted per cell across the ratings: a monotone table (half the draws, so both branches are tried). */
  const monotoneArb = capsArb.map((caps) => {
    const out = structuredClone(caps);
    for (const p of PRODUCT_CLASSES) {
      const levs = RISK_RATINGS.map((r) => caps[r][p].max_leverage ?? 0).sort((a, b) => a - b);
      const amounts = RISK_RATINGS.map((r) => Number(caps[r][p].max_amount)).sort((a, b) => a - b);
      RISK_RATINGS.forEach((r, i) => {
        out[r][p] = {
          max_leverage: p === 'contracts' ? (levs[i] as number) : null,
          max_amount: String(amounts[i]),
        };
      });
    }
    return out;
  });

  /** The reference: the first cell (in rating then product order) lower than the rating below it. */
  function firstDrop(caps: CapsByRating): string | null {
    for (let i = 1; i < RISK_RATINGS.length; i += 1)
      for (const p of PRODUCT_CLASSES) {
        const lo = caps[RISK_RATINGS[i - 1] as (typeof RISK_RATINGS)[number]][p];
        const hi = caps[RISK_RATINGS[i] as (typeof RISK_RATINGS)[number]][p];
        if ((hi.max_leverage ?? 0) < (lo.max_leverage ?? 0)) return `${RISK_RATINGS[i]}.${p}.max_leverage`;
        if (Number(hi.max_amount) < Number(lo.max_amount)) return `${RISK_RATINGS[i]}.${p}.max_amount`;
      }
    return null;
  }

  it('accepts exactly the monotone tables, naming the first cell that drops', () => {
    fc.assert(
      fc.property(fc.oneof(capsArb, monotoneArb), (caps) => {
        const drop = firstDrop(caps);
        const refusal = refusalOf(() => checkCaps(caps));
        if (drop === null) expect(refusal).toBeNull();
        else
          expect(refusal).toMatchObject({ reason: 'SUITABILITY_CAP_NOT_MONOTONE', params: { field: drop } });
      }),
      { numRuns: 500 },
    );
  });

  it('the seeded tables are monotone', () => {
    for (const caps of Object.values(DEFAULT_CAPS)) expect(checkCaps(caps)).toEqual(caps);
  });
});
