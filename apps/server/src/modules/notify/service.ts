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
 */
export type Message = {
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  code?: string;
};

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
}): Promise<Notifier> {
  let transport: Transport | null = null;
  if (deps.smtp) {
    transport = deps.transport ?? ((await import('nodemailer')).createTransport(deps.smtp.url) as Transport);
  }
  return {
    async send(message) {
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
