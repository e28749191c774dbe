import type { Db, Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import {
  type Faults,
  loadRules,
  type RequestInput,
  type WithdrawalsContext,
  type WithdrawalsDeps,
} from './context.ts';
import { approve, markFailed, markPaid, queue, reject } from './decisions.ts';
import { exportRows, list } from './records.ts';
import type * as repo from './repo.ts';
import { cancel, request } from './requests.ts';
import { rulesForScreen, updateRule } from './rules.ts';
import { confirmDuePayouts, settle } from './settlement.ts';

export {
  BANK_REFERENCE_MAX,
  PAGE_SIZE_MAX,
  PAYOUT_BATCH,
  PAYOUT_FAIL_REASONS,
  type PayoutFailReason,
  publicWithdrawal,
  REJECT_REASON_MAX,
  type RequestInput,
  STATUSES_OF_CODE,
  statusCode,
  WITHDRAW_ACCOUNT_TYPE,
  type WithdrawalsDeps,
} from './context.ts';

type Page = { page: number; pageSize: number };

/**
 * The withdrawals service, wired from its parts: the customer's requests and cancels
 * (requests.ts), the policy rules (rules.ts), the staff queue and decisions (decisions.ts), how a
 * payout ends (settlement.ts: the webhook and the payout job), the customer's notices (notices.ts)
 * and records (records.ts). All SQL is in repo.ts.
 */
export function createWithdrawals(deps: WithdrawalsDeps) {
  /** Test hooks (see WithdrawalsDeps.afterSettlePost); tests may set them on the service. */
  const faults: Faults = { afterSettlePost: deps.afterSettlePost };
  const ctx: WithdrawalsContext = { ...deps, faults };
  return {
    loadRules: (q?: Db | Tx) => loadRules(ctx, q),
    faults,
    rulesForScreen: (auth: AuthContext, currency: string) => rulesForScreen(ctx, auth, currency),
    request: (auth: AuthContext, input: RequestInput) => request(ctx, auth, input),
    cancel: (auth: AuthContext, withdrawalId: string) => cancel(ctx, auth, withdrawalId),
    list: (filter: repo.WithdrawalFilter, page: Page) => list(ctx, filter, page),
    queue: (filter: repo.WithdrawalFilter, page: Page) => queue(ctx, filter, page),
    exportRows: (filter: repo.WithdrawalFilter) => exportRows(ctx, filter),

    // ---- Staff side (routes under /api/admin check the permission; each action is audited) ----
    staffEnabled: deps.audit !== null,
    /** Every money decision carries the staff member's reason (audited with it). */
    approve: (staffId: string, withdrawalId: string, reason: string) =>
      approve(ctx, staffId, withdrawalId, reason),
    reject: (staffId: string, withdrawalId: string, reason: string) =>
      reject(ctx, staffId, withdrawalId, reason),
    updateRule: (staffId: string, input: Parameters<typeof updateRule>[2]) => updateRule(ctx, staffId, input),
    markFailed: (staffId: string, input: Parameters<typeof markFailed>[2]) => markFailed(ctx, staffId, input),
    markPaid: (staffId: string, input: Parameters<typeof markPaid>[2]) => markPaid(ctx, staffId, input),

    // ---- Payouts: the custody provider's webhook and the payout job ----
    settle: (input: Parameters<typeof settle>[1]) => settle(ctx, input),
    confirmDuePayouts: (limit?: number) => confirmDuePayouts(ctx, limit),
  };
}

export type Withdrawals = ReturnType<typeof createWithdrawals>;
