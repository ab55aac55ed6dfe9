// Practice's sign-in page: the card's QR code opens /practice/signin#CODE, and the code after the # (which a
// browser never sends to the server, so no server log holds it) fills the box. Typing works without this.
(function () {
  "use strict";
  var input = document.getElementById("code-input");
  if (!input || input.value || !location.hash) return;
  var code = decodeURIComponent(location.hash.slice(1)).replace(/[^A-Za-z0-9-]/g, "").slice(0, 20);
  if (code) input.value = code;
  history.replaceState(null, "", location.pathname + location.search); // the code leaves the address bar
})();
