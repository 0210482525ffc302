// The war room: pick orders by tapping or clicking on the map or on a unit's legal orders, and
// see at once how the gamesmaster reads what is written (the same answers as on sending) and the
// orders drawn on the map (drawn by the server from the orders as read, before anything is sent).
(function () {
  var textarea = document.getElementById("orders");
  if (!textarea) return;
  var map = document.getElementById("map");
  var pan = map && map.querySelector(".pan");
  var hint = document.getElementById("hint");
  var answersBox = document.getElementById("live-answers");
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  var units = {};            // key (province or "adjust") -> list of {text, unit, dest, kind, provinces}
  document.querySelectorAll("details.unit").forEach(function (d) {
    var key = d.getAttribute("data-key");
    units[key] = [];
    d.querySelectorAll("button.opt").forEach(function (b) {
      var o = {text: b.getAttribute("data-order"), unit: b.getAttribute("data-unit"), dest: b.getAttribute("data-dest"),
               kind: b.getAttribute("data-kind"), provinces: (b.getAttribute("data-provinces") || "").split(" ")};
      units[key].push(o);
      b.addEventListener("click", function () { addOrder(o); });
    });
    d.addEventListener("toggle", function () { if (d.open) select(key, true); });
  });
  var selected = null;
  var timer = null, seq = 0;

  function unitKey(line) {          // the province of the unit a written order is for, roughly
    var t = line.trim().toUpperCase().replace(/[.,]/g, " ").split(/\s+/);
    if (t.length < 2) return null;
    var i = (t[0] === "A" || t[0] === "F" || t[0] === "ARMY" || t[0] === "FLEET") ? 1 : 0;
    return (t[i] || "").split("/")[0].slice(0, 3);
  }
  var readAs = [];           // the orders as the gamesmaster last read them (canonical text)
  function plannedInto(prov, except) {   // our planned moves into prov, as "A PAR - BUR"
    var lines = textarea.value.split("\n").map(function (l) { return l.trim().toUpperCase().replace(/\s+/g, " "); });
    return lines.concat(readAs).filter(function (t) {
      var m = /^[AF] ([A-Z]{3})(?:\/[A-Z]{2})? - ([A-Z]{3})(?:\/[A-Z]{2})?$/.exec(t);
      return m && m[2] === prov && m[1] !== except;
    }).filter(function (t, i, all) { return all.indexOf(t) === i; });
  }
  function addOrder(o) {
    var lines = textarea.value.split("\n");
    var cut = lines.findIndex(function (l) { return /^\s*next( season)?\s*:/i.test(l); });
    var head = cut < 0 ? lines : lines.slice(0, cut), tail = cut < 0 ? [] : lines.slice(cut);
    head = head.filter(function (l) { return l.trim() !== ""; });
    if (o.unit && o.kind !== "build") {
      head = head.filter(function (l) { return unitKey(l) !== o.unit; });
    }
    if (head.indexOf(o.text) < 0) head.push(o.text);
    textarea.value = head.join("\n") + (tail.length ? "\n\n" + tail.join("\n") : "") + "\n";
    say("Added: " + o.text + ". Tap the next unit, or send your orders.", []);
    deselect();
    clearTimeout(timer);
    run();   // a tap is answered at once; typing waits for a pause

  }
  // A choice between orders is offered where the thumb is: on a phone in a sheet along the bottom
  // of the screen (the map stays in sight above it), elsewhere scrolled into view if it is not.
  var phone = window.matchMedia("(max-width: 700px)");
  function say(text, candidates, aside) {   // aside: alternatives to an order already added, offered in place
    if (!hint) return;
    hint.textContent = text;
    hint.classList.toggle("choosing", !!(candidates && candidates.length) && !aside);
    if (!candidates || !candidates.length) return;
    var box = document.createElement("div");
    box.className = "candidates";
    candidates.forEach(function (o) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = o.text;
      b.addEventListener("click", function () { addOrder(o); });
      box.appendChild(b);
    });
    var close = document.createElement("button");
    close.type = "button"; close.className = "secondary dismiss"; close.textContent = "None of these";
    close.addEventListener("click", function () { deselect(); say("Tap one of your units, then where it should go.", []); });
    if (!aside) box.appendChild(close);
    hint.appendChild(box);
    if (!aside && !phone.matches) {
      var r = hint.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) hint.scrollIntoView({block: "nearest"});
    }
  }
  function mark(province, on) {
    if (!map || !province) return;
    map.querySelectorAll('path.space[data-province="' + province + '"]').forEach(function (p) {
      p.classList.toggle("picked", on);
    });
  }
  function deselect() {
    if (selected) mark(selected, false);
    selected = null;
    document.querySelectorAll("details.unit.selected").forEach(function (d) { d.classList.remove("selected"); });
  }
  function select(key, fromList) {
    if (selected) mark(selected, false);
    selected = key;
    if (key !== "adjust") mark(key, true);
    document.querySelectorAll("details.unit").forEach(function (d) {
      d.classList.toggle("selected", d.getAttribute("data-key") === key);
    });
    var opts = units[key] || [];
    if (key === "adjust") {
      say("Tap a home supply centre on the map to build there, or pick an order below.", opts.slice(0, 0));
    } else {
      say((opts[0] ? opts[0].text.split(" ").slice(0, 2).join(" ") : key) +
          " selected: tap where it should go, or a unit it should support or convoy.", []);
    }
  }
  if (map) {
    map.addEventListener("click", function (ev) {
      var el = ev.target.closest("[data-province]");
      if (!el) return;
      var prov = el.getAttribute("data-province");
      if (units.adjust) {
        var builds = units.adjust.filter(function (o) { return o.provinces.indexOf(prov) >= 0; });
        if (builds.length === 1) addOrder(builds[0]);
        else if (builds.length) say("Orders for " + prov + ":", builds);
        else say("No adjustment order involves " + prov + ".", []);
        return;
      }
      if (selected === null || selected === prov) {
        if (units[prov]) { select(prov); return; }
        if (selected === prov) return;
        say("Tap one of your own units first.", []);
        return;
      }
      var opts = units[selected] || [];
      if (units[prov]) {             // another unit of ours: it is the one to order now
        var before = selected, about = opts.filter(function (o) { return o.provinces.indexOf(prov) >= 0; });
        select(prov);
        if (about.length) say(hint.textContent + " Or, for " + before + ":", about, true);
        return;
      }
      var moves = opts.filter(function (o) { return (o.kind === "move" || o.kind === "retreat") && o.dest === prov; });
      var others = opts.filter(function (o) { return moves.indexOf(o) < 0 && o.provinces.indexOf(prov) >= 0; });
      // another unit of ours is already going there: supporting (or convoying) that move comes first
      var helping = plannedInto(prov, selected).reduce(function (acc, move) {
        return acc.concat(opts.filter(function (o) {
          return (o.kind === "support" || o.kind === "convoy") && o.text.slice(o.text.indexOf(" " + (o.kind === "support" ? "S" : "C") + " ") + 3) === move;
        }));
      }, []);
      if (helping.length) {
        var rest2 = moves.concat(others.filter(function (o) { return helping.indexOf(o) < 0; }));
        say(selected + " and " + prov + ", where you already have a move planned:", helping.concat(rest2));
      } else if (moves.length) {
        var plain = moves.filter(function (o) { return o.text.indexOf("VIA") < 0; })[0] || moves[0];
        addOrder(plain);
        var rest = moves.filter(function (o) { return o !== plain; }).concat(others);
        if (rest.length) say("Added: " + plain.text + ". Or instead:", rest, true);
      } else if (others.length) {
        say("Orders of " + selected + " involving " + prov + ":", others);
      } else {
        say(selected + " has no legal order involving " + prov + ".", []);
      }
    });
  }

  // On a phone the map opens framed on what the player must order now: the units to order (in
  // a retreat, the dislodged ones), or in the adjustments the home centres to build in and the
  // units to remove; zoomed in as far as keeps all of them on the screen, but no further than
  // makes each unit a 42 px tap target.
  function targets() {
    var found = [];
    function add(sel) { map.querySelectorAll(sel).forEach(function (e) { found.push(e); }); }
    if (units.adjust) {
      units.adjust.forEach(function (o) {
        if (o.kind === "build") add('g.sc[data-province="' + o.unit + '"], g.label[data-province="' + o.unit + '"]');
        else if (o.unit) add('g.unit.highlighted[data-province="' + o.unit + '"] .hit');
      });
      return found;
    }
    Object.keys(units).forEach(function (key) {
      var away = map.querySelector('g.unit-dislodged.highlighted[data-province="' + key + '"] .hit');
      if (away) found.push(away);
      else add('g.unit.highlighted[data-province="' + key + '"] .hit');
    });
    if (!found.length) add("g.unit.highlighted .hit");
    return found;
  }
  function openingZoom() {
    var view = window.gmMaps && window.gmMaps.map;
    if (!view || !map) return;
    if (!window.matchMedia("(pointer: coarse), (max-width: 700px)").matches) return;
    var frame = map.getBoundingClientRect();
    var boxes = targets().map(function (e) { return e.getBoundingClientRect(); }).filter(function (b) { return b.width; });
    if (!boxes.length) return;
    var hits = Array.prototype.slice.call(map.querySelectorAll("g.unit.highlighted .hit"));
    var smallest = Math.min.apply(null, hits.map(function (h) { var b = h.getBoundingClientRect(); return Math.min(b.width, b.height); }));
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    boxes.forEach(function (b) {
      x0 = Math.min(x0, b.left - frame.left); y0 = Math.min(y0, b.top - frame.top);
      x1 = Math.max(x1, b.right - frame.left); y1 = Math.max(y1, b.bottom - frame.top);
    });
    var pad = 14;   // screen pixels kept clear round the frame, at scale 1 (less once zoomed)
    var fit = Math.min(frame.width / (x1 - x0 + 2 * pad), frame.height / (y1 - y0 + 2 * pad));
    var touchable = isFinite(smallest) && smallest > 0 ? 42 / smallest : fit;
    view.centreOn((x0 + x1) / 2, (y0 + y1) / 2, Math.max(1, Math.min(fit, touchable)));
  }
  // The whole map fits the window under the war room's heading: it is made no wider than keeps
  // its height on the screen (at 1366x768 its southern half was below the fold).
  var head = document.getElementById("war-room-head");
  function fitMap() {
    var svg = map && map.querySelector("svg");
    var box = svg && svg.viewBox && svg.viewBox.baseVal;
    if (!box || !box.width || !box.height) return;
    var room = window.innerHeight - (head ? head.offsetHeight + 16 : 16) - 8;
    map.style.maxWidth = Math.max(320, Math.floor(room * box.width / box.height)) + "px";
  }
  // The site's header, the game's head and the tabs fill half a phone's screen and a third of a
  // laptop's: with something to order and no orders on record yet, the page opens scrolled down
  // to the war room's own heading with the map under it (an error, or the answer to orders just
  // sent, stays in sight at the top).
  function openOnTheMap() {
    if (!map || !head || !Object.keys(units).length || document.querySelector(".flash.error, #on-record .receipt")) return;
    var at = map.getBoundingClientRect();
    if (at.bottom > window.innerHeight || at.top > window.innerHeight / 3) {
      window.scrollTo(0, window.scrollY + head.getBoundingClientRect().top - 4);
    }
  }
  fitMap();
  openOnTheMap();
  openingZoom();
  window.addEventListener("resize", fitMap);

  function check() {
    clearTimeout(timer);
    timer = setTimeout(run, 350);
  }
  function run() {
    var mine = ++seq;
    // The analysis board (board.js) asks its own address with its own body: the same tapping, another answer.
    var body = window.gmOrdersBody ? window.gmOrdersBody(textarea.value)
      : {orders: textarea.value, map: true, power: (document.getElementById("power") || {}).value || null};
    fetch(textarea.getAttribute("data-check") || location.pathname.replace(/\/war-room$/, "/war-room/check"), {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
      body: JSON.stringify(body)
    }).then(function (r) { return r.json(); }).then(function (data) {
      if (mine !== seq) return;
      if (!data.detail) {
        readAs = (data.answers || data.orders || []).filter(function (a) { return a.order; }).map(function (a) { return a.order; });
        if (data.map && pan) {
          pan.innerHTML = data.map;
          if (selected && selected !== "adjust") mark(selected, true);
        }
      }
      document.dispatchEvent(new CustomEvent("orders-answered", {detail: data}));
      if (!answersBox) return;
      answersBox.innerHTML = "";
      if (data.detail) { li("invalid", data.detail); return; }
      (data.answers || []).forEach(function (a) {
        var item = li(a.status, "");
        var t = document.createElement("span"); t.className = "text"; t.textContent = a.text;
        item.appendChild(t);
        item.appendChild(document.createTextNode(": " + a.message + (a.notes.length ? " (" + a.notes.join("; ") + ")" : "")));
      });
      (data.warnings || []).forEach(function (w) { li("warning", w); });
      (data.clauses || []).forEach(function (c) { li("accepted", "conditional, " + c); });
      if (data.conditional_error) li("invalid", data.conditional_error);
    }).catch(function () {});
  }
  function li(cls, text) {
    var item = document.createElement("li");
    item.className = cls; item.textContent = text;
    answersBox.appendChild(item);
    return item;
  }
  textarea.addEventListener("input", check);
})();
