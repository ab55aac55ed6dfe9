// A class's pupil pages. The sign-in card's QR code opens /signin#CODE: the code after the # (which a browser never
// sends to the server, so no server log holds it) fills the box and signs in at once. A timed homework's clock
// counts down between answers (the server decides; this only shows it). Typing and answering work without this.
(function () {
  "use strict";
  var input = document.getElementById("code-input");
  var fromHash = function () {
    if (!input || !location.hash) return;
    var code = decodeURIComponent(location.hash.slice(1)).replace(/[^A-Za-z0-9-]/g, "").slice(0, 20);
    history.replaceState(null, "", location.pathname + location.search); // the code leaves the address bar
    if (code) {
      input.value = code;
      var form = document.getElementById("signin-form");
      if (form) form.submit();
    }
  };
  if (input && !input.value) fromHash();
  window.addEventListener("hashchange", fromHash); // the card's address opened on the sign-in page itself
  var clock = document.getElementById("time-left");
  if (clock && clock.dataset.seconds) {
    var left = parseInt(clock.dataset.seconds, 10);
    var shown = clock.querySelector(".clock");
    var tick = function () {
      left = Math.max(0, left - 1);
      shown.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (left === 0) { location.reload(); return; }
      setTimeout(tick, 1000);
    };
    setTimeout(tick, 1000);
  }
  // (Skipping a problem asks first in the page: drill.js, with the formula box.)
})();
