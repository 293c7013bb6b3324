// The playground's service worker: after one visit the page works with the network off (a
// classroom on a flaky link). It holds exactly one build — the files listed in FILES — in a
// cache named after the build's hash, and answers every request for those files from it.
//
// Updates: a new deployment changes this file (FILES and BUILD), so the browser installs the
// new worker next to the old one, and it caches the new build under its own name. It takes
// over when no page of the old build is open any more, or at once when a page asks it to (the
// page's "new version" button); then it deletes the old build's cache. Until then every page
// keeps being served one build, never a mix of old and new files (main.js and worker.js have
// no content hash in their names).

// Written by www/tools/stamp-offline.mjs at build time: the build's hash and its files,
// relative to this file. Left as they are, nothing is cached.
const BUILD = 'unstamped';
const FILES = [];

// The scope is part of the name: two copies of the site under different paths of one origin
// keep their own caches, and neither deletes the other's.
const SCOPE = self.registration.scope;
const PREFIX = `warpbound ${SCOPE} `;
const CACHE = PREFIX + BUILD;
const OWN = new Set(FILES.map((f) => new URL(f, self.location).href));
const INDEX = new URL('index.html', self.location).href;

/** Fetches every file of the build into its cache; fails (and installs nothing) on any miss. */
async function precache() {
  const cache = await caches.open(CACHE);
  const store = async (url) => {
    // `no-cache`: revalidated with the host (a 304 when unchanged), never a stale copy from
    // the HTTP cache, which could hold the previous build's main.js next to this index.html.
    const response = await fetch(url, { cache: 'no-cache' });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    // A host that redirects index.html to its directory gives a redirected response, which
    // the browser refuses as the answer to a navigation: store a plain copy.
    await cache.put(url, response.redirected ? new Response(await response.blob(), response) : response);
  };
  await Promise.all([...OWN].map(store));
}

self.addEventListener('install', (event) => event.waitUntil(precache()));

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      // The page that installed this worker is served from its cache from now on (it was
      // loaded from the network, from this same build), so it keeps working offline too.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'take-over') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.search = '';
  url.hash = '';
  // The page itself is asked for by its directory (`…/`) or by `…/index.html`.
  const key = request.mode === 'navigate' && url.href === SCOPE ? INDEX : url.href;
  if (!OWN.has(key)) return; // not one of the build's files: the network, as without a worker
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(key))
      .then((hit) => hit || fetch(request)),
  );
});
