/* The turn timer: counts each turn down from the page's data-seconds, warns
   data-warning seconds before the end (colour, a short beep, a vibration where
   the phone allows) and at 0 shows the reminder the page holds. One tap on the
   big button ends the turn and starts the next seat's; a seat's own button
   starts that seat's turn. Every word shown comes from the page (#timer-texts);
   nothing is fetched, so the timer keeps going without a network. Time is read
   from Date.now(), so a phone that sleeps a moment still counts right. */
(function () {
  "use strict";

  var body = document.body;
  if (!body || !body.hasAttribute("data-timer")) { return; }
  var texts = JSON.parse(document.getElementById("timer-texts").textContent);
  var seconds = parseInt(body.getAttribute("data-seconds"), 10) || 60;
  var warning = parseInt(body.getAttribute("data-warning"), 10) || 10;
  var tap = body.querySelector("[data-timer-tap]");
  var nameEl = body.querySelector("[data-timer-name]");
  var timeEl = body.querySelector("[data-timer-time]");
  var hintEl = body.querySelector("[data-timer-hint]");
  var pauseBtn = body.querySelector("[data-timer-pause]");
  var seatBtns = Array.prototype.slice.call(body.querySelectorAll("[data-timer-seat]"));
  var seats = seatBtns.map(function (b) {
    return { name: b.textContent, colour: b.className };
  });

  var index = 0;
  var started = false;
  var paused = false;
  var end = 0;          /* when the running turn ends (Date.now() scale) */
  var left = seconds * 1000;  /* what is left while paused */
  var warned = false;
  var over = false;
  var ticker = null;
  var audio = null;

  function beep(ms, freq) {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) { return; }
      audio = audio || new Ctx();
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.value = 0.2;
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + ms / 1000);
    } catch (e) { /* no sound: the colour still warns */ }
  }

  function buzz(pattern) {
    if (navigator.vibrate) {
      try { navigator.vibrate(pattern); } catch (e) { /* not allowed here */ }
    }
  }

  function stateSet(name) {
    body.classList.toggle("is-warning", name === "warning");
    body.classList.toggle("is-up", name === "up");
    body.setAttribute("data-state", name);
  }

  function remaining() {
    return paused || !started ? left : Math.max(0, end - Date.now());
  }

  function render() {
    var ms = remaining();
    var secs = Math.ceil(ms / 1000);
    timeEl.textContent = String(secs);
    if (!started) { return; }
    if (secs === 0 && !over) {
      over = true;
      stateSet("up");
      hintEl.textContent = texts.next;
      beep(600, 440);
      buzz([300, 100, 300]);
    } else if (secs <= warning && secs > 0 && !warned) {
      warned = true;
      stateSet("warning");
      beep(150, 880);
      buzz(200);
    }
  }

  function seatShow() {
    var seat = seats[index];
    nameEl.textContent = seat.name;
    tap.className = "t-tap " + seat.colour;
    tap.setAttribute("aria-label", texts.turn.replace("%(name)s", seat.name) + " · " + texts.next);
    seatBtns.forEach(function (b, i) {
      b.setAttribute("aria-current", i === index ? "true" : "false");
    });
  }

  function turnStart(i) {
    index = i % seats.length;
    started = true;
    paused = false;
    warned = false;
    over = false;
    left = seconds * 1000;
    end = Date.now() + left;
    stateSet("running");
    body.classList.remove("is-paused");
    seatShow();
    hintEl.textContent = texts.next;
    pauseBtn.hidden = false;
    pauseBtn.textContent = texts.pause;
    if (!ticker) { ticker = setInterval(render, 200); }
    render();
  }

  function pauseToggle() {
    if (!started) { return; }
    if (paused) {
      paused = false;
      end = Date.now() + left;
      body.classList.remove("is-paused");
      pauseBtn.textContent = texts.pause;
      hintEl.textContent = texts.next;
    } else {
      left = remaining();
      paused = true;
      body.classList.add("is-paused");
      pauseBtn.textContent = texts.resume;
      hintEl.textContent = texts.paused;
    }
    render();
  }

  function fullScreen() {
    var el = document.documentElement;
    if (!document.fullscreenElement && el.requestFullscreen) {
      el.requestFullscreen().catch(function () { /* the browser said no: stay in the page */ });
    }
    if (navigator.wakeLock && navigator.wakeLock.request) {
      navigator.wakeLock.request("screen").catch(function () { /* the screen may dim */ });
    }
  }

  tap.addEventListener("click", function () {
    if (!started) {
      fullScreen();
      turnStart(index);
    } else if (paused) {
      pauseToggle();
    } else {
      turnStart(index + 1);
    }
  });
  seatBtns.forEach(function (b, i) {
    b.addEventListener("click", function () { turnStart(i); });
  });
  pauseBtn.addEventListener("click", pauseToggle);
  document.addEventListener("keydown", function (event) {
    /* P pauses from anywhere; Space and Enter already press the focused big button. */
    if ((event.key === "p" || event.key === "P") && !event.ctrlKey && !event.metaKey) {
      pauseToggle();
    }
  });

  seatShow();
  stateSet("idle");
  render();
})();
