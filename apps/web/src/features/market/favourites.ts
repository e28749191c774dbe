import { useSyncExternalStore } from 'react';

/** Favourite symbols, kept in localStorage so they survive visits (no account needed). */
export const FAVOURITES_KEY = 'bourse.market.favourites';
const FAVOURITES_MAX = 500;

function read(): ReadonlySet<string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(FAVOURITES_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : []);
  } catch (error) {
    console.warn('[market] favourites unreadable; starting empty', error);
    return new Set();
  }
}

let favourites: ReadonlySet<string> = typeof localStorage === 'undefined' ? new Set() : read();
const listeners = new Set<() => void>();

export function toggleFavourite(symbol: string): void {
  const next = new Set(favourites);
  if (next.has(symbol)) next.delete(symbol);
  else if (next.size < FAVOURITES_MAX) next.add(symbol);
  favourites = next;
  localStorage.setItem(FAVOURITES_KEY, JSON.stringify([...next]));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useFavourites(): ReadonlySet<string> {
  return useSyncExternalStore(subscribe, () => favourites);
}
