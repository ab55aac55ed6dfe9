/* A pupil's report: the "Print" button (hidden without JavaScript; the browser's own print does the same). */
(function () {
  "use strict";
  var button = document.getElementById("print");
  if (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  }
})();
