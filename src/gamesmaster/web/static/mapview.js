// The map zooms and pans: two fingers pinch, one finger (or the mouse) drags once zoomed in,
// the wheel zooms at the pointer, and the buttons zoom in, out and back to the whole map.
// A tap that did not move stays a click, so ordering by tapping works as by clicking.
// Each element .map holds a .pan wrapper (the transformed layer) round the SVG.
(function () {
  var MAX = 8;

  function setUp(frame) {
    var pan = frame.querySelector(".pan");
    if (!pan) return null;
    var view = {s: 1, x: 0, y: 0};
    var pointers = {};            // pointerId -> last {x, y}
    var start = null;             // the gesture so far: pointers and view when it began
    var moved = false;

    function size() { return {w: frame.clientWidth, h: frame.clientHeight}; }
    function apply() {
      var f = size();
      view.s = Math.min(MAX, Math.max(1, view.s));
      view.x = Math.min(0, Math.max(f.w - f.w * view.s, view.x));
      view.y = Math.min(0, Math.max(f.h - f.h * view.s, view.y));
      pan.style.transform = "translate(" + view.x + "px, " + view.y + "px) scale(" + view.s + ")";
      frame.classList.toggle("zoomed", view.s > 1.001);
    }
    function local(x, y) {
      var r = frame.getBoundingClientRect();
      return {x: x - r.left, y: y - r.top};
    }
    function zoomAt(s, x, y) {         // the point (x, y) of the frame stays where it is
      var k = Math.min(MAX, Math.max(1, s)) / view.s;
      view.x = x - (x - view.x) * k;
      view.y = y - (y - view.y) * k;
      view.s = view.s * k;
      apply();
    }
    function centreOn(x, y, s) {       // (x, y) in the frame's coordinates at scale 1
      var f = size();
      view.s = s;
      view.x = f.w / 2 - x * s;
      view.y = f.h / 2 - y * s;
      apply();
    }
    function points() {
      return Object.keys(pointers).map(function (k) { return pointers[k]; });
    }
    function begin() {
      var ps = points();
      start = {view: {s: view.s, x: view.x, y: view.y}, ps: ps.map(function (p) { return {x: p.x, y: p.y}; })};
    }

    frame.addEventListener("pointerdown", function (ev) {
      if (ev.target.closest(".mapzoom")) return;
      if (ev.pointerType === "mouse" && ev.button !== 0) return;
      pointers[ev.pointerId] = local(ev.clientX, ev.clientY);
      if (Object.keys(pointers).length === 1) moved = false;
      begin();
    });
    function move(ev) {
      if (!(ev.pointerId in pointers) || !start) return;
      pointers[ev.pointerId] = local(ev.clientX, ev.clientY);
      var ps = points();
      if (ps.length >= 2 && start.ps.length >= 2) {
        var d0 = Math.hypot(start.ps[0].x - start.ps[1].x, start.ps[0].y - start.ps[1].y) || 1;
        var d1 = Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y);
        var m0 = {x: (start.ps[0].x + start.ps[1].x) / 2, y: (start.ps[0].y + start.ps[1].y) / 2};
        var m1 = {x: (ps[0].x + ps[1].x) / 2, y: (ps[0].y + ps[1].y) / 2};
        var s = Math.min(MAX, Math.max(1, start.view.s * d1 / d0));
        var k = s / start.view.s;
        view.s = s;
        view.x = m1.x - (m0.x - start.view.x) * k;
        view.y = m1.y - (m0.y - start.view.y) * k;
        moved = true;
        apply();
        ev.preventDefault();
      } else if (ps.length === 1) {
        var dx = ps[0].x - start.ps[0].x, dy = ps[0].y - start.ps[0].y;
        if (!moved && Math.hypot(dx, dy) < 8) return;   // still a tap
        if (view.s <= 1.001) return;                   // the whole map: the page scrolls instead
        moved = true;
        view.x = start.view.x + dx;
        view.y = start.view.y + dy;
        apply();
      }
    }
    function end(ev) {
      if (!(ev.pointerId in pointers)) return;
      delete pointers[ev.pointerId];
      begin();
    }
    window.addEventListener("pointermove", move, {passive: false});
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
    // a drag or a pinch is not a click on what lay under the finger
    frame.addEventListener("click", function (ev) {
      if (moved && !ev.target.closest(".mapzoom")) { ev.stopPropagation(); ev.preventDefault(); moved = false; }
    }, true);
    frame.addEventListener("wheel", function (ev) {
      var p = local(ev.clientX, ev.clientY);
      var s = view.s * Math.exp(-ev.deltaY * 0.0025);
      if ((s <= 1 && view.s <= 1) || (s >= MAX && view.s >= MAX)) return;  // let the page scroll
      ev.preventDefault();
      zoomAt(s, p.x, p.y);
    }, {passive: false});

    var tools = document.createElement("div");
    tools.className = "mapzoom";
    [["+", "Zoom in", function () { var f = size(); zoomAt(view.s * 1.6, f.w / 2, f.h / 2); }],
     ["\u2212", "Zoom out", function () { var f = size(); zoomAt(view.s / 1.6, f.w / 2, f.h / 2); }],
     ["\u25a1", "The whole map", function () { view = {s: 1, x: 0, y: 0}; apply(); }]].forEach(function (b) {
      var btn = document.createElement("button");
      btn.type = "button"; btn.textContent = b[0]; btn.title = b[1]; btn.setAttribute("aria-label", b[1]);
      btn.addEventListener("click", b[2]);
      tools.appendChild(btn);
    });
    frame.appendChild(tools);
    apply();
    return {zoomAt: zoomAt, centreOn: centreOn, view: function () { return view; }, apply: apply};
  }

  window.gmMaps = {};
  document.querySelectorAll(".map").forEach(function (frame) {
    var api = setUp(frame);
    if (api && frame.id) window.gmMaps[frame.id] = api;
  });
})();
