/* Find my table: narrows the list as a name is typed (the form's GET search works without it). */
(function () {
  "use strict";
  function start() {
    var input = document.querySelector("[data-find-table]");
    if (!input) { return; }
    var rows = document.querySelectorAll(".find-table tbody tr");
    var none = document.querySelector("[data-find-none]");
    function filter() {
      var wanted = input.value.trim().toLowerCase();
      var shown = 0;
      for (var i = 0; i < rows.length; i++) {
        var match = !wanted || (rows[i].getAttribute("data-name") || "").indexOf(wanted) !== -1;
        rows[i].hidden = !match;
        if (match) { shown++; }
      }
      if (none) { none.hidden = shown > 0 || rows.length === 0; }
    }
    input.addEventListener("input", filter);
    // A name typed before the script ran still narrows the list.
    if (input.value) { filter(); }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
