// Lesson questions: check an answer without reloading the page, and "/" and "%" keys beside each answer box.
// The server still checks every answer: the form is posted with fetch (asking for JSON), the server keeps the
// answer in the session and sends that one question drawn again (templates/lessons/_step.html); only its parts
// that changed are swapped in, so the other questions keep their answers and verdicts and the focus stays put.
// Without this script the same forms post normally and the server answers with 303 to the lesson page.
(function () {
  "use strict";

  var list = document.querySelector("ol.steps");
  if (!list) return;

  // ---- the "/" and "%" keys: the decimal keypad of a phone has neither ----

  function showKeys(step) {
    var input = step.querySelector("input[name=answer]");
    var keypad = step.querySelector(".keypad");
    if (!input || !keypad) return;
    // The keys make the decimal keypad enough for all three forms (3/8, 0.375, 37.5%).
    input.setAttribute("inputmode", "decimal");
    keypad.hidden = false;
  }

  Array.prototype.forEach.call(list.querySelectorAll("li.step"), showKeys);

  // Keep the focus (and a phone's keyboard) in the box while a key is pressed with a finger or the mouse.
  list.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest("button.key")) event.preventDefault();
  });

  list.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest("button.key");
    if (!key) return;
    var input = key.closest("li.step").querySelector("input[name=answer]");
    var text = key.getAttribute("data-insert");
    var start = input.selectionStart === null ? input.value.length : input.selectionStart;
    var end = input.selectionEnd === null ? start : input.selectionEnd;
    if (input.maxLength > 0 && input.value.length - (end - start) + text.length > input.maxLength) return;
    input.focus();
    input.setRangeText(text, start, end, "end"); // at the caret, replacing a selection
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // ---- answers checked on the server without reloading the page ----

  function swapIn(step, html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    var fresh = template.content.querySelector("li.step");
    if (!fresh) throw new Error("no step in the reply");
    step.className = fresh.className;
    step.querySelector(".question").replaceWith(fresh.querySelector(".question"));

    var form = step.querySelector("form.answer-form");
    var input = form.querySelector("input[name=answer]");
    var describedBy = fresh.querySelector("input[name=answer]").getAttribute("aria-describedby");
    if (describedBy) input.setAttribute("aria-describedby", describedBy);

    // "Show the answer" comes after a wrong try and goes once the answer is right or shown.
    var oldShow = form.querySelector(".show-answer");
    var newShow = fresh.querySelector(".show-answer");
    var focusVerdict = false;
    if (newShow && !oldShow) {
      form.appendChild(newShow);
    } else if (oldShow && !newShow) {
      focusVerdict = document.activeElement === oldShow; // its button is gone: the answer takes the focus
      oldShow.remove();
    }

    // The slot stays (a live region, read out when its content changes); only what is inside it is new.
    var slot = step.querySelector(".verdict-slot");
    slot.replaceChildren.apply(slot, Array.prototype.slice.call(fresh.querySelector(".verdict-slot").childNodes));
    if (focusVerdict && slot.querySelector(".verdict")) slot.querySelector(".verdict").focus();
  }

  // Browsers without SubmitEvent.submitter: remember which button sent the form ("Check" or "Show the answer").
  var lastSubmitter = null;
  list.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("form.answer-form button[type=submit]");
    if (button) lastSubmitter = button;
  });

  list.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("answer-form")) return;
    var submitter = event.submitter || (lastSubmitter && lastSubmitter.form === form ? lastSubmitter : null);
    lastSubmitter = null;
    var url = (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action");
    event.preventDefault();
    if (form.getAttribute("aria-busy") === "true") return; // one check at a time per question
    form.setAttribute("aria-busy", "true");
    fetch(url.split("#")[0], {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      body: new FormData(form)
    })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (data) {
        swapIn(form.closest("li.step"), data.html);
        form.removeAttribute("aria-busy");
      })
      .catch(function () {
        // Whatever went wrong (network, an expired form), the plain post shows it as a page.
        form.removeAttribute("aria-busy");
        form.setAttribute("action", url);
        form.submit();
      });
  });
})();
