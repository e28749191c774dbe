// @vitest-environment happy-dom
import { catalogs, keyPaths, lookup } from '@bourse/i18n';
import { LANGS, type Lang } from '@bourse/protocol';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { platformOf } from '../hooks/useInstallPrompt.ts';
import { renderDownload, type Viewport, watchMissingKeys } from '../test/render.tsx';
import { qrModules } from './QrCode.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0';
const IPAD =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15';

describe('installing the app', () => {
  it('tells the platform from the user agent (an iPad says it is a Mac, with a touch screen)', () => {
    expect(platformOf(IPHONE)).toBe('ios');
    expect(platformOf(IPAD, 5)).toBe('ios');
    expect(platformOf(IPAD, 0)).toBe('desktop');
    expect(platformOf(ANDROID)).toBe('android');
    expect(platformOf(WINDOWS)).toBe('desktop');
  });

  it('encodes the site address into a QR matrix', () => {
    const rows = qrModules('https://bourse.example/');
    expect(rows?.length).toBeGreaterThanOrEqual(21);
    expect(rows?.every((r) => r.length === rows.length)).toBe(true);
    // The three finder patterns: dark corners.
    expect(rows?.[0]?.[0]).toBe(true);
    expect(rows?.[0]?.[rows.length - 1]).toBe(true);
  });

  it('without login: the steps per platform (mine first), the QR code to the site and the safety note', async () => {
    mockApi();
    await renderDownload({ viewport: 'phone', userAgent: IPHONE, touchPoints: 5 });
    const page = await screen.findByTestId('download-page');
    expect(page.dataset.platform).toBe('ios');
    const steps = screen.getAllByTestId(/^download-steps-/);
    expect(steps.map((s) => s.dataset.testid)).toEqual([
      'download-steps-ios',
      'download-steps-android',
      'download-steps-desktop',
    ]);
    expect(steps[0]).toHaveTextContent('Add to Home Screen');
    expect(screen.getByTestId('download-manual')).toHaveTextContent('follow the steps');
    expect(screen.getByTestId('download-url')).toHaveTextContent(`${window.location.origin}/`);
    expect(screen.getByRole('img', { name: `QR code for ${window.location.origin}/` })).toBeInTheDocument();
    expect(screen.getByTestId('download-safety')).toHaveTextContent('never send the app as a file');
  });

  it("offers the browser's own install dialog when it fires beforeinstallprompt", async () => {
    mockApi();
    await renderDownload();
    const prompt = vi.fn(async () => {});
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    act(() => {
      window.dispatchEvent(event);
    });
    expect(event.defaultPrevented).toBe(true);
    const button = await screen.findByTestId('download-install');
    button.click();
    await waitFor(() => expect(screen.getByTestId('download-installed')).toBeInTheDocument());
    expect(prompt).toHaveBeenCalledOnce();
  });
});

function englishOnly(lang: Lang): string[] {
  const en = catalogs.en.agreements.download;
  return keyPaths(en)
    .map((path) => ({ path, text: lookup(en, path) ?? '' }))
    .filter(
      ({ path, text }) =>
        !text.includes('{{') && text.length > 4 && lookup(catalogs[lang].agreements.download, path) !== text,
    )
    .map(({ text }) => text);
}

describe.each(LANGS.filter((l) => l !== 'en'))('/downLoad in %s', (lang) => {
  it.each(['desktop', 'phone'] as Viewport[])(
    '%s: its own words, no missing key, no English left',
    async (viewport) => {
      mockApi();
      watch = watchMissingKeys();
      await renderDownload({ lang, viewport });
      expect(await screen.findByText(catalogs[lang].agreements.download.title)).toBeInTheDocument();
      expect(watch.missing).toEqual([]);
      const body = document.body.textContent ?? '';
      expect(englishOnly(lang).filter((sentence) => body.includes(sentence))).toEqual([]);
    },
  );
});
