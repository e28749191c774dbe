import { useRef, useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../config/app.ts';
import { local } from './storage.ts';

/** The customer's login token: stored locally, removed on logout (spec 7), shared by every tab. */
let token: string | null = local.get(STORAGE_KEYS.token);
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  return token;
}

export function setToken(value: string): void {
  token = value;
  local.set(STORAGE_KEYS.token, value);
  emit();
}

export function clearToken(): void {
  token = null;
  local.remove(STORAGE_KEYS.token);
  emit();
}

export function subscribeToken(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current token; re-renders on login and logout, in this tab or another. */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, getToken);
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEYS.token) return;
    token = event.newValue;
    emit();
  });
}

/**
 * True while the customer is still on the page (`place`: the history entry's key) where their token
 * disappeared (logout, or the session ended). The guard then sends them to /login without
 * remembering that page as a place to return to: they left it, they were not trying to reach it.
 */
export function useSessionEndedOn(place: string): boolean {
  const current = useToken();
  const seen = useRef(current);
  const endedOn = useRef<string | null>(null);
  // Refs written during render on purpose: the answer must hold for every render of this place,
  // including ones caused by the navigation away that the ended session starts.
  if (seen.current !== null && current === null) endedOn.current = place;
  if (current !== null) endedOn.current = null;
  seen.current = current;
  return endedOn.current === place;
}
