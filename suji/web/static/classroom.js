// Class mode pages. The dashboard asks the server for the results every ~1.5 s and shows the grid it renders;
// a pupil's page asks for the class's phase every few seconds and reloads when the teacher starts, pauses or
// ends. A countdown shows the time limit (the server enforces it). No arithmetic and no scoring here.
(function () {
  "use strict";

  // The teacher's forms that ask before they act (end the class, let a name join again). Listened for on the
  // document, so the grid's forms, drawn again at every poll, ask too. A pupil's "skip" asks in the page
  // (drill.js), as giving up does.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches && form.matches("form[data-confirm]:not(.skip-form)") && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });

  var printButton = document.getElementById("print");
  if (printButton) {
    printButton.hidden = false;
    printButton.addEventListener("click", function () { window.print(); });
  }

  // ---- the countdown ----
  var clock = document.querySelector("#time-left .clock");
  var timeLeft = document.getElementById("time-left");
  var endsAt = null;
  var showLeft = function (left) {
    var seconds = left % 60;
    clock.textContent = Math.floor(left / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
  };
  // The server's count wins at every poll, so "+5 minutes" reaches every pupil and every dashboard tab.
  var syncClock = function (seconds) {
    if (!clock || !timeLeft || typeof seconds !== "number") return;
    if (endsAt !== null) endsAt = Date.now() + 1000 * seconds;
    else showLeft(seconds);
  };
  if (clock && timeLeft && timeLeft.dataset.running === "1") {
    endsAt = Date.now() + 1000 * parseInt(timeLeft.dataset.seconds, 10);
    var tick = function () {
      var left = Math.max(0, Math.round((endsAt - Date.now()) / 1000));
      showLeft(left);
      if (left === 0) {
        clearInterval(timer);
        if (document.getElementById("pupil") || document.getElementById("dashboard")) location.reload();
      }
    };
    var timer = setInterval(tick, 1000);
  }

  function getJSON(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      });
  }

  // ---- the teacher's dashboard ----
  var dashboard = document.getElementById("dashboard");
  if (dashboard) {
    var grid = document.getElementById("grid");
    var counts = document.getElementById("counts");
    var note = document.getElementById("live-note");
    var noteText = note ? note.textContent : "";
    var every = parseInt(dashboard.dataset.pollMs, 10) || 1500;
    var poll = function () {
      getJSON(dashboard.dataset.resultsUrl).then(function (data) {
        if (data.phase !== dashboard.dataset.phase) { location.reload(); return; }
        syncClock(data.seconds_left);
        grid.innerHTML = data.html; // rendered and escaped by the server (templates/classroom/_grid.html)
        if (counts) counts.textContent = data.counts_text;
        if (note) { note.textContent = noteText; note.classList.remove("error"); }
        setTimeout(poll, every);
      }).catch(function (error) {
        // Deleted (404) or no longer this teacher's (403): the page itself says which; no more polling.
        if (error.message === "404" || error.message === "403") { location.reload(); return; }
        if (note) { note.textContent = note.dataset.failed; note.classList.add("error"); }
        setTimeout(poll, every * 2);
      });
    };
    setTimeout(poll, every);

    // The projector's switches: a class on the page, kept for the next lesson on this computer.
    var switches = document.getElementById("view-switches");
    var toggles = [["projector-view", "projector", "suji-dashboard-projector"],
                   ["hide-names", "names-hidden", "suji-dashboard-hide-names"]];
    if (switches) {
      switches.hidden = false;
      toggles.forEach(function (t) {
        var button = document.getElementById(t[0]);
        var set = function (on) {
          document.body.classList.toggle(t[1], on);
          button.setAttribute("aria-pressed", on ? "true" : "false");
          try { localStorage.setItem(t[2], on ? "1" : ""); } catch (e) { /* private mode: for this page only */ }
        };
        var kept = "";
        try { kept = localStorage.getItem(t[2]) || ""; } catch (e) { kept = ""; }
        set(kept === "1");
        button.addEventListener("click", function () { set(!document.body.classList.contains(t[1])); });
      });
    }
  }

  // ---- a pupil's page ----
  var pupil = document.getElementById("pupil");
  // A formula being typed survives the reload that a pause or a restart by the teacher brings (kept in this tab
  // only, per problem, and dropped once it is sent).
  var box = document.getElementById("formula");
  if (pupil && box && window.sessionStorage) {
    var key = "suji-class-formula:" + (pupil.dataset.stateUrl || "") + ":" + (pupil.dataset.position || "");
    var kept = sessionStorage.getItem(key);
    if (kept && !box.value) {
      box.value = kept;
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
    box.addEventListener("input", function () { sessionStorage.setItem(key, box.value); });
    if (box.form) box.form.addEventListener("submit", function () { sessionStorage.removeItem(key); });
  }
  if (pupil && pupil.dataset.stateUrl && pupil.dataset.phase !== "ended") {
    var check = function () {
      getJSON(pupil.dataset.stateUrl).then(function (data) {
        if (data.phase !== pupil.dataset.phase || String(data.position) !== pupil.dataset.position) {
          location.reload();
          return;
        }
        syncClock(data.seconds_left);
        setTimeout(check, 3000);
      }).catch(function (error) {
        // No longer this class's pupil (the teacher let the name join elsewhere) or no class: the page says which.
        if (error.message === "403" || error.message === "404") { location.reload(); return; }
        setTimeout(check, 6000);
      });
    };
    setTimeout(check, 3000);
  }
})();
