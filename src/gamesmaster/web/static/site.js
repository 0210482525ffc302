// Irreversible actions ask first: a form with data-confirm is sent only when the question is answered yes.
document.addEventListener("submit", function (ev) {
  var form = ev.target.closest && ev.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.getAttribute("data-confirm"))) ev.preventDefault();
}, true);

// Deadline countdowns: every element with data-deadline (an ISO time) shows the time left.
(function () {
  function left(ms) {
    if (ms <= 0) return "due now";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60), sec = s % 60;
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return (d ? d + "d " : "") + two(h) + ":" + two(m) + ":" + two(sec) + " left";
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var t = Date.parse(el.getAttribute("data-deadline"));
      if (isNaN(t)) return;
      el.textContent = left(t - now);
      el.classList.toggle("soon", t - now < 6 * 3600 * 1000);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
