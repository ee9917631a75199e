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
})();
