import { translate } from '@bourse/i18n';
import { type C2cMessageData, isLang } from '@bourse/protocol';
import { type C2cDeps, coinText, dateText, fiatText } from './context.ts';
import type { OrderRow } from './repo.ts';

/**
 * After a change commits: the live event on both parties' private channels, and, for reminders and
 * endings, a message in their language (email, else SMS; the outbox in the embedded set-up). Notify
 * is not idempotent: each caller sends once, after its commit; a failure is logged and undoes nothing.
 */

export type C2cNotice = 'payReminder' | 'confirmReminder' | 'expired' | 'disputed' | 'resolved' | 'completed';

const parties = (o: OrderRow) => [o.customer_id, o.merchant_customer_id];

export async function publishOrder(deps: C2cDeps, o: OrderRow, event: string): Promise<void> {
  if (!deps.publish) return;
  for (const customerId of parties(o)) {
    try {
      await deps.publish(customerId, { type: 'order', order_id: o.id, state: o.state, event });
    } catch (error) {
      deps.log.warn({ err: error, order: o.id }, 'c2c live event could not be published');
    }
  }
}

export async function publishMessage(deps: C2cDeps, o: OrderRow, message: C2cMessageData): Promise<void> {
  if (!deps.publish) return;
  for (const customerId of parties(o)) {
    try {
      await deps.publish(customerId, { type: 'message', order_id: o.id, message });
    } catch (error) {
      deps.log.warn({ err: error, order: o.id }, 'c2c message could not be published');
    }
  }
}

function paramsOf(o: OrderRow, lang: 'en' | 'zh' | 'ft') {
  const deadline = o.state === 'matched' ? o.pay_by : o.confirm_by;
  return {
    id: o.id,
    amount: coinText(o.amount_units, o.coin_scale),
    coin: o.coin,
    fiat_amount: fiatText(o.fiat_cents),
    fiat: o.fiat,
    deadline: dateText(deadline),
    outcome: o.outcome
      ? translate(lang, o.outcome === 'release' ? 'message.c2c.outcomeRelease' : 'message.c2c.outcomeReturn')
      : '',
    reason: o.outcome_reason ?? '',
  };
}

/** Sends `notice` to `to` (both parties unless told): reminders go to the one who must act. */
export async function notifyOrder(
  deps: C2cDeps,
  o: OrderRow,
  notice: C2cNotice,
  to: readonly string[] = parties(o),
): Promise<void> {
  const { notifier, contacts } = deps;
  if (!notifier || !contacts) return;
  for (const customerId of to) {
    try {
      const contact = await contacts.contactOf(customerId);
      const recipient = contact?.email ?? contact?.phone;
      if (!contact || !recipient) continue;
      const lang = isLang(contact.language) ? contact.language : 'en';
      const params = paramsOf(o, lang);
      await notifier.send({
        channel: contact.email ? 'email' : 'sms',
        recipient,
        customerId,
        subject: translate(lang, `message.c2c.${notice}Subject`, params),
        body: translate(lang, `message.c2c.${notice}Body`, params),
      });
    } catch (error) {
      deps.log.warn({ err: error, order: o.id }, 'c2c notice could not be sent');
    }
  }
}
