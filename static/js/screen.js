/* The round clock counting down, and the projector screen cycling its slides.
   Every word shown comes from the page; the clock's time comes from the server
   as seconds remaining (so the screen's own clock may be wrong), with each
   change of the state: between them the screen counts it down itself. */
(function () {
  "use strict";

  var STATES = ["clock-idle", "clock-running", "clock-paused", "clock-up"];

  function mmss(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  function stateSet(el, state) {
    STATES.forEach(function (name) { el.classList.remove(name); });
    el.classList.add("clock-" + state);
  }

  /* Start (or restart) one clock from its data attributes. */
  function clockRun(el) {
    if (el._timer) { clearInterval(el._timer); el._timer = null; }
    var remaining = parseInt(el.getAttribute("data-remaining") || "0", 10);
    var time = el.querySelector("[data-clock-time]");
    if (!el.getAttribute("data-running") || !time) { return; }
    var end = Date.now() + remaining * 1000;
    function tick() {
      var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      time.textContent = mmss(left);
      if (left === 0) {
        stateSet(el, "up");
        clearInterval(el._timer);
        el._timer = null;
      }
    }
    tick();
    el._timer = setInterval(tick, 250);
  }

  /* The clock as /screen/state/ gives it: null (not shown) or {state, remaining, text}. */
  function clockApply(el, clock) {
    if (!clock) { el.hidden = true; clockRun(el); return; }
    el.hidden = false;
    el.setAttribute("data-remaining", String(clock.remaining));
    el.setAttribute("data-running", clock.state === "running" ? "1" : "");
    stateSet(el, clock.state);
    var time = el.querySelector("[data-clock-time]");
    if (time) { time.textContent = clock.text; }
    clockRun(el);
  }

  function screenRun(body) {
    var current = 0;
    var version = body.getAttribute("data-version");
    var slideMs = parseInt(body.getAttribute("data-slide-seconds") || "12", 10) * 1000;
    var pollMs = parseInt(body.getAttribute("data-poll-seconds") || "5", 10) * 1000;
    var stateUrl = body.getAttribute("data-state-url");
    var busy = false;

    function slides() { return document.querySelectorAll("#slides > .slide"); }

    function show(index) {
      var all = slides();
      if (!all.length) { return; }
      current = ((index % all.length) + all.length) % all.length;
      for (var i = 0; i < all.length; i++) { all[i].hidden = i !== current; }
      var number = document.querySelector("[data-slide-number]");
      if (number) { number.textContent = String(current + 1); }
    }

    // Where the server-rendered page started (?slide=).
    var all = slides();
    for (var i = 0; i < all.length; i++) { if (!all[i].hidden) { current = i; } }
    setInterval(function () { show(current + 1); }, slideMs);

    /* The page again, its slides, head and foot swapped in; the slide shown stays. */
    function reload() {
      return fetch(window.location.pathname, { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
        .then(function (html) {
          var page = new DOMParser().parseFromString(html, "text/html");
          ["#slides", ".screen-head", ".screen-foot"].forEach(function (sel) {
            var fresh = page.querySelector(sel), old = document.querySelector(sel);
            if (fresh && old) { old.innerHTML = fresh.innerHTML; }
          });
          var freshBody = page.querySelector("body");
          if (freshBody) { version = freshBody.getAttribute("data-version"); }
          body.setAttribute("data-version", version);
          document.title = page.title || document.title;
          document.querySelectorAll("[data-clock]").forEach(clockRun);
          show(current);
        });
    }

    /* The state's ETag last answered: sent back, it gets a 304 (no body) while
       nothing changed, and the screen does nothing. The browser's own cache
       stays out of it ("no-store"): it would turn the 304 into its kept copy,
       whose clock is as old as that copy. */
    var stateTag = null;

    function poll() {
      if (busy) { return; }
      busy = true;
      var headers = { Accept: "application/json" };
      if (stateTag) { headers["If-None-Match"] = stateTag; }
      fetch(stateUrl, { credentials: "same-origin", cache: "no-store", headers: headers })
        .then(function (r) {
          if (r.status === 304) { return null; }
          if (!r.ok) { throw new Error(r.status); }
          stateTag = r.headers.get("ETag");
          return r.json();
        })
        .then(function (state) {
          if (!state) { return; }
          if (String(state.version) !== String(version)) { return reload(); }
          var clock = document.querySelector(".screen-head [data-clock]");
          if (clock) { clockApply(clock, state.clock); }
        })
        .catch(function () { /* the hall's network dropped: try again at the next poll */ })
        .then(function () { busy = false; });
    }
    setInterval(poll, pollMs);
  }

  function start() {
    document.querySelectorAll("[data-clock]").forEach(clockRun);
    var body = document.body;
    if (body && body.hasAttribute("data-screen")) { screenRun(body); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
