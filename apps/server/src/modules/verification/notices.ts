import { catalogs, interpolate, lookup } from '@bourse/i18n';
import { isLang, type Lang, type VerificationTier } from '@bourse/protocol';
import type { VerificationDeps } from './context.ts';
import type { DocumentRow, SubmissionState } from './repo.ts';

/**
 * Tells the customer how their submission was decided, in their language (namespace
 * `verification`, `notice.*`): approved, rejected with the reasons, or which documents to replace
 * and why. Sent after the decision commits; a failure to tell is logged and undoes nothing.
 */

const text = (lang: Lang, key: string, params: Record<string, string> = {}) =>
  interpolate(
    lookup(catalogs[lang].verification, key) ?? lookup(catalogs.en.verification, key) ?? key,
    params,
  );

/** "Front of the ID: The document has expired; Utility bill: Other (see the note) (…)", in the reader's language. */
export function reasonsText(
  lang: Lang,
  documents: readonly DocumentRow[],
  status: DocumentRow['status'],
): string {
  return documents
    .filter((d) => d.status === status && d.reason_code)
    .map((d) => {
      const why = text(lang, `reasonCode.${d.reason_code}`);
      const reason = d.note ? text(lang, 'notice.reasonNote', { reason: why, note: d.note }) : why;
      return text(lang, 'notice.reasonLine', { slot: text(lang, `slot.${d.slot}`), reason });
    })
    .join(text(lang, 'notice.reasonJoin'));
}

export function noticeOf(
  lang: Lang,
  input: { tier: VerificationTier; state: SubmissionState; documents: readonly DocumentRow[] },
): { subject: string; body: string } | null {
  const tier = text(lang, `tier.${input.tier}`);
  if (input.state === 'approved') {
    return {
      subject: text(lang, 'notice.approvedSubject', { tier }),
      body: text(lang, 'notice.approvedBody', { tier }),
    };
  }
  if (input.state === 'rejected') {
    const reasons = reasonsText(lang, input.documents, 'rejected');
    return {
      subject: text(lang, 'notice.rejectedSubject', { tier }),
      body: text(lang, 'notice.rejectedBody', { tier, reasons }),
    };
  }
  if (input.state === 'revision_requested') {
    const reasons = reasonsText(lang, input.documents, 'revision_requested');
    return {
      subject: text(lang, 'notice.revisionSubject', { tier }),
      body: text(lang, 'notice.revisionBody', { tier, reasons }),
    };
  }
  return null;
}

export async function notifyDecision(
  deps: Pick<VerificationDeps, 'notifier' | 'contacts' | 'log'>,
  input: {
    customerId: string;
    tier: VerificationTier;
    state: SubmissionState;
    documents: readonly DocumentRow[];
  },
): Promise<void> {
  if (!deps.notifier) return;
  try {
    const contact = await deps.contacts.contactOf(input.customerId);
    const recipient = contact?.email ?? contact?.phone;
    if (!contact || !recipient) return;
    const lang = isLang(contact.language) ? contact.language : 'en';
    const message = noticeOf(lang, input);
    if (!message) return;
    // customerId: filed in the customer's in-app inbox whatever the contact (a phone-only customer too).
    await deps.notifier.send({
      channel: contact.email ? 'email' : 'sms',
      recipient,
      customerId: input.customerId,
      ...message,
    });
  } catch (error) {
    deps.log.warn({ err: error, customer: input.customerId }, 'verification notice could not be sent');
  }
}
