import { describe, expect, it } from 'vitest';
import { ageOf, decisionsOf, EMPTY_DRAFT, outcomeOf, reasonCodesFor } from './logic.ts';

describe('the review logic', () => {
  it('tells the age in its two largest units', () => {
    expect(ageOf(0)).toEqual({ unit: 'minutes', minutes: 0 });
    expect(ageOf(59 * 60_000 + 59_999)).toEqual({ unit: 'minutes', minutes: 59 });
    expect(ageOf(60 * 60_000)).toEqual({ unit: 'hours', hours: 1, minutes: 0 });
    expect(ageOf((23 * 60 + 59) * 60_000)).toEqual({ unit: 'hours', hours: 23, minutes: 59 });
    expect(ageOf((49 * 60 + 30) * 60_000)).toEqual({ unit: 'days', days: 2, hours: 1 });
    expect(ageOf(-5)).toEqual({ unit: 'minutes', minutes: 0 });
  });

  it('offers each tier only its reason codes', () => {
    expect(reasonCodesFor('address')).toContain('bill_too_old');
    expect(reasonCodesFor('address')).not.toContain('signature_missing');
    expect(reasonCodesFor('primary')).toContain('signature_missing');
    expect(reasonCodesFor('advanced')).toContain('asset_proof_insufficient');
    for (const tier of ['primary', 'advanced', 'address'] as const)
      expect(reasonCodesFor(tier)).toContain('other');
  });

  it('sends one decision per document, with reasons and notes where they are needed', () => {
    const slots = ['id_front', 'id_handheld'] as const;
    expect(decisionsOf(slots, {})).toEqual({
      ok: false,
      problem: { kind: 'missing', slots: ['id_front', 'id_handheld'] },
    });
    expect(
      decisionsOf(slots, {
        id_front: { ...EMPTY_DRAFT, decision: 'approve' },
        id_handheld: { ...EMPTY_DRAFT, decision: 'reject' },
      }),
    ).toEqual({ ok: false, problem: { kind: 'reasonMissing', slots: ['id_handheld'] } });
    expect(
      decisionsOf(slots, {
        id_front: { ...EMPTY_DRAFT, decision: 'approve' },
        id_handheld: { decision: 'request_revision', reason_code: 'other', note: '  ' },
      }),
    ).toEqual({ ok: false, problem: { kind: 'noteMissing', slots: ['id_handheld'] } });
    expect(
      decisionsOf(slots, {
        // A reason left over from an earlier choice is not sent with an approval.
        id_front: { decision: 'approve', reason_code: 'blurry', note: 'old' },
        id_handheld: { decision: 'request_revision', reason_code: 'blurry', note: ' Hold still ' },
      }),
    ).toEqual({
      ok: true,
      decisions: [
        { slot: 'id_front', decision: 'approve' },
        { slot: 'id_handheld', decision: 'request_revision', reason_code: 'blurry', note: 'Hold still' },
      ],
    });
  });

  it('foresees the outcome as the server decides it', () => {
    const approve = { ...EMPTY_DRAFT, decision: 'approve' as const };
    const reject = { ...EMPTY_DRAFT, decision: 'reject' as const };
    const revise = { ...EMPTY_DRAFT, decision: 'request_revision' as const };
    expect(outcomeOf([])).toBeNull();
    expect(outcomeOf([approve, undefined])).toBeNull();
    expect(outcomeOf([approve, approve])).toBe('approved');
    expect(outcomeOf([approve, revise])).toBe('revision_requested');
    expect(outcomeOf([revise, reject])).toBe('rejected');
  });
});
