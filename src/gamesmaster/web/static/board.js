// The analysis board: the war room's tapping and typing (warroom.js) ask /api/board instead, with
// the whole board; this shows its answer (every order's outcome, the position after them) and keeps
// the board in the page's address, so that the link reopens the same board.
(function () {
  var docEl = document.getElementById("board-doc");
  if (!docEl) return;
  var doc = JSON.parse(docEl.textContent);
  var results = document.getElementById("results");
  var share = document.getElementById("share");
  var answered = 0;

  function link(d) {   // the board in a link: its JSON as base64url, as the server reads it
    var bytes = new TextEncoder().encode(JSON.stringify(d)), s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return "/board?b=" + btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function shareAs(path) { share.value = location.origin + path; }
  shareAs(share.value);
  window.gmOrdersBody = function (text) { return Object.assign({}, doc, {orders: text}); };

  function item(cls, order, text) {
    var li = document.createElement("li");
    li.className = cls;
    if (order) { var t = document.createElement("span"); t.className = "text"; t.textContent = order; li.appendChild(t); }
    li.appendChild(document.createTextNode(text));
    results.appendChild(li);
  }
  document.addEventListener("orders-answered", function (ev) {
    var data = ev.detail;
    results.innerHTML = "";
    if (data.detail) {
      item("invalid", "", typeof data.detail === "string" ? data.detail : "the board could not be read");
    } else {
      data.orders.forEach(function (o) {
        item(o.result === "invalid" ? "invalid" : o.result === "fails" ? "warning" : "accepted",
             o.order || o.text, ": " + o.result + ", " + o.reason);
      });
      if (!data.orders.length) item("muted", "", "No orders yet: every unit holds.");
      document.querySelector("#next-map .pan").innerHTML = data.next_map;
      document.getElementById("next-phase").textContent = data.next.phase;
      document.getElementById("go-on").href = link(data.next);
      history.replaceState(null, "", data.link);
      shareAs(data.link);
    }
    document.body.setAttribute("data-answered", String(++answered));
  });

  // The position: a line of units for each power ("FRANCE: A PAR, A MAR, F BRE"); setting it up
  // opens the board on it, with the orders written so far.
  document.getElementById("position-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var units = {};
    document.getElementById("position-units").value.split("\n").forEach(function (line) {
      var m = /^\s*([^:]+):(.*)$/.exec(line);
      if (!m) return;
      units[m[1].trim()] = m[2].split(",").map(function (u) { return u.trim(); }).filter(Boolean);
    });
    var next = Object.assign({}, doc, {phase: document.getElementById("phase").value.trim(), units: units,
                                       orders: document.getElementById("orders").value});
    location.href = link(next);
  });
})();
