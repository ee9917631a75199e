/* Rackscore: the little JavaScript there is. Pages work without it. */
(function () {
  "use strict";
  // The language picker switches on change; its Go button is for no-JS browsers.
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    var button = select.form && select.form.querySelector("button");
    if (button) { button.hidden = true; }
    select.addEventListener("change", function () { select.form.submit(); });
  });
  // A form must not be sent twice by an impatient double tap at the table.
  document.querySelectorAll("form.game-form[method=post]").forEach(function (form) {
    form.addEventListener("submit", function () {
      var button = form.querySelector("button[type=submit]");
      if (button) { setTimeout(function () { button.disabled = true; }, 0); }
    });
  });
  // Coming back through the history must give a usable form again.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form.game-form button[disabled]").forEach(function (b) {
      b.disabled = false;
    });
  });
  // The calculator shows as many rack rows as there are players.
  var playerCount = document.querySelector("select[name=players]");
  if (playerCount) {
    var showRows = function () {
      document.querySelectorAll("fieldset.rack[data-row]").forEach(function (row) {
        row.hidden = Number(row.dataset.row) > Number(playerCount.value);
      });
    };
    playerCount.addEventListener("change", showRows);
    showRows();
  }
  // Live regions: while the page is in view, fetch it again every 30 seconds
  // and swap in the new content of each [data-live] region, so a standings
  // screen at the venue follows the results without a full reload.
  var live = document.querySelectorAll("[data-live]");
  if (live.length && window.fetch && window.DOMParser) {
    setInterval(function () {
      if (document.visibilityState !== "visible") { return; }
      fetch(window.location.href, {headers: {"X-Requested-With": "live"}, credentials: "same-origin"})
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) { return; }
          var fresh = new DOMParser().parseFromString(html, "text/html");
          live.forEach(function (region) {
            var next = fresh.querySelector('[data-live="' + region.dataset.live + '"]');
            if (next && next.innerHTML !== region.innerHTML) { region.innerHTML = next.innerHTML; }
          });
        })
        .catch(function () { /* offline for a moment: try again next time */ });
    }, window.rackscoreLiveMs || 30000);
  }
})();
