import {
  type AddressData,
  type AdvancedData,
  type CustomerVerification,
  type FeatureRequirementView,
  type IdType,
  normaliseIdNumber,
  type PrimaryData,
  type RequiredTier,
  type TierView,
  VERIFICATION_FEATURES,
  type VerificationData,
  type VerificationFeature,
  type VerificationState,
  type VerificationTier,
} from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import { maskIdNumber, TIER_ORDER, type VerificationDeps } from './context.ts';
import * as repo from './repo.ts';
import { rulesOf } from './rules.ts';

/**
 * What a customer (and the staff queues) see of verification: each tier's state and latest data
 * (the ID number masked), per-document reasons, what each tier unlocks and what deposit and
 * withdrawal need — and the small answers later issues build on (`tierOf`, `verifiedName`).
 */

type Deps = Pick<VerificationDeps, 'db' | 'cipher' | 'activeProfile' | 'customers'>;

export type TierStates = Record<VerificationTier, VerificationState> & { level: 0 | 1 | 2 };

function statesOf(rows: readonly repo.TierRow[]): TierStates {
  const state = (tier: VerificationTier): VerificationState =>
    rows.find((r) => r.tier === tier)?.state ?? 'not_submitted';
  const primary = state('primary');
  const advanced = state('advanced');
  const level = advanced === 'approved' ? 2 : primary === 'approved' ? 1 : 0;
  return { primary, advanced, address: state('address'), level };
}

/** Where a customer stands in each tier (`level`: 0 none, 1 primary, 2 advanced approved). */
export async function tierOf(deps: Pick<VerificationDeps, 'db'>, customerId: string): Promise<TierStates> {
  return statesOf(await repo.tierRows(deps.db, [customerId]));
}

/** The real name of an approved primary verification, or null. */
export async function verifiedName(
  deps: Pick<VerificationDeps, 'db'>,
  customerId: string,
): Promise<string | null> {
  const [row] = await repo.approvedPrimary(deps.db, [customerId]);
  return row?.real_name ?? null;
}

/** The staff queues' customer context: each customer's verification, a page at a time (two queries). */
export async function summaries(
  deps: Pick<VerificationDeps, 'db'>,
  customerIds: readonly string[],
): Promise<Map<string, CustomerVerification>> {
  const rows = await repo.tierRows(deps.db, customerIds);
  const out = new Map<string, CustomerVerification>();
  for (const id of customerIds) {
    const s = statesOf(rows.filter((r) => r.customer_id === id));
    out.set(id, {
      level: s.level,
      status:
        s.primary === 'approved' ? 'verified' : s.primary === 'under_review' ? 'under_review' : 'unverified',
      tiers: { primary: s.primary, advanced: s.advanced, address: s.address },
    });
  }
  return out;
}

/** The typed data of a submission as the customer sees it (the ID number masked). */
export function customerData(deps: Pick<VerificationDeps, 'cipher'>, s: repo.SubmissionRow) {
  if (s.tier === 'primary') {
    const number = deps.cipher.openText(s.id, s.id_number_sealed ?? '');
    return {
      nationality: s.nationality,
      real_name: s.real_name ?? '',
      id_type: (s.id_type ?? '5') as IdType,
      id_number_masked: maskIdNumber(normaliseIdNumber(number)),
    } satisfies PrimaryData;
  }
  if (s.tier === 'advanced') {
    const d = s.data;
    return {
      occupation: d.occupation,
      monthly_income: d.monthly_income,
      source_of_wealth: d.source_of_wealth,
      wealth_note: d.wealth_note ?? '',
      expected_investment: d.expected_investment,
    } as AdvancedData;
  }
  return { residential_address: s.data.residential_address ?? '' } satisfies AddressData;
}

function tierView(
  deps: Pick<VerificationDeps, 'cipher'>,
  input: {
    tier: VerificationTier;
    real: boolean;
    states: TierStates;
    submission: repo.SubmissionRow | undefined;
    documents: repo.DocumentRow[];
    rules: Map<VerificationFeature, RequiredTier>;
  },
): TierView {
  const { tier, submission: s, states } = input;
  const state = states[tier];
  const available = tier === 'primary' || states.primary === 'approved';
  const docs = input.documents.filter((d) => d.submission_id === s?.id);
  return {
    tier,
    state,
    available,
    requires: tier === 'primary' ? null : 'primary',
    can_submit: input.real && available && state !== 'under_review' && state !== 'approved',
    submission_id: s?.id ?? null,
    submitted_at: s?.submitted_at.getTime() ?? null,
    decided_at: s?.decided_at?.getTime() ?? null,
    data: s ? (customerData(deps, s) as TierView['data']) : null,
    documents: docs.map((d) => ({
      slot: d.slot,
      file_id: d.file_id,
      status: d.status,
      reason_code: d.reason_code,
      note: d.note,
    })),
    reject_reasons:
      state === 'rejected'
        ? docs.flatMap((d) =>
            d.status === 'rejected' && d.reason_code
              ? [{ slot: d.slot, reason_code: d.reason_code, note: d.note }]
              : [],
          )
        : [],
    unlocks: VERIFICATION_FEATURES.filter((f) => input.rules.get(f) === tier),
  };
}

/** `GET web/getVerification`. */
export async function verificationView(deps: Deps, auth: AuthContext): Promise<VerificationData> {
  const customerId = auth.customerId;
  const [rows, identities, profile] = await Promise.all([
    repo.tierRows(deps.db, [customerId]),
    deps.customers([customerId]),
    deps.activeProfile(),
  ]);
  const rules = await rulesOf(deps, profile);
  const submissions = await repo.submissionsById(
    deps.db,
    rows.map((r) => r.submission_id),
  );
  const documents = await repo.documentsOf(
    deps.db,
    submissions.map((s) => s.id),
  );
  const states = statesOf(rows);
  const real = !auth.isDemo;
  const view = (tier: VerificationTier) =>
    tierView(deps, {
      tier,
      real,
      states,
      submission: submissions.find((s) => s.id === rows.find((r) => r.tier === tier)?.submission_id),
      documents,
      rules,
    });
  const features: FeatureRequirementView[] = VERIFICATION_FEATURES.map((feature) => {
    const tier = rules.get(feature) ?? 'none';
    return { feature, tier, met: tier === 'none' || (real && states[tier] === 'approved') };
  });
  const [primary, advanced, address] = TIER_ORDER.map(view) as [TierView, TierView, TierView];
  return {
    real: real ? 1 : 0,
    nationality: identities.get(customerId)?.country ?? '',
    level: states.level,
    primary: primary as TierView<'primary'>,
    advanced: advanced as TierView<'advanced'>,
    address: address as TierView<'address'>,
    profile,
    features,
    deposit: features.find((f) => f.feature === 'deposit') as FeatureRequirementView,
    withdraw: features.find((f) => f.feature === 'withdraw') as FeatureRequirementView,
  };
}
