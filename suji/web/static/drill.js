// Drill page: build a formula by tapping dice or typing, grey out used dice, show the exact value so far.
// The value comes from the server (POST /api/value): no arithmetic happens here.
(function () {
  "use strict";

  // ---- a move that cannot be taken back (giving up a game's target or a practice problem, skipping a class's
  // problem): asked once, in the page, in the app's own box (a browser's confirm box looks like a warning from
  // somewhere else, on a phone under the site's address). The form says the question (data-confirm) and the two
  // answers (data-yes, data-no). A give-up's yes goes with the form as sure=give-up (suji/web/giving_up.py);
  // without this script the server asks on the page instead (a tap before it loaded), and that box's own
  // "Yes, give up" button is the yes already.
  // The yes is known by a mark its click leaves on the form (event.submitter, newer, is missing in Safari before
  // 15.4, on many a school iPad): the server's own box's yes (value give-up) or the box below's (data-sure).
  function askFirst(form, event) {
    var giveUp = form.classList.contains("give-up");
    if (form.getAttribute("data-sure") === "yes") return; // the yes
    event.preventDefault();
    var asked = form.querySelector(".confirm-answer");
    if (asked) { asked.focus(); return; }
    var button = form.querySelector("button[type=submit]");
    var box = document.createElement("div");
    box.className = "confirm-answer";
    box.id = giveUp ? "confirm-give-up" : "confirm-skip";
    // A small dialog in the page: its question is its name, read out at once; Escape is "No".
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-labelledby", box.id + "-question");
    box.tabIndex = -1;
    var question = document.createElement("p");
    question.id = box.id + "-question";
    question.textContent = form.getAttribute("data-confirm");
    var yes = document.createElement("button");
    yes.type = "submit";
    yes.setAttribute("data-sure", "");
    yes.id = giveUp ? "give-up-sure" : "skip-sure";
    if (giveUp) { yes.name = "sure"; yes.value = "give-up"; }
    yes.textContent = form.getAttribute("data-yes");
    var no = document.createElement("button");
    no.type = "button";
    no.id = "keep-playing";
    no.textContent = form.getAttribute("data-no");
    var keep = function () {
      box.remove();
      if (button) button.focus();
    };
    no.addEventListener("click", keep);
    box.addEventListener("keydown", function (key) {
      if (key.key === "Escape") keep();
    });
    box.appendChild(question);
    box.appendChild(yes);
    box.appendChild(document.createTextNode(" "));
    box.appendChild(no);
    form.insertBefore(box, button);
    box.focus();
  }
  Array.prototype.forEach.call(
    document.querySelectorAll("form.give-up[data-confirm], form.skip-form[data-confirm]"),
    function (form) {
      form.addEventListener("click", function (event) {
        var yes = event.target.closest && event.target.closest("button[data-sure], button[value='give-up']");
        if (yes) form.setAttribute("data-sure", "yes");
      });
      form.addEventListener("submit", function (event) { askFirst(form, event); });
    }
  );

  var root = document.getElementById("drill");
  if (!root) return;

  // A message from the server, with the page's furigana when it sent them (`…_html`: its own escaped text with
  // <ruby> added, suji.web.furigana.with_ruby); else as plain text.
  function showMessage(element, text, html) {
    if (html) element.innerHTML = html;
    else element.textContent = text;
  }
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
  var pendingFromKeyboard = false;

  // The dice a typed formula uses come from the server with its value (the "dice" of /api/value: which die
  // each piece of the text stands for, read as the checker reads it): this page never reads a formula itself.
  function buttonFor(id) {
    for (var i = 0; i < dice.length; i++) {
      if (dice[i].dataset.kind.charAt(0) + dice[i].dataset.index === id) return dice[i];
    }
    return null;
  }

  // Used dice are greyed and leave the tab order: the dice are one stop for Tab (the die that last had the focus,
  // else the first one free) and the arrow keys move among the free ones (see moveFocus).
  var current = null;
  function isFree(d) { return !d.classList.contains("used"); }
  function greyUsed() {
    dice.forEach(function (d) {
      var used = tokens.some(function (t) { return t.die === d; });
      d.classList.toggle("used", used);
      d.setAttribute("aria-disabled", used ? "true" : "false");
    });
    var free = dice.filter(isFree);
    if (!current || !isFree(current)) current = free[0] || null;
    dice.forEach(function (d) { d.tabIndex = d === current ? 0 : -1; });
  }

  function rowOf(d) { return dice.filter(function (o) { return o.dataset.kind === d.dataset.kind; }); }
  function centre(d) { var r = d.getBoundingClientRect(); return r.left + r.width / 2; }
  function focusDie(d) {
    if (!d) return;
    current = d;
    dice.forEach(function (o) { o.tabIndex = o === d ? 0 : -1; });
    d.focus();
  }
  // Left/Right: the free die before or after in the same row (round the row's end); Up/Down: the free die of the
  // other row nearest below or above; Home/End: the row's first and last free die.
  function moveFocus(from, key) {
    var row = rowOf(from).filter(function (d) { return isFree(d) || d === from; });
    var at = row.indexOf(from);
    if (key === "ArrowRight" || key === "ArrowLeft") {
      var step = key === "ArrowRight" ? 1 : -1;
      for (var i = 1; i < row.length; i++) {
        var d = row[(at + step * i + row.length * i) % row.length];
        if (isFree(d)) return d;
      }
      return null;
    }
    if (key === "Home" || key === "End") {
      var ends = row.filter(isFree);
      return key === "Home" ? ends[0] : ends[ends.length - 1];
    }
    var other = dice.filter(function (d) { return d.dataset.kind !== from.dataset.kind && isFree(d); });
    var x = centre(from);
    other.sort(function (a, b) { return Math.abs(centre(a) - x) - Math.abs(centre(b) - x); });
    return other[0] || null;
  }
  // After a die is used from the keyboard the focus goes on to the next free die of its row (else the other row):
  // a formula's numbers are often several dice in a row.
  function nextAfterUse(die) {
    var row = rowOf(die);
    var at = row.indexOf(die);
    for (var i = 1; i < row.length; i++) {
      var d = row[(at + i) % row.length];
      if (isFree(d)) return d;
    }
    return dice.filter(isFree)[0] || null;
  }

  function render(fromTyping) {
    if (!fromTyping) {
      input.value = tokens.map(function (t) { return t.text; }).join("");
      // A tapped die is the formula's end: in a box narrower than the formula (a phone), the end is what shows.
      input.scrollLeft = input.scrollWidth;
    }
    input.dispatchEvent(new CustomEvent("formula-change")); // typed or tapped: for the page's own script
    staleTrack();
    greyUsed();
    scheduleValue();
  }

  // A die used from the keyboard hands the focus on (a tap leaves it: moving it would scroll the page).
  function push(die, text, fromKeyboard) {
    tokens.push({ text: text, face: die.dataset.face, die: die });
    render(false);
    if (fromKeyboard) focusDie(nextAfterUse(die));
  }

  dice.forEach(function (die) {
    die.addEventListener("click", function (event) {
      if (die.classList.contains("used")) return;
      var fromKeyboard = event.detail === 0; // Enter or Space on the button: a click without a pointer
      if (die.dataset.kind === "number" && die.dataset.face === "6" && dialog && dialog.showModal) {
        pendingDie = die;
        pendingFromKeyboard = fromKeyboard;
        dialog.returnValue = "";
        dialog.showModal();
        return;
      }
      push(die, die.dataset.face, fromKeyboard);
    });
    die.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (/^(Arrow(Left|Right|Up|Down)|Home|End)$/.test(event.key)) {
        event.preventDefault();
        focusDie(moveFocus(die, event.key));
      } else if (event.key === "Backspace") {
        event.preventDefault();
        undo();
      }
    });
    die.addEventListener("focus", function () {
      if (!isFree(die)) return;
      current = die;
      dice.forEach(function (o) { o.tabIndex = o === die ? 0 : -1; });
    });
  });

  if (dialog) {
    dialog.addEventListener("close", function () {
      var choice = dialog.returnValue;
      if (pendingDie && (choice === "6" || choice === "9")) {
        tokens.push({ text: choice, face: pendingDie.dataset.face, die: pendingDie });
        render(false);
      }
      var die = pendingDie;
      pendingDie = null;
      if (!die) return;
      if ((choice === "6" || choice === "9") && pendingFromKeyboard) focusDie(nextAfterUse(die));
      else if (choice !== "6" && choice !== "9") die.focus();
    });
  }

  input.addEventListener("input", function () {
    // Until the server says which dice the text uses, it is one piece of text that uses none.
    tokens = input.value ? [{ text: input.value, face: null, die: null }] : [];
    render(true);
  });

  undoButton.hidden = false;
  clearButton.hidden = false;
  // Undo gives back the last die; from the dice (Backspace) the focus goes to the die given back.
  function undo() {
    var last = tokens.pop();
    render(false);
    if (last && last.die && dice.indexOf(document.activeElement) >= 0) focusDie(last.die);
  }
  undoButton.addEventListener("click", undo);
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
      if (data.dice && input.value === formula) {
        tokens = data.dice.map(function (piece) {
          return { text: formula.slice(piece.start, piece.end), face: null, die: buttonFor(piece.die) };
        });
        greyUsed();
      }
      if (data.unfinished) {
        // Only the next die is missing: not a mistake, so no red.
        showMessage(output, data.message || "…", data.message_html);
        output.className = "unfinished";
      } else if (data.error && data.error.message) {
        showMessage(output, data.error.message, data.error.message_html);
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
      hintButton.disabled = true; // one hint at a time: a quick second tap would ask for the same one again
      postJSON(root.dataset.hintUrl, { step: hintStep, roll: root.dataset.roll }).then(function (data) {
        if (data.error) {
          showMessage(trackAnswer, data.error.message, data.error.message_html);
          hintButton.disabled = false;
          return;
        }
        var item = document.createElement("li");
        showMessage(item, data.hint, data.hint_html);
        hintList.appendChild(item);
        hintStep += 1;
        hintButton.disabled = !data.more;
      }).catch(function () { hintButton.disabled = false; });
    });
  }
  if (trackButton && root.dataset.trackUrl) {
    trackButton.hidden = false;
    trackButton.addEventListener("click", function () {
      var asked = input.value;
      postJSON(root.dataset.trackUrl, { formula: asked, roll: root.dataset.roll }).then(function (data) {
        if (input.value !== asked) return; // the formula changed while the answer was on its way
        if (data.error) showMessage(trackAnswer, data.error.message, data.error.message_html);
        else showMessage(trackAnswer, data.message, data.message_html);
        trackedFormula = asked;
      });
    });
  }

  greyUsed(); // one tab stop for the dice from the start
  // A formula carried over from "try again" or typed before the script ran.
  if (input.value) {
    tokens = [{ text: input.value, face: null, die: null }];
    render(true);
  }
})();
