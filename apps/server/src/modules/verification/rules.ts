import {
  type AdminVerificationRuleBody,
  type AdminVerificationRulesData,
  type AdminVerificationSettingsBody,
  JURISDICTION_PROFILES,
  type ReasonCode,
  type RequiredTier,
  VERIFICATION_FEATURES,
  type VerificationFeature,
} from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { VerificationDeps } from './context.ts';
import * as repo from './repo.ts';

/**
 * What each tier unlocks, per jurisdiction profile (operator data), the server-side check every
 * gated feature calls (`requireFeature`), and the staff calls that edit the custom profile and the
 * four-eyes setting (audited with a reason).
 */

const REFUSAL_OF: Record<Exclude<RequiredTier, 'none'>, ReasonCode> = {
  primary: 'VERIFICATION_PRIMARY_REQUIRED',
  advanced: 'VERIFICATION_ADVANCED_REQUIRED',
  address: 'VERIFICATION_ADDRESS_REQUIRED',
};

/** The refusal naming the tier a feature needs (`complete advanced verification`). */
export function refuseTier(feature: string, tier: Exclude<RequiredTier, 'none'>): never {
  refuse(REFUSAL_OF[tier], { feature, tier });
}

/** Feature → required tier under a profile. */
export async function rulesOf(deps: Pick<VerificationDeps, 'db'>, profile: string) {
  const rows = await repo.featureRules(deps.db);
  const out = new Map<VerificationFeature, RequiredTier>(VERIFICATION_FEATURES.map((f) => [f, 'none']));
  for (const r of rows) if (r.profile === profile) out.set(r.feature, r.tier);
  return out;
}

/** The tier the active profile requires for `feature` (`none` when it has no rule). */
export async function featureTier(
  deps: Pick<VerificationDeps, 'db' | 'activeProfile'>,
  feature: VerificationFeature,
): Promise<RequiredTier> {
  return (await repo.featureRule(deps.db, await deps.activeProfile(), feature)) ?? 'none';
}

/**
 * Refuses unless the customer has the tier the active profile requires for `feature` approved
 * (VERIFICATION_<TIER>_REQUIRED with `{ feature, tier }`); `none` lets everyone through.
 */
export async function requireFeature(
  deps: Pick<VerificationDeps, 'db' | 'activeProfile'>,
  customerId: string,
  feature: VerificationFeature,
): Promise<void> {
  const tier = await featureTier(deps, feature);
  if (tier === 'none') return;
  const rows = await repo.tierRows(deps.db, [customerId]);
  if (rows.some((r) => r.tier === tier && r.state === 'approved')) return;
  refuseTier(feature, tier);
}

export async function rulesView(
  deps: Pick<VerificationDeps, 'db' | 'activeProfile'>,
): Promise<AdminVerificationRulesData> {
  const [rows, profiles, setting, active] = await Promise.all([
    repo.featureRules(deps.db),
    repo.profiles(deps.db),
    repo.setting(deps.db),
    deps.activeProfile(),
  ]);
  return {
    active,
    profiles: JURISDICTION_PROFILES.map((id) => ({
      id,
      editable: id === 'custom',
      features: VERIFICATION_FEATURES.map((feature) => ({
        feature,
        tier: rows.find((r) => r.profile === id && r.feature === feature)?.tier ?? 'none',
      })),
      document_retention_days: profiles.find((p) => p.profile === id)?.document_retention_days ?? 0,
    })),
    four_eyes_advanced: setting.four_eyes_advanced,
  };
}

function checkReason(text: string): string {
  const why = text.trim();
  if (why.length < 3) refuse('FIELD_REQUIRED', { field: 'reason' });
  return why;
}

/** `POST admin/verification/rules/update`: the custom profile's feature table and retention, audited. */
export async function updateRules(
  deps: Pick<VerificationDeps, 'db' | 'clock' | 'audit' | 'activeProfile'>,
  staffId: string,
  body: AdminVerificationRuleBody,
): Promise<AdminVerificationRulesData> {
  if (body.profile !== 'custom') refuse('VERIFICATION_PROFILE_NOT_EDITABLE', { profile: body.profile });
  const reason = checkReason(body.reason);
  const features = body.features ?? [];
  if (new Set(features.map((f) => f.feature)).size !== features.length)
    refuse('BAD_INPUT', { field: 'features' });
  if (features.length === 0 && body.document_retention_days === undefined)
    refuse('FIELD_REQUIRED', { field: 'features' });
  const before = await rulesView(deps);
  await inTransaction(deps.db, async (tx) => {
    await repo.profiles(tx, { lock: true });
    const at = deps.clock.now();
    for (const f of features) await repo.setFeatureRule(tx, { profile: 'custom', ...f, at, by: staffId });
    if (body.document_retention_days !== undefined) {
      await repo.setRetentionDays(tx, {
        profile: 'custom',
        days: body.document_retention_days,
        at,
        by: staffId,
      });
    }
    const custom = before.profiles.find((p) => p.id === 'custom');
    await deps.audit.record(tx, {
      actorId: staffId,
      action: 'verification.rules.update',
      targetType: 'verification_rules',
      targetId: 'custom',
      before: custom,
      after: {
        features,
        document_retention_days: body.document_retention_days ?? custom?.document_retention_days,
      },
      reason,
    });
  });
  return rulesView(deps);
}

/** `POST admin/verification/settings`: four-eyes for the advanced tier, audited. */
export async function updateSettings(
  deps: Pick<VerificationDeps, 'db' | 'clock' | 'audit' | 'activeProfile'>,
  staffId: string,
  body: AdminVerificationSettingsBody,
): Promise<AdminVerificationRulesData> {
  const reason = checkReason(body.reason);
  await inTransaction(deps.db, async (tx) => {
    const before = await repo.setting(tx, { lock: true });
    await repo.updateSetting(tx, {
      four_eyes_advanced: body.four_eyes_advanced,
      at: deps.clock.now(),
      by: staffId,
    });
    await deps.audit.record(tx, {
      actorId: staffId,
      action: 'verification.settings.update',
      targetType: 'verification_settings',
      targetId: 'four_eyes_advanced',
      before: { four_eyes_advanced: before.four_eyes_advanced },
      after: { four_eyes_advanced: body.four_eyes_advanced },
      reason,
    });
  });
  return rulesView(deps);
}
