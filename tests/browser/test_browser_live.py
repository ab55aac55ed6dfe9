"""Live experiments in a real browser: the running counts equal the server's simulation of that seed and N.

One experiment per seed game: run it live with a fixed seed to N and compare the counts shown with the page's own
table (the server's simulation) and with the trial sums worked out here in Python; pause and one-trial steps; a
100,000-trial run without a long task over 200 ms (the page's PerformanceObserver); the page without JavaScript.
"""

from __future__ import annotations

import re

import pytest
from browser_support import require_chromium, served_app, shot

from suji.lessons import lessons
from suji.lessons.live import totals

pytestmark = pytest.mark.browser

sync_api = require_chromium()

# (lesson, experiment, N, seed): a simple experiment of each seed game
LIVE = [
    ("nine-am", "awake", 700, 4242),
    ("dice-monsters", "beats", 1300, 77),
    ("silence", "totals", 900, 5),
    ("gooball", "bump", 1100, 31),
    # whole games a trial (small chunks), and means rather than shares
    ("nine-am", "strategies", 230, 8),
    ("gooball", "turns", 250, 6),
    ("suji", "targets", 800, 12),
]

LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { window.__longTasks.push(e.duration); });
}).observe({ type: "longtask", buffered: true });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url


def new_page(browser, width: int = 1280, locale: str = "en-GB", js: bool = True):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, locale=locale, java_script_enabled=js
    )
    page = context.new_page()
    page.errors = []
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    return page


def experiment(slug: str, key: str):
    return next(e for e in lessons()[slug].experiments if e.key == key)


def shown_counts(page) -> list[float]:
    return [
        float(c.get_attribute("data-count") or c.text_content())
        for c in page.locator("#live-rows .count").all()
    ]


@pytest.mark.parametrize(("slug", "key", "n", "seed"), LIVE)
def test_a_live_run_ends_with_the_servers_counts(server, browser, slug, key, n, seed):
    expect = sync_api.expect
    page = new_page(browser)
    page.goto(f"{server}/lessons/{slug}/experiment/{key}?n={n}&seed={seed}")
    panel = page.locator("#live")
    expect(panel).to_be_visible()
    page.select_option("#live-speed", "fast")
    page.locator("#live-play").click()
    expect(panel).to_have_attribute("data-finished", str(n), timeout=30_000)
    counts = shown_counts(page)
    # the same trials the server's simulation counted: its table shows each row's share of N
    expected = totals(experiment(slug, key).live, n, seed)
    assert counts == [float(c) for c in expected]
    outcome = experiment(slug, key).run(n, seed, "en")
    assert [round(c / n, 9) for c in counts] == [round(row.simulated, 9) for row in outcome.rows]
    expect(page.locator("#live-status")).to_contain_text(f"the same counts as the table for seed {seed}")
    assert page.locator("#live-chart polyline.running").count() == 1
    if experiment(slug, key).exact_label:  # a fair share is no exact value: no band, and it says what it is
        assert page.locator("#live-chart polygon.band").count() == 0
        expect(page.locator("#live-status")).to_contain_text("fair share")
    shot(page, f"live-{slug}-{key}-1280-en")
    assert page.errors == []
    page.context.close()


# (lesson, experiment, dice each trial shows): pause and one-trial steps on each seed game, on a phone in Japanese
STEPS = [
    ("silence", "totals", 3),
    ("gooball", "movement", 1),
    ("nine-am", "awake", 1),
    ("dice-monsters", "beats", 14),
]


@pytest.mark.parametrize(("slug", "key", "dice"), STEPS)
def test_pause_and_one_trial_at_a_time(server, browser, slug, key, dice):
    expect = sync_api.expect
    page = new_page(browser, width=360, locale="ja-JP")
    page.goto(f"{server}/lessons/{slug}/experiment/{key}?n=50000&seed=9")
    panel = page.locator("#live")
    step = page.locator("#live-step")
    step.click()
    expect(panel).to_have_attribute("data-done", "1")
    step.click()
    expect(panel).to_have_attribute("data-done", "2")
    assert page.locator("#live-dice .live-die").count() == dice  # the last trial's dice, as they were rolled
    expect(page.locator("#live-status")).to_contain_text("2回やったところ")
    first_two = totals(experiment(slug, key).live, 2, 9)
    assert shown_counts(page) == [float(c) for c in first_two]
    # play, then pause: the count stops where it is
    page.select_option("#live-speed", "auto")
    page.locator("#live-play").click()
    expect(panel).to_have_attribute("data-done", re.compile(r"^\d{3,}$"))  # a hundred trials or more
    page.locator("#live-play").click()  # now "Pause"
    stopped = panel.get_attribute("data-done")
    # a pause must hold: twenty frames later (counted in frames, not in time) nothing was added
    page.evaluate(
        "() => new Promise(done => { let n = 20; const f = () => --n ? requestAnimationFrame(f) : done(); requestAnimationFrame(f); })"
    )
    assert panel.get_attribute("data-done") == stopped and int(stopped) < 50_000
    expect(page.locator("#live-play")).to_have_text("つづける")
    step.click()  # one more trial after the pause
    expect(panel).to_have_attribute("data-done", str(int(stopped) + 1))
    assert shown_counts(page) == [float(c) for c in totals(experiment(slug, key).live, int(stopped) + 1, 9)]
    page.locator("#live-reset").click()
    expect(panel).to_have_attribute("data-done", "0")
    assert sum(shown_counts(page)) == 0
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
    shot(page, f"live-{slug}-{key}-360-ja")
    assert page.errors == []
    page.context.close()


