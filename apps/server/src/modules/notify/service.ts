import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './repo.ts';

/**
 * Messages to customers. With SMTP_URL set, email goes out by SMTP; otherwise (the embedded
 * default) every message lands in the outbox table, which the back office shows, and the log
 * prints one line `outbox to=<recipient> code=<code>`. SMS has no sender yet: always the outbox.
 * Every message is filed in the outbox with how it went (`outbox`, `sent`, `failed`): a failed SMTP
 * delivery is logged as an error and kept, never lost and never thrown at the caller. `send` is not
 * idempotent: each call files (and sends) one message; callers send once, after their commit.
 * The text is the caller's, already in the customer's language (accounts/codes.ts, withdrawals).
 *
 * The anti-phishing phrase is added here, centrally, to every message: the `phrases` port names
 * the phrase of the customer the message is for (`customerId` when the caller gives it — a code to
 * a contact being bound, a notice to a contact just replaced — else the customer holding the
 * recipient address). E-mail: `[phrase] ` before the subject and the phrase as the first line;
 * SMS: `[phrase] ` before the text. A message to an address no customer holds has none.
 */
export type Message = {
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  code?: string;
  /** The customer this message is for, when the recipient address is not (or no longer) theirs. */
  customerId?: string;
};

/** Looks up the anti-phishing phrase for a message's customer (accounts' `antiPhishingPhrases`). */
export type PhrasePort = {
  phraseFor(input: { customerId?: string; recipient: string }): Promise<string | null>;
};

/** The message as filed and sent: the phrase in the subject and first line (email) or first (SMS). */
export function withPhrase(message: Message, phrase: string | null): Message {
  if (!phrase) return message;
  const tag = `[${phrase}]`;
  if (message.channel === 'sms') return { ...message, body: `${tag} ${message.body}` };
  return { ...message, subject: `${tag} ${message.subject}`, body: `${tag}\n\n${message.body}` };
}

export type Notifier = {
  send(message: Message): Promise<void>;
  latest(
    recipient: string,
    limit?: number,
  ): Promise<Array<{ subject: string; body: string; createdAt: Date }>>;
};

export type Transport = {
  sendMail(mail: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
};

export async function createNotifier(deps: {
  db: Db;
  log: Logger;
  clock: Clock;
  smtp: { url: string; from: string } | null;
  /** Tests pass a transport in place of nodemailer's SMTP one (used only with `smtp` set). */
  transport?: Transport;
  /** The anti-phishing phrase of the customer a message is for; none without it. */
  phrases?: PhrasePort;
}): Promise<Notifier> {
  let transport: Transport | null = null;
  if (deps.smtp) {
    transport = deps.transport ?? ((await import('nodemailer')).createTransport(deps.smtp.url) as Transport);
  }
  return {
    async send(given) {
      const phrase =
        (await deps.phrases?.phraseFor({
          recipient: given.recipient,
          ...(given.customerId ? { customerId: given.customerId } : {}),
        })) ?? null;
      const message = withPhrase(given, phrase);
      let delivery: 'outbox' | 'sent' | 'failed' = 'outbox';
      if (transport && deps.smtp && message.channel === 'email') {
        try {
          await transport.sendMail({
            from: deps.smtp.from,
            to: message.recipient,
            subject: message.subject,
            text: message.body,
          });
          delivery = 'sent';
        } catch (error) {
          deps.log.error({ err: error, to: message.recipient }, 'smtp delivery failed; kept in the outbox');
          delivery = 'failed';
        }
      }
      await repo.insertOutbox(deps.db, {
        id: newId('obx', deps.clock.now().getTime()),
        channel: message.channel,
        recipient: message.recipient,
        subject: message.subject,
        body: message.body,
        delivery,
        created_at: deps.clock.now(),
      });
      if (delivery !== 'sent') {
        deps.log.info(`outbox to=${message.recipient}${message.code ? ` code=${message.code}` : ''}`);
      }
    },
    async latest(recipient, limit = 10) {
      const rows = await repo.latestFor(deps.db, recipient, limit);
      return rows.map((r) => ({ subject: r.subject, body: r.body, createdAt: r.created_at }));
    },
  };
}
