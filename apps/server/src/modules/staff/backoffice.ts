import { divRound, isKnownAsset, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import type { AdjustmentView, CustomerDetail } from '@bourse/protocol';
import type { Db, Tx } from '../../db/database.ts';
import { inTransaction } from '../../db/database.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { createCustomerAdmin } from '../accounts/index.ts';
import { parseAmount } from '../assets/index.ts';
import {
  CUSTOMER_ACCOUNT_TYPES,
  type CustomerAccountType,
  type Ledger,
  reportSummary,
  type VerifyReport,
} from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import { listOutbox } from '../notify/index.ts';
import type { AuditService } from './audit.ts';
import type { AdjustmentRow } from './repo.ts';
import * as repo from './repo.ts';
import { checkReason } from './service.ts';

const USDT_SCALE = 8;
const PRICE_SCALE = 18;

function adjustmentView(r: AdjustmentRow): AdjustmentView {
  return {
    adjustment_id: r.id,
    customer_id: r.customer_id,
    account_type: r.account_type,
    currency: r.currency,
    direction: r.direction,
    amount: toDecimalString(BigInt(r.amount_units), scaleOf(r.currency)),
    value_usdt: r.value_usdt,
    reason: r.reason,
    maker_id: r.maker_id,
    needs_approval: r.needs_approval,
    status: r.status,
    checker_id: r.checker_id,
    decision_reason: r.decision_reason,
    decided_at: r.decided_at?.getTime() ?? null,
    entry_id: r.entry_id,
    created_at: r.created_at.getTime(),
  };
}

/** A verification report as JSON (bigints as decimal strings). */
function reportJson(report: VerifyReport) {
  return reportSummary(report);
}

export type BackOfficeDeps = {
  db: Db;
  clock: Clock;
  audit: AuditService;
  ledger: Ledger;
  config: { adjustmentApprovalThresholdUsdt: string };
  /** Told after a customer's sessions ended (committed): their sockets leave private channels. */
  onSessionsEnded?: (customerId: string) => void;
};

/**
 * The back office's own work: customers (search, detail, disable login), manual adjustments with
 * four-eyes approval above a threshold, the outbox, and the ledger verification report.
 */
export function createBackOffice(deps: BackOfficeDeps) {
  const { db, clock, audit, ledger } = deps;
  const customers = createCustomerAdmin({ db });
  let market: Market | null = null;
  const threshold = parseDecimal(deps.config.adjustmentApprovalThresholdUsdt, {
    scale: USDT_SCALE,
    allowZero: true,
  });
  if (!threshold.ok) throw new Error('ADJUSTMENT_APPROVAL_THRESHOLD_USDT is not a decimal');
  const thresholdUnits = threshold.units;

  /** The amount in USDT minor units at the market's mark price (rounded up), or null without a price. */
  function valueInUsdt(currency: string, amountUnits: bigint): bigint | null {
    if (currency === 'USDT') return amountUnits;
    if (!market || !isKnownAsset(currency)) return null;
    let mark: string;
    try {
      mark = market.priceForTrading(`${currency}/USDT`).mark;
    } catch (error) {
      // No current price (unknown pair, halted, delisted, closed, stale): the adjustment needs a second
      // staff member. Anything else is a fault and is not taken for "no price".
      if (error instanceof Refusal) return null;
      throw error;
    }
    const parsed = parseDecimal(mark, { scale: PRICE_SCALE, allowZero: true });
    if (!parsed.ok) return null;
    const numerator = amountUnits * parsed.units;
    const denominator = 10n ** BigInt(scaleOf(currency) + PRICE_SCALE - USDT_SCALE);
    return divRound(numerator, denominator, 'ceil');
  }

  async function lockedAdjustment(tx: Tx, id: string): Promise<AdjustmentRow> {
    const row = await repo.findAdjustment(tx, id, { lock: true });
    if (!row) refuse('NOT_FOUND');
    return row;
  }

  async function post(tx: Tx, row: AdjustmentRow, actorId: string) {
    const common = {
      book: 'real' as const,
      customerId: row.customer_id,
      accountType: row.account_type as CustomerAccountType,
      currency: row.currency,
      amountUnits: BigInt(row.amount_units),
      reference: { type: 'adjustment', id: row.id },
      idempotencyKey: `adjustment:${row.id}`,
      reason: `adjustment.${row.direction}`,
      actorId,
      memo: row.reason,
    };
    return row.direction === 'credit'
      ? ledger.credit(tx, { ...common, from: 'adjustments' })
      : ledger.debit(tx, { ...common, to: 'adjustments' });
  }

  return {
    customers,
    useMarket(m: Market) {
      market = m;
    },
    thresholdUsdt: toDecimalString(thresholdUnits, USDT_SCALE),

    async searchCustomers(text: string, limit: number) {
      return customers.search(text, limit, clock.now());
    },

    async customerDetail(customerId: string): Promise<Omit<CustomerDetail, 'staff_names'>> {
      const profile = await customers.profile(db, customerId, clock.now());
      if (!profile) refuse('NOT_FOUND');
      const balances = await ledger.balances(db, { customerId });
      const journal = await ledger.customerJournal(db, { customerId, limit: 30 });
      const adjustments = await repo.customerAdjustments(db, customerId, 20);
      return {
        profile,
        balances: balances.map((b) => ({
          book: b.book,
          account_type: b.accountType,
          currency: b.currency,
          available: toDecimalString(b.availableUnits, scaleOf(b.currency)),
          frozen: toDecimalString(b.frozenUnits, scaleOf(b.currency)),
        })),
        journal: journal.map((j) => ({
          entry_id: j.entryId,
          reason: j.reason,
          reference_type: j.referenceType,
          reference_id: j.referenceId,
          memo: j.memo,
          created_at: j.createdAt.getTime(),
          account_type: j.accountType,
          currency: j.currency,
          bucket: j.bucket,
          amount: toDecimalString(j.amountUnits, scaleOf(j.currency)),
        })),
        adjustments: adjustments.map(adjustmentView),
      };
    },

    /** Disable (ending every session) or enable a customer's login; audited in the same transaction. */
    async setCustomerLogin(
      actor: StaffContext,
      input: { customerId: string; status: 'active' | 'disabled'; reason: string },
    ) {
      const reason = checkReason(input.reason);
      const result = await inTransaction(db, async (tx) => {
        const now = clock.now();
        const changed = await customers.setLoginStatus(tx, {
          customerId: input.customerId,
          status: input.status,
          at: now,
        });
        await audit.record(tx, {
          actorId: actor.staffId,
          action: input.status === 'disabled' ? 'customer.disable' : 'customer.enable',
          targetType: 'customer',
          targetId: input.customerId,
          before: { status: changed.before },
          after: { status: input.status, ended_sessions: changed.endedSessions },
          reason,
        });
        return { customer_id: input.customerId, status: input.status, ended_sessions: changed.endedSessions };
      });
      if (input.status === 'disabled') deps.onSessionsEnded?.(input.customerId);
      return result;
    },

    /**
     * A manual adjustment: an ordinary journal entry against the `adjustments` platform account.
     * At or below the threshold it posts at once; above it (or with no price to value it) it waits
     * for a second staff member.
     */
    async createAdjustment(
      actor: StaffContext,
      input: {
        customerId: string;
        accountType: string;
        currency: string;
        direction: 'credit' | 'debit';
        amount: string;
        reason: string;
      },
    ) {
      if (!(CUSTOMER_ACCOUNT_TYPES as readonly string[]).includes(input.accountType)) {
        refuse('BAD_INPUT', { field: 'account_type' });
      }
      const amountUnits = parseAmount('amount', input.amount, input.currency);
      const reason = checkReason(input.reason);
      const profile = await customers.profile(db, input.customerId, clock.now());
      if (!profile) refuse('NOT_FOUND');
      if (profile.is_demo) refuse('ADJUSTMENT_DEMO_CUSTOMER');
      const value = valueInUsdt(input.currency, amountUnits);
      const needsApproval = value === null || value > thresholdUnits;
      return inTransaction(db, async (tx) => {
        const now = clock.now();
        const row: AdjustmentRow = {
          id: newId('adj', now.getTime()),
          customer_id: input.customerId,
          account_type: input.accountType,
          currency: input.currency,
          direction: input.direction,
          amount_units: amountUnits.toString(),
          value_usdt: value === null ? null : toDecimalString(value, USDT_SCALE),
          reason,
          maker_id: actor.staffId,
          needs_approval: needsApproval,
          status: needsApproval ? 'pending' : 'posted',
          checker_id: null,
          decision_reason: null,
          decided_at: needsApproval ? null : now,
          entry_id: null,
          created_at: now,
        };
        await repo.insertAdjustment(tx, row);
        if (!needsApproval) {
          const entry = await post(tx, row, actor.staffId);
          row.entry_id = entry.id;
          await repo.updateAdjustment(tx, row.id, { entry_id: entry.id });
        }
        const view = adjustmentView(row);
        await audit.record(tx, {
          actorId: actor.staffId,
          action: needsApproval ? 'adjustment.request' : 'adjustment.post',
          targetType: 'customer',
          targetId: input.customerId,
          after: view,
          reason,
        });
        return view;
      });
    },

    /** Four eyes: a different staff member approves (posting the entry) or rejects a pending adjustment. */
    async decideAdjustment(
      actor: StaffContext,
      input: { adjustmentId: string; decision: 'approve' | 'reject'; reason?: string },
    ) {
      // Approving posts money: like a rejection it says why (audited).
      const reason = checkReason(input.reason);
      return inTransaction(db, async (tx) => {
        const row = await lockedAdjustment(tx, input.adjustmentId);
        if (row.status !== 'pending') refuse('ADJUSTMENT_NOT_PENDING', { status: row.status });
        if (row.maker_id === actor.staffId) refuse('ADJUSTMENT_SELF_APPROVAL');
        const now = clock.now();
        const before = adjustmentView(row);
        let entryId: string | null = null;
        if (input.decision === 'approve') entryId = (await post(tx, row, actor.staffId)).id;
        const status = input.decision === 'approve' ? ('posted' as const) : ('rejected' as const);
        await repo.updateAdjustment(tx, row.id, {
          status,
          checker_id: actor.staffId,
          decision_reason: reason,
          decided_at: now,
          entry_id: entryId,
        });
        const after = adjustmentView({
          ...row,
          status,
          checker_id: actor.staffId,
          decision_reason: reason,
          decided_at: now,
          entry_id: entryId,
        });
        await audit.record(tx, {
          actorId: actor.staffId,
          action: input.decision === 'approve' ? 'adjustment.approve' : 'adjustment.reject',
          targetType: 'customer',
          targetId: row.customer_id,
          before,
          after,
          ...(reason ? { reason } : {}),
        });
        return after;
      });
    },

    async listAdjustments(filter: {
      status?: 'pending' | 'posted' | 'rejected';
      customerId?: string;
      limit: number;
    }) {
      return (await repo.listAdjustments(db, filter)).map(adjustmentView);
    },

    outbox(input: { beforeId?: string; limit: number }) {
      return listOutbox(db, input);
    },

    /** Keeps a verification report (scheduled or on demand) for the report screen; returns it unchanged. */
    async storeLedgerReport(
      source: 'schedule' | 'manual',
      report: VerifyReport,
      actorId: string | null = null,
    ) {
      await repo.insertLedgerReport(db, {
        id: newId('lvr', clock.now().getTime()),
        source,
        ok: report.ok,
        report: JSON.stringify(reportJson(report)),
        actor_id: actorId,
        created_at: clock.now(),
      });
      return report;
    },

    /** Runs ledger.verify() now, keeps the report and audits the check. */
    async verifyLedgerNow(actor: StaffContext) {
      const report = await ledger.verify();
      await inTransaction(db, async (tx) => {
        const now = clock.now();
        const id = newId('lvr', now.getTime());
        await repo.insertLedgerReport(tx, {
          id,
          source: 'manual',
          ok: report.ok,
          report: JSON.stringify(reportJson(report)),
          actor_id: actor.staffId,
          created_at: now,
        });
        await audit.record(tx, {
          actorId: actor.staffId,
          action: 'ledger.verify',
          targetType: 'ledger_report',
          targetId: id,
          after: { ok: report.ok, summary: reportSummary(report) },
        });
      });
      return reportJson(report);
    },

    async ledgerReports() {
      const latest = async (source: 'schedule' | 'manual') => {
        const row = await repo.latestLedgerReport(db, source);
        return row
          ? {
              id: row.id,
              ok: row.ok,
              report: row.report,
              actor_id: row.actor_id,
              created_at: row.created_at.getTime(),
            }
          : null;
      };
      return { scheduled: await latest('schedule'), manual: await latest('manual') };
    },
  };
}

export type BackOffice = ReturnType<typeof createBackOffice>;
