/* Question pages: draw the worked answer's charts from the JSON the server
   embedded, when the answer is first shown (plotly cannot size a hidden div). */
(function () {
  "use strict";
  var data = document.getElementById("chart-data");
  if (!data) return;
  var drawn = false;

  function draw() {
    if (drawn || !window.Plotly) return;
    drawn = true;
    JSON.parse(data.textContent).forEach(function (figure, index) {
      var plot = document.getElementById("chart-" + index);
      if (plot) window.Plotly.react(plot, figure.data, figure.layout, { responsive: true, displaylogo: false });
    });
  }

  var answer = data.closest("details");
  if (!answer) return draw();
  if (answer.open) draw();
  answer.addEventListener("toggle", function () { if (answer.open) draw(); });
})();
