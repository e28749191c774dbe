import type { TierView, VerificationData, VerificationTier } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkAddress,
  checkIdNumber,
  checkNationality,
  checkRealName,
  documentFields,
  formMode,
  missingSlots,
  mustChooseNationality,
  nationalityField,
  nationalityOptions,
  nextStep,
  requiredSlots,
  slotsToReplace,
  tierAction,
} from './logic.ts';

function tier<T extends VerificationTier>(name: T, over: Partial<TierView<T>> = {}): TierView<T> {
  return {
    tier: name,
    state: 'not_submitted',
    available: true,
    requires: null,
    can_submit: true,
    submission_id: null,
    submitted_at: null,
    decided_at: null,
    data: null,
    documents: [],
    reject_reasons: [],
    unlocks: [],
    ...over,
  };
}

function tiers(
  over: Partial<{
    primary: TierView<'primary'>;
    advanced: TierView<'advanced'>;
    address: TierView<'address'>;
  }> = {},
): Pick<VerificationData, 'primary' | 'advanced' | 'address'> {
  return {
    primary: tier('primary'),
    advanced: tier('advanced', { available: false, requires: 'primary', can_submit: false }),
    address: tier('address', { available: false, requires: 'primary', can_submit: false }),
    ...over,
  };
}

describe('what the centre offers for a tier', () => {
  it('starts, resubmits, revises, views, or says it is locked', () => {
    expect(tierAction(tier('primary'))).toBe('start');
    expect(tierAction(tier('primary', { state: 'rejected' }))).toBe('resubmit');
    expect(tierAction(tier('primary', { state: 'revision_requested' }))).toBe('revise');
    expect(tierAction(tier('primary', { state: 'under_review', can_submit: false }))).toBe('view');
    expect(tierAction(tier('primary', { state: 'approved', can_submit: false }))).toBe('view');
    expect(tierAction(tier('advanced', { available: false, can_submit: false }))).toBe('locked');
    // A demo account cannot submit anything, even a tier that is available.
    expect(tierAction(tier('primary', { can_submit: false }))).toBe('locked');
  });

  it('opens the form new, as a revision or read only', () => {
    expect(formMode(tier('primary'))).toBe('new');
    expect(formMode(tier('primary', { state: 'rejected' }))).toBe('new');
    expect(formMode(tier('primary', { state: 'revision_requested' }))).toBe('revision');
    expect(formMode(tier('primary', { state: 'approved', can_submit: false }))).toBe('readOnly');
    expect(formMode(tier('primary', { state: 'under_review', can_submit: false }))).toBe('readOnly');
  });
});

describe('documents of a submission', () => {
  const revision = tier('primary', {
    state: 'revision_requested',
    documents: [
      { slot: 'id_front', file_id: 'fil_a', status: 'approved', reason_code: null, note: '' },
      { slot: 'id_back', file_id: 'fil_b', status: 'approved', reason_code: null, note: '' },
      {
        slot: 'id_handheld',
        file_id: 'fil_c',
        status: 'revision_requested',
        reason_code: 'blurry',
        note: '',
      },
    ],
  });

  it('asks only for the flagged documents in a revision', () => {
    expect(slotsToReplace(revision)).toEqual(['id_handheld']);
    expect(slotsToReplace(tier('primary', { state: 'rejected', documents: revision.documents }))).toEqual([]);
    expect(requiredSlots('primary', 'revision', { flagged: ['id_handheld'] })).toEqual(['id_handheld']);
  });

  it('needs the back of the ID only for types that have one', () => {
    expect(requiredSlots('primary', 'new', { idType: '1' })).toEqual(['id_front', 'id_back', 'id_handheld']);
    expect(requiredSlots('primary', 'new', { idType: '2' })).toEqual(['id_front', 'id_handheld']);
    expect(requiredSlots('primary', 'new', { idType: '5' })).toEqual(['id_front', 'id_handheld']);
    expect(requiredSlots('address', 'new')).toEqual(['utility_bill']);
    expect(requiredSlots('advanced', 'new')).toEqual([]);
    expect(requiredSlots('primary', 'readOnly', { idType: '1' })).toEqual([]);
  });

  it('sends the new files only, under their body fields, and names what is missing', () => {
    const files = { id_front: 'fil_1', id_handheld: 'fil_3' };
    expect(documentFields(['id_front', 'id_back', 'id_handheld'], files)).toEqual({
      front_file_id: 'fil_1',
      handheld_file_id: 'fil_3',
    });
    expect(missingSlots(['id_front', 'id_back', 'id_handheld'], files)).toEqual(['id_back']);
    expect(
      documentFields(['asset_bank', 'utility_bill'], { asset_bank: 'fil_9', utility_bill: 'fil_8' }),
    ).toEqual({
      asset_bank_file_id: 'fil_9',
      utility_bill_file_id: 'fil_8',
    });
  });
});

