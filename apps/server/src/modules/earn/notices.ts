import { translate } from '@bourse/i18n';
import { isLang, type Lang } from '@bourse/protocol';
import { type EarnDeps, localized } from './context.ts';
import type { OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { amountText } from './rules.ts';

/**
 * Tells the customer (email, else SMS; the outbox in the embedded set-up; always their in-app
 * inbox) when money of an earn order comes back to their available balance or is settled, in their
 * language (common catalogue `message.earn.*`):
 *
 * - `matured`: the job posted the last day; principal and rewards are available;
 * - `redeemed`: an early redemption without delay; principal (less any penalty) is available, the
 *   accrued rewards forfeited;
 * - `redeeming`: an early redemption with a delay; the rewards are forfeited now, the principal
 *   (less any penalty) arrives at `arrives_at`;
 * - `released`: the job paid out a delayed redemption.
 *
 * Callers build the notice from the row their own transaction changed and send it after that
 * transaction commits (notify is not idempotent): a job re-run, or the same redemption confirmed
 * again, changes nothing and tells nothing. A failure to tell is a warning in the log and undoes
 * nothing.
 */

export type EarnNoticeType = 'matured' | 'redeemed' | 'redeeming' | 'released';
export type EarnNotice = { type: EarnNoticeType; order: OrderRow };

/** Where the in-app notice points: the customer's orders of that kind. */
export const earnNoticeLink = (o: Pick<OrderRow, 'kind'>) =>
  o.kind === 'vip' ? '/vip_wdtg' : '/profit_wdtg';

const dateText = (d: Date | null) => (d === null ? '' : d.toISOString().slice(0, 16).replace('T', ' '));

function paramsOf(notice: EarnNotice, product: string): Record<string, string> {
  const o = notice.order;
  const c = o.currency;
  const units = (v: string | null) => BigInt(v ?? '0');
  const principal = BigInt(o.amount_units);
  const rewards = notice.type === 'matured' ? units(o.rewards_paid_units) : 0n;
  const returned = units(o.principal_returned_units);
  return {
    id: o.id,
    product,
    currency: c,
    term: String(o.term_days),
    days: String(o.days_accrued),
    principal: amountText(principal, c),
    rewards: amountText(rewards, c),
    total: amountText(notice.type === 'matured' ? principal + rewards : returned, c),
    returned: amountText(returned, c),
    forfeited: amountText(units(o.rewards_forfeited_units), c),
    penalty: amountText(units(o.penalty_units), c),
    arrives: dateText(o.arrives_at),
  };
}

/** The text part naming the penalty, or nothing when there was none. */
function penaltyText(lang: Lang, notice: EarnNotice, params: Record<string, string>): string {
  if (BigInt(notice.order.penalty_units ?? '0') === 0n) return '';
  return translate(lang, 'message.earn.penaltyPart', params);
}

export async function notifyEarn(
  deps: Pick<EarnDeps, 'notifier' | 'contacts' | 'log' | 'db'>,
  notice: EarnNotice,
): Promise<void> {
  const { notifier, contacts } = deps;
  if (!notifier || !contacts) return;
  const o = notice.order;
  try {
    const contact = await contacts.contactOf(o.customer_id);
    const recipient = contact?.email ?? contact?.phone;
    if (!contact || !recipient) return;
    const lang = isLang(contact.language) ? contact.language : 'en';
    const p = await repo.findProduct(deps.db, o.product_id);
    const params = paramsOf(notice, p ? localized(p.names, lang) : o.product_id);
    const all = { ...params, penalty_part: penaltyText(lang, notice, params) };
    await notifier.send({
      channel: contact.email ? 'email' : 'sms',
      recipient,
      // Filed in the customer's in-app inbox whatever the contact (a phone-only customer too).
      customerId: o.customer_id,
      kind: 'earn',
      link: earnNoticeLink(o),
      subject: translate(lang, `message.earn.${notice.type}Subject`, all),
      body: translate(lang, `message.earn.${notice.type}Body`, all),
    });
  } catch (error) {
    deps.log.warn({ err: error, earnOrder: o.id }, 'earn notice could not be sent');
  }
}
