import type {
  AdminVerificationDecideBody,
  AdminVerificationRuleBody,
  AdminVerificationSettingsBody,
  SubmitAddressBody,
  SubmitAdvancedBody,
  SubmitPrimaryBody,
  VerificationFeature,
  VerificationTier,
} from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import type { VerificationDeps } from './context.ts';
import { decide, detail, queue } from './review.ts';
import { featureTier, requireFeature, rulesView, updateRules, updateSettings } from './rules.ts';
import { documentRetention, submitAddress, submitAdvanced, submitPrimary } from './submit.ts';
import { summaries, tierOf, verificationView, verifiedName } from './view.ts';

export type { CustomerIdentity, VerificationDeps } from './context.ts';

/**
 * Identity verification, wired from its parts: the customer's submissions (submit.ts), what they
 * see (view.ts), the feature table and its check (rules.ts), the staff queue and decisions
 * (review.ts) and the notices (notices.ts). All SQL is in repo.ts.
 */
export function createVerification(deps: VerificationDeps) {
  return {
    view: (auth: AuthContext) => verificationView(deps, auth),
    submitPrimary: (auth: AuthContext, body: SubmitPrimaryBody) => submitPrimary(deps, auth, body),
    submitAdvanced: (auth: AuthContext, body: SubmitAdvancedBody) => submitAdvanced(deps, auth, body),
    submitAddress: (auth: AuthContext, body: SubmitAddressBody) => submitAddress(deps, auth, body),

    /** Refuses (VERIFICATION_<TIER>_REQUIRED) unless the customer has the tier the active profile asks for. */
    requireFeature: (customerId: string, feature: VerificationFeature) =>
      requireFeature(deps, customerId, feature),
    /** The tier the active profile requires for a feature (for a gated module's rules page). */
    featureTier: (feature: VerificationFeature) => featureTier(deps, feature),
    tierOf: (customerId: string) => tierOf(deps, customerId),
    verifiedName: (customerId: string) => verifiedName(deps, customerId),
    /**
     * Until when a document claimed at `at` is kept: the active jurisdiction profile's
     * `document_retention_days` (the rule verification's own documents follow; other modules that
     * claim uploads get it through wiring.ts).
     */
    documentRetainUntil: async (at: Date) => (await documentRetention(deps))(at),
    /** The staff queues' customer context (composed in wiring.ts). */
    summaries: (customerIds: readonly string[]) => summaries(deps, customerIds),

    // ---- Staff side (routes under /api/admin check the permission; each change is audited) ----
    queue: (filter: { tier?: VerificationTier }, page: { page: number; pageSize: number }) =>
      queue(deps, filter, page),
    detail: (staffId: string, id: string) => detail(deps, staffId, id),
    decide: (staffId: string, body: AdminVerificationDecideBody) => decide(deps, staffId, body),
    rules: () => rulesView(deps),
    updateRules: (staffId: string, body: AdminVerificationRuleBody) => updateRules(deps, staffId, body),
    updateSettings: (staffId: string, body: AdminVerificationSettingsBody) =>
      updateSettings(deps, staffId, body),
  };
}

export type Verification = ReturnType<typeof createVerification>;

/** What a gated module asks before it lets a customer use a feature (injected through wiring.ts). */
export type RequireFeature = (customerId: string, feature: VerificationFeature) => Promise<void>;
