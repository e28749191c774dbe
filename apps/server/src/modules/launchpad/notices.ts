import { translate } from '@bourse/i18n';
import { toDecimalString } from '@bourse/money';
import { isLang, type Lang } from '@bourse/protocol';
import { type LaunchpadDeps, localized } from './context.ts';
import type { ProjectRow, SubscriptionRow } from './repo.ts';
import { coinsOfLots, USDT } from './rules.ts';

/**
 * Tells the subscriber (email, else SMS; the outbox in the embedded set-up; always their in-app
 * inbox) what the job did with their money, in their language (common catalogue
 * `message.launchpad.*`):
 *
 * - `notPassed`: the review at close refused the subscription; the whole frozen amount is available again;
 * - `allocated`: coins allocated (locked until `release_at`), cost and fee charged, the rest available;
 * - `notAllocated`: the allocation gave no lot; the whole frozen amount is available again;
 * - `refunded`: the project failed (soft cap missed, issuer withdrew); the whole frozen amount is available again;
 * - `released`: the lock-up ended; the coins are in the spot account.
 *
 * Each is built from the row the job's own transaction changed and sent after that transaction
 * commits (notify is not idempotent): a re-run after a crash finds the row moved on and tells
 * nothing. A failure to tell is a warning in the log and undoes nothing.
 */

export type LaunchpadNoticeType = 'notPassed' | 'allocated' | 'notAllocated' | 'refunded' | 'released';
export type LaunchpadNotice = { type: LaunchpadNoticeType; sub: SubscriptionRow; project: ProjectRow };

/** Where the in-app notice points: the customer's subscriptions. */
export const LAUNCHPAD_NOTICE_LINK = '/subscriptionRecord';

const usdt = (v: string | null) => toDecimalString(BigInt(v ?? '0'), USDT.scale);
const dateText = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');

function paramsOf(notice: LaunchpadNotice, lang: Lang): Record<string, string> {
  const { sub: s, project: p } = notice;
  return {
    id: s.id,
    project: localized(p.names, lang),
    coin: p.coin,
    quantity: coinsOfLots(p, BigInt(s.lots)),
    allocated: coinsOfLots(p, BigInt(s.allocated_lots ?? '0')),
    frozen: usdt(s.frozen_units),
    paid: usdt(s.paid_units),
    fee: usdt(s.fee_paid_units),
    refunded: usdt(s.refunded_units),
    release: dateText(p.release_at),
    reason:
      notice.type === 'notPassed' && s.review_reason
        ? translate(lang, `message.launchpad.reviewReason.${s.review_reason}`)
        : notice.type === 'refunded' && s.failure_reason
          ? translate(lang, `message.launchpad.failureReason.${s.failure_reason}`)
          : '',
  };
}

export async function notifyLaunchpad(
  deps: Pick<LaunchpadDeps, 'notifier' | 'contacts' | 'log'>,
  notice: LaunchpadNotice,
): Promise<void> {
  const { notifier, contacts } = deps;
  if (!notifier || !contacts) return;
  const customerId = notice.sub.customer_id;
  try {
    const contact = await contacts.contactOf(customerId);
    const recipient = contact?.email ?? contact?.phone;
    if (!contact || !recipient) return;
    const lang = isLang(contact.language) ? contact.language : 'en';
    const params = paramsOf(notice, lang);
    await notifier.send({
      channel: contact.email ? 'email' : 'sms',
      recipient,
      // Filed in the customer's in-app inbox whatever the contact (a phone-only customer too).
      customerId,
      kind: 'launchpad',
      link: LAUNCHPAD_NOTICE_LINK,
      subject: translate(lang, `message.launchpad.${notice.type}Subject`, params),
      body: translate(lang, `message.launchpad.${notice.type}Body`, params),
    });
  } catch (error) {
    deps.log.warn({ err: error, subscription: notice.sub.id }, 'launchpad notice could not be sent');
  }
}
