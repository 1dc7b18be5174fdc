/* Calculator pages: pair each slider with its number box, draw the charts the
   server sends, and keep error marks in step with the server's answers
   (copy-link.js copies the link). Question pages use only the charts, drawn
   when the answer is opened, or at once in the interviewer view.
   No inline script anywhere, so a strict Content-Security-Policy holds. */
(function () {
  "use strict";
  var PLOT_CONFIG = {
    responsive: true,
    displaylogo: false,
    modeBarButtonsToRemove: ["select2d", "lasso2d", "autoScale2d", "toggleSpikelines"]
  };

  /* ---- charts ----------------------------------------------------------- */

  function drawCharts() {
    var data = document.getElementById("chart-data");
    if (!data || !window.Plotly) return;
    var figures = JSON.parse(data.textContent);
    figures.forEach(function (figure, index) {
      var plot = document.getElementById("chart-" + index);
      if (plot) window.Plotly.react(plot, figure.data, figure.layout, PLOT_CONFIG);
    });
  }

  var form = document.getElementById("calc-form");
  if (!form) {
    // A question page. The candidate's worked answer sits in a closed <details>,
    // and plotly cannot size a hidden div, so draw the first time it opens; the
    // interviewer view has no <details> and draws at once.
    var answer = document.querySelector("details.answer");
    if (!answer || answer.open) return drawCharts();
    answer.addEventListener("toggle", function drawOnce() {
      answer.removeEventListener("toggle", drawOnce);
      drawCharts();
    });
    return;
  }

  /* ---- sliders ---------------------------------------------------------- */

  function niceValue(value, slider) {
    var step = parseFloat(slider.dataset.step) || 1;
    if (slider.hasAttribute("data-log")) value = Number(value.toPrecision(3));
    if (slider.hasAttribute("data-integer")) return Math.max(1, Math.round(value));
    var snapped = Math.round(value / step) * step;
    return Number(snapped.toPrecision(12));
  }

  function sliderToValue(slider) {
    var position = parseFloat(slider.value);
    if (!slider.hasAttribute("data-log")) return niceValue(position, slider);
    var low = Math.log10(parseFloat(slider.dataset.low));
    var high = Math.log10(parseFloat(slider.dataset.high));
    return niceValue(Math.pow(10, low + (position / 1000) * (high - low)), slider);
  }

  function valueToSlider(slider, value) {
    if (!isFinite(value)) return;
    if (!slider.hasAttribute("data-log")) {
      slider.value = String(value);
      return;
    }
    var low = Math.log10(parseFloat(slider.dataset.low));
    var high = Math.log10(parseFloat(slider.dataset.high));
    var position = value > 0 ? ((Math.log10(value) - low) / (high - low)) * 1000 : 0;
    slider.value = String(Math.min(1000, Math.max(0, Math.round(position))));
  }

  form.querySelectorAll("input[type=range][data-for]").forEach(function (slider) {
    var box = document.getElementById(slider.dataset.for);
    if (!box) return;
    slider.hidden = false;
    valueToSlider(slider, parseFloat(box.value));
    slider.addEventListener("input", function () {
      box.value = String(sliderToValue(slider));
    });
    box.addEventListener("input", function () {
      valueToSlider(slider, parseFloat(box.value));
    });
  });

  /* ---- errors ----------------------------------------------------------- */

  function markErrors(clear) {
    form.querySelectorAll(".field-error").forEach(function (slot) {
      if (clear) slot.textContent = "";
      var has = slot.textContent.trim() !== "";
      var field = slot.closest(".field");
      var control = document.getElementById("id_" + slot.id.slice(4));
      if (field) field.classList.toggle("has-error", has);
      if (control) {
        if (has) control.setAttribute("aria-invalid", "true");
        else control.removeAttribute("aria-invalid");
      }
    });
  }

  /* ---- presets ---------------------------------------------------------- */

  // Picking a GPU or model fills the inputs it determines from the values the
  // server embedded for every pair, then htmx recomputes (the select's own
  // input event) and the address carries gpu=/model= and the filled values.
  var presetData = document.getElementById("preset-data");
  var presets = presetData ? JSON.parse(presetData.textContent) : null;
  var pickers = ["gpu", "model"].map(function (name) { return document.getElementById("id_" + name); });
  var presetNotice = null;

  function setBox(name, value) {
    var box = document.getElementById("id_" + name);
    if (!box) return;
    box.value = String(value);
    var slider = form.querySelector('input[type=range][data-for="id_' + name + '"]');
    if (slider) valueToSlider(slider, value);
  }

  function showPresetNotice() {
    if (!presetNotice) return;
    var slot = document.getElementById("err_" + presetNotice.field);
    if (slot) slot.textContent = presetNotice.text;
    markErrors(false);
  }

  function applyPresets() {
    var key = pickers.map(function (p) { return p ? p.value : ""; }).join("|");
    var entry = presets.combos[key];
    if (!entry) return;
    Object.keys(entry.values).forEach(function (name) { setBox(name, entry.values[name]); });
    presetNotice = entry.error ? { field: entry.field, text: entry.error + " Memory free for the cache is left as it was." } : null;
    form.querySelectorAll("#err_gpu, #err_model").forEach(function (slot) { slot.textContent = ""; });
    markErrors(false);
    showPresetNotice();
  }

  if (presets) {
    var apply = document.getElementById("apply-presets");
    if (apply) apply.hidden = true;  // with the script, picking is applying
    pickers.forEach(function (picker) {
      if (picker) picker.addEventListener("change", applyPresets);
    });
  }

  function refreshApiLink() {
    var link = document.getElementById("api-link");
    if (link) link.href = link.pathname + window.location.search;
  }

  document.addEventListener("htmx:after:swap", function (event) {
    var ctx = event.detail && event.detail.ctx;
    var ok = ctx && ctx.response && ctx.response.status < 400;
    markErrors(ok);
    if (ok) showPresetNotice();
    if (ok) drawCharts();
    refreshApiLink();
  });

  drawCharts();
})();