def test_a_hundred_thousand_trials_without_a_long_task(server, browser):
    expect = sync_api.expect
    page = new_page(browser)
    page.add_init_script(LONG_TASKS)
    page.goto(f"{server}/lessons/gooball/experiment/movement?n=1000&seed=3")
    page.fill("#live-n", "100000")
    page.select_option("#live-speed", "fast")
    page.locator("#live-play").click()
    expect(page.locator("#live")).to_have_attribute("data-finished", "100000", timeout=120_000)
    long_tasks = page.evaluate("window.__longTasks")
    assert not long_tasks or max(long_tasks) < 200, long_tasks
    assert sum(shown_counts(page)) == 100_000  # every trial counted once
    expected = totals(experiment("gooball", "movement").live, 100_000, 3)
    assert shown_counts(page) == [float(c) for c in expected]
    page.context.close()


def test_a_bad_n_is_said_and_nothing_runs(server, browser):
    expect = sync_api.expect
    page = new_page(browser)
    page.goto(f"{server}/lessons/nine-am/experiment/awake")
    page.fill("#live-n", "1000001")
    page.locator("#live-play").click()
    expect(page.locator("#live-error")).to_be_visible()
    expect(page.locator("#live-error")).to_contain_text("100000")
    assert page.locator("#live").get_attribute("data-done") in (None, "0")
    page.context.close()


def test_without_javascript_the_page_is_the_static_result(server, browser):
    page = new_page(browser, js=False)
    page.goto(f"{server}/lessons/silence/experiment/totals?n=300&seed=2")
    assert not page.locator("#live").is_visible()
    assert page.locator("table.outcome:not(.live-table)").is_visible()
    page.context.close()


@pytest.mark.parametrize(("slug", "key", "labels"), [
    ("dice-monsters", "beats", ["d2", "d6", "d4", "d6"]),
    ("gooball", "bump", ["mover", "the other"]),
])  # fmt: skip
def test_the_dice_say_which_die_they_are(server, browser, slug, key, labels):
    expect = sync_api.expect
    page = new_page(browser)
    page.goto(f"{server}/lessons/{slug}/experiment/{key}?n=50&seed=1")
    page.locator("#live-step").click()
    expect(page.locator("#live")).to_have_attribute("data-done", "1")
    shown = page.locator("#live-dice .live-die-label").all_text_contents()
    assert shown[: len(labels)] == labels
    page.context.close()


@pytest.mark.parametrize(("slug", "key"), [("silence", "totals"), ("gooball", "turns")])
def test_before_the_first_trial_the_chart_shows_the_exact_value_on_round_ticks(server, browser, slug, key):
    page = new_page(browser)
    page.goto(f"{server}/lessons/{slug}/experiment/{key}")
    chart = page.locator("#live-chart")
    assert chart.locator("line.exact").count() == 1 and chart.locator("polyline.running").count() == 0
    ticks = chart.locator("text.tick").all_text_contents()[:-2]  # the last two label the x axis
    values = [float(t.rstrip("%").replace(",", "")) for t in ticks]
    steps = {round(b - a, 6) for a, b in zip(values, values[1:], strict=False)}
    assert len(values) >= 3 and len(steps) == 1  # evenly spaced
    step = steps.pop()
    assert re.fullmatch(r"(1|2|2\.5|5)(0*)(\.0+)?|0\.0*(1|2|25|5)", f"{step:g}"), step  # a round step
    assert all(abs(v / step - round(v / step)) < 1e-6 for v in values)  # on multiples of it
    assert not page.errors
