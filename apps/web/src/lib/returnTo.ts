import { STORAGE_KEYS } from '../config/app.ts';
import { session } from './storage.ts';

/** Pages that make no sense to come back to after logging in. */
const NEVER_RETURN = new Set(['/login', '/register']);

/** Only same-app paths: `/x`, never `//host` or a full URL (no open redirect). */
function isSafePath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

/** The guard remembers where a visitor was going before it sent them to /login. */
export function rememberReturnTo(pathWithSearch: string): void {
  if (!isSafePath(pathWithSearch)) return;
  const pathname = pathWithSearch.split(/[?#]/)[0] ?? '';
  if (NEVER_RETURN.has(pathname)) return;
  session.set(STORAGE_KEYS.returnTo, pathWithSearch);
}

/** Where to go after logging in or registering; read once. */
export function takeReturnTo(fallback = '/'): string {
  const stored = session.get(STORAGE_KEYS.returnTo);
  session.remove(STORAGE_KEYS.returnTo);
  return stored && isSafePath(stored) ? stored : fallback;
}

/** After a logout nothing is pending: the next login starts from home. */
export function forgetReturnTo(): void {
  session.remove(STORAGE_KEYS.returnTo);
}
