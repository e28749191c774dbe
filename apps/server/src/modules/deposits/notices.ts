import { translate } from '@bourse/i18n';
import { scaleOf, toDecimalString } from '@bourse/money';
import { isLang } from '@bourse/protocol';
import type { DepositsDeps } from './context.ts';
import type { BankRow, CryptoRow } from './repo.ts';

/**
 * Tells the customer (email, else SMS; the outbox in the embedded set-up; always their in-app
 * inbox) what happened to their deposit, in their language (common catalogue `message.deposit.*`):
 * a crypto deposit credited or held below the minimum, a bank deposit confirmed or rejected.
 *
 * Callers send only what their own call changed (a replayed custody event changes nothing and
 * tells nothing), after their transaction commits: notify is not idempotent. A failure to tell is
 * a warning in the log and undoes nothing.
 */

export type DepositNotice =
  | { type: 'cryptoCredited'; row: CryptoRow }
  | { type: 'cryptoHeld'; row: CryptoRow; minUnits: string }
  | { type: 'bankConfirmed'; row: BankRow }
  | { type: 'bankRejected'; row: BankRow; reason: string };

/** Where the in-app notice points: the customer's deposit records. */
export const DEPOSIT_NOTICE_LINK = '/rechargeRecord';

const amountOf = (units: string | bigint, currency: string) =>
  toDecimalString(BigInt(units), scaleOf(currency));

function paramsOf(notice: DepositNotice): Record<string, string> {
  const { row } = notice;
  const common = { id: row.id, currency: row.currency, amount: amountOf(row.amount_units, row.currency) };
  switch (notice.type) {
    case 'cryptoCredited':
      return { ...common, chain: notice.row.chain, tx: notice.row.txid };
    case 'cryptoHeld':
      return {
        ...common,
        chain: notice.row.chain,
        tx: notice.row.txid,
        minimum: amountOf(notice.minUnits, row.currency),
      };
    case 'bankConfirmed':
      return { ...common, reference: notice.row.reference };
    case 'bankRejected':
      return { ...common, reference: notice.row.reference, reason: notice.reason };
  }
}

export async function notifyDeposit(
  deps: Pick<DepositsDeps, 'notifier' | 'contacts' | 'log'>,
  notice: DepositNotice,
): Promise<void> {
  const { notifier, contacts } = deps;
  if (!notifier || !contacts) return;
  const customerId = notice.row.customer_id;
  try {
    const contact = await contacts.contactOf(customerId);
    const recipient = contact?.email ?? contact?.phone;
    if (!contact || !recipient) return;
    const lang = isLang(contact.language) ? contact.language : 'en';
    const params = paramsOf(notice);
    await notifier.send({
      channel: contact.email ? 'email' : 'sms',
      recipient,
      // Filed in the customer's in-app inbox whatever the contact (a phone-only customer too).
      customerId,
      kind: 'deposit',
      link: DEPOSIT_NOTICE_LINK,
      subject: translate(lang, `message.deposit.${notice.type}Subject`, params),
      body: translate(lang, `message.deposit.${notice.type}Body`, params),
    });
  } catch (error) {
    deps.log.warn({ err: error, deposit: notice.row.id }, 'deposit notice could not be sent');
  }
}

/** Sends each notice in turn (after the caller's commit). */
export async function notifyDeposits(
  deps: Pick<DepositsDeps, 'notifier' | 'contacts' | 'log'>,
  notices: readonly DepositNotice[],
): Promise<void> {
  for (const notice of notices) await notifyDeposit(deps, notice);
}
