import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiGet } from './api.ts';
import { changeLang } from './i18n.ts';

/**
 * A query keyed by a language fetches in that language, even when its fetch starts after the next
 * switch (the earn e2e once cached English content under the `ft` key that way).
 */
describe('the language a call is sent in', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function sentLang(run: () => Promise<unknown>): Promise<string | null> {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ code: 1, msg: 'ok', data: {} })));
    vi.stubGlobal('fetch', fetch);
    await run();
    const url = new URL(String((fetch.mock.calls[0] as unknown[])[0]), 'http://x');
    return url.searchParams.get('lang');
  }

  it('is the interface language unless the call names one', async () => {
    await changeLang('zh');
    expect(await sentLang(() => apiGet('web/getProfitList'))).toBe('zh');
    expect(await sentLang(() => apiGet('web/getProfitList', { lang: 'ft' }))).toBe('ft');
    await changeLang('en');
  });
});
