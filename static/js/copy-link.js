/* "Copy link" buttons: <button data-copy="INPUT-ID" data-status="STATUS-ID" hidden>.
   The button copies the named input's value (a page's share link, built by the
   server), or the address bar when it names none (a calculator, whose address
   htmx keeps in step with the sliders). Without JavaScript the button stays
   hidden and the link is still there to select. No inline script anywhere. */
(function () {
  "use strict";

  function say(status, text) {
    if (status) status.textContent = text;
  }

  function selectAll(input) {
    if (!input) return;
    input.focus();
    input.select();
  }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var input = button.dataset.copy ? document.getElementById(button.dataset.copy) : null;
    var status = button.dataset.status ? document.getElementById(button.dataset.status) : null;
    button.hidden = false;
    if (input) input.addEventListener("focus", function () { input.select(); });

    button.addEventListener("click", function () {
      var url = input ? input.value : window.location.href;
      var done = function () { say(status, "Link copied."); };
      // No clipboard (plain http, or permission refused): leave the link selected to copy by hand.
      var failed = function () {
        selectAll(input);
        say(status, input ? "Press Ctrl+C (⌘C on a Mac) to copy the selected link." : "Copy this link: " + url);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(done, failed);
      } else {
        failed();
      }
    });
  });

  // A calculator's address changes with every recompute: an old "Link copied." would be stale.
  document.addEventListener("htmx:after:swap", function () {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      var input = button.dataset.copy ? document.getElementById(button.dataset.copy) : null;
      var status = button.dataset.status ? document.getElementById(button.dataset.status) : null;
      if (!input) say(status, "");
    });
  });
})();
