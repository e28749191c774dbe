import { useEffect, useState } from 'react';

/** Chrome and Edge's install event (not in the DOM typings). */
type InstallPromptEvent = Event & {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
};

export type InstallState = 'prompt' | 'manual' | 'installing' | 'installed' | 'dismissed';

// The browser fires `beforeinstallprompt` once, possibly before this screen mounts: keep it from the
// moment this module loads (the /downLoad route's chunk), and hand it to the screen when it comes.
let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    for (const listener of listeners) listener();
  });
}

function standalone(): boolean {
  if (typeof window === 'undefined') return false;
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || (window.matchMedia?.('(display-mode: standalone)').matches ?? false);
}

/**
 * Whether the browser offers one-step installation (`prompt`), only the manual steps (`manual`),
 * or the app already runs installed (`installed`); `install()` shows the browser's own dialog.
 */
export function useInstallPrompt() {
  const [state, setState] = useState<InstallState>(() =>
    standalone() ? 'installed' : deferred ? 'prompt' : 'manual',
  );
  useEffect(() => {
    const onPrompt = () => setState((s) => (s === 'installed' ? s : 'prompt'));
    const onInstalled = () => setState('installed');
    listeners.add(onPrompt);
    window.addEventListener('appinstalled', onInstalled);
    return () => {
      listeners.delete(onPrompt);
      window.removeEventListener('appinstalled', onInstalled);
    };
  }, []);

  async function install() {
    const event = deferred;
    if (!event) return;
    setState('installing');
    await event.prompt();
    const choice = await event.userChoice;
    // The event can be used once: the browser fires a new one if installing becomes possible again.
    deferred = null;
    setState(choice.outcome === 'accepted' ? 'installed' : 'dismissed');
  }

  return { state, install };
}

export type Platform = 'ios' | 'android' | 'desktop';

/** The device's family from its user agent: which steps to show first. */
export function platformOf(userAgent: string, maxTouchPoints = 0): Platform {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios';
  // iPadOS reports itself as a Mac; only the touch screen tells.
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return 'desktop';
}
