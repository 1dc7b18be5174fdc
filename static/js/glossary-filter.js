/* Glossary index: filter the A–Z list as you type (term names and aliases).
   Without JavaScript the same form filters on the server with ?q=. */
(function () {
  "use strict";
  var form = document.getElementById("glossary-filter");
  var input = document.getElementById("filter");
  var status = document.getElementById("filter-status");
  if (!form || !input) return;
  var items = Array.prototype.slice.call(document.querySelectorAll(".term-list li[data-names]"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.letter"));

  function apply() {
    var needle = input.value.trim().toLowerCase();
    var shown = 0;
    items.forEach(function (item) {
      var hit = !needle || item.dataset.names.split("|").some(function (n) { return n.indexOf(needle) !== -1; });
      item.hidden = !hit;
      if (hit) shown += 1;
    });
    sections.forEach(function (section) {
      section.hidden = !section.querySelector("li:not([hidden])");
    });
    status.textContent = needle ? shown + " of " + items.length + " terms match “" + input.value.trim() + "”." : "";
  }

  input.addEventListener("input", apply);
  form.addEventListener("submit", function (event) {
    // Every term is already on the page unless the server filtered it: filter in place.
    if (items.length) { event.preventDefault(); apply(); }
  });
})();
