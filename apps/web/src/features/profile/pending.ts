import { session } from '../../lib/storage.ts';

/**
 * The contact change in progress between `/mobile` or `/email` and `/verificationCode`: where the
 * codes went and when each may be sent again. Kept in session storage (this tab only, gone when it
 * closes); codes themselves are never stored.
 */
export type PendingChange = {
  type: 'email' | 'phone';
  /** The new contact as the server takes it (E.164 phone or e-mail) and as shown. */
  account: string;
  area_code?: string;
  shown: string;
  /** The current contact when this is a change (a code went there too), else null. */
  old: { account: string; shown: string } | null;
  /** When each code may be asked for again (ms since epoch). */
  resendAt: { code: number; old_code: number };
};

const KEY = 'bourse.profile.pending';

export function readPending(): PendingChange | null {
  const raw = session.get(KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as PendingChange;
    return typeof value.account === 'string' && (value.type === 'email' || value.type === 'phone')
      ? value
      : null;
  } catch (error) {
    console.warn('[profile] unreadable pending change dropped', error);
    session.remove(KEY);
    return null;
  }
}

export function writePending(value: PendingChange | null): void {
  if (value === null) session.remove(KEY);
  else session.set(KEY, JSON.stringify(value));
}
