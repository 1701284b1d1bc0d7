// Caserne's service worker, served as /sw.js (scope /): the public pages a player opened once
// (a share, its play sheet and mode partie, the catalogues) open again without the network.
// Pages: network first, the last copy kept as a fallback. Static assets carry their hash in
// the URL (?v=): cache first.
//
// What is never kept (issue 25, item 4): a response marked `Cache-Control: no-store` (« Mes
// listes », the editors, the carnet and join pages: everything that belongs to a carnet), and
// any URL carrying a secret in its query (an edit link's t=, a join code...). A response
// saying `Clear-Site-Data` (the carnet cookie revoked or forgotten) empties the pages kept,
// and so does a « purge » message from a page. A page asked for offline that was not kept gets
// Caserne's own « Hors ligne » page (docs/offline.md).
const PAGES = "caserne-pages-v2"; // v1 kept private pages: dropped on activation
const ASSETS = "caserne-assets-v1";
const KEPT = [PAGES, ASSETS];
const OFFLINE = "/hors-ligne";
// Query parameters that carry a secret (app/security/tokens.py's and the join code).
const SECRETS = ["t", "token", "edit_token", "access_token", "code", "key", "cle", "share"];
// A carnet's pages, whatever their headers say: never kept.
const PRIVATE = /^\/(r|listes|carnet|c|livres)(\/|$)|^\/[^/]+\/(catalogue|createur)(\/|$)/;
// At most this many pages are kept (the oldest go first).
const MAX_PAGES = 60;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(PAGES).then((cache) => cache.addAll(["/", OFFLINE])).catch(() => {}));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => !KEPT.includes(n)).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "purge") event.waitUntil(caches.delete(PAGES));
});

function carriesSecret(url) {
  for (const name of url.searchParams.keys()) {
    if (SECRETS.includes(name.toLowerCase())) return true;
  }
  return false;
}

function cacheable(request, url) {
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  // The API and the edit link (it carries a token) are not kept.
  return !url.pathname.startsWith("/api/") && !/\/modifier\/?$/.test(url.pathname);
}

function keepable(request, url, response) {
  if (!response.ok || request.headers.get("HX-Request") || carriesSecret(url)) return false;
  if (PRIVATE.test(url.pathname)) return false;
  const control = (response.headers.get("Cache-Control") || "").toLowerCase();
  return !control.includes("no-store") && !control.includes("private");
}

async function keep(cache, request, response) {
  await cache.put(request, response);
  const kept = await cache.keys();
  for (const old of kept.slice(0, Math.max(0, kept.length - MAX_PAGES))) {
    const path = new URL(old.url).pathname;
    if (path !== "/" && path !== OFFLINE) await cache.delete(old);
  }
}

async function networkFirst(request, url) {
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const cache = await caches.open(PAGES);
    if (!carriesSecret(url)) {
      const kept = await cache.match(request, { ignoreVary: true });
      if (kept) return kept;
    }
    if (request.mode === "navigate") {
      const offline = await cache.match(OFFLINE);
      if (offline) return offline;
    }
    throw error;
  }
  if (response.headers.has("Clear-Site-Data")) {
    await caches.delete(PAGES);
    const cache = await caches.open(PAGES);
    await cache.addAll([OFFLINE]).catch(() => {});
  } else if (keepable(request, url, response)) {
    const cache = await caches.open(PAGES);
    await keep(cache, request, response.clone()).catch(() => {});
  } else if (request.mode === "navigate") {
    // A page that is no longer to be kept (now private, or gone) leaves no old copy behind.
    const cache = await caches.open(PAGES);
    await cache.delete(request, { ignoreVary: true });
  }
  return response;
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
    event.respondWith(networkFirst(event.request, url));
  }
});
