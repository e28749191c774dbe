import type { Rise } from '@bourse/ui';
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../config/app.ts';
import { local } from './storage.ts';

/** Which colour a rising price takes; green by default, red for customers used to Chinese markets. */
let rise: Rise = local.get(STORAGE_KEYS.rise) === 'red' ? 'red' : 'green';
const listeners = new Set<() => void>();

export function getRise(): Rise {
  return rise;
}

export function setRise(value: Rise): void {
  rise = value;
  local.set(STORAGE_KEYS.rise, value);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRise(): Rise {
  return useSyncExternalStore(subscribe, getRise, getRise);
}