describe('typed data checked as the server does', () => {
  it('checks the real name', () => {
    expect(checkRealName('  ')).toEqual({ key: 'required' });
    expect(checkRealName('A')).toEqual({ key: 'realNameLength', min: 2, max: 100 });
    expect(checkRealName('李雷')).toBeNull();
    expect(checkRealName('x'.repeat(101))).toMatchObject({ key: 'realNameLength' });
  });

  it('checks the ID number against its type after normalising it', () => {
    expect(checkIdNumber('1', '')).toEqual({ key: 'required' });
    expect(checkIdNumber('1', 'g123-456 78')).toBeNull();
    expect(checkIdNumber('2', 'E1234567')).toBeNull();
    expect(checkIdNumber('2', 'E123')).toEqual({ key: 'idNumberInvalid', min: 6, max: 12 });
    expect(checkIdNumber('1', 'AB#123')).toEqual({ key: 'idNumberInvalid', min: 5, max: 20 });
  });

  it('checks the address', () => {
    expect(checkAddress('')).toEqual({ key: 'required' });
    expect(checkAddress('abc')).toEqual({ key: 'addressLength', min: 5, max: 300 });
    expect(checkAddress('1 Queen’s Road, Hong Kong')).toBeNull();
  });
});

describe('the step a customer takes for a feature', () => {
  it('says nothing is needed, or that it is met', () => {
    expect(nextStep({ tier: 'none', met: true }, tiers())).toEqual({ kind: 'none' });
    expect(nextStep({ tier: 'primary', met: true }, tiers())).toEqual({ kind: 'met' });
  });

  it('sends to the required tier, or to its prerequisite first', () => {
    expect(nextStep({ tier: 'primary', met: false }, tiers())).toEqual({ kind: 'go', tier: 'primary' });
    expect(nextStep({ tier: 'advanced', met: false }, tiers())).toEqual({ kind: 'go', tier: 'primary' });
    const primaryDone = tiers({
      primary: tier('primary', { state: 'approved', can_submit: false }),
      advanced: tier('advanced'),
    });
    expect(nextStep({ tier: 'advanced', met: false }, primaryDone)).toEqual({ kind: 'go', tier: 'advanced' });
  });

  it('says to wait while the tier is under review', () => {
    const reviewing = tiers({ primary: tier('primary', { state: 'under_review', can_submit: false }) });
    expect(nextStep({ tier: 'primary', met: false }, reviewing)).toEqual({ kind: 'wait', tier: 'primary' });
    expect(nextStep({ tier: 'address', met: false }, reviewing)).toEqual({ kind: 'wait', tier: 'primary' });
  });
});

describe('nationality: shown when recorded, chosen once when not', () => {
  it('asks for a choice only when none is recorded, and requires it then', () => {
    expect(mustChooseNationality('')).toBe(true);
    expect(mustChooseNationality('GB')).toBe(false);
    expect(checkNationality('', null)).toEqual({ key: 'required' });
    expect(checkNationality('', '')).toEqual({ key: 'required' });
    expect(checkNationality('', 'SG')).toBeNull();
    expect(checkNationality('GB', null)).toBeNull();
  });

  it('sends the chosen country only while none is recorded', () => {
    expect(nationalityField('', 'SG')).toEqual({ country: 'SG' });
    expect(nationalityField('GB', 'SG')).toEqual({});
    expect(nationalityField('GB', null)).toEqual({});
    expect(nationalityField('', null)).toEqual({});
  });

  it('lists the codes by name, sorted in the reader’s language', () => {
    const names: Record<string, string> = { DE: 'Germany', AT: 'Austria', CN: 'China' };
    const options = nationalityOptions(['DE', 'CN', 'AT'], (code) => names[code] ?? code, 'en');
    expect(options).toEqual([
      { value: 'AT', label: 'Austria' },
      { value: 'CN', label: 'China' },
      { value: 'DE', label: 'Germany' },
    ]);
  });
});
