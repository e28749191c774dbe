import {
  DOCUMENT_SLOTS,
  type DocumentSlot,
  type FeatureRequirementView,
  ID_TYPES,
  type IdType,
  normaliseIdNumber,
  type TierView,
  VERIFICATION_LIMITS,
  type VerificationData,
  type VerificationTier,
} from '@bourse/protocol';

/** Where each tier's form is (the spec's routes; `/smauth` and `/seniorauth` show the same forms). */
export const TIER_PATH: Record<VerificationTier, string> = {
  primary: '/authentication',
  advanced: '/authenticationhigh',
  address: '/dzrz',
};

/** What the centre offers for a tier. */
export type TierAction = 'start' | 'resubmit' | 'revise' | 'view' | 'locked';

export function tierAction(view: Pick<TierView, 'state' | 'available' | 'can_submit'>): TierAction {
  if (view.state === 'under_review' || view.state === 'approved') return 'view';
  if (!view.available || !view.can_submit) return 'locked';
  if (view.state === 'rejected') return 'resubmit';
  if (view.state === 'revision_requested') return 'revise';
  return 'start';
}

/** How a form is opened: a new submission (every document), a revision (only the flagged ones), or read only. */
export type FormMode = 'new' | 'revision' | 'readOnly';

export function formMode(view: Pick<TierView, 'state' | 'can_submit'>): FormMode {
  if (!view.can_submit) return 'readOnly';
  return view.state === 'revision_requested' ? 'revision' : 'new';
}

/** The documents the reviewer asked to replace. */
export function slotsToReplace(view: Pick<TierView, 'state' | 'documents'>): DocumentSlot[] {
  if (view.state !== 'revision_requested') return [];
  return view.documents.filter((d) => d.status === 'revision_requested').map((d) => d.slot);
}

/** The primary tier's photos for an ID type: the back only for types that have one. */
export function primarySlots(idType: IdType): DocumentSlot[] {
  return DOCUMENT_SLOTS.primary.filter((slot) => slot !== 'id_back' || ID_TYPES[idType].back);
}

/**
 * The photos a submission must carry: every one of the tier's (for primary, those of the ID type)
 * on a new submission; on a revision only the flagged ones (the others stay as sent).
 */
export function requiredSlots(
  tier: VerificationTier,
  mode: FormMode,
  options: { idType?: IdType; flagged?: readonly DocumentSlot[] } = {},
): DocumentSlot[] {
  if (mode === 'readOnly') return [];
  if (mode === 'revision') return [...(options.flagged ?? [])];
  if (tier === 'primary') return primarySlots(options.idType ?? '1');
  if (tier === 'address') return ['utility_bill'];
  return []; // advanced: at least one proof of assets, checked on its own
}

export type FieldError =
  | { key: 'required' }
  | { key: 'realNameLength'; min: number; max: number }
  | { key: 'idNumberInvalid'; min: number; max: number }
  | { key: 'addressLength'; min: number; max: number };

/** The real name as the server takes it: trimmed, 2–100 characters. */
export function checkRealName(value: string): FieldError | null {
  const name = value.trim();
  if (name === '') return { key: 'required' };
  const length = [...name].length;
  const { realNameMin: min, realNameMax: max } = VERIFICATION_LIMITS;
  return length < min || length > max ? { key: 'realNameLength', min, max } : null;
}

/** The ID number against its type's pattern, after the server's normalisation. */
export function checkIdNumber(idType: IdType, value: string): FieldError | null {
  const number = normaliseIdNumber(value);
  if (number === '') return { key: 'required' };
  const rule = ID_TYPES[idType];
  return new RegExp(rule.pattern).test(number)
    ? null
    : { key: 'idNumberInvalid', min: rule.min, max: rule.max };
}

/**
 * Nationality is chosen once: only a customer with none on record (`recorded` empty) picks one, and
 * must; with one recorded the form shows it and sends nothing.
 */
export function mustChooseNationality(recorded: string): boolean {
  return recorded.trim() === '';
}

export function checkNationality(recorded: string, chosen: string | null): FieldError | null {
  return mustChooseNationality(recorded) && (chosen ?? '') === '' ? { key: 'required' } : null;
}

/** The `country` field of the primary submission: the chosen one while none is recorded, else none. */
export function nationalityField(recorded: string, chosen: string | null): { country?: string } {
  return mustChooseNationality(recorded) && chosen ? { country: chosen } : {};
}

/**
 * The countries a nationality is chosen from — the register form's list (every code `codes` gives,
 * libphonenumber's) — named by `name` and sorted by name in `locale`.
 */
export function nationalityOptions(
  codes: readonly string[],
  name: (code: string) => string,
  locale: string,
): { value: string; label: string }[] {
  const collator = new Intl.Collator(locale);
  return codes
    .map((code) => ({ value: code, label: name(code) }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

export function checkAddress(value: string): FieldError | null {
  const address = value.trim();
  if (address === '') return { key: 'required' };
  const { addressMin: min, addressMax: max } = VERIFICATION_LIMITS;
  return address.length < min || address.length > max ? { key: 'addressLength', min, max } : null;
}

/**
 * The document fields of a submission: the new file of each slot that has one. A slot not replaced
 * in a revision is left out, so the server keeps the document under review.
 */
export function documentFields(
  slots: readonly DocumentSlot[],
  files: Partial<Record<DocumentSlot, string>>,
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const slot of slots) {
    const id = files[slot];
    if (id) fields[FILE_FIELD[slot]] = id;
  }
  return fields;
}

/** The body field that carries each slot's file. */
export const FILE_FIELD: Record<DocumentSlot, string> = {
  id_front: 'front_file_id',
  id_back: 'back_file_id',
  id_handheld: 'handheld_file_id',
  asset_house: 'asset_house_file_id',
  asset_bank: 'asset_bank_file_id',
  asset_stock: 'asset_stock_file_id',
  utility_bill: 'utility_bill_file_id',
};

/** The slots of `required` that have no file yet. */
export function missingSlots(
  required: readonly DocumentSlot[],
  files: Partial<Record<DocumentSlot, string>>,
): DocumentSlot[] {
  return required.filter((slot) => !files[slot]);
}

/**
 * Where a customer stands on a feature's requirement and the step to take: nothing (no verification
 * needed, or met), wait (the tier is under review), or go to a tier's form — the prerequisite first
 * when the required tier cannot be started yet.
 */
export type NextStep =
  | { kind: 'none' }
  | { kind: 'met' }
  | { kind: 'wait'; tier: VerificationTier }
  | { kind: 'go'; tier: VerificationTier };

export function nextStep(
  requirement: Pick<FeatureRequirementView, 'tier' | 'met'>,
  data: Pick<VerificationData, 'primary' | 'advanced' | 'address'>,
): NextStep {
  if (requirement.tier === 'none') return { kind: 'none' };
  if (requirement.met) return { kind: 'met' };
  let tier: VerificationTier = requirement.tier;
  // A tier that needs another first (advanced and address need primary) sends there.
  for (let hops = 0; hops < 3; hops++) {
    const view = data[tier];
    if (view.available || view.requires === null) break;
    tier = view.requires;
  }
  const view = data[tier];
  if (view.state === 'under_review') return { kind: 'wait', tier };
  return { kind: 'go', tier };
}
