import {
  type DocumentDecision,
  type DocumentSlot,
  VERIFICATION_REASON_CODE_LIST,
  VERIFICATION_REASON_CODES,
  type VerificationReasonCode,
  type VerificationState,
  type VerificationTier,
} from '@bourse/protocol';

/** How long a submission has waited, in the largest two units (the queue's "Waiting" column). */
export type Age =
  | { unit: 'minutes'; minutes: number }
  | { unit: 'hours'; hours: number; minutes: number }
  | { unit: 'days'; days: number; hours: number };

export function ageOf(ageMs: number): Age {
  const minutesTotal = Math.max(0, Math.floor(ageMs / 60_000));
  if (minutesTotal < 60) return { unit: 'minutes', minutes: minutesTotal };
  const hoursTotal = Math.floor(minutesTotal / 60);
  if (hoursTotal < 24) return { unit: 'hours', hours: hoursTotal, minutes: minutesTotal % 60 };
  return { unit: 'days', days: Math.floor(hoursTotal / 24), hours: hoursTotal % 24 };
}

/** The reason codes that make sense for a tier (the catalogue says where each applies). */
export function reasonCodesFor(tier: VerificationTier): VerificationReasonCode[] {
  return VERIFICATION_REASON_CODE_LIST.filter((code) =>
    (VERIFICATION_REASON_CODES[code].tiers as readonly VerificationTier[]).includes(tier),
  );
}

/**
 * One document's decision as `verification/decide` takes it. (The protocol's
 * `Static<typeof DocumentDecisionBody>` types its literal unions as `never`.)
 */
export type DocumentDecisionBody = {
  slot: DocumentSlot;
  decision: DocumentDecision;
  reason_code?: VerificationReasonCode;
  note?: string;
};

/** One document's decision as the reviewer is filling it in. */
export type Draft = {
  decision: DocumentDecision | null;
  reason_code: VerificationReasonCode | null;
  note: string;
};

export const EMPTY_DRAFT: Draft = { decision: null, reason_code: null, note: '' };

export type DraftProblem =
  | { kind: 'missing'; slots: DocumentSlot[] }
  | { kind: 'reasonMissing'; slots: DocumentSlot[] }
  | { kind: 'noteMissing'; slots: DocumentSlot[] };

/**
 * The decisions to send, or what stops them: every document decided; a reject or a revision with a
 * reason code; the `other` code with a note. The server checks the same (it is the authority).
 */
export function decisionsOf(
  slots: readonly DocumentSlot[],
  drafts: Partial<Record<DocumentSlot, Draft>>,
): { ok: true; decisions: DocumentDecisionBody[] } | { ok: false; problem: DraftProblem } {
  const missing = slots.filter((slot) => !drafts[slot]?.decision);
  if (missing.length > 0) return { ok: false, problem: { kind: 'missing', slots: missing } };
  const needsReason = slots.filter(
    (slot) => drafts[slot]?.decision !== 'approve' && !drafts[slot]?.reason_code,
  );
  if (needsReason.length > 0) return { ok: false, problem: { kind: 'reasonMissing', slots: needsReason } };
  const needsNote = slots.filter((slot) => {
    const draft = drafts[slot];
    return (
      draft?.decision !== 'approve' &&
      draft?.reason_code &&
      VERIFICATION_REASON_CODES[draft.reason_code].note &&
      draft.note.trim() === ''
    );
  });
  if (needsNote.length > 0) return { ok: false, problem: { kind: 'noteMissing', slots: needsNote } };
  const decisions = slots.map((slot): DocumentDecisionBody => {
    const draft = drafts[slot] ?? EMPTY_DRAFT;
    const decision = draft.decision ?? 'approve';
    if (decision === 'approve') return { slot, decision };
    const note = draft.note.trim();
    return {
      slot,
      decision,
      ...(draft.reason_code ? { reason_code: draft.reason_code } : {}),
      ...(note ? { note } : {}),
    };
  });
  return { ok: true, decisions };
}

/** What the decisions will make of the submission (the server's rule): all approved, any rejected, else a revision. */
export function outcomeOf(
  drafts: readonly (Draft | undefined)[],
): Exclude<VerificationState, 'not_submitted' | 'under_review'> | null {
  if (drafts.length === 0 || drafts.some((d) => !d?.decision)) return null;
  if (drafts.every((d) => d?.decision === 'approve')) return 'approved';
  if (drafts.some((d) => d?.decision === 'reject')) return 'rejected';
  return 'revision_requested';
}
