/* Rackscore, the organiser desk: find players to enter as the organiser types.
   Without this file the search box is a plain GET form and the desk lists what
   it finds; with it, the players API answers as the organiser types and the
   same list fills in, each player with its own Enter button (a POST form). */
(function () {
  "use strict";
  var form = document.getElementById("player-search");
  var list = document.getElementById("player-results");
  var input = form && form.querySelector("input[name=q]");
  var token = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (!input || !list || !token || !window.fetch) { return; }
  var entered = {};
  JSON.parse(document.getElementById("entered-ids").textContent).forEach(function (id) {
    entered[id] = true;
  });
  var shown = 30;
  var asked = input.value.trim();
  var timer = null;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }

  function hidden(parent, name, value) {
    var field = element("input");
    field.type = "hidden";
    field.name = name;
    field.value = value;
    parent.appendChild(field);
  }

  function row(player) {
    var item = element("li");
    var enter = element("form", "inline");
    enter.method = "post";
    enter.action = form.dataset.enter;
    hidden(enter, "csrfmiddlewaretoken", token.value);
    hidden(enter, "players", player.id);
    var button = element("button", "small", form.dataset.labelEnter);
    button.type = "submit";
    button.appendChild(element("span", "visually-hidden", " " + player.name));
    enter.appendChild(button);
    item.appendChild(enter);
    item.appendChild(document.createTextNode(" " + player.name));
    if (player.club_name) { item.appendChild(element("span", "muted", " · " + player.club_name)); }
    return item;
  }

  function clear() {
    while (list.firstChild) { list.removeChild(list.firstChild); }
  }

  function show(players) {
    clear();
    players.slice(0, shown).forEach(function (player) { list.appendChild(row(player)); });
    if (!players.length) { list.appendChild(element("li", "empty", form.dataset.labelNone)); }
  }

  function search() {
    var query = input.value.trim();
    if (query === asked) { return; }
    asked = query;
    if (query.length < 2) { clear(); return; }
    var url = form.dataset.api + "?page_size=100&search=" + encodeURIComponent(query);
    fetch(url, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (page) {
        // An answer to an older query, arriving late, is not shown.
        if (!page || query !== asked) { return; }
        show(page.results.filter(function (player) { return !entered[player.id]; }));
      })
      .catch(function () { /* offline for a moment: the Search button still works */ });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, 200);
  });
})();
