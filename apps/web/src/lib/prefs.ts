import type { Lang } from '@bourse/protocol';
import type { Rise } from '@bourse/ui';
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../config/app.ts';
import { currentLang, i18n } from './i18n.ts';
import { local } from './storage.ts';

/**
 * Which colour a rising price takes: the customer's choice (Settings), else the convention of the
 * language — red for zh and ft, as on Chinese-language markets; green for en. The same in every view:
 * everything that colours a change reads it here.
 */
export function defaultRise(lang: Lang): Rise {
  return lang === 'en' ? 'green' : 'red';
}

const stored = local.get(STORAGE_KEYS.rise);
let chosen: Rise | null = stored === 'red' || stored === 'green' ? stored : null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function getRise(): Rise {
  return chosen ?? defaultRise(currentLang());
}

export function setRise(value: Rise): void {
  chosen = value;
  local.set(STORAGE_KEYS.rise, value);
  notify();
}

// Without a choice the colour follows the language, so a language switch recolours.
i18n.on('languageChanged', () => {
  if (chosen === null) notify();
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRise(): Rise {
  return useSyncExternalStore(subscribe, getRise, getRise);
}
