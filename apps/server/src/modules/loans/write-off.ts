import type { AdminLoanWriteOffBody, LoanStatus } from '@bourse/protocol';
import { outstandingUnits } from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { CURRENCY, LOAN_BOOK, type LoansDeps, lenderAccount, stateFrom, usdt } from './context.ts';
import { chargeThrough } from './days.ts';
import type { LoanRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * Write-off with four eyes (README.md, "Write-off"): a staff member asks to write a running loan off
 * (reason code and reason recorded with who and when); a DIFFERENT staff member confirms it. The
 * confirmation, in one transaction with the loan row locked, charges every loan-day ended by now
 * (as a repayment would), then posts ONE entry that takes what the borrower still owes off the
 * books — `loan_book` back up by it, the lender's claim (frozen) down by as much: the loss is the
 * lender account's, no customer balance is touched — and stores the state `written_off` with no
 * loan-day due (the daily job never sees it again). Both steps are audited with the reason.
 */

const WRITABLE_OFF: readonly LoanStatus[] = ['disbursed', 'repaying', 'overdue'];

export type WriteOff = { row: LoanRow; writtenOff: boolean };

export async function writeOff(
  deps: LoansDeps,
  staff: StaffContext,
  id: string,
  body: AdminLoanWriteOffBody,
): Promise<WriteOff> {
  const reason = body.reason.trim();
  return inTransaction(deps.db, async (tx): Promise<WriteOff> => {
    const locked = await repo.findLoan(tx, id, { lock: true });
    if (!locked) refuse('NOT_FOUND');
    if (!WRITABLE_OFF.includes(locked.state)) refuse('LOAN_NOT_REPAYABLE', { state: locked.state });
    const now = deps.clock.now();
    const audit = { actorId: staff.staffId, targetType: 'loans_loan', targetId: locked.id, reason };
    if (locked.write_off_requested_by === null) {
      const patch = {
        write_off_code: body.reason_code,
        write_off_reason: reason,
        write_off_requested_by: staff.staffId,
        write_off_requested_at: now,
      };
      await repo.updateLoan(tx, locked.id, patch);
      await deps.audit.record(tx, {
        ...audit,
        action: 'loans.loan.write_off_request',
        before: { state: locked.state },
        after: { state: locked.state, awaiting_second: true, reason_code: body.reason_code },
      });
      return { row: { ...locked, ...patch }, writtenOff: false };
    }
    if (locked.write_off_requested_by === staff.staffId) refuse('LOAN_WRITE_OFF_SELF');
    const row = await chargeThrough(deps, tx, locked, now);
    const owed = outstandingUnits(stateFrom(row.loan_state as NonNullable<LoanRow['loan_state']>));
    const lender = lenderAccount(row.lender_code);
    const entry = await deps.ledger.post(tx, {
      reason: 'loan.write_off',
      reference: { type: 'loans_loan', id: row.id },
      idempotencyKey: `loan:write_off:${row.id}`,
      actorId: staff.staffId,
      postings: [
        { account: LOAN_BOOK, currency: CURRENCY, amountUnits: owed },
        { account: lender, currency: CURRENCY, bucket: 'frozen', amountUnits: -owed },
      ],
    });
    const patch = {
      state: 'written_off' as const,
      next_day_at: null,
      written_off_by: staff.staffId,
      written_off_at: now,
      write_off_units: owed.toString(),
      write_off_entry_id: entry.id,
    };
    await repo.updateLoan(tx, row.id, patch);
    await deps.audit.record(tx, {
      ...audit,
      action: 'loans.loan.write_off',
      before: { state: row.state, requested_by: row.write_off_requested_by, reason_code: row.write_off_code },
      after: {
        state: 'written_off',
        amount: usdt(owed),
        entry_id: entry.id,
        reason_code: row.write_off_code,
      },
    });
    return { row: { ...row, ...patch }, writtenOff: true };
  });
}
