import type { CapData, ProductClass, RiskRating, ScoringVersionData } from '@bourse/protocol';

/** One line of what a rating allows in a product class: an i18n key under `cap.` and its values. */
export type CapLine = {
  key: 'notAllowed' | 'leverage' | 'margin' | 'stake' | 'amount';
  max?: number;
  amount?: string;
};

/** The lines a cap reads as: contracts — leverage and margin; options — stake; the others — amount per purchase. */
export function capLines(product: ProductClass, cap: CapData | undefined): CapLine[] {
  if (!cap) return [];
  const blocked = cap.max_amount === '0' || (product === 'contracts' && cap.max_leverage === 0);
  if (blocked) return [{ key: 'notAllowed' }];
  if (product === 'contracts')
    return [
      { key: 'leverage', max: cap.max_leverage ?? 0 },
      { key: 'margin', amount: cap.max_amount },
    ];
  if (product === 'options') return [{ key: 'stake', amount: cap.max_amount }];
  return [{ key: 'amount', amount: cap.max_amount }];
}

/** Mantine colour of a rating's badge. */
export function ratingColor(rating: RiskRating): string {
  switch (rating) {
    case 'aggressive':
      return 'red';
    case 'balanced':
      return 'orange';
    case 'conservative':
      return 'teal';
    default:
      return 'gray';
  }
}

/** The highest points a question can give under a table (shown beside the question). */
export function maxPoints(table: Pick<ScoringVersionData, 'questions'>, questionId: string): number {
  const options = Object.values(table.questions[questionId] ?? {});
  return options.reduce((m, o) => Math.max(m, o.points), 0);
}

/** How many of the questions have an answer. */
export function answeredCount(
  questionIds: readonly string[],
  answers: Readonly<Record<string, string>>,
): number {
  return questionIds.filter((id) => (answers[id] ?? '') !== '').length;
}
