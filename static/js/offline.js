/* Rackscore: a table's games survive a dropped network.
 *
 * Vocabulary: a *kept game* is a game whose save could not reach the server;
 * it waits in this browser (localStorage, one list per match token, in the
 * order entered) with its game number and its own Idempotency-Key, made once
 * and sent with every try, so the server stores it exactly once. The *queue*
 * is sent in order through the API's games endpoint (with the match token)
 * when the network returns, on the browser's online event and every
 * `retryMs`. A kept game whose number was recorded meanwhile with other racks
 * is a *conflict*, shown beside the recorded game; one the server refuses is
 * *refused*, shown with its reason. Both wait until dismissed. A game sent
 * from here is marked as entered on this phone (the page's session), so its
 * second entry is not sent from here either.
 *
 * Online, the form posts to its page as without JavaScript (the page says
 * what was stored or refused). A game is kept when the phone knows it is
 * offline (the form is not posted), or when its post fails on the way: the
 * service worker (sw.js) then hands the posted fields to this page. A kept
 * game whose first post did reach the server finds its number recorded with
 * its own racks, and counts as stored. Every word comes from the page's
 * #offline-config block.
 */
(function () {
  "use strict";
  var source = document.getElementById("offline-config");
  if (!source || !window.fetch || !window.rackscoreOfflineView) { return; }
  var config = JSON.parse(source.textContent);
  var words = config.words;
  var area = document.getElementById("offline-queue");
  var section = document.querySelector("[data-offline-form]");
  var form = section && section.querySelector("form.game-form");
  var storeName = "rackscore-queue:" + config.token;
  var retryMs = window.rackscoreRetryMs || 15000;
  var sending = false;
  var notes = [];  // what happened since the page opened, shown until it is left
  var view = window.rackscoreOfflineView(config);
  var el = view.el, racksList = view.racksList, storedTable = view.storedTable;

  function storage() { try { return window.localStorage; } catch (e) { return null; } }

  function load() {
    var store = storage();
    try { return store ? JSON.parse(store.getItem(storeName) || "[]") : []; } catch (e) { return []; }
  }

  function save(queue) {
    var store = storage();
    if (store && queue.length) { store.setItem(storeName, JSON.stringify(queue)); } else if (store) { store.removeItem(storeName); }
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }

  function field(name) { return form.querySelector('[name="' + name + '"]'); }

  function typedNumber(text) {  // the server refuses junk
    var trimmed = text.trim();
    return trimmed === "" ? null : (/^\d+$/.test(trimmed) ? Number(trimmed) : trimmed);
  }

  // A game as the API takes it, from the form's fields (``value(name)`` reads
  // one); a blank row is an emptied rack.
  function gameOf(value) {
    var racks = config.seats.map(function (seat) {
      var prefix = "p" + seat.position + "_";
      var tiles = value(prefix + "tiles").trim();
      var points = typedNumber(value(prefix + "points"));
      var jokers = typedNumber(value(prefix + "jokers"));
      var rack = {player: seat.player};
      if (tiles || (points === null && jokers === null)) { rack.tiles = tiles; }
      if (points !== null) { rack.points = points; }
      if (jokers !== null) { rack.jokers = jokers; }
      return rack;
    });
    return {number: Number(value("number")), ending: value("ending") || "rummikub", racks: racks};
  }

  function gameOfForm() {
    return gameOf(function (name) {
      if (name === "ending") {
        var ending = form.querySelector('input[name="ending"]:checked');
        return ending ? ending.value : "";
      }
      var input = field(name);
      return input ? input.value : "";
    });
  }

  function formClear() {
    form.reset();
    // The picker and preview follow the inputs.
    form.dispatchEvent(new Event("input", {bubbles: true}));
    var button = form.querySelector("button[type=submit]");
    // After site.js disables it against a double tap (its timer runs first).
    if (button) { setTimeout(function () { button.disabled = false; }, 0); }
  }

  // Under double entry the page may offer a recorded game again, for its second entry.
  var secondEntry = form && config.taken.indexOf(Number(field("number").value)) >= 0 ?
    Number(field("number").value) : null;

  // The next game to offer: the first of the page's free numbers (config.free,
  // lowest first, as the server numbers games) not waiting here.
  function offerNext(queue) {
    if (!form) { return; }
    var busy = {};
    config.taken.forEach(function (n) { busy[n] = true; });
    queue.forEach(function (item) { if (item.state !== "conflict") { busy[item.number] = true; } });
    var current = Number(field("number").value);
    var queued = queue.some(function (item) { return item.number === current && item.state !== "conflict"; });
    // A recorded game the page offers on purpose (its second entry) stays offered.
    if (!queued && (!busy[current] || current === secondEntry)) { return; }
    var heading = section.querySelector("h2");
    var next = config.free.filter(function (n) { return !busy[n]; })[0];
    if (next !== undefined) {
      field("number").value = String(next);
      if (heading) { heading.textContent = fill(words.record, {number: next}); }
      form.hidden = false;
      return;
    }
    form.hidden = true;
    if (heading) { heading.textContent = words.all_entered; }
  }

  function draw() {
    if (!area) { return; }
    var queue = load();
    area.textContent = "";
    if (!queue.length && !notes.length) { area.hidden = true; return; }
    area.hidden = false;
    area.classList.toggle("kept", queue.length > 0);
    notes.forEach(function (note) { area.appendChild(el("p", note, "notice sent")); });
    if (!queue.length) { return; }
    var waiting = queue.some(function (item) { return item.state === "waiting"; });
    if (waiting) {
      area.appendChild(el("h2", words.title));
      area.appendChild(el("p", words.intro, "hint"));
    }
    queue.forEach(function (item, index) {
      var box = el("article", null, "queued " + item.state);
      box.dataset.number = item.number;
      if (item.state === "waiting") {
        box.appendChild(el("h3", fill(words.waiting, {number: item.number})));
        box.appendChild(el("p", config.endings[item.ending] || item.ending, "meta"));
        box.appendChild(racksList(item.racks));
      } else {
        var says = item.state === "conflict" ? words.conflict : words.refused;
        box.setAttribute("role", "alert");
        box.appendChild(el("h3", fill(says, {number: item.number})));
        box.appendChild(item.state === "conflict" ? storedTable(item.game) : el("p", item.message, "field-error"));
        box.appendChild(el("h4", words.yours));
        box.appendChild(racksList(item.racks));
        var dismiss = el("button", words.dismiss, "small secondary");
        dismiss.type = "button";
        dismiss.addEventListener("click", function () {
          var now = load();
          now.splice(index, 1);
          save(now);
          draw();
          offerNext(now);
        });
        box.appendChild(dismiss);
      }
      area.appendChild(box);
    });
    if (waiting) {
      var now = el("button", sending ? words.sending : words.send_now, "small");
      now.type = "button";
      now.disabled = sending;
      now.addEventListener("click", function () { flush(); });
      area.appendChild(now);
    }
  }

  function messageOf(body) {
    var found = [];
    (function walk(value) {
      if (typeof value === "string") { found.push(value); return; }
      if (Array.isArray(value)) { value.forEach(walk); return; }
      if (value && typeof value === "object") {
        Object.keys(value).forEach(function (name) { if (name !== "game") { walk(value[name]); } });
      }
    }(body));
    return found.join(" ");
  }

  // A tile list as the engine reads it, in any order: each colour letter's alias
  // resolved (config.aliases, the engine's: "s5" is K5), numbers without leading zeros.
  function tilesKey(text) {
    return String(text || "").toUpperCase().split(/[\s,]+/).filter(Boolean)
      .map(function (tile) {
        var letter = tile.charAt(0), number = tile.slice(1);
        return (config.aliases[letter] || letter) + (number ? String(parseInt(number, 10)) : "");
      })
      .sort().join(" ");
  }

  // A recorded game with the racks this phone kept: its own earlier try got
  // through (only its answer was lost), so it counts as stored, not as a conflict.
  function sameGame(item, game) {
    if (!game || game.ending !== item.ending || !game.scores || game.scores.length !== item.racks.length) {
      return false;
    }
    return item.racks.every(function (rack) {
      var line = game.scores.filter(function (s) { return s.player === rack.player; })[0];
      if (!line) { return false; }
      if (typeof rack.tiles === "string") { return line.tiles !== null && tilesKey(line.tiles) === tilesKey(rack.tiles); }
      return line.tiles === null && line.points === rack.points && line.jokers === (rack.jokers || 0);
    });
  }

  function send(item) {
    var headers = {
      "Content-Type": "application/json",
      "Accept": "application/json",
      "Idempotency-Key": item.key,
      "X-Match-Token": config.token
    };
    var csrf = form && field("csrfmiddlewaretoken");
    if (config.organiser && csrf) { headers["X-CSRFToken"] = csrf.value; }
    return fetch(config.api, {
      method: "POST",
      headers: headers,
      // An organiser records as themselves; anyone else holds only the match token.
      credentials: config.organiser ? "same-origin" : "omit",
      body: JSON.stringify({number: item.number, ending: item.ending, racks: item.racks})
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        return {status: response.status, body: body};
      });
    });
  }

  // The games and totals as the server now has them, without touching the form.
  function refreshGames() {
    return fetch(config.page, {credentials: "same-origin", cache: "no-store"}).then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      if (!html) { return; }
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("offline-config");
      if (fresh) { config.taken = JSON.parse(fresh.textContent).taken; }
      ["section[aria-labelledby=h-games]", "p.meta"].forEach(function (selector) {
        var mine = document.querySelector(selector);
        var theirs = doc.querySelector(selector);
        if (mine && theirs) { mine.innerHTML = theirs.innerHTML; }
      });
      offerNext(load());
    }).catch(function () { return null; });
  }

  function settle(item, answer) {
    if (answer.status === 200 || answer.status === 201) {
      notes.push(fill(words.sent, {number: item.number}));
      return null;
    }
    if (answer.status === 409 && answer.body.game && sameGame(item, answer.body.game)) {
      notes.push(fill(words.sent, {number: item.number}));
      return null;
    }
    if (answer.status === 409 && answer.body.game) {
      item.state = "conflict";
      item.game = answer.body.game;
    } else {
      item.state = "refused";
      item.message = messageOf(answer.body) || String(answer.status);
    }
    return item;
  }

  // Entered here and awaiting its second entry: that entry has to come from elsewhere.
  function ownSecondEntry(item) {
    return !config.organiser && config.mine.indexOf(item.number) >= 0 && config.awaiting.indexOf(item.number) >= 0;
  }

  // The API knows no phone: tell this page's session the game was entered here.
  function markMine(number, game) {
    if (config.organiser) { return; }
    config.mine.push(number);
    if (game && game.state === "entered" && config.awaiting.indexOf(number) < 0) { config.awaiting.push(number); }
    var csrf = form && field("csrfmiddlewaretoken");
    fetch(config.mark, {method: "POST", credentials: "same-origin", body: "number=" + number,
      headers: {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": csrf ? csrf.value : ""}
    }).catch(function () { return null; });
  }

  // Send the waiting games one by one, in the order entered; stop at the first
  // that cannot reach the server (the rest wait behind it).
  function flush() {
    if (sending) { return Promise.resolve(); }
    var first = load().filter(function (item) { return item.state === "waiting"; })[0];
    if (!first) { return Promise.resolve(); }
    sending = true;
    draw();
    var stored = false;
    function next() {
      var queue = load();
      var index = -1;
      for (var i = 0; i < queue.length; i += 1) {
        if (queue[i].state === "waiting") { index = i; break; }
      }
      if (index < 0) { return Promise.resolve(); }
      var item = queue[index];
      if (ownSecondEntry(item)) {
        item.state = "refused";
        item.message = fill(words.own, {number: item.number});
        save(queue);
        return next();
      }
      return send(item).then(function (answer) {
        if (answer.status === 200 || answer.status === 201) { markMine(item.number, answer.body); }
        var left = settle(item, answer);
        var now = load();
        var at = now.map(function (kept) { return kept.key; }).indexOf(item.key);
        if (at >= 0) {
          if (left) { now[at] = left; } else { now.splice(at, 1); }
        }
        save(now);
        stored = true;
        return next();
      });
    }
    return next().catch(function () { return null; }).then(function () {
      sending = false;
      draw();
      return stored ? refreshGames() : null;
    });
  }

  function keep(game, fromForm) {
    var queue = load();
    game.key = newKey();  // made once: every try of this game sends it
    game.state = "waiting";
    queue.push(game);
    save(queue);
    if (fromForm) { formClear(); }
    offerNext(queue);
    draw();
    if (area) { area.scrollIntoView({block: "nearest"}); }
  }

  // Games the service worker kept when their post could not reach the server.
  function adoptPosted() {
    if (!window.caches) { return Promise.resolve(); }
    var path = "/m/" + config.token + "/";
    return caches.open("rackscore-posts").then(function (cache) {
      return cache.keys().then(function (requests) {
        var ours = requests.filter(function (request) {
          return new URL(request.url).pathname.slice(-path.length) === path;
        }).sort(function (a, b) { return a.url < b.url ? -1 : 1; });  // in the order posted
        return ours.reduce(function (done, request) {
          return done.then(function () {
            return cache.match(request).then(function (response) { return response.json(); })
              .then(function (fields) {
                keep(gameOf(function (name) { return fields[name] || ""; }), false);
                return cache.delete(request);
              });
          });
        }, Promise.resolve());
      });
    }).catch(function () { return null; });
  }

  if (form && storage()) {
    // Online the form posts as without JavaScript (the page says what was stored
    // or refused); a phone that knows it is offline keeps the game at once.
    // Behind games still waiting, a new one waits too, so that they are stored in order.
    form.addEventListener("submit", function (event) {
      var behind = load().some(function (item) { return item.state === "waiting"; });
      if (event.defaultPrevented || (navigator.onLine !== false && !behind)) { return; }
      event.preventDefault();
      keep(gameOfForm(), true);
      flush();
    });
  }

  // Games recorded elsewhere (the other phone of a double entry, the desk): the
  // page's state (its match's version) is asked for every `liveMs` with the
  // ETag it last answered; a 304 (nothing changed) does nothing, a new version
  // fetches the games again, a replaced link reloads the page to say so. The
  // browser's cache stays out of it, so the 304 reaches this script. One ask at
  // a time, as the projector's (a slow answer would otherwise send the next
  // without the tag, and take a full answer for a change).
  var stateTag = null;
  var watching = false;
  function watch() {
    if (watching || sending || document.visibilityState === "hidden") { return; }
    watching = true;
    var headers = {Accept: "application/json"};
    if (stateTag) { headers["If-None-Match"] = stateTag; }
    fetch(config.page + "state/", {credentials: "same-origin", cache: "no-store", headers: headers})
      .then(function (response) {
        if (response.status === 410) { window.location.reload(); return; }
        if (response.status !== 200) { return; }
        var first = stateTag === null;
        stateTag = response.headers.get("ETag");
        if (!first) { refreshGames(); }
      })
      .catch(function () { return null; })
      .then(function () { watching = false; });
  }
  watch();
  setInterval(watch, window.rackscoreLiveMs || 10000);

  window.addEventListener("online", function () { flush(); });
  setInterval(function () { if (navigator.onLine !== false) { flush(); } }, retryMs);
  offerNext(load());
  draw();
  adoptPosted().then(flush);

  if ("serviceWorker" in navigator && config.worker) {
    navigator.serviceWorker.register(config.worker, {scope: "/"}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function () {
      // Keep this page for reopening offline: fetched again once the worker controls it.
      var warm = function () { fetch(window.location.href, {credentials: "same-origin"}).catch(function () { return null; }); };
      if (navigator.serviceWorker.controller) { warm(); } else {
        navigator.serviceWorker.addEventListener("controllerchange", warm, {once: true});
      }
    }).catch(function () { return null; });
  }
}());
