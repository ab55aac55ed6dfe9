// Drill page: build a formula by tapping dice or typing, grey out used dice, show the exact value so far.
// The value comes from the server (POST /api/value): no arithmetic happens here.
(function () {
  "use strict";

  var root = document.getElementById("drill");
  if (!root) return;
  var input = document.getElementById("formula");
  var output = document.getElementById("live-value");
  var undoButton = document.getElementById("undo");
  var clearButton = document.getElementById("clear");
  var dialog = document.getElementById("six-nine");
  var csrfToken = document.querySelector('meta[name="csrf-token"]').getAttribute("content");
  var dice = Array.prototype.slice.call(root.querySelectorAll("button.die"));

  // The formula as tokens: {text: what it adds to the input, face: the die face it stands for, die: button|null}.
  var tokens = [];
  var pendingDie = null;

  // A lexer mirroring grammar/suji.lark, used only to tell which dice typed text uses; the server checks.
  var RULES = [
    [/^(²|[2２][ \t\u3000]*乗|\^[ \t\u3000]*[2２]|\*\*[ \t\u3000]*[2２])/, "²"],
    [/^(√|sqrt|root|平方根|ルート)/i, "√"],
    [/^[+＋]/, "+"],
    [/^[-−－–ー]/, "−"],
    [/^[*xX×＊✕ｘ]/, "×"],
    [/^[\/÷／]/, "÷"],
    [/^[0-9０-９]/, null]
  ];

  function lex(text) {
    var result = [];
    var rest = text;
    while (rest.length) {
      var space = /^[ \t\u3000]+/.exec(rest);
      if (space) { rest = rest.slice(space[0].length); continue; }
      var matched = false;
      for (var i = 0; i < RULES.length; i++) {
        var m = RULES[i][0].exec(rest);
        if (m) {
          var face = RULES[i][1];
          if (face === null) {
            var wide = "０１２３４５６７８９".indexOf(m[0]);
            face = wide >= 0 ? String(wide) : m[0];
          }
          result.push({ text: m[0], face: face, die: null });
          rest = rest.slice(m[0].length);
          matched = true;
          break;
        }
      }
      if (!matched) { result.push({ text: rest[0], face: null, die: null }); rest = rest.slice(1); }
    }
    return result;
  }

  function freeDie(face, taken) {
    for (var i = 0; i < dice.length; i++) {
      var d = dice[i];
      if (taken.indexOf(d) < 0 && d.dataset.face === face) return d;
    }
    return null;
  }

  // Give typed tokens dice, as the checker does: "×1d" is a constant die when one is free, a 9 is a turned 6.
  function assign(list) {
    var taken = [];
    var out = [];
    for (var i = 0; i < list.length; i++) {
      var t = list[i];
      if (t.face === "×" && i + 2 < list.length && list[i + 1].face === "1" && /^[012]$/.test(list[i + 2].face)) {
        var constant = freeDie("×1" + list[i + 2].face, taken);
        if (constant) {
          taken.push(constant);
          out.push({ text: t.text + list[i + 1].text + list[i + 2].text, face: constant.dataset.face, die: constant });
          i += 2;
          continue;
        }
      }
      var die = t.face === null ? null : freeDie(t.face, taken) || (t.face === "9" ? freeDie("6", taken) : null);
      if (die) taken.push(die);
      out.push({ text: t.text, face: t.face, die: die });
    }
    return out;
  }

  function render(fromTyping) {
    if (!fromTyping) input.value = tokens.map(function (t) { return t.text; }).join("");
    staleTrack();
    dice.forEach(function (d) {
      var used = tokens.some(function (t) { return t.die === d; });
      d.classList.toggle("used", used);
      d.setAttribute("aria-disabled", used ? "true" : "false");
    });
    scheduleValue();
  }

  function push(die, text) {
    tokens.push({ text: text, face: die.dataset.face, die: die });
    render(false);
  }

  dice.forEach(function (die) {
    die.addEventListener("click", function () {
      if (die.classList.contains("used")) return;
      if (die.dataset.kind === "number" && die.dataset.face === "6" && dialog && dialog.showModal) {
        pendingDie = die;
        dialog.returnValue = "";
        dialog.showModal();
        return;
      }
      push(die, die.dataset.face);
    });
  });

  if (dialog) {
    dialog.addEventListener("close", function () {
      var choice = dialog.returnValue;
      if (pendingDie && (choice === "6" || choice === "9")) push(pendingDie, choice);
      if (pendingDie) pendingDie.focus();
      pendingDie = null;
    });
  }

  input.addEventListener("input", function () {
    tokens = assign(lex(input.value));
    render(true);
  });

  undoButton.hidden = false;
  clearButton.hidden = false;
  undoButton.addEventListener("click", function () {
    tokens.pop();
    render(false);
  });
  // Clear leaves the focus where it is: focusing the text box would raise a phone's keyboard over the dice.
  clearButton.addEventListener("click", function () {
    tokens = [];
    render(false);
  });

  // ---- the value so far, computed exactly on the server ----
  var timer = null;
  var sequence = 0;

  function scheduleValue() {
    clearTimeout(timer);
    timer = setTimeout(showValue, 150);
  }

  function postJSON(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken },
      body: JSON.stringify(body)
    }).then(function (response) { return response.json(); });
  }

  function showValue() {
    var formula = input.value;
    var mine = ++sequence;
    if (!formula.trim()) { output.textContent = ""; output.className = ""; return; }
    // A drill page names its roll with a signed token; the first puzzle sends its (public, fixed) dice.
    var body = root.dataset.dice ? Object.assign(JSON.parse(root.dataset.dice), { formula: formula })
                                 : { formula: formula, roll: root.dataset.roll };
    postJSON(root.dataset.valueUrl, body).then(function (data) {
      if (mine !== sequence) return; // a newer formula is on its way
      if (data.unfinished) {
        // Only the next die is missing: not a mistake, so no red.
        output.textContent = data.message || "…";
        output.className = "unfinished";
      } else if (data.error && data.error.message) {
        output.textContent = data.error.message;
        output.className = "error";
      } else {
        output.textContent = "= " + data.display + (data.target ? " ✓" : "");
        output.className = data.target ? "made" : "";
      }
    }).catch(function () { output.textContent = ""; });
  }

  // ---- hints (only when the server has a solver) ----
  var hintButton = document.getElementById("hint-button");
  var trackButton = document.getElementById("track-button");
  var hintList = document.getElementById("hint-list");
  var trackAnswer = document.getElementById("track-answer");
  var hintStep = parseInt(root.dataset.hintStep || "0", 10) || 0; // a class page lists the hints already shown
  var trackedFormula = null;

  // A "still on track?" answer is about one formula: it goes as soon as the formula changes.
  function staleTrack() {
    if (trackAnswer && trackedFormula !== null && input.value !== trackedFormula) {
      trackAnswer.textContent = "";
      trackedFormula = null;
    }
  }
  if (hintButton && root.dataset.hintUrl) {
    hintButton.hidden = false;
    hintButton.addEventListener("click", function () {
      postJSON(root.dataset.hintUrl, { step: hintStep, roll: root.dataset.roll }).then(function (data) {
        if (data.error) { trackAnswer.textContent = data.error.message; return; }
        var item = document.createElement("li");
        item.textContent = data.hint;
        hintList.appendChild(item);
        hintStep += 1;
        if (!data.more) hintButton.disabled = true;
      });
    });
  }
  if (trackButton && root.dataset.trackUrl) {
    trackButton.hidden = false;
    trackButton.addEventListener("click", function () {
      var asked = input.value;
      postJSON(root.dataset.trackUrl, { formula: asked, roll: root.dataset.roll }).then(function (data) {
        if (input.value !== asked) return; // the formula changed while the answer was on its way
        trackAnswer.textContent = data.error ? data.error.message : data.message;
        trackedFormula = asked;
      });
    });
  }

  // A formula carried over from "try again" or typed before the script ran.
  if (input.value) {
    tokens = assign(lex(input.value));
    render(true);
  }
})();
