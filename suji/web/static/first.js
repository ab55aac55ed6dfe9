// The guided first puzzle: show one step of the guide at a time and move on as the formula grows.
// The dice, the value so far and the score all come from the server (drill.js and /api/check).
(function () {
  "use strict";

  var root = document.getElementById("drill");
  var guide = document.getElementById("guide");
  if (!root || !guide) return;
  var input = document.getElementById("formula");
  var output = document.getElementById("live-value");
  var result = document.getElementById("first-result");
  var note = document.getElementById("guide-note");
  var csrfToken = document.querySelector('meta[name="csrf-token"]').getAttribute("content");
  var steps = Array.prototype.slice.call(guide.querySelectorAll("li[data-step]"));
  var current = 0;

  function show(n) {
    current = Math.min(n, steps.length - 1);
    // Only the step to do now: the dice stay near the top of a phone's screen.
    steps.forEach(function (li, i) {
      li.hidden = i !== current;
      li.classList.toggle("current", i === current);
      li.classList.toggle("done", i < current);
    });
  }

  // The formula as the guide compares it: no spaces, full-width digits and signs as typed on a phone allowed.
  function plain(text) {
    return text.replace(/[\s\u3000]/g, "").replace(/[０-９]/g, function (c) {
      return String("０１２３４５６７８９".indexOf(c));
    }).replace(/＋/g, "+");
  }

  // Where the formula leaves the guide's path (a 6 kept as 6, another die), say how to get back on it.
  function offPath(formula) {
    var expected = steps[current] && steps[current].getAttribute("data-when");
    if (!expected || !formula) return false;
    return expected.indexOf(formula) !== 0 && formula.indexOf(expected) !== 0;
  }

  function follow() {
    var formula = plain(input.value);
    // Said right under the guide's step, where the student is looking (the result line is further down).
    note.textContent = offPath(formula) ? guide.getAttribute("data-off-path") : "";
    // Step i asks for the formula in its data-when; once the formula is there, the next step shows.
    for (var i = steps.length - 1; i > 0; i--) {
      if (steps[i].getAttribute("data-when") === formula) {
        show(Math.max(current, i + 1));
        return;
      }
    }
  }

  guide.querySelector("[data-next]").addEventListener("click", function (event) {
    show(1);
    // From the keyboard (a click without a pointer) the focus would be left on the hidden step: on to the dice.
    var firstDie = root.querySelector('button.die[tabindex="0"]');
    if (event.detail === 0 && firstDie) firstDie.focus();
    // The next step is "tap a die": on a phone the dice were under the formula bar. A die's scroll margin keeps
    // it clear of the bar.
    var dice = root.querySelectorAll(".dice-panel button.die");
    if (dice.length) dice[dice.length - 1].scrollIntoView({ block: "nearest" });
  });
  // drill.js writes the value after every change, typed or tapped: follow the formula from there.
  new MutationObserver(follow).observe(output, { childList: true, characterData: true, subtree: true });

  // "Check" sends the form (a GET of this page) without JavaScript; here the answer comes in place instead.
  var form = document.getElementById("formula-form");
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var body = Object.assign(JSON.parse(root.dataset.dice), { formula: input.value });
    fetch(root.dataset.checkUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken },
      body: JSON.stringify(body)
    }).then(function (r) { return r.json(); }).then(function (data) {
      if (data.valid && data.target !== null) {
        result.textContent = "✓ " + data.scored_formula + " = " + data.target;
        show(steps.length - 1);
      } else if (data.valid) {
        result.textContent = "✗ " + input.value + " = " + form.getAttribute("data-miss").replace("{value}", data.value);
      } else {
        result.textContent = data.error ? data.error.message : "";
      }
      // The verdict takes the focus (a keyboard or screen reader is told at once); the bar keeps it in view.
      result.focus({ preventScroll: true });
      if (data.valid && data.target !== null) {
        // The explanation of the score is in the guide at the top: bring it into view (a phone has scrolled).
        guide.scrollIntoView({ behavior: "smooth", block: "start" });
      }
    });
  });

  // The page was asked with a formula that makes 125 (checked by the server): the guide is at its end.
  show(root.dataset.made ? steps.length - 1 : 0);
})();
