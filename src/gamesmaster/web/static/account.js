// The notifications badge: asks for the unread count every few seconds (and when the page is shown again),
// so a new result, warning, letter or vote shows without reloading the page.
(function () {
  var badge = document.getElementById("unread");
  if (!badge || !window.fetch) return;
  var url = badge.getAttribute("data-poll"), every = Math.max(2, +badge.getAttribute("data-every") || 20) * 1000;
  var timer = null;
  function show(n) {
    badge.textContent = String(n);
    badge.classList.toggle("none", !n);
    badge.setAttribute("title", n ? n + " unread" : "no unread notifications");
  }
  function poll() {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (doc) { if (doc && typeof doc.unread === "number") show(doc.unread); })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(schedule);
  }
  function schedule() { clearTimeout(timer); timer = setTimeout(poll, document.hidden ? every * 3 : every); }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  show(+badge.textContent || 0);
  schedule();
})();
