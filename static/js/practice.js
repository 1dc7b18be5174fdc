/* Practice page: a running timer, Anki's keys (Space shows the answer, then means Good; 1–4 rate it), and the
   time taken sent with the rating. Without this file the page works as plain forms: the
   <details> opens on click, the rating buttons submit, and the server times the answer
   from when it showed the question. No inline script, so script-src 'self' holds. */
(function () {
  "use strict";
  var form = document.getElementById("review-form");
  if (!form) return;
  var answer = document.getElementById("answer");
  var timer = document.getElementById("timer");
  var duration = document.getElementById("duration");
  var started = Date.now();
  var submitted = false;

  function elapsed() { return Date.now() - started; }

  function show(ms) {
    var seconds = Math.floor(ms / 1000);
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    timer.textContent = minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  if (timer) {
    timer.hidden = false;
    show(0);
    var tick = window.setInterval(function () {
      show(elapsed());
    }, 250);
    // The timer stops when the answer is shown: that is the time to answer, the rating comes after.
    answer.addEventListener("toggle", function () {
      if (answer.open) {
        window.clearInterval(tick);
        show(elapsed());
        timer.classList.add("stopped");
        if (!duration.value) duration.value = String(elapsed());
      }
    });
  }

  form.addEventListener("submit", function (event) {
    if (submitted) {
      event.preventDefault();  // one rating per question, however fast the keys
      return;
    }
    submitted = true;
    if (!duration.value) duration.value = String(elapsed());
  });

  function typing(target) {
    if (!target) return false;
    var tag = target.tagName;
    return tag === "TEXTAREA" || tag === "INPUT" || tag === "SELECT" || target.isContentEditable;
  }

  function rate(key) {
    var button = form.querySelector('button[data-key="' + key + '"]');
    if (!button) return;
    if (typeof form.requestSubmit === "function") form.requestSubmit(button);
    else button.click();
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    if (typing(event.target)) {
      // Escape leaves the answer box, so the keys work again.
      if (event.key === "Escape") event.target.blur();
      return;
    }
    if (event.key === " ") {
      if (event.target && event.target.closest && event.target.closest("button, a, summary")) return;  // their own action
      event.preventDefault();
      // As in Anki: Space shows the answer, and once it is shown, Space means Good.
      if (!answer.open) answer.open = true;
      else rate("3");
      return;
    }
    if (answer.open && /^[1-4]$/.test(event.key)) {
      event.preventDefault();
      rate(event.key);
    }
  });
})();
