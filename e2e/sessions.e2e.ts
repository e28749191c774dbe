import { catalogs } from '@bourse/i18n';
import type { Browser, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoToken, webCall, webData } from './api.ts';
import { LANGS, launch, newPage, outboxCode, screenshot, switchLang, type ViewportName } from './browser.ts';

/**
 * Sessions end everywhere, in the browser: a page whose session ends elsewhere (logged out by
 * another client, password changed on another device) hears it on the market socket
 * (`{main_type: 4, event: "session_ended"}`) and logs out locally — at once, without any call of
 * its own — as an HTTP 1000 / 2000 answer would.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Frame = Record<string, unknown>;
type Frames = {
  next(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  /** Drops the frames received so far: the next `next` sees only newer ones. */
  forget(): void;
};

/** Records every frame the page's `/ws` sockets receive (installed before the page navigates). */
function recordFrames(page: Page): Frames {
  const seen: Frame[] = [];
  const waiters = new Set<() => void>();
  page.on('websocket', (socket: WebSocket) => {
    if (!socket.url().endsWith('/ws')) return;
    socket.on('framereceived', ({ payload }) => {
      try {
        seen.push(JSON.parse(String(payload)));
      } catch {
        return;
      }
      for (const wake of waiters) wake();
    });
  });
  return {
    forget() {
      seen.length = 0;
    },
    next(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const at = seen.findIndex(match);
          if (at < 0) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(seen.splice(at, 1)[0] as Frame);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching websocket frame in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/**
 * Holds the page's API calls until the returned function is called: while held, only the socket can
 * tell the page its session ended (a polling call answered 1000 would log it out too).
 */
async function holdApiCalls(page: Page): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const pattern = '**/api/web/**';
  await page.route(pattern, async (route) => {
    await released;
    await route.continue().catch(() => undefined);
  });
  return async () => {
    release();
    await page.unroute(pattern);
  };
}

/** A page on a logged-in (guarded) screen whose market socket has authenticated with `token`. */
async function loggedInPage(
  token: string,
  options: { viewport: ViewportName; lang: (typeof LANGS)[number] },
): Promise<{ page: Page; frames: Frames }> {
  const { page } = await newPage(browser, options);
  const frames = recordFrames(page);
  await page.goto('/login');
  // Stored once (not an init script): after the app clears it, a reload must not bring it back.
  await page.evaluate((value) => localStorage.setItem('bourse.token', value), token);
  await page.goto('/table1');
  await frames.next((f) => f.main_type === 4 && typeof f.uid === 'string');
  expect(new URL(page.url()).pathname).toBe('/table1');
  return { page, frames };
}

const isEnded = (f: Frame) => f.main_type === 4 && f.event === 'session_ended';
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('bourse.token'));

describe('a session ended elsewhere logs the page out', () => {
  // One profile per size: the page is logged out in en, zh and ft in turn. After each round the app
  // has reloaded at /login; the next round switches the language there, stores a new session's token
  // and loads /table1.
  for (const viewport of ['desktop', 'mobile'] as const) {
    it(`logout by another client: the page goes to /login with the reason (${viewport} in en, zh and ft)`, async () => {
      let page: Page | undefined;
      let frames: Frames | undefined;
      let loads = 0;
      for (const lang of LANGS) {
        const token = await demoToken();
        if (!page || !frames) {
          ({ page, frames } = await loggedInPage(token, { viewport, lang }));
          page.on('load', () => {
            loads += 1;
          });
        } else {
          await switchLang(page, lang);
          frames.forget();
          // Stored once (not an init script), as `loggedInPage` does, then a real load of /table1.
          await page.evaluate((value) => localStorage.setItem('bourse.token', value), token);
          await page.goto('/table1');
          await frames.next((f) => f.main_type === 4 && typeof f.uid === 'string');
          expect(new URL(page.url()).pathname).toBe('/table1');
        }
        const loadsBefore = loads;
        const release = await holdApiCalls(page);
        const ended = frames.next(isEnded);
        // The notice shows for the envelope's 2 s before the app reloads. Watched from before the
        // logout is sent: on a loaded machine the socket frame, the move to /login and the reload can
        // all pass before a wait started after any of them looks (CI stop 34 lost it that way).
        const noticed = page
          .locator('.mantine-Notification-root')
          .filter({ hasText: catalogs[lang].common.reason.SESSION_EXPIRED })
          .first()
          .waitFor({ timeout: 30_000 });
        const started = Date.now();
        expect((await webCall('POST', 'userLogout', {}, token)).code).toBe(1);
        expect(await ended).toMatchObject({ code: 1000, reason: 'SESSION_EXPIRED' });
        // "At once": the frame arrives without any call of the page's own (they are held).
        expect(Date.now() - started).toBeLessThan(10_000);
        await noticed;
        await screenshot(page, `session-ended-${lang}-${viewport}`);
        const current = page;
        await current.waitForURL((url) => url.pathname === '/login');
        // The move to /login may still be loading: a read during it has no page to run in; read again.
        await expect.poll(() => storedToken(current).catch(() => 'navigating')).toBeNull();
        await release();
        // The app reloads after the envelope's default 2 s and stays logged out.
        await expect.poll(() => loads, { timeout: 10_000 }).toBeGreaterThan(loadsBefore);
        await page.waitForLoadState('load');
        expect(new URL(page.url()).pathname).toBe('/login');
        expect(await storedToken(page)).toBeNull();
        expect((page as unknown as { errors: string[] }).errors).toEqual([]);
      }
      await page?.context().close();
    }, 120_000);
  }

  it('a password change on another device asks this page to log in again (2000)', async () => {
    const email = `e2e-sessions-${Date.now().toString(36)}@example.com`;
    const password = 'secret123';
    await webData('GET', 'getCode', { account: email, scene: 'register' }, null);
    const code = await outboxCode(email);
    await webData(
      'POST',
      'userRegister',
      { type: 'email', account: email, code, password, password2: password, agree: '1' },
      null,
    );
    const here = (await webData<{ token: string }>('POST', 'userLogin', { account: email, password }, null))
      .token;
    const elsewhere = (
      await webData<{ token: string }>('POST', 'userLogin', { account: email, password }, null)
    ).token;
    const { page, frames } = await loggedInPage(here, { viewport: 'desktop', lang: 'en' });
    const release = await holdApiCalls(page);
    const ended = frames.next(isEnded);
    await webData(
      'POST',
      'updatePassword',
      { old_password: password, password: 'another456', password2: 'another456' },
      elsewhere,
    );
    expect(await ended).toMatchObject({ code: 2000, reason: 'SESSION_PASSWORD_CHANGED' });
    const relogin = page.getByTestId('session-relogin');
    await relogin.waitFor();
    await release();
    await screenshot(page, 'session-password-changed-en-desktop');
    await relogin.click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await storedToken(page)).toBeNull();
    // The device that changed the password is still logged in.
    expect((await webCall('GET', 'info', {}, elsewhere)).code).toBe(1);
    await page.context().close();
  });
});
