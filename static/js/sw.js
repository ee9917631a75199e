/* Rackscore's service worker: reopens a table's pages without a network.
 *
 * Loaded by /sw.js, which sets self.RACKSCORE_SW = {version, precache, static}.
 * Pages a phone must reopen offline (a match page, its timer, its manifest, the
 * timer) are fetched from the network first and kept; without a network the
 * kept copy answers. Files under the static prefix are answered from the cache
 * first and refreshed behind it for the next visit. Every other
 * request, and every write, goes to the network untouched: games are kept and
 * sent by the page itself (offline.js), never replayed here: a game form
 * whose post cannot reach the server is only handed over to that page.
 */
/* global self, caches, fetch, Request, Response, URL */
(function () {
  "use strict";
  var config = self.RACKSCORE_SW || {version: "0", precache: [], static: "/static/"};
  var PREFIX = "rackscore-";
  var CACHE = PREFIX + config.version;
  var POSTS = "rackscore-posts";  // kept across versions: games waiting for their page
  var MATCH_PAGE = /^\/(?:[a-z]{2}(?:-[a-z]+)?\/)?m\/[^\/]+\/$/;
  // /m/<token>/, /m/<token>/timer/, /m/<token>/manifest.webmanifest, /timer/, in any language.
  var SHELL = /^\/(?:[a-z]{2}(?:-[a-z]+)?\/)?(?:m\/[^\/]+\/(?:timer\/|manifest\.webmanifest)?|timer\/)$/;

  self.addEventListener("install", function (event) {
    event.waitUntil(caches.open(CACHE).then(function (cache) {
      // One missing file must not stop the others from being kept.
      return Promise.all(config.precache.map(function (url) {
        return cache.add(url).catch(function () { return null; });
      }));
    }).then(function () { return self.skipWaiting(); }));
  });

  self.addEventListener("activate", function (event) {
    event.waitUntil(caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf(PREFIX) === 0 && name !== CACHE && name !== POSTS;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); }));
  });

  function kept(request) {
    // A page varies by cookie and language; offline, the copy this phone saw is the one.
    // Only this version's copies: the kept posts share the page's address.
    return caches.open(CACHE).then(function (cache) {
      return cache.match(request, {ignoreSearch: true, ignoreVary: true});
    });
  }

  function networkFirst(request) {
    return fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    }).catch(function (error) {
      return kept(request).then(function (hit) {
        if (hit) { return hit; }
        throw error;
      });
    });
  }

  // Answer the kept copy at once and fetch a fresh one behind it for next time
  // (stale while revalidating). In production a served name holds its content's
  // hash (config.precache and the pages name files so), so the kept copy is
  // already right and the fetch is answered by the browser's own cache.
  function keptThenRefreshed(event) {
    var request = event.request;
    var fresh = fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        event.waitUntil(caches.open(CACHE).then(function (cache) {
          return cache.put(request, copy);
        }));
      }
      return response;
    });
    event.waitUntil(fresh.catch(function () { return null; }));
    return kept(request).then(function (hit) { return hit || fresh; });
  }

  // A game form posted to a match page that cannot reach the server: its fields
  // are kept in POSTS for the page to take into its queue (offline.js), and the
  // phone is sent to the page, which the worker answers from its copy.
  function postOrKeep(event) {
    var copy = event.request.clone();
    return fetch(event.request).catch(function (error) {
      return copy.formData().then(function (data) {
        var fields = {};
        data.forEach(function (value, name) { fields[name] = String(value); });
        var url = new URL(copy.url);
        url.search = "?posted=" + Date.now();
        return caches.open(POSTS).then(function (cache) {
          return cache.put(new Request(url.href), new Response(JSON.stringify(fields), {
            headers: {"Content-Type": "application/json"}
          }));
        });
      }).then(function () {
        return Response.redirect(copy.url, 303);
      }, function () { throw error; });
    });
  }

  self.addEventListener("fetch", function (event) {
    var request = event.request;
    var url = new URL(request.url);
    if (url.origin !== self.location.origin) { return; }
    if (request.method === "POST" && request.mode === "navigate" && MATCH_PAGE.test(url.pathname)) {
      event.respondWith(postOrKeep(event));
      return;
    }
    if (request.method !== "GET") { return; }
    if (SHELL.test(url.pathname)) {
      event.respondWith(networkFirst(request));
    } else if (config.static && url.pathname.indexOf(config.static) === 0) {
      event.respondWith(keptThenRefreshed(event));
    }
  });
}());
