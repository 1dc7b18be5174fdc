// The admin's content pages, enhanced (each works without this file):
// - a Markdown field's preview follows the text as you type, rendered by the
//   site's one renderer on the server (Markdown, then the sanitiser);
// - picking another calculator shows its inputs at once, by pressing the
//   "Show this calculator's inputs" button beside the picker.
(function () {
  "use strict";

  function csrfToken(form) {
    var input = form && form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function watchPreview(preview) {
    var textarea = document.getElementById(preview.dataset.previewFor);
    var body = preview.querySelector(".markdown-preview-body");
    if (!textarea || !body) return;
    var timer = null;
    var sent = 0;
    textarea.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var data = new FormData();
        data.append("text", textarea.value);
        data.append("inline", textarea.dataset.markdown === "inline" ? "1" : "0");
        var token = csrfToken(textarea.form);
        var ticket = ++sent;
        fetch(preview.dataset.previewUrl, {
          method: "POST",
          body: data,
          credentials: "same-origin",
          headers: { "X-CSRFToken": token },
        })
          .then(function (response) {
            return response.ok ? response.text() : Promise.reject(response.status);
          })
          .then(function (html) {
            // Already sanitised by the server (nh3): the same HTML the public page will get.
            if (ticket === sent) body.innerHTML = html;
          })
          .catch(function () {
            if (ticket === sent) body.textContent = "(The preview could not be updated; it will show after saving.)";
          });
      }, 250);
    });
  }

  function watchCalculator(button) {
    var form = button.form;
    var select = form && form.querySelector("select[name=calculator]");
    if (!select) return;
    select.addEventListener("change", function () {
      if (form.requestSubmit) form.requestSubmit(button);
      else button.click();
    });
  }

  function init() {
    document.querySelectorAll(".markdown-preview[data-preview-for]").forEach(watchPreview);
    document.querySelectorAll("[data-calculator-refresh]").forEach(watchCalculator);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
