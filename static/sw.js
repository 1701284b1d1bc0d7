// Caserne's service worker, served as /sw.js (scope /): the pages a player opened once open
// again without the network (read-only: writes go to the network or fail, and the page says
// « hors ligne »). Pages: network first, the last copy kept as a fallback. Static assets
// carry their hash in the URL (?v=): cache first.
const PAGES = "caserne-pages-v1";
const ASSETS = "caserne-assets-v1";
const KEPT = [PAGES, ASSETS];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(PAGES).then((cache) => cache.addAll(["/", "/listes"])).catch(() => {}));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => !KEPT.includes(n)).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

function cacheable(request, url) {
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  // The API, the edit link (it carries a token) and the exports are not kept.
  return !url.pathname.startsWith("/api/") && !/\/modifier\/?$/.test(url.pathname);
}

async function networkFirst(request) {
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    if (response.ok && !request.headers.get("HX-Request")) cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(ASSETS);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (!cacheable(event.request, url)) return;
  if (url.pathname.startsWith("/static/") && url.searchParams.has("v")) {
    event.respondWith(cacheFirst(event.request));
  } else {
    event.respondWith(networkFirst(event.request));
  }
});
