// The live table: follows the game through server-sent events (/games/GAME/table/events).
// On the table view (#live-table) the changing part is fetched again whenever the state
// changes; in a war room (#live-box) the period, the clock and the agree button follow.
(function () {
  "use strict";
  var table = document.getElementById("live-table");
  var box = document.getElementById("live-box");
  var root = table || box;
  if (!root || !window.EventSource) return;
  var game = root.dataset.game;
  var base = "/games/" + encodeURIComponent(game) + "/table";
  var version = root.dataset.version || "";
  var left = null, paused = false, at = Date.now(), busy = false, again = false;
  window.__liveLoaded = window.__liveLoaded || Date.now();

  function fmt(s) {
    s = Math.max(0, Math.ceil(s));
    var m = Math.floor(s / 60), r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }
  function readClock() {
    var c = document.getElementById("clock");
    if (!c) return;
    left = c.dataset.left === "" ? null : parseFloat(c.dataset.left);
    paused = c.dataset.paused === "1";
    at = Date.now();
  }
  function draw() {
    var c = document.getElementById("clock");
    if (!c) return;
    if (left === null || isNaN(left)) { c.textContent = ""; return; }
    var s = paused ? left : Math.max(0, left - (Date.now() - at) / 1000);
    c.textContent = fmt(s) + (paused ? " (paused)" : "");
    c.classList.toggle("low", s < 60);
  }
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(base + "/main", {credentials: "same-origin", cache: "no-store"}).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      if (html !== null) {
        document.getElementById("table-main").innerHTML = html;
        root.dataset.version = version;
        readClock();
        draw();
      }
    }).catch(function () {}).then(function () {
      busy = false;
      if (again) { again = false; refresh(); }
    });
  }
  function warRoom(st) {
    if (!st.live || st.period === "over") { box.hidden = true; return; }
    box.hidden = false;
    document.getElementById("live-label").textContent = st.label + (st.phase_title ? " · " + st.phase_title : "");
    var power = box.dataset.power;
    var diplomacy = st.period === "diplomacy" && st.voters.indexOf(power) >= 0;
    var mine = st.agreed.indexOf(power) >= 0;
    document.getElementById("live-agree").hidden = !diplomacy || mine;
    document.getElementById("live-disagree").hidden = !diplomacy || !mine;
    document.getElementById("live-agreed").textContent = st.period === "diplomacy" ?
      st.agreed.length + " of " + st.voters.length + " agree to end diplomacy" : "";
    root.dataset.version = st.version;
    root.dataset.period = st.period;
  }
  function onState(st) {
    left = st.left === null || st.left === undefined ? null : st.left;
    paused = !!st.paused;
    at = Date.now();
    if (box) { warRoom(st); draw(); return; }
    if (st.version !== version) { version = st.version; refresh(); }
    draw();
  }
  readClock();
  draw();
  setInterval(draw, 250);
  var es = new EventSource(base + "/events");
  es.onmessage = function (e) {
    try { onState(JSON.parse(e.data)); } catch (err) { /* a partial message: the next one will do */ }
  };
})();
