import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../config/app.ts';
import { changeLang, currentLang, followOtherTabs } from './i18n.ts';

/** A `storage` event as the browser sends it to the other tabs of the origin (node has no StorageEvent). */
function storageEvent(key: string, newValue: string | null): Event {
  return Object.assign(new Event('storage'), { key, newValue });
}

describe('language chosen in another tab', () => {
  it('follows the remembered choice, and ignores other keys and unknown languages', async () => {
    await changeLang('en');
    const tab = new EventTarget();
    followOtherTabs(tab);
    tab.dispatchEvent(storageEvent(STORAGE_KEYS.lang, 'ft'));
    await Promise.resolve();
    expect(currentLang()).toBe('ft');
    tab.dispatchEvent(storageEvent('bourse.other', 'zh'));
    tab.dispatchEvent(storageEvent(STORAGE_KEYS.lang, 'fr'));
    tab.dispatchEvent(storageEvent(STORAGE_KEYS.lang, null));
    await Promise.resolve();
    expect(currentLang()).toBe('ft');
    await changeLang('en');
  });
});
