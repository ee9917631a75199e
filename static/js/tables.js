/* Find my table: narrows the list as a name is typed (the form's GET search works without it).
   Each row's data-name is its name folded by the server (tournaments/search_names.py); what is
   typed is folded here with the same table, handed over in #name-folds. */
(function () {
  "use strict";
  function folder() {
    var node = document.getElementById("name-folds");
    var folds = node ? JSON.parse(node.textContent) : [];
    return function (text) {
      var folded = text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
      var before = null;
      while (before !== folded) {
        before = folded;
        for (var i = 0; i < folds.length; i++) {
          folded = folded.split(folds[i][0]).join(folds[i][1]);
        }
      }
      return folded.split(/\s+/).filter(Boolean);
    };
  }
  function start() {
    var input = document.querySelector("[data-find-table]");
    if (!input) { return; }
    var fold = folder();
    var rows = document.querySelectorAll(".find-table tbody tr");
    var none = document.querySelector("[data-find-none]");
    function filter() {
      var words = fold(input.value);
      var shown = 0;
      for (var i = 0; i < rows.length; i++) {
        var name = rows[i].getAttribute("data-name") || "";
        var match = words.every(function (word) { return name.indexOf(word) !== -1; });
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
