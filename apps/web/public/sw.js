/*
 * Bourse service worker: the app starts offline. Pages are network-first (the shell from the cache
 * when offline); built assets and icons are cache-first (their names change with their content).
 * Every asset of the current build is fetched ahead (precache-manifest.json, written by the build), and
 * assets of older builds are dropped. `/api` and `/ws` are never cached: prices, balances and sessions
 * must always be live.
 */
const SHELL_CACHE = 'bourse-shell-v1';
const ASSET_CACHE = 'bourse-assets-v1';
const SHELL = ['/', '/index.html', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png'];
const MANIFEST = '/precache-manifest.json';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => syncPrecache())
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  const keep = new Set([SHELL_CACHE, ASSET_CACHE]);
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((name) => !keep.has(name)).map((name) => caches.delete(name))),
      )
      .then(() => self.clients.claim()),
  );
});

function isLive(url) {
  return (
    url.pathname === '/api' ||
    url.pathname.startsWith('/api/') ||
    url.pathname === '/ws' ||
    url.pathname.startsWith('/ws/')
  );
}

/** Cache what the current build lists and forget built assets it no longer lists. */
async function syncPrecache() {
  let files;
  try {
    const response = await fetch(MANIFEST, { cache: 'no-store' });
    if (!response.ok) return;
    const manifest = await response.json();
    files = Array.isArray(manifest.files) ? manifest.files.filter((file) => typeof file === 'string') : [];
  } catch (error) {
    console.warn('[sw] no precache manifest (offline, or a development server)', error);
    return;
  }
  const cache = await caches.open(ASSET_CACHE);
  const cached = new Set((await cache.keys()).map((request) => new URL(request.url).pathname));
  const wanted = new Set(files);
  await Promise.all(
    files
      .filter((file) => !cached.has(file))
      .map((file) => cache.add(file).catch((error) => console.warn('[sw] could not precache', file, error))),
  );
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/assets/') && !wanted.has(path)) await cache.delete(request);
  }
}

async function networkFirstPage(request) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put('/index.html', response.clone());
    return response;
  } catch (error) {
    const shell = await cache.match('/index.html');
    if (shell) return shell;
    throw error;
  }
}

async function cacheFirstAsset(request) {
  const cache = await caches.open(ASSET_CACHE);
  // Dev and preview servers send `Vary: Origin`; module imports carry an Origin, precache requests do not.
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isLive(url)) return;
  if (request.mode === 'navigate') {
    event.respondWith(networkFirstPage(request));
    // A new build may have been deployed: fetch its assets ahead while the customer reads.
    event.waitUntil(syncPrecache());
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    event.respondWith(cacheFirstAsset(request));
  }
});
