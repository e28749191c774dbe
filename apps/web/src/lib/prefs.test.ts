import { describe, expect, it, vi } from 'vitest';
import { changeLang } from './i18n.ts';
import { defaultRise, getRise, setRise } from './prefs.ts';

describe('rise colour', () => {
  it('defaults by language: red up for zh and ft, green up for en', () => {
    expect(defaultRise('en')).toBe('green');
    expect(defaultRise('zh')).toBe('red');
    expect(defaultRise('ft')).toBe('red');
  });

  it('without a choice follows the language as it changes; a choice then holds in every language', async () => {
    // No window in this test run: storage forgets (and says so once).
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await changeLang('zh');
    expect(getRise()).toBe('red');
    await changeLang('en');
    expect(getRise()).toBe('green');
    setRise('red');
    await changeLang('ft');
    expect(getRise()).toBe('red');
    await changeLang('en');
    expect(getRise()).toBe('red');
  });
});
