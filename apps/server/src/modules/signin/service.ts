import { parseUnitsOrThrow, scaleOf } from '@bourse/money';
import type {
  AdminSigninFundingBody,
  AdminSigninFundingQuery,
  AdminSigninPayoutsQuery,
  AdminSigninSettingsBody,
} from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import type { StaffContext } from '../../http/staff.ts';
import * as admin from './admin.ts';
import { budgetAccount, type SigninDeps, settingsOf } from './context.ts';
import * as customer from './customer.ts';
import * as repo from './repo.ts';

/** Demo content: the budget a fresh install starts with (README.md, "Demo content"). */
export const DEMO_BUDGET = '1000';
export const DEMO_SEED_ACTOR = 'demo-seed';

/** The sign-in reward, wired from its parts (README.md). All SQL is in repo.ts. */
export function createSignin(deps: SigninDeps) {
  return {
    // ---- customers
    info: (auth: AuthContext | null) => customer.info(deps, auth),
    claim: (auth: AuthContext) => customer.claim(deps, auth),

    // ---- staff
    settings: () => admin.settings(deps),
    updateSettings: (staff: StaffContext, body: AdminSigninSettingsBody) =>
      admin.updateSettings(deps, staff, body),
    budget: () => admin.budget(deps),
    requestFunding: (staff: StaffContext, body: AdminSigninFundingBody) =>
      admin.requestFunding(deps, staff, body),
    decideFunding: (staff: StaffContext, requestId: string, decision: 'approve' | 'reject', reason: string) =>
      admin.decideFunding(deps, staff, { requestId, decision, reason }),
    fundingRequests: (q: AdminSigninFundingQuery) => admin.fundingRequests(deps, q),
    payouts: (q: AdminSigninPayoutsQuery) => admin.payouts(deps, q),

    /**
     * Demo content: pays DEMO_BUDGET into the budget once (ledger key `signin:demo-seed`, actor
     * `demo-seed`, audited), so a fresh install shows a living programme.
     */
    async seedDemo(): Promise<void> {
      await inTransaction(deps.db, async (tx) => {
        const { currency } = settingsOf(await repo.settings(tx));
        const units = parseUnitsOrThrow(DEMO_BUDGET, { scale: scaleOf(currency) });
        const entry = await deps.ledger.post(tx, {
          reason: 'signin.fund',
          reference: { type: 'signin_funding', id: 'demo-seed' },
          idempotencyKey: 'signin:demo-seed',
          actorId: DEMO_SEED_ACTOR,
          memo: 'demo content seed',
          postings: [
            { account: { book: 'real', platform: 'marketing_capital' }, currency, amountUnits: -units },
            { account: budgetAccount('real'), currency, amountUnits: units },
          ],
        });
        if (entry.replayed) return;
        await deps.audit.record(tx, {
          actorId: DEMO_SEED_ACTOR,
          action: 'signin.funding.seed',
          targetType: 'signin_budget',
          targetId: 'marketing_budget_signin',
          after: { amount: DEMO_BUDGET, currency, entry_id: entry.id },
          reason: 'demo content seed',
        });
      });
    },
  };
}

export type Signin = ReturnType<typeof createSignin>;
