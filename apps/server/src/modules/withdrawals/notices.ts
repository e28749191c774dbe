import { translate } from '@bourse/i18n';
import { isLang } from '@bourse/protocol';
import { fmt, type WithdrawalsDeps } from './context.ts';
import type { WithdrawalRow } from './repo.ts';

/**
 * Tells the customer (email, else SMS; the outbox in the embedded set-up) that their withdrawal
 * changed state, in their language. After the change commits; a failure to tell is logged and
 * does not undo the change.
 */
export async function notify(
  deps: Pick<WithdrawalsDeps, 'notifier' | 'contacts' | 'log'>,
  row: WithdrawalRow,
): Promise<void> {
  const notifier = deps.notifier;
  const contacts = deps.contacts;
  if (!notifier || !contacts) return;
  try {
    const contact = await contacts.contactOf(row.customer_id);
    const recipient = contact?.email ?? contact?.phone;
    if (!contact || !recipient) return;
    const lang = isLang(contact.language) ? contact.language : 'en';
    const params = {
      amount: fmt(row.amount, row.currency),
      received: fmt(row.received, row.currency),
      currency: row.currency,
      id: row.id,
      tx: row.tx_hash ?? '',
      reference: row.bank_reference ?? '',
      reason: row.fail_reason
        ? translate(lang, `message.withdrawalFailReason.${row.fail_reason}`)
        : (row.reject_reason ?? ''),
    };
    await notifier.send({
      channel: contact.email ? 'email' : 'sms',
      recipient,
      // Filed in the customer's in-app inbox whatever the contact (a phone-only customer too).
      customerId: row.customer_id,
      subject: translate(lang, `message.withdrawal.${row.status}Subject`, params),
      body: translate(lang, `message.withdrawal.${row.status}Body`, params),
    });
  } catch (error) {
    deps.log.warn({ err: error, withdrawal: row.id }, 'withdrawal notice could not be sent');
  }
}
