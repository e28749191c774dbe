import { NOTICE_KINDS_SECURITY, type NoticeKind } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './repo.ts';

/**
 * Messages to customers. With SMTP_URL set, email goes out by SMTP; otherwise (the embedded
 * default) every message lands in the outbox table, which the back office shows, and the log
 * prints one line `outbox to=<recipient> code=<code>`. SMS has no sender yet: always the outbox.
 * Every message is filed in the outbox with how it went (`outbox`, `sent`, `failed`): a failed SMTP
 * delivery is logged as an error and kept, never lost and never thrown at the caller. `send` without
 * an `id` is not idempotent: each call files (and sends) one message; callers send once, after their
 * commit. Every message to a known customer is also filed in their in-app inbox (`InboxPort`).
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
  /** What the message is about (the inbox tab, the e-mail preference); `general` when not said. */
  kind?: NoticeKind;
  /** Where the in-app notice points: an app path (`/withdrawRecord`). */
  link?: string;
};

/**
 * The in-app inbox (modules/inbox, injected by wiring.ts): every message to a known customer is
 * filed there too, keyed by this message's id, and the customer's e-mail preference is asked
 * before the outbound copy goes. A message carrying a one-time code never lands in the inbox.
 */
export type InboxPort = {
  /** The customer holding this e-mail address or phone number, if any. */
  customerOf(recipient: string): Promise<string | null>;
  /** Files the notice (in `q`, the caller's transaction when given); a second call with the same id is a no-op. */
  file(
    q: Db | Tx,
    notice: {
      id: string;
      customerId: string;
      kind: NoticeKind;
      title: string;
      body: string;
      link: string | null;
      at: Date;
    },
  ): Promise<void>;
  /** After the notice is committed: the live event to the customer's open app. */
  filed(notice: { id: string; customerId: string }): Promise<void>;
  /** Whether the customer wants this kind by e-mail (security kinds are never asked). */
  emailWanted(input: { customerId: string; kind: NoticeKind }): Promise<boolean>;
};

/**
 * `id`: the message's id (`notifier.newId()`), the key that makes the inbox exactly once: a retried
 * send with the same id files nothing twice and sends no second copy. `tx`: the caller's
 * transaction — only the inbox row is written, in it; send again with the same id after the commit
 * for the e-mail and the live event.
 */
export type SendOptions = { id?: string; tx?: Tx };

export const isSecurityKind = (kind: NoticeKind) => NOTICE_KINDS_SECURITY.includes(kind);

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
  send(message: Message, options?: SendOptions): Promise<void>;
  /** A fresh message id, for callers that file in their transaction and send after it. */
  newId(): string;
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
  /** The in-app inbox and the e-mail preferences; without it, messages only go out. */
  inbox?: InboxPort;
}): Promise<Notifier> {
  let transport: Transport | null = null;
  if (deps.smtp) {
    transport = deps.transport ?? ((await import('nodemailer')).createTransport(deps.smtp.url) as Transport);
  }
  const { inbox } = deps;

  /** Files the in-app copy; false when the message has no inbox (a code, an unknown address). */
  async function fileInbox(given: Message, id: string, q: Db | Tx): Promise<string | null> {
    if (!inbox || given.code !== undefined) return null;
    const customerId = given.customerId ?? (await inbox.customerOf(given.recipient));
    if (!customerId) return null;
    await inbox.file(q, {
      id,
      customerId,
      kind: given.kind ?? 'general',
      title: given.subject,
      body: given.body,
      link: given.link ?? null,
      at: deps.clock.now(),
    });
    return customerId;
  }

  async function deliver(given: Message, id: string): Promise<void> {
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
      id,
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
  }

  /** The customer's preference, asked only for a kind they may turn off; codes always go. */
  async function outboundWanted(given: Message, customerId: string | null): Promise<boolean> {
    const kind = given.kind ?? 'general';
    if (!inbox || !customerId || given.code !== undefined || isSecurityKind(kind)) return true;
    return inbox.emailWanted({ customerId, kind });
  }

  return {
    newId: () => newId('obx', deps.clock.now().getTime()),
    async send(given, options = {}) {
      const id = options.id ?? newId('obx', deps.clock.now().getTime());
      if (options.tx) {
        await fileInbox(given, id, options.tx);
        return;
      }
      const customerId = await fileInbox(given, id, deps.db);
      // A retried send with the same id: the outbound copy went (or was declined) the first time.
      const already = options.id !== undefined && (await repo.outboxHas(deps.db, id));
      if (!already && (await outboundWanted(given, customerId))) await deliver(given, id);
      if (customerId && inbox) await inbox.filed({ id, customerId });
    },
    async latest(recipient, limit = 10) {
      const rows = await repo.latestFor(deps.db, recipient, limit);
      return rows.map((r) => ({ subject: r.subject, body: r.body, createdAt: r.created_at }));
    },
  };
}

/** The notifier a module is given (wiring.ts): its messages carry the module's kind unless they name one. */
export function withKind(notifier: Notifier, kind: NoticeKind): Notifier {
  return { ...notifier, send: (message, options) => notifier.send({ kind, ...message }, options) };
}
