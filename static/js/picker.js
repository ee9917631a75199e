/* Rackscore: the tile picker and the live preview of a game form.
 *
 * A *picker* is one player's buttons for the tiles of the set; a tap adds the
 * tile to that player's tile list (the form's own text input, which stays
 * editable and is what the form posts). A tile can be chosen at most as often
 * as the set holds it across the whole table. The *preview* sends the racks to
 * the stateless calculator and shows what it answers: no score is computed
 * here. Every word comes from the page (#picker-config), never from this file.
 * Without JavaScript the form is the plain form.
 */
(function () {
  "use strict";
  var source = document.getElementById("picker-config");
  if (!source || !window.fetch || !window.JSON) { return; }
  var config = JSON.parse(source.textContent);
  var text = config.text;
  var lang = document.documentElement.lang || "en";
  var codes = config.colours.map(function (c) { return c.code; });
  var names = {};
  config.colours.forEach(function (c) { names[c.code] = c.name; });
  names[config.joker.code] = config.joker.name;
  var DEBOUNCE_MS = 350;

  function say(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
  }
  function element(tag, attrs, content) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (content !== undefined) { node.textContent = content; }
    return node;
  }
  function tileName(key) {
    if (key === config.joker.code) { return config.joker.name; }
    return say(text.tile, {colour: names[key.charAt(0)], number: key.slice(1)});
  }
  // The tile a typed token names ("r7" -> "R7"), or null: only to count and
  // show chips; the calculator judges what was typed.
  function tileKey(token) {
    var shape = /^([A-Z])([0-9]{1,2})?$/.exec(token.toUpperCase());
    if (!shape) { return null; }
    var letter = config.aliases[shape[1]] || shape[1];
    if (letter === config.joker.code) { return shape[2] === undefined ? letter : null; }
    if (codes.indexOf(letter) < 0 || shape[2] === undefined) { return null; }
    var number = Number(shape[2]);
    return number >= config.numbers[0] && number <= config.numbers[1] ? letter + number : null;
  }
  function tokens(input) { return input.value.split(/[\s,]+/).filter(Boolean); }
  function changed(input) { input.dispatchEvent(new Event("input", {bubbles: true})); }

  // ------------------------------------------------------------------ picker

  function pickerBuild(rack) {
    var box = element("div", {"class": "picker"});
    var bar = element("div", {"class": "picker-bar"});
    var gridId = rack.tiles.id + "-picker";
    var toggle = element("button", {type: "button", "class": "picker-toggle small",
      "aria-expanded": "false", "aria-controls": gridId}, text.pick);
    var emptied = element("button", {type: "button", "class": "picker-emptied small"}, text.emptied);
    bar.appendChild(toggle);
    bar.appendChild(emptied);
    box.appendChild(bar);
    rack.chosen = element("ul", {"class": "picker-chosen", "aria-label": text.chosen});
    box.appendChild(rack.chosen);
    var grid = element("div", {"class": "picker-grid", id: gridId, hidden: ""});
    rack.buttons = {};
    config.colours.forEach(function (colour) {
      var row = element("div", {"class": "picker-row tile-" + colour.code.toLowerCase(),
        role: "group", "aria-label": colour.name});
      row.appendChild(element("span", {"class": "picker-colour", "aria-hidden": "true"}, colour.name));
      for (var n = config.numbers[0]; n <= config.numbers[1]; n++) {
        var key = colour.code + n;
        var button = element("button", {type: "button", "class": "tile-button",
          "data-tile": key, "aria-label": tileName(key)}, String(n));
        rack.buttons[key] = button;
        row.appendChild(button);
      }
      grid.appendChild(row);
    });
    var jokerRow = element("div", {"class": "picker-row tile-j"});
    var joker = element("button", {type: "button", "class": "tile-button joker",
      "data-tile": config.joker.code, "aria-label": config.joker.name}, config.joker.name);
    rack.buttons[config.joker.code] = joker;
    jokerRow.appendChild(joker);
    grid.appendChild(jokerRow);
    box.appendChild(grid);

    toggle.addEventListener("click", function () {
      var open = grid.hidden;
      // One picker open at a time keeps a phone's page short.
      rack.form.querySelectorAll(".picker-toggle[aria-expanded=true]").forEach(function (other) {
        if (other === toggle) { return; }
        other.setAttribute("aria-expanded", "false");
        document.getElementById(other.getAttribute("aria-controls")).hidden = true;
      });
      grid.hidden = !open;
      toggle.setAttribute("aria-expanded", String(open));
    });
    grid.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-tile]");
      if (!button || button.disabled) { return; }
      var value = rack.tiles.value.trim();
      rack.tiles.value = (value ? value + " " : "") + button.dataset.tile;
      changed(rack.tiles);
    });
    rack.chosen.addEventListener("click", function (event) {
      var chip = event.target.closest("button[data-tile]");
      if (!chip) { return; }
      var list = tokens(rack.tiles);
      var at = list.findIndex(function (t) { return tileKey(t) === chip.dataset.tile; });
      if (at >= 0) { list.splice(at, 1); }
      rack.tiles.value = list.join(" ");
      changed(rack.tiles);
      var next = rack.chosen.querySelector("button") || toggle;
      next.focus();
    });
    emptied.addEventListener("click", function () {
      [rack.tiles, rack.points, rack.jokers].forEach(function (input) {
        if (input) { input.value = ""; changed(input); }
      });
      // Emptying a rack is how a rummikub ends: say so in the form too.
      var radio = rack.form.querySelector('input[type=radio][name$="ending"][value="rummikub"]');
      if (radio && !radio.checked) {
        radio.checked = true;
        radio.dispatchEvent(new Event("change", {bubbles: true}));
      }
    });
    rack.tiles.closest(".rack-inputs").after(box);
  }

  function limit(key) { return key === config.joker.code ? config.jokers : config.copies; }

  // Chips for this rack's tiles, and every button disabled once the table holds
  // as many of its tile as the set has.
  function pickersSync(racks) {
    var table = {};
    var played = racks.filter(function (rack) { return !rack.fieldset.hidden; });
    played.forEach(function (rack) {
      rack.keys = tokens(rack.tiles).map(tileKey).filter(Boolean);
      rack.keys.forEach(function (key) { table[key] = (table[key] || 0) + 1; });
    });
    played.forEach(function (rack) {
      var mine = {};
      rack.keys.forEach(function (key) { mine[key] = (mine[key] || 0) + 1; });
      Object.keys(rack.buttons).forEach(function (key) {
        var button = rack.buttons[key];
        button.disabled = (table[key] || 0) >= limit(key);
        if (mine[key]) { button.dataset.count = String(mine[key]); } else { delete button.dataset.count; }
      });
      rack.chosen.textContent = "";
      rack.keys.forEach(function (key) {
        var item = element("li");
        var chip = element("button", {type: "button", "class": "tile-chip tile-" + key.charAt(0).toLowerCase(),
          "data-tile": key, "aria-label": say(text.remove, {tile: tileName(key)})}, tileName(key));
        item.appendChild(chip);
        rack.chosen.appendChild(item);
      });
    });
  }

  // ------------------------------------------------------------------ preview

  function rackLabel(rack) {
    var name = rack.fieldset.querySelector('input[name$="_name"]');
    if (name) { return name.value.trim() || name.placeholder || String(rack.index + 1); }
    return rack.fieldset.dataset.player || String(rack.index + 1);
  }
  function count(input) {
    var value = input ? input.value.trim() : "";
    if (value === "") { return undefined; }
    return /^[0-9]+$/.test(value) ? Number(value) : value;
  }
  function rackIn(rack, label) {
    var body = {player: label};
    var points = count(rack.points), jokers = count(rack.jokers);
    if (rack.tiles.value.trim() || (points === undefined && jokers === undefined)) {
      body.tiles = rack.tiles.value;
    }
    if (points !== undefined) { body.points = points; }
    if (jokers !== undefined) { body.jokers = jokers; }
    return body;
  }
  function rackBlank(rack) {
    var points = count(rack.points), jokers = count(rack.jokers);
    return !tokens(rack.tiles).length && (points === undefined || points === 0) &&
      (jokers === undefined || jokers === 0);
  }
  function rulesIn(form) {
    if (config.rules) { return config.rules; }
    var rules = {};
    config.rulesFrom.forEach(function (name) {
      var input = form.elements[name];
      if (!input || input.value === "") { return; }
      rules[name] = input.type === "number" && /^[0-9]+$/.test(input.value) ? Number(input.value) : input.value;
    });
    return rules;
  }
  function post(body) {
    return fetch(config.endpoint, {method: "POST", credentials: "omit",
      headers: {"Content-Type": "application/json", "Accept-Language": lang},
      body: JSON.stringify(body)})
      .then(function (response) {
        return response.json().then(function (data) { return {status: response.status, data: data}; });
      });
  }
  // An error body as [path, message] pairs: {"racks": {"1": {"points": ["..."]}}}.
  function flatten(data, path, out) {
    if (typeof data === "string") { out.push([path, data]); return out; }
    if (Array.isArray(data)) {
      data.forEach(function (item) { flatten(item, path, out); });
      return out;
    }
    Object.keys(data || {}).forEach(function (key) { flatten(data[key], path.concat(key), out); });
    return out;
  }
  function fieldOf(form, played, path) {
    if (path[0] === "racks" && /^[0-9]+$/.test(path[1] || "") && played[Number(path[1])]) {
      var rack = played[Number(path[1])];
      return rack[path[2]] || rack.tiles;
    }
    if (path[0] === "ending") { return form.querySelector('input[name$="ending"]'); }
    if (path[0] === "rules" && form.elements[path[1]]) { return form.elements[path[1]]; }
    return played.length ? played[0].tiles : null;
  }
  // The calculator stops at a game's first refusal: to list every rack's own
  // problem at once, each rack with something on it is also scored alone, with
  // an emptied rack and one-point racks around it.
  function probes(played, labels, body) {
    return played.map(function (rack, i) {
      if (rackBlank(rack)) { return Promise.resolve([]); }
      var empty = i === 0 ? 1 : 0;
      var racks = played.map(function (other, j) {
        if (j === i) { return rackIn(rack, labels[j]); }
        return j === empty ? {player: labels[j], tiles: ""} : {player: labels[j], points: 1};
      });
      return post({rules: body.rules, ending: "rummikub", racks: racks}).then(function (answer) {
        if (answer.status !== 400) { return []; }
        return flatten(answer.data, [], []).filter(function (pair) { return pair[0][0] === "racks"; })
          .map(function (pair) { return [rack.tiles, pair[1]]; });
      });
    });
  }

  function previewBuild(form) {
    var panel = element("section", {"class": "preview", "aria-label": text.preview});
    panel.appendChild(element("h3", {}, text.preview));
    var errors = element("div", {"class": "errors preview-errors", role: "alert", hidden: ""});
    var table = element("table", {"class": "data compact preview-scores", hidden: ""});
    var status = element("p", {"class": "meta preview-status", role: "status"}, text.waiting);
    panel.appendChild(errors);
    panel.appendChild(table);
    panel.appendChild(status);
    var anchor = form.querySelector("fieldset.ending") || form.querySelector(".racks");
    anchor.parentNode.insertBefore(panel, anchor);
    return {panel: panel, errors: errors, table: table, status: status};
  }
  function number(value, signed) {
    var shown = Number(value).toLocaleString(lang, {maximumFractionDigits: 2});
    return signed && value > 0 ? "+" + shown : shown;
  }
  function scoresShow(view, answer) {
    var bonus = answer.scores.some(function (line) { return Number(line.bonus || 0) !== 0; });
    view.table.textContent = "";
    var head = element("tr");
    [text.player, text.rack_value, text.score].concat(bonus ? [text.bonus] : []).forEach(function (word, i) {
      head.appendChild(element("th", {scope: "col", "class": i ? "num" : ""}, word));
    });
    view.table.appendChild(element("thead")).appendChild(head);
    var body = view.table.appendChild(element("tbody"));
    answer.scores.forEach(function (line) {
      var winner = answer.winners.indexOf(line.player) >= 0;
      var row = body.appendChild(element("tr", winner ? {"class": "win"} : {}));
      var who = row.appendChild(element("th", {scope: "row"}, line.player));
      if (winner) { who.appendChild(document.createTextNode(" ")); who.appendChild(element("span", {"class": "tag win"}, text.winner)); }
      row.appendChild(element("td", {"class": "num"}, number(line.rack_value, false)));
      row.appendChild(element("td", {"class": "num" + (winner ? " win" : "")}, number(line.score, true)));
      if (bonus) { row.appendChild(element("td", {"class": "num"}, number(line.bonus || 0, true))); }
    });
    view.table.hidden = false;
    view.errors.hidden = true;
    view.status.textContent = text.ready;
  }
  function errorsShow(view, found) {
    // The same refusals as shown already (a later preview of the same
    // mistakes): keep the list, so that a link being clicked stays in place.
    var shown = JSON.stringify(found.map(function (pair) {
      return [pair[0] && pair[0].id ? pair[0].id : "", pair[1]];
    }));
    if (!view.errors.hidden && view.errors.getAttribute("data-shown") === shown) { return; }
    view.errors.setAttribute("data-shown", shown);
    var seen = {};
    var list = element("ul");
    found.forEach(function (pair) {
      if (seen[pair[1]]) { return; }
      seen[pair[1]] = true;
      var item = list.appendChild(element("li"));
      if (pair[0] && pair[0].id) {
        var link = item.appendChild(element("a", {href: "#" + pair[0].id}, pair[1]));
        link.addEventListener("click", function (event) { event.preventDefault(); pair[0].focus(); });
      } else {
        item.textContent = pair[1];
      }
    });
    view.errors.textContent = "";
    view.errors.appendChild(element("p", {}, text.errors));
    view.errors.appendChild(list);
    view.errors.hidden = false;
    view.table.hidden = true;
    view.status.textContent = "";
  }

  // ------------------------------------------------------------------ forms

  document.querySelectorAll("form.game-form").forEach(function (form) {
    var racks = Array.prototype.map.call(form.querySelectorAll("fieldset.rack"), function (fieldset, index) {
      return {form: form, fieldset: fieldset, index: index,
        tiles: fieldset.querySelector('input[name$="_tiles"]'),
        points: fieldset.querySelector('input[name$="_points"]'),
        jokers: fieldset.querySelector('input[name$="_jokers"]')};
    }).filter(function (rack) { return rack.tiles; });
    if (!racks.length) { return; }
    racks.forEach(pickerBuild);
    var view = previewBuild(form);
    var timer = null, asked = 0;

    function preview() {
      var played = racks.filter(function (rack) { return !rack.fieldset.hidden; });
      var ending = form.querySelector('input[type=radio][name$="ending"]:checked');
      if (!ending || played.every(rackBlank)) {
        view.errors.hidden = true;
        view.table.hidden = true;
        view.status.textContent = text.waiting;
        return;
      }
      var seen = {};
      var labels = played.map(function (rack) {
        var label = rackLabel(rack);
        seen[label] = (seen[label] || 0) + 1;
        return seen[label] > 1 ? label + " (" + (rack.index + 1) + ")" : label;
      });
      var body = {rules: rulesIn(form), ending: ending.value,
        racks: played.map(function (rack, i) { return rackIn(rack, labels[i]); })};
      var mine = ++asked;
      post(body).then(function (answer) {
        if (mine !== asked) { return null; }
        if (answer.status === 200) { scoresShow(view, answer.data); return null; }
        if (answer.status !== 400) { throw new Error(String(answer.status)); }
        var found = flatten(answer.data, [], []).map(function (pair) {
          return [fieldOf(form, played, pair[0]), pair[1]];
        });
        return Promise.all(probes(played, labels, body)).then(function (each) {
          var own = [].concat.apply([], each);
          if (!own.length) { return own.concat(found); }
          // The game's own refusals (no emptied rack, a tile three times...)
          // may hide behind a rack's: ask again with the refused racks as one point.
          var rest = Object.assign({}, body, {racks: body.racks.map(function (rack, i) {
            return each[i].length ? {player: rack.player, points: 1} : rack;
          })});
          return post(rest).then(function (again) {
            var more = again.status === 400 ? flatten(again.data, [], []) : [];
            return own.concat(found, more.map(function (pair) {
              return [fieldOf(form, played, pair[0]), pair[1]];
            }));
          });
        }).then(function (all) {
          if (mine === asked) { errorsShow(view, all); }
        });
      }).catch(function () {
        if (mine !== asked) { return; }
        view.table.hidden = true;
        view.errors.hidden = true;
        view.status.textContent = text.unavailable;
      });
    }
    function update() {
      pickersSync(racks);
      clearTimeout(timer);
      timer = setTimeout(preview, DEBOUNCE_MS);
    }
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    pickersSync(racks);
    if (!racks.every(rackBlank)) { update(); }
  });
})();
