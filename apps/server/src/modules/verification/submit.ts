import {
  DOCUMENT_SLOTS,
  type DocumentSlot,
  ID_TYPES,
  type IdType,
  normaliseIdNumber,
  type SubmitAddressBody,
  type SubmitAdvancedBody,
  type SubmitPrimaryBody,
  type TierView,
  VERIFICATION_LIMITS,
  type VerificationTier,
} from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { knownCountry } from '../accounts/index.ts';
import { daysAfter, idHash, SLOT_FIELD, type VerificationDeps } from './context.ts';
import * as repo from './repo.ts';
import type { TierData } from './tables.ts';
import { verificationView } from './view.ts';

/**
 * The customer's submissions: each field checked by its rule before anything is written; then, in
 * one transaction serialized per customer and tier, the state rules (not twice under review, never
 * after approval, advanced and address only after primary), the documents claimed from uploads
 * (the customer's own, unused files only), the submission and where the tier now stands.
 */

type Deps = VerificationDeps;

/** The documents a submission takes: which must be there, which may, and whether one of a group must. */
type DocumentRules = { required: DocumentSlot[]; allowed: DocumentSlot[]; anyOf?: DocumentSlot[] };

type Submission = {
  tier: VerificationTier;
  /** The nationality the primary form sends (chosen there only when none is on record). */
  country?: string | undefined;
  documents: Partial<Record<DocumentSlot, string | undefined>>;
  rules: DocumentRules;
  columns: { real_name: string | null; id_type: string | null; id_number: string | null; data: TierData };
};

