import type { PostingInput } from '../ledger/index.ts';

/** Postings without the zero ones (the ledger refuses a zero posting); null when fewer than two are left. */
export function nonZero(postings: PostingInput[]): PostingInput[] | null {
  const kept = postings.filter((p) => p.amountUnits !== 0n);
  return kept.length >= 2 ? kept : null;
}
