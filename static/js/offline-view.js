/* Rackscore: how the offline queue (offline.js) draws a game: its racks as
 * kept, and a recorded game as the server answered it (GameSerializer). Every
 * word comes from the page's #offline-config block, passed in as `config`.
 */
(function () {
  "use strict";
  window.rackscoreOfflineView = function (config) {
    var words = config.words;

    function fill(text, values) {
      return text.replace(/\{(\w+)\}/g, function (all, name) {
        return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
      });
    }

    function el(tag, text, className) {
      var node = document.createElement(tag);
      if (text !== undefined && text !== null) { node.textContent = text; }
      if (className) { node.className = className; }
      return node;
    }

    function seatName(player) {
      for (var i = 0; i < config.seats.length; i += 1) {
        if (config.seats[i].player === player) { return config.seats[i].name; }
      }
      return String(player);
    }

    function rackText(rack) {
      if (typeof rack.tiles === "string") { return rack.tiles.toUpperCase() || words.emptied; }
      return fill(words.points, {points: rack.points === undefined ? 0 : rack.points,
                                 jokers: rack.jokers === undefined || rack.jokers === null ? 0 : rack.jokers});
    }

    function racksList(racks) {
      var list = el("ul", null, "queued-racks");
      racks.forEach(function (rack) {
        var line = el("li");
        line.appendChild(el("strong", seatName(rack.player) + ": "));
        line.appendChild(document.createTextNode(rackText(rack)));
        list.appendChild(line);
      });
      return list;
    }

    function storedTable(game) {
      if (!game.scores || !game.scores.length) { return el("p", words.withheld); }
      var table = el("table", null, "data compact");
      var head = table.createTHead().insertRow();
      [words.player, words.rack, words.score].forEach(function (text, i) {
        var th = el("th", text, i === 2 ? "num" : "");
        th.scope = "col";
        head.appendChild(th);
      });
      var body = table.createTBody();
      game.scores.forEach(function (line) {
        var row = body.insertRow();
        if (line.winner) { row.className = "win"; }
        var th = el("th", seatName(line.player));
        th.scope = "row";
        row.appendChild(th);
        row.appendChild(el("td", line.tiles === null ? rackText(line) : (line.tiles || words.emptied)));
        var score = Number(line.score);
        row.appendChild(el("td", (score > 0 ? "+" : "") + String(line.score), "num"));
      });
      return table;
    }

    return {el: el, fill: fill, racksList: racksList, storedTable: storedTable};
  };
}());
