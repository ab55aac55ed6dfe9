// Game pages: the cost of the chosen re-roll, the faces a chosen die can be set to, and the solver's advice.
// Everything here only helps the player choose: the server rolls the dice and checks every move.
(function () {
  "use strict";

  var game = document.getElementById("game");
  if (!game) return;
  var lang = document.documentElement.lang;

  // ---- the daily puzzle's day, when the reader's own date is another (it is the app's time zone's day) ----
  var dayChip = document.getElementById("day");
  if (dayChip && dayChip.getAttribute("data-day")) {
    var now = new Date();
    var mine = now.getFullYear() + "-" + String(now.getMonth() + 1).padStart(2, "0") + "-" + String(now.getDate()).padStart(2, "0");
    if (mine !== dayChip.getAttribute("data-day")) dayChip.textContent = dayChip.getAttribute("data-other-zone");
  }

  // ---- "answer anyway" is about one formula: it goes once the formula changes ----
  var confirmBox = document.getElementById("confirm-answer");
  var formulaBox = document.getElementById("formula");
  if (confirmBox && formulaBox) {
    var sureFor = document.getElementById("answer-anyway").value;
    formulaBox.addEventListener("formula-change", function () { confirmBox.hidden = formulaBox.value !== sureFor; });
  }

  // ---- times in the reader's own time zone (the server wrote them in the puzzle's) ----
  Array.prototype.forEach.call(document.querySelectorAll("time.local-time"), function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) return;
    // As suji.core.dates writes them on the server: 12月2日 11:43 / 2 Dec 11:43.
    el.textContent = when.toLocaleString(lang === "ja" ? "ja-JP" : "en-GB", {
      month: lang === "ja" ? "long" : "short", day: "numeric", hour: "numeric", minute: "2-digit"
    });
    // In another time zone than the puzzle's, the time says whose it is (the page's dates are the puzzle's).
    var zone = /([+-])(\d\d):(\d\d)$/.exec(el.getAttribute("datetime"));
    var own = el.getAttribute("data-own-zone");
    if (zone && own) {
      var theirs = (zone[1] === "-" ? -1 : 1) * (60 * Number(zone[2]) + Number(zone[3]));
      if (theirs !== -when.getTimezoneOffset()) el.textContent += (lang === "ja" ? "" : " ") + own;
    }
  });

  // ---- re-roll: show how many points the chosen dice cost ----
  var rerollForm = document.getElementById("reroll-form");
  var rerollButton = document.getElementById("reroll");
  var rerollHelp = document.getElementById("reroll-help");
  if (rerollForm && rerollButton) {
    var label = rerollButton.textContent;
    var boxes = Array.prototype.slice.call(rerollForm.querySelectorAll('input[name="die"]'));
    var update = function () {
      var n = boxes.filter(function (b) { return b.checked; }).length;
      var cost = n * Number(rerollForm.getAttribute("data-cost"));  // the server's cost of one die
      rerollButton.disabled = n === 0;
      if (rerollHelp) rerollHelp.hidden = n !== 0; // a greyed button says why
      rerollButton.textContent = n ? label + (lang === "ja" ? "（−" + cost + "点）" : " (−" + cost + ")") : label;
    };
    boxes.forEach(function (b) { b.addEventListener("change", update); });
    update();
  }

  // ---- set a face: only the faces the chosen die has, and not the one it shows ----
  var dieSelect = document.getElementById("set-die");
  var faceSelect = document.getElementById("set-face");
  if (dieSelect && faceSelect) {
    var showFaces = function () {
      var option = dieSelect.options[dieSelect.selectedIndex];
      var allowed = (option.getAttribute("data-faces") || "").split(" ");
      var current = option.getAttribute("data-current");
      var firstOk = null;
      Array.prototype.forEach.call(faceSelect.options, function (o) {
        var ok = allowed.indexOf(o.value) >= 0 && o.value !== current;
        o.hidden = !ok;
        o.disabled = !ok;
        if (ok && firstOk === null) firstOk = o;
      });
      var selected = faceSelect.options[faceSelect.selectedIndex];
      if ((!selected || selected.disabled) && firstOk) firstOk.selected = true;
      Array.prototype.forEach.call(faceSelect.querySelectorAll("optgroup"), function (group) {
        group.hidden = !group.querySelector("option:not([disabled])");
      });
    };
    dieSelect.addEventListener("change", showFaces);
    showFaces();
  }

  // ---- the solver's advice, on request (it can take a few seconds) ----
  // Without the odds table the server works the advice out off its request threads: it answers 202 "ask again
  // in N s" while it works (the page asks again by itself, a few times), 503 "busy, try again in N s" when its
  // queue is full (the player presses again), 429 while another question of this player is worked out.
  var advice = document.getElementById("advice");
  var adviceButton = document.getElementById("advice-button");
  var status = document.getElementById("advice-status");
  var list = document.getElementById("advice-list");
  var MAX_ASKS = 20;
  if (advice && adviceButton) {
    adviceButton.hidden = false;
    var done = function (text) {
      advice.classList.remove("thinking");
      adviceButton.disabled = false;
      if (text !== undefined) status.textContent = text;
    };
    var ask = function (asked) {
      fetch(advice.getAttribute("data-url"), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) {
          return response.json().then(function (data) { return { status: response.status, data: data }; });
        })
        .then(function (answer) {
          var data = answer.data;
          if (answer.status === 202 && data.error && asked < MAX_ASKS) {
            status.textContent = data.error.message || status.getAttribute("data-thinking");
            window.setTimeout(function () { ask(asked + 1); }, 1000 * Math.max(1, data.error.retry_after || 1));
            return;
          }
          if (data.error) { done(data.error.message || ""); return; }
          done();
          status.hidden = true;
          (data.options || []).forEach(function (option, i) {
            var item = document.createElement("li");
            // text_html: the server's own escaped text with the page's ruby added (suji.web.furigana.with_ruby)
            if (option.text_html) item.innerHTML = option.text_html;
            else item.textContent = option.text;
            if (i === 0) item.className = "advice-best";
            list.appendChild(item);
          });
          markAdvised(data.options && data.options[0]);
        })
        .catch(function () { done(status.getAttribute("data-failed")); });
    };
    adviceButton.addEventListener("click", function () {
      adviceButton.disabled = true;
      status.hidden = false;
      status.textContent = status.getAttribute("data-thinking");
      advice.classList.add("thinking");
      list.textContent = "";
      ask(1);
    });
  }

  // Tick the dice of the best re-roll (the player still decides), or pick the die of the best set face.
  function markAdvised(best) {
    if (!best) return;
    if (best.kind === "reroll" && rerollForm) {
      Array.prototype.forEach.call(rerollForm.querySelectorAll('input[name="die"]'), function (b) {
        b.checked = best.dice_ids.indexOf(b.value) >= 0;
        b.dispatchEvent(new Event("change"));
      });
    } else if (best.kind === "set" && dieSelect) {
      dieSelect.value = best.dice_ids[0];
      dieSelect.dispatchEvent(new Event("change"));
      faceSelect.value = String(best.face);
    }
  }
})();
