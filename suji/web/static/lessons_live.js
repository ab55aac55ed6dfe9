// Live experiments: the page's seeded trials, one after another, with the running value against the exact one.
// No game rules here: the server sends each chunk of trials (their values, one per row, and their dice) exactly
// as its own simulation of that seed drew them (suji.lessons.live), and this script only adds them up and draws.
// Work is done in slices of a few milliseconds per frame, so even 100,000 trials never freeze the page.
(function () {
  "use strict";

  var panel = document.getElementById("live");
  if (!panel || !window.fetch) return;
  var settings = JSON.parse(panel.getAttribute("data-settings"));
  var rowsCount = settings.labels.length;
  var nInput = document.getElementById("live-n");
  var rowSelect = document.getElementById("live-row");
  var speedSelect = document.getElementById("live-speed");
  var playButton = document.getElementById("live-play");
  var stepButton = document.getElementById("live-step");
  var resetButton = document.getElementById("live-reset");
  var errorBox = document.getElementById("live-error");
  var diceBox = document.getElementById("live-dice");
  var chart = document.getElementById("live-chart");
  var statusLine = document.getElementById("live-status");
  var tableRows = Array.prototype.slice.call(document.querySelectorAll("#live-rows tr"));
  var lang = document.documentElement.lang || "en";
  var SVG = "http://www.w3.org/2000/svg";
  var FRAME_BUDGET_MS = 8; // of the ~16 ms a frame has: the rest is the browser's
  var POINTS = 400; // points kept per line: enough for the eye, few enough to draw every 100 ms

  panel.hidden = false;

  var run = null; // {n, seed, done, sums, squares, queue, nextChunk, fetching, playing, perFrame, points, ...}

  // sum / count rounded half up to `digits` decimals, worked out in whole numbers when the sum is whole (a count of
  // trials), as the server rounds every figure from the exact fraction (suji.core.decimals): 5 of 16 is 31.3%,
  // where floating point and toFixed say 31.2%. Always `digits` decimals, so that 9.0% stands beside 8.4%.
  var numberFormats = {}; // one Intl formatter per number of decimals: toLocaleString makes one at every call
  function formatFixed(value, digits) {
    if (!numberFormats[digits]) {
      numberFormats[digits] = new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    }
    return numberFormats[digits].format(value);
  }

  function halfUp(sum, count, digits) {
    var scale = Math.pow(10, digits);
    var scaled;
    if (Number.isInteger(sum) && Math.abs(sum) * scale * 2 < Number.MAX_SAFE_INTEGER) {
      scaled = Math.sign(sum) * Math.floor((2 * Math.abs(sum) * scale + count) / (2 * count));
    } else {
      scaled = Math.sign(sum) * Math.floor(Math.abs(sum) * scale / count + 0.5);
    }
    return formatFixed(scaled / scale, digits);
  }

  // The running value of row i (its sum over the trials so far) as the table shows it.
  function formatSum(sum, count) {
    if (!count) return "—";
    return settings.percent ? halfUp(100 * sum, count, 1) + "%" : halfUp(sum, count, 3);
  }

  // A value of the chart's axis (not a count): rounded for the eye only.
  function format(value) {
    if (value === null || value === undefined || isNaN(value)) return "—";
    if (settings.percent) return (100 * value).toLocaleString(lang, { maximumFractionDigits: 1 }) + "%";
    return value.toLocaleString(lang, { maximumFractionDigits: 3 });
  }

  function caseName(i) {
    // "15" alone says little: "total 15" (the experiment's axis title) says what it is, or the experiment's own
    // words for a row where that order reads wrong ("4 inches", ４インチ)
    if (settings.case_names && settings.case_names[i]) return settings.case_names[i];
    return settings.x_title ? settings.x_title + " " + settings.labels[i] : settings.labels[i];
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return values[key]; });
  }

  // The N typed (full-width digits too), or NaN.
  function typedN() {
    var text = nInput.value.trim().replace(/[０-９]/g, function (d) { return String(d.charCodeAt(0) - 0xff10); });
    var n = /^\d{1,7}$/.test(text) ? parseInt(text, 10) : NaN;
    return n >= 1 && n <= settings.max ? n : NaN;
  }

  function readN() {
    var n = typedN();
    if (isNaN(n)) {
      errorBox.textContent = panel.getAttribute("data-bad-n");
      errorBox.hidden = false;
      return null;
    }
    errorBox.hidden = true;
    return n;
  }

  // The N typed, or the largest allowed while it is not a valid N (the axis before a run; no message).
  function quietN() {
    var n = typedN();
    return isNaN(n) ? settings.max : n;
  }

  function newRun() {
    var n = readN();
    if (n === null) return null;
    var zeros = [];
    for (var i = 0; i < rowsCount; i++) zeros.push(0);
    panel.removeAttribute("data-finished");
    statusLine.textContent = "";
    return {
      n: n, seed: panel.getAttribute("data-seed"), done: 0, sums: zeros.slice(), squares: zeros.slice(),
      queue: [], nextChunk: 0, fetching: false, playing: false, perFrame: 1, points: [], lastDice: null,
      lastDraw: 0, lastSaid: 0, failed: false
    };
  }

  // ---- trials from the server, a chunk at a time, fetched ahead of need ----

  function fetchAhead() {
    if (!run || run.fetching || run.failed) return;
    var fetched = run.nextChunk * settings.chunk;
    if (fetched >= run.n || run.queue.length > 2 * settings.chunk) return;
    var mine = run;
    mine.fetching = true;
    var url = panel.getAttribute("data-url") + "?seed=" + encodeURIComponent(mine.seed) + "&chunk=" + mine.nextChunk;
    fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    }).then(function (data) {
      if (run !== mine) return; // reset meanwhile
      var wanted = Math.min(settings.chunk, mine.n - mine.nextChunk * settings.chunk);
      for (var i = 0; i < wanted && i < data.values.length; i++) mine.queue.push([data.values[i], data.dice[i]]);
      mine.nextChunk += 1;
      mine.fetching = false;
      fetchAhead();
      if (mine.playing) schedule();
    }).catch(function () {
      if (run !== mine) return;
      mine.fetching = false;
      mine.failed = true;
      pause();
      errorBox.textContent = panel.getAttribute("data-failed");
      errorBox.hidden = false;
    });
  }

  // ---- adding trials up ----

  function take() {
    var trial = run.queue.shift();
    var values = trial[0];
    for (var i = 0; i < rowsCount; i++) {
      run.sums[i] += values[i];
      run.squares[i] += values[i] * values[i];
    }
    run.done += 1;
    run.lastDice = trial[1];
    run.lastValues = values;
    remember();
  }

  function remember() {
    // Keep about POINTS points: every trial at first, then every k-th (k doubles whenever the list is full).
    var every = run.every || 1;
    if (run.done % every === 0 || run.done === run.n) {
      run.points.push([run.done, run.sums.slice(), run.squares.slice()]);
      if (run.points.length > POINTS) {
        run.every = every * 2;
        run.points = run.points.filter(function (p, i) { return i % 2 === 1 || p[0] === run.done; });
      }
    }
  }

  var frameRequested = false;
  function schedule() {
    if (!frameRequested) {
      frameRequested = true;
      window.requestAnimationFrame(frame);
    }
  }

  function frame(now) {
    frameRequested = false;
    if (!run || !run.playing) return;
    var speed = speedSelect.value;
    var limit = speed === "slow" ? 1 : speed === "fast" ? Infinity : run.perFrame;
    var start = performance.now();
    var taken = 0;
    while (taken < limit && run.queue.length && run.done < run.n && performance.now() - start < FRAME_BUDGET_MS) {
      take();
      taken += 1;
    }
    // "faster and faster": one trial a frame for the first second, then a gentle climb, so there is something
    // to watch before the numbers race.
    if (speed === "auto" && run.done > 60) run.perFrame = Math.min(5000, Math.ceil(run.perFrame * 1.06));
    fetchAhead();
    show(now, false);
    if (run.done >= run.n) {
      finish();
      return;
    }
    if (speed === "slow") {
      window.setTimeout(schedule, 250);
    } else if (run.queue.length) {
      schedule();
    } // else: the next chunk's arrival schedules the next frame
  }

  // ---- drawing ----

  function show(now, force) {
    if (!force && now - run.lastDraw < 100 && run.done < run.n && speedSelect.value !== "slow") return;
    run.lastDraw = now;
    panel.setAttribute("data-done", String(run.done));
    drawDice();
    drawTable();
    drawChart();
    // The screen reader hears the value at a calm pace, not every frame.
    if (force || now - run.lastSaid > 2500 || run.done >= run.n || speedSelect.value === "slow") {
      run.lastSaid = now;
      say();
    }
  }

  function value(i, sums) {
    return run.done ? (sums || run.sums)[i] / run.done : null;
  }

  function say() {
    var i = Number(rowSelect.value);
    var exact = settings.exact[i];
    var template = panel.getAttribute(
      exact === null ? "data-status-inexact" : settings.reference ? "data-status-reference" : "data-status");
    statusLine.textContent = fill(template, {
      n: run.done.toLocaleString(lang), label: caseName(i), value: formatSum(run.sums[i], run.done),
      exact: settings.exact_text[i],
      reference: settings.exact_label
    });
  }

  function drawDice() {
    while (diceBox.firstChild) diceBox.removeChild(diceBox.firstChild);
    if (!run.lastDice) return;
    run.lastDice.forEach(function (face, i) {
      var holder = document.createElement("span");
      holder.className = "live-die-wrap";
      var die = document.createElement("span");
      die.className = "live-die";
      die.textContent = face;
      holder.appendChild(die);
      if (settings.dice_labels && settings.dice_labels[i]) {
        var label = document.createElement("span");
        label.className = "live-die-label";
        label.textContent = settings.dice_labels[i];
        holder.appendChild(label);
      }
      diceBox.appendChild(holder);
    });
  }

  function drawTable() {
    tableRows.forEach(function (tr, i) {
      var count = run.sums[i];
      tr.querySelector(".count").textContent = Number.isInteger(count) ? formatFixed(count, 0) : count.toLocaleString(lang);
      tr.querySelector(".count").setAttribute("data-count", String(count));
      tr.querySelector(".value").textContent = formatSum(count, run.done);
      tr.classList.toggle("followed", i === Number(rowSelect.value));
      // The row(s) the last trial counted, marked beside the dice it rolled: a power of 4 lights up "9 inches".
      tr.classList.toggle("last", Boolean(run.lastValues && run.lastValues[i]));
    });
  }

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    parent.appendChild(node);
    return node;
  }

  // A round step for the y axis (1, 2, 2.5 or 5 times a power of ten) giving about four intervals over a span.
  function roundStep(span) {
    var raw = span / 4, power = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10)), m = raw / power;
    return power * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10);
  }

  // Before the first trial too: the axes and the exact value are there, so the pupil sees where the run should go.
  function drawChart() {
    while (chart.firstChild) chart.removeChild(chart.firstChild);
    // A phone gets a viewBox of its own width, so the 12-unit labels stay 12 px (the static chart does the same).
    var narrow = chart.getBoundingClientRect().width < 480;
    var W = narrow ? 340 : 640, H = narrow ? 240 : 280, left = narrow ? 50 : 56, right = 10, top = 14, bottom = 34;
    chart.setAttribute("viewBox", "0 0 " + W + " " + H);
    var i = Number(rowSelect.value);
    var exact = settings.exact[i];
    var points = run ? run.points : [];
    var pts = points.map(function (p) { return [p[0], p[1][i] / p[0], p[2][i] / p[0]]; });
    // The y range: the exact value and what the run has shown, with a margin, out to round values.
    var lo = Infinity, hi = -Infinity;
    pts.forEach(function (p) { lo = Math.min(lo, p[1]); hi = Math.max(hi, p[1]); });
    if (exact !== null) { lo = Math.min(lo, exact); hi = Math.max(hi, exact); }
    if (settings.percent) { lo = Math.max(0, Math.min(lo, (exact || 0) - 0.1)); hi = Math.min(1, Math.max(hi, (exact || 0) + 0.1)); }
    if (!isFinite(lo)) { lo = 0; hi = 1; }
    if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
    var pad = (hi - lo) * 0.08; lo -= pad; hi += pad;
    var step = roundStep(hi - lo);
    lo = Math.floor(lo / step) * step; hi = Math.ceil(hi / step) * step;
    if (settings.percent) { lo = Math.max(0, lo); hi = Math.min(1, hi); }
    // Slowly (or one trial at a time) the x axis runs to the trials done so far: a few trials fill the chart.
    var n = run ? run.n : quietN();
    var done = run ? run.done : 0;
    var xMax = !run ? n : speedSelect.value === "slow" || !run.playing ? Math.max(10, done) : n;
    if (done >= n) xMax = n;
    var x = function (k) { return left + (W - left - right) * k / xMax; };
    var y = function (v) { return top + (H - top - bottom) * (1 - (v - lo) / (hi - lo)); };
    // Axes and grid lines at the round values, labelled.
    for (var g = 0; lo + g * step <= hi + step / 1000; g++) {
      var gv = lo + g * step;
      el("line", { x1: left, x2: W - right, y1: y(gv), y2: y(gv), class: "grid" }, chart);
      el("text", { x: left - 6, y: y(gv) + 4, class: "tick", "text-anchor": "end" }, chart).textContent = format(gv);
    }
    el("text", { x: left, y: H - 10, class: "tick" }, chart).textContent = "0";
    el("text", { x: W - right, y: H - 10, class: "tick", "text-anchor": "end" }, chart).textContent = xMax.toLocaleString(lang);
    // The 95% band around the exact value: exact ± 1.96 σ/√n, σ from the exact p (a probability) or the run.
    if (exact !== null && (settings.reference || pts.length <= 1)) {
      el("line", { x1: left, x2: W - right, y1: y(exact), y2: y(exact), class: "exact" }, chart);
    } else if (exact !== null) {
      var upper = [], lower = [];
      pts.forEach(function (p) {
        var k = p[0];
        var variance = settings.percent ? exact * (1 - exact) : Math.max(0, p[2] - p[1] * p[1]);
        var half = 1.96 * Math.sqrt(variance / k);
        upper.push(x(k) + "," + y(Math.min(hi, exact + half)));
        lower.unshift(x(k) + "," + y(Math.max(lo, exact - half)));
      });
      el("polygon", { points: upper.concat(lower).join(" "), class: "band" }, chart);
      el("line", { x1: left, x2: W - right, y1: y(exact), y2: y(exact), class: "exact" }, chart);
    }
    if (pts.length) {
      el("polyline", { points: pts.map(function (p) { return x(p[0]) + "," + y(p[1]); }).join(" "), class: "running" }, chart);
    }
  }

  // ---- the buttons ----

  function setPlayLabel() {
    var resumable = run && run.done > 0 && run.done < run.n;
    playButton.textContent = panel.getAttribute(run && run.playing ? "data-pause" : resumable ? "data-resume" : "data-run");
  }

  function play() {
    if (!run || run.done >= run.n) run = newRun();
    if (!run) return;
    run.failed = false;
    errorBox.hidden = true;
    run.playing = true;
    setPlayLabel();
    fetchAhead();
    schedule();
  }

  function pause() {
    if (run) run.playing = false;
    setPlayLabel();
    if (run) show(performance.now(), true);
  }

  function finish() {
    run.playing = false;
    setPlayLabel();
    show(performance.now(), true);
    var doneText = run.n <= settings.table_max ? "data-done-text" : "data-done-only";
    statusLine.textContent += " " + fill(panel.getAttribute(doneText), { n: run.done.toLocaleString(lang), seed: run.seed });
    panel.setAttribute("data-finished", String(run.done));
  }

  playButton.addEventListener("click", function () {
    if (run && run.playing) pause(); else play();
  });

  stepButton.addEventListener("click", function () {
    if (!run || run.done >= run.n) run = newRun();
    if (!run) return;
    run.playing = false;
    setPlayLabel();
    if (run.queue.length) {
      take();
      show(performance.now(), true);
      if (run.done >= run.n) finish();
    } else {
      // Fetch the chunk first, then take its first trial.
      var mine = run;
      fetchAhead();
      var wait = window.setInterval(function () {
        if (run !== mine) { window.clearInterval(wait); return; }
        if (mine.queue.length || mine.failed) {
          window.clearInterval(wait);
          if (mine.queue.length) { take(); show(performance.now(), true); if (mine.done >= mine.n) finish(); }
        }
      }, 30);
    }
  });

  resetButton.addEventListener("click", function () {
    run = null;
    panel.removeAttribute("data-finished");
    panel.setAttribute("data-done", "0");
    setPlayLabel();
    drawChart();
    while (diceBox.firstChild) diceBox.removeChild(diceBox.firstChild);
    statusLine.textContent = "";
    tableRows.forEach(function (tr) {
      tr.querySelector(".count").textContent = "0";
      tr.querySelector(".count").removeAttribute("data-count");
      tr.querySelector(".value").textContent = "—";
    });
  });

  rowSelect.addEventListener("change", function () { if (run) show(performance.now(), true); else drawChart(); });
  // A new N is a new run: the one under way stops, and the next press starts again from trial 1.
  nInput.addEventListener("change", function () {
    if (run && run.n !== readN()) resetButton.click();
    else if (!run) drawChart();
  });

  // Follow the most likely case first (not the rarest, such as a total of 3), when there are exact values.
  var likely = 0;
  settings.exact.forEach(function (p, i) { if (p !== null && p > (settings.exact[likely] || 0)) likely = i; });
  if (settings.percent) rowSelect.value = String(likely);

  // The exact column, once, and the chart waiting for its first trial.
  tableRows.forEach(function (tr, i) { tr.querySelector(".exact").textContent = settings.exact_text[i] || "—"; });
  setPlayLabel();
  drawChart();
})();
