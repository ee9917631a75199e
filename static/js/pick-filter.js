/* Rackscore: a filter box over a list of checkboxes (the desk's "Enter several
   players at once"). Without this file the box stays hidden and every player is
   listed; with it, each word typed must appear in a row's name or club, in any
   case and whatever the accents. Ticked rows stay shown. */
(function () {
  "use strict";
  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-pick-filter]"), function (input) {
    var list = document.querySelector(input.getAttribute("data-pick-filter"));
    if (!list) { return; }
    var rows = Array.prototype.map.call(list.querySelectorAll("li"), function (li) {
      return { li: li, text: fold(li.textContent), box: li.querySelector("input") };
    });
    input.closest("[hidden]").hidden = false;
    input.addEventListener("input", function () {
      var words = fold(input.value).split(/\s+/).filter(Boolean);
      rows.forEach(function (row) {
        var match = words.every(function (w) { return row.text.indexOf(w) !== -1; });
        row.li.hidden = !(match || (row.box && row.box.checked));
      });
    });
  });
})();
