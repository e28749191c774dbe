import { translate } from '@bourse/i18n';
import { isLang } from '@bourse/protocol';
import { outstandingUnits } from '@bourse/risk';
import { type LoansDeps, quoteFrom, rateText, stateFrom, usdt } from './context.ts';
import { payoffAt } from './days.ts';
import type { LoanRow } from './repo.ts';

/**
 * Tells the customer (email, else SMS; the outbox in the embedded set-up) about their loan, in their
 * language: paid out, rejected, due tomorrow. Sent after the change commits (notify is not
 * idempotent: each caller sends once); a failure to tell is logged and undoes nothing.
 */

export type LoanNotice = 'disbursed' | 'rejected' | 'reminder';

const dateText = (d: Date | null) => (d === null ? '' : `${d.toISOString().slice(0, 16).replace('T', ' ')}`);

function paramsOf(row: LoanRow, lang: 'en' | 'zh' | 'ft', now: Date) {
  const q = quoteFrom(row.quote);
  const payoff = payoffAt(row, now);
  const owed = payoff?.totalUnits ?? (row.loan_state ? outstandingUnits(stateFrom(row.loan_state)) : 0n);
  return {
    id: row.id,
    amount: usdt(row.amount_units),
    total: usdt(q.totalRepayableUnits),
    due: dateText(row.due_at),
    owed: usdt(owed),
    overdue_rate: rateText(q.overdueRatePpm),
    late_fee: usdt(q.lateFeeUnits),
    worst: usdt(q.worstCaseTotalUnits),
    reason: row.reject_reason ? translate(lang, `message.loanRejectReason.${row.reject_reason}`) : '',
  };
}

export async function notifyLoan(
  deps: Pick<LoansDeps, 'notifier' | 'contacts' | 'log' | 'clock'>,
  row: LoanRow,
  notice: LoanNotice,
): Promise<void> {
  const { notifier, contacts } = deps;
  if (!notifier || !contacts) return;
  try {
    const contact = await contacts.contactOf(row.customer_id);
    const recipient = contact?.email ?? contact?.phone;
    if (!contact || !recipient) return;
    const lang = isLang(contact.language) ? contact.language : 'en';
    const params = paramsOf(row, lang, deps.clock.now());
    await notifier.send({
      channel: contact.email ? 'email' : 'sms',
      recipient,
      customerId: row.customer_id,
      subject: translate(lang, `message.loan.${notice}Subject`, params),
      body: translate(lang, `message.loan.${notice}Body`, params),
    });
  } catch (error) {
    deps.log.warn({ err: error, loan: row.id }, 'loan notice could not be sent');
  }
}
