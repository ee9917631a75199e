/* An evening's check-in: the search narrows the list as one types (the page's
   GET search does the same without JavaScript); names are folded with the
   server's table (search_names.FOLDS, in #name-folds), so "bjorn" finds "Bjørn".
   Hidden players keep their ticks: the whole list is sent. */
(function () {
  "use strict";
  var input = document.querySelector("[data-checkin-search]");
  var list = document.querySelector("[data-checkin-list]");
  if (!input || !list) { return; }
  var foldsNode = document.getElementById("name-folds");
  var folds = foldsNode ? JSON.parse(foldsNode.textContent) : [];
  var none = document.querySelector("[data-checkin-none]");
  var count = document.querySelector("[data-here-count]");
  function fold(text) {
    var out = text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    folds.forEach(function (pair) { out = out.split(pair[0]).join(pair[1]); });
    return out.split(/\s+/).filter(Boolean).join(" ");
  }
  var rows = Array.prototype.slice.call(list.querySelectorAll("li[data-name]"));
  rows.forEach(function (row) { row.dataset.fold = fold(row.dataset.name); });
  function narrow() {
    var words = fold(input.value).split(" ").filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var hit = words.every(function (w) { return row.dataset.fold.indexOf(w) !== -1; });
      row.hidden = !hit;
      if (hit) { shown += 1; }
    });
    if (none) { none.hidden = shown > 0 || rows.length === 0; }
  }
  input.addEventListener("input", narrow);
  // The search box filters here: Enter does not leave the page.
  input.form.addEventListener("submit", function (event) { event.preventDefault(); narrow(); });
  if (count) {
    var template = count.textContent;
    list.addEventListener("change", function () {
      var n = list.querySelectorAll("input[name=here]:checked").length;
      count.textContent = template.replace(/\d+/, String(n));
    });
  }
})();