const NAME = /^[\p{L}\p{M}](?:[\p{L}\p{M} .'’\-·]*[\p{L}\p{M}.])?$/u;

function checkName(raw: string): string {
  const name = raw.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const { realNameMin: min, realNameMax: max } = VERIFICATION_LIMITS;
  if ([...name].length < min || [...name].length > max || !NAME.test(name)) {
    refuse('VERIFICATION_NAME_INVALID', { min, max });
  }
  return name;
}

function checkIdNumber(idType: IdType, raw: string): string {
  const rule = ID_TYPES[idType];
  const number = normaliseIdNumber(raw);
  if (!new RegExp(rule.pattern).test(number)) {
    refuse('VERIFICATION_ID_NUMBER_FORMAT', { type: rule.code, min: rule.min, max: rule.max });
  }
  return number;
}

/** Which documents the submission names, checked against the rules and the previous decision. */
function resolveDocuments(
  input: Submission,
  previous: Map<DocumentSlot, repo.DocumentRow>,
): { fresh: [DocumentSlot, string][]; carried: [DocumentSlot, string][] } {
  const { allowed, required, anyOf } = input.rules;
  const seen = new Set<string>();
  const fresh: [DocumentSlot, string][] = [];
  const carried: [DocumentSlot, string][] = [];
  for (const [slot, fileId] of Object.entries(input.documents) as [DocumentSlot, string | undefined][]) {
    if (fileId === undefined) continue;
    if (!allowed.includes(slot)) refuse('VERIFICATION_DOCUMENT_NOT_EXPECTED', { field: SLOT_FIELD[slot] });
    if (seen.has(fileId)) refuse('VERIFICATION_DOCUMENT_REPEATED', { field: SLOT_FIELD[slot] });
    seen.add(fileId);
    fresh.push([slot, fileId]);
  }
  for (const slot of allowed) {
    if (input.documents[slot] !== undefined) continue;
    const before = previous.get(slot);
    // A revision keeps what staff did not flag; a flagged document must be replaced.
    if (before && before.status !== 'revision_requested' && before.status !== 'rejected') {
      carried.push([slot, before.file_id]);
    } else if (required.includes(slot) || before) {
      refuse('VERIFICATION_DOCUMENT_REQUIRED', { field: SLOT_FIELD[slot] });
    }
  }
  const named = new Set([...fresh, ...carried].map(([slot]) => slot));
  if (anyOf && !anyOf.some((slot) => named.has(slot))) refuse('VERIFICATION_ASSET_PROOF_REQUIRED');
  return { fresh, carried };
}

/** The state rules of a new submission, under the customer's lock. */
async function checkState(tx: Tx, customerId: string, tier: VerificationTier) {
  if (tier !== 'primary') {
    const primary = await repo.lockTier(tx, customerId, 'primary');
    if (primary?.state !== 'approved')
      refuse('VERIFICATION_PRIMARY_REQUIRED', { feature: tier, tier: 'primary' });
  }
  const current = await repo.lockTier(tx, customerId, tier);
  if (current?.state === 'under_review') refuse('VERIFICATION_UNDER_REVIEW', { tier });
  if (current?.state === 'approved') refuse('VERIFICATION_ALREADY_APPROVED', { tier });
  return current;
}

/**
 * Nationality is chosen once. With one on record a sent `country` must be it; without one the form
 * must send a country the app knows (recorded with the submission).
 */
function checkNationality(recorded: string, sent: string | undefined): string {
  const code = (sent ?? '').trim().toUpperCase();
  if (recorded !== '') {
    if (code !== '' && code !== recorded) refuse('VERIFICATION_NATIONALITY_FIXED', { country: recorded });
    return recorded;
  }
  if (code === '') refuse('FIELD_REQUIRED', { field: 'country' });
  return knownCountry(code) ?? refuse('BAD_INPUT', { field: 'country' });
}

/** The nationality of a primary submission: the one on record, or the chosen one recorded now. */
async function recordNationality(
  deps: Deps,
  tx: Tx,
  customerId: string,
  recorded: string,
  chosen: string,
): Promise<string> {
  if (recorded !== '' || chosen === '') return recorded;
  const now = await deps.fixCountry(tx, customerId, chosen);
  // Another request recorded a different one since it was read: that one stands.
  if (now !== chosen) refuse('VERIFICATION_NATIONALITY_FIXED', { country: now });
  return now;
}

/** Verification is for the real account only ("please switch to a real account"). */
function realOnly(auth: AuthContext): void {
  if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
}

/**
 * The retention rule for claimed documents: kept the active jurisdiction profile's
 * `document_retention_days` after they are claimed. Gives "until when" for a claim at `at`.
 */
export async function documentRetention(
  deps: Pick<Deps, 'db' | 'activeProfile'>,
): Promise<(at: Date) => Date> {
  const days = await repo.retentionDays(deps.db, await deps.activeProfile());
  return (at) => daysAfter(at, days);
}

async function submit(deps: Deps, auth: AuthContext, input: Submission): Promise<TierView> {
  const customerId = auth.customerId;
  const identity = (await deps.customers([customerId])).get(customerId);
  if (!identity) refuse('NOT_FOUND');
  const country = input.tier === 'primary' ? checkNationality(identity.country, input.country) : '';
  const retainUntil = await documentRetention(deps);
  await inTransaction(deps.db, async (tx) => {
    await repo.lockCustomerTier(tx, customerId, input.tier);
    const current = await checkState(tx, customerId, input.tier);
    const revising = current?.state === 'revision_requested';
    const previousDocs = revising ? await repo.documentsOf(tx, [current.submission_id]) : [];
    const { fresh, carried } = resolveDocuments(input, new Map(previousDocs.map((d) => [d.slot, d])));
    const previous = current ? await repo.findSubmission(tx, current.submission_id) : undefined;
    const now = deps.clock.now();
    const id = newId('kyc', now.getTime());
    for (const [slot, fileId] of fresh) {
      const claimed = await deps.uploads.attach(tx, {
        fileId,
        customerId,
        purpose: 'verification',
        ref: `verification:${id}:${slot}`,
        retainUntil: retainUntil(now),
      });
      if (!claimed) refuse('VERIFICATION_DOCUMENT_UNKNOWN', { field: SLOT_FIELD[slot] });
    }
    const { id_number, ...columns } = input.columns;
    await repo.insertSubmission(tx, {
      id,
      customer_id: customerId,
      tier: input.tier,
      state: 'under_review',
      round: previous ? previous.round + 1 : 0,
      previous_id: previous?.id ?? null,
      nationality: await recordNationality(deps, tx, customerId, identity.country, country),
      real_name: columns.real_name,
      id_type: columns.id_type,
      id_number_sealed: id_number === null ? null : deps.cipher.sealText(id, id_number),
      id_hash:
        id_number === null || columns.id_type === null
          ? null
          : idHash(deps.secret, columns.id_type, id_number),
      data: JSON.stringify(columns.data),
      submitted_at: now,
      decided_at: null,
      decided_by: null,
      first_approved_by: null,
      first_approved_at: null,
    });
    await repo.insertDocuments(
      tx,
      [...fresh, ...carried].map(([slot, fileId]) => ({
        submission_id: id,
        slot,
        file_id: fileId,
        status: 'pending' as const,
        reason_code: null,
        note: '',
      })),
    );
    await repo.upsertTier(tx, {
      customer_id: customerId,
      tier: input.tier,
      state: 'under_review',
      submission_id: id,
      updated_at: now,
    });
  });
  deps.log.info({ customer: customerId, tier: input.tier }, 'verification submitted');
  const view = await verificationView(deps, auth);
  return view[input.tier];
}

/** `POST web/submitPrimaryVerification`. */
export function submitPrimary(deps: Deps, auth: AuthContext, body: SubmitPrimaryBody) {
  realOnly(auth);
  const realName = checkName(body.real_name);
  const idType = body.id_type as IdType;
  const number = checkIdNumber(idType, body.id_number);
  const back = ID_TYPES[idType].back;
  return submit(deps, auth, {
    tier: 'primary',
    country: body.country,
    documents: {
      id_front: body.front_file_id,
      id_back: body.back_file_id,
      id_handheld: body.handheld_file_id,
    },
    rules: {
      required: back ? ['id_front', 'id_back', 'id_handheld'] : ['id_front', 'id_handheld'],
      allowed: back ? [...DOCUMENT_SLOTS.primary] : ['id_front', 'id_handheld'],
    },
    columns: { real_name: realName, id_type: idType, id_number: number, data: {} },
  });
}

/** `POST web/submitAdvancedVerification`. */
export function submitAdvanced(deps: Deps, auth: AuthContext, body: SubmitAdvancedBody) {
  realOnly(auth);
  const note = (body.wealth_note ?? '').trim();
  if (body.source_of_wealth === 'other' && note === '') refuse('FIELD_REQUIRED', { field: 'wealth_note' });
  return submit(deps, auth, {
    tier: 'advanced',
    documents: {
      asset_house: body.asset_house_file_id,
      asset_bank: body.asset_bank_file_id,
      asset_stock: body.asset_stock_file_id,
    },
    rules: { required: [], allowed: [...DOCUMENT_SLOTS.advanced], anyOf: [...DOCUMENT_SLOTS.advanced] },
    columns: {
      real_name: null,
      id_type: null,
      id_number: null,
      data: {
        occupation: body.occupation,
        monthly_income: body.monthly_income,
        source_of_wealth: body.source_of_wealth,
        wealth_note: note,
        expected_investment: body.expected_investment,
      },
    },
  });
}

/** `POST web/submitAddressVerification`. */
export function submitAddress(deps: Deps, auth: AuthContext, body: SubmitAddressBody) {
  realOnly(auth);
  const address = body.residential_address.replace(/\s+/g, ' ').trim();
  if (address.length < VERIFICATION_LIMITS.addressMin) {
    refuse('FIELD_TOO_SHORT', { field: 'residential_address', min: VERIFICATION_LIMITS.addressMin });
  }
  return submit(deps, auth, {
    tier: 'address',
    documents: { utility_bill: body.utility_bill_file_id },
    rules: { required: ['utility_bill'], allowed: ['utility_bill'] },
    columns: { real_name: null, id_type: null, id_number: null, data: { residential_address: address } },
  });
}
