import type {
  AdminReferralClearBody,
  AdminReferralFlagsQuery,
  AdminReferralIncomeQuery,
  AdminReferralSettingsBody,
  Lang,
  PromotionIncomeQuery,
  PromotionInviteesQuery,
} from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import type { StaffContext } from '../../http/staff.ts';
import { REFERRAL_JOB_INTERVAL_MS, type ReferralDeps } from './context.ts';
import * as customer from './customer.ts';
import { runReferralJob, scheduleReferralJob } from './job.ts';
import * as staffSide from './staff.ts';

/** Invitations and referral income, wired from its parts (README.md). All SQL is in repo.ts. */
export function createReferral(deps: ReferralDeps) {
  return {
    // ---- customers
    myPromotion: (auth: AuthContext) => customer.myPromotion(deps, auth),
    invitees: (auth: AuthContext, q: PromotionInviteesQuery) => customer.invitees(deps, auth, q),
    income: (auth: AuthContext, q: PromotionIncomeQuery, lang: Lang) => customer.income(deps, auth, q, lang),

    // ---- staff
    settings: () => staffSide.settingsData(deps),
    setSettings: (staff: StaffContext, body: AdminReferralSettingsBody) =>
      staffSide.setSettings(deps, staff, body),
    incomeList: (q: AdminReferralIncomeQuery) => staffSide.incomeList(deps, q),
    flags: (q: AdminReferralFlagsQuery) => staffSide.flags(deps, q),
    clearFlag: (staff: StaffContext, id: string, body: AdminReferralClearBody) =>
      staffSide.clearFlag(deps, staff, id, body),
    totals: () => staffSide.totals(deps),

    // ---- the job
    /** One run now (tests; the schedule calls the same). */
    runJob: (options: { batch?: number } = {}) => runReferralJob(deps, options),
    schedule: (intervalMs: number = REFERRAL_JOB_INTERVAL_MS) => scheduleReferralJob(deps, intervalMs),
  };
}

export type Referral = ReturnType<typeof createReferral>;
