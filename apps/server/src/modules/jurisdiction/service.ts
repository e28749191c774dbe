import {
  type AdminJurisdictionCustomBody,
  type AdminJurisdictionData,
  type JurisdictionProfileData,
  type JurisdictionProfileId,
  LEVERAGE_CLASSES,
  type LeverageClass,
} from '@bourse/protocol';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { BUILT_IN_PROFILES } from './profiles.ts';
import * as repo from './repo.ts';

/** How long another process's change may take to be seen here (this process sees its own at once). */
export const JURISDICTION_CACHE_MS = 5_000;

type Setting = {
  active: JurisdictionProfileId;
  customCaps: Record<LeverageClass, number>;
  customOptionsEnabled: boolean;
  customEarnPrincipalPenalty: boolean;
  customReferralMaxDepth: number;
  customPromoIncentives: boolean;
};

function profileOf(id: JurisdictionProfileId, s: Setting): JurisdictionProfileData {
  const builtIn = id === 'custom' ? null : BUILT_IN_PROFILES[id];
  return {
    id,
    leverage_caps: { ...(builtIn ? builtIn.caps : s.customCaps) },
    options_enabled: builtIn ? builtIn.optionsEnabled : s.customOptionsEnabled,
    earn_principal_penalty: builtIn ? builtIn.earnPrincipalPenalty : s.customEarnPrincipalPenalty,
    referral_max_depth: builtIn ? builtIn.referralMaxDepth : s.customReferralMaxDepth,
    promo_incentives: builtIn ? builtIn.promoIncentives : s.customPromoIncentives,
    // Always: isolated margin plus the insurance account absorb a loss beyond a position's margin,
    // and the ledger refuses any entry that would take a customer balance below zero.
    negative_balance_protection: true,
    editable: id === 'custom',
  };
}

function checkCaps(caps: unknown): Record<LeverageClass, number> {
  const out = {} as Record<LeverageClass, number>;
  const given = (caps ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(given))
    if (!(LEVERAGE_CLASSES as readonly string[]).includes(key)) refuse('BAD_INPUT', { field: key });
  for (const cls of LEVERAGE_CLASSES) {
    const v = given[cls];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 100)
      refuse('CONTRACT_SETTING_INVALID', { field: `leverage_caps.${cls}` });
    out[cls] = v;
  }
  return out;
}

/**
 * Jurisdiction profiles: the operator's leverage caps per class and the up/down options switch.
 * Contracts ask `leverageCap(cls)`, options ask `optionsEnabled()`; the back office selects a
 * profile or edits the custom one, each change audited in the transaction that makes it.
 */
export function createJurisdiction(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock, audit } = deps;
  let cached: { setting: Setting; at: number } | null = null;

  async function read(q: Db | Tx, lock = false) {
    const row = await repo.findSetting(q, { lock });
    return {
      active: row.active_profile,
      customCaps: checkCaps(row.custom_caps),
      customOptionsEnabled: row.custom_options_enabled,
      customEarnPrincipalPenalty: row.custom_earn_principal_penalty,
      customReferralMaxDepth: row.custom_referral_max_depth,
      customPromoIncentives: row.custom_promo_incentives,
    } satisfies Setting;
  }

  async function setting(): Promise<Setting> {
    const now = clock.now().getTime();
    if (cached && now - cached.at < JURISDICTION_CACHE_MS && now >= cached.at) return cached.setting;
    const s = await read(db);
    cached = { setting: s, at: now };
    return s;
  }

  async function active(): Promise<JurisdictionProfileData> {
    const s = await setting();
    return profileOf(s.active, s);
  }

  async function profiles(): Promise<AdminJurisdictionData> {
    const s = await setting();
    return {
      active: s.active,
      profiles: (['permissive', 'eu_retail', 'custom'] as const).map((id) => profileOf(id, s)),
    };
  }

  async function change(
    staff: StaffContext,
    action: string,
    reason: string,
    apply: (s: Setting) => Setting,
  ): Promise<AdminJurisdictionData> {
    await inTransaction(db, async (tx) => {
      const before = await read(tx, true);
      const after = apply(before);
      await repo.updateSetting(tx, {
        active_profile: after.active,
        custom_caps: JSON.stringify(after.customCaps) as never,
        custom_options_enabled: after.customOptionsEnabled,
        custom_earn_principal_penalty: after.customEarnPrincipalPenalty,
        custom_referral_max_depth: after.customReferralMaxDepth,
        custom_promo_incentives: after.customPromoIncentives,
        updated_at: clock.now(),
        updated_by: staff.staffId,
      });
      await audit.record(tx, {
        actorId: staff.staffId,
        action,
        targetType: 'jurisdiction',
        targetId: after.active,
        before: { active: before.active, custom: profileOf('custom', before) },
        after: { active: after.active, custom: profileOf('custom', after) },
        reason,
      });
    });
    cached = null;
    return profiles();
  }

  return {
    active,
    profiles,
    async leverageCap(cls: LeverageClass): Promise<number> {
      return (await active()).leverage_caps[cls];
    },
    async optionsEnabled(): Promise<boolean> {
      return (await active()).options_enabled;
    },
    /** Whether earn products may use principal early-redemption penalties (modules/earn). */
    async earnPrincipalPenalty(): Promise<boolean> {
      return (await active()).earn_principal_penalty;
    },
    /** Levels of inviters that may share an invitee's fees, 0…4 (modules/referral). */
    async referralMaxDepth(): Promise<number> {
      return (await active()).referral_max_depth;
    },
    /** Whether promotional incentives such as the sign-in reward may be offered (modules/signin). */
    async promoIncentives(): Promise<boolean> {
      return (await active()).promo_incentives;
    },
    /** Back office: choose the active profile (audited). */
    select(staff: StaffContext, body: { profile: JurisdictionProfileId; reason: string }) {
      return change(staff, 'jurisdiction.select', body.reason, (s) => ({ ...s, active: body.profile }));
    },
    /** Back office: edit the custom profile's caps and options switch (audited). */
    editCustom(staff: StaffContext, body: AdminJurisdictionCustomBody) {
      const caps = checkCaps(body.leverage_caps);
      if (typeof body.options_enabled !== 'boolean')
        refuse('CONTRACT_SETTING_INVALID', { field: 'options_enabled' });
      if (body.earn_principal_penalty !== undefined && typeof body.earn_principal_penalty !== 'boolean')
        refuse('CONTRACT_SETTING_INVALID', { field: 'earn_principal_penalty' });
      const depth = body.referral_max_depth;
      if (
        depth !== undefined &&
        (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 0 || depth > 4)
      )
        refuse('CONTRACT_SETTING_INVALID', { field: 'referral_max_depth' });
      if (body.promo_incentives !== undefined && typeof body.promo_incentives !== 'boolean')
        refuse('CONTRACT_SETTING_INVALID', { field: 'promo_incentives' });
      return change(staff, 'jurisdiction.custom.update', body.reason, (s) => ({
        ...s,
        customCaps: caps,
        customOptionsEnabled: body.options_enabled,
        customEarnPrincipalPenalty: body.earn_principal_penalty ?? s.customEarnPrincipalPenalty,
        customReferralMaxDepth: depth ?? s.customReferralMaxDepth,
        customPromoIncentives: body.promo_incentives ?? s.customPromoIncentives,
      }));
    },
  };
}

export type Jurisdiction = ReturnType<typeof createJurisdiction>;
/** What a trading module needs from the jurisdiction (declared by the consumer, satisfied by Jurisdiction). */
export type LeverageCaps = Pick<Jurisdiction, 'leverageCap'>;
