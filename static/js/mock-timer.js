/* The mock interview's countdown: <p id="timer" data-remaining="SECONDS">.
   The server keeps the real clock (it stamps when a question opens and when
   the candidate stops it); this only shows the time left, then the time over,
   without reloading. Without JavaScript the page shows the time left as it
   loaded. No inline script anywhere. */
(function () {
  "use strict";
  var timer = document.getElementById("timer");
  if (!timer) return;
  var remaining = parseFloat(timer.dataset.remaining);
  if (!isFinite(remaining)) return;
  var deadline = Date.now() + remaining * 1000;

  function clock(seconds) {
    var whole = Math.max(0, Math.round(seconds));
    var hours = Math.floor(whole / 3600);
    var minutes = Math.floor((whole % 3600) / 60);
    var secs = whole % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + String(secs).padStart(2, "0");
  }

  var announced = false;
  function tick() {
    var left = (deadline - Date.now()) / 1000;
    if (left > 0) {
      timer.textContent = clock(Math.ceil(left)) + " left";
      timer.classList.remove("overtime");
    } else {
      timer.textContent = "Time is up: " + clock(-left) + " over";
      timer.classList.add("overtime");
      if (!announced) {
        // role=timer is not announced every second; say once that time is up.
        announced = true;
        timer.setAttribute("aria-live", "assertive");
      }
    }
  }
  tick();
  window.setInterval(tick, 250);
})();
