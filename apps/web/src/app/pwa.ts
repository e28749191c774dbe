/**
 * Registers the service worker (public/sw.js) that lets the installed app start offline. Only in
 * production builds: in development it would serve stale modules.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
      console.error('[pwa] service worker registration failed', error);
    });
  });
}
