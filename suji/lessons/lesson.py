"""What every lesson offers the web pages: rules, steps, experiments (exact vs simulated) and a game.

The game modules build `Lesson` objects; the web layer only reads them, so a lesson can be checked from the
command line or in tests without Flask.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from suji.core.i18n import translate, translate_plural
from suji.lessons.live import Live
from suji.lessons.stats import DEFAULT_TRIALS, MAX_TRIALS
from suji.lessons.steps import Step


class Msg(str):
    """A parameter value that is itself a msgid (a card name, a strategy): translated before it is "
    "filled in."""

    __slots__ = ()


# A message is a msgid, or a singular/plural pair marked with `NP_` whose form is chosen by the parameter "n".
Message = str | tuple[str, str]


def render(message: Message, params: dict[str, object], lang: str) -> str:
    """Translate `message` into `lang` with its parameters, translating `Msg` parameters first.

    A singular/plural pair takes the form that fits ``params["n"]`` (a whole number).
    """
    filled = {k: translate(v, lang) if isinstance(v, Msg) else v for k, v in params.items()}
    if isinstance(message, tuple):
        singular, plural = message
        return translate_plural(singular, plural, int(filled["n"]), lang, **filled)  # type: ignore[call-overload]
    return translate(message, lang, **filled)


@dataclass(frozen=True)
class Row:
    """One line of an experiment: a label, the exact value and (if simulated) the observed value."""

    label: str
    exact: Fraction | None  # None where no exact value is known (then only the simulation is shown)
    simulated: float | None = None
    interval: tuple[float, float] | None = None
    label_params: dict[str, object] = field(default_factory=dict)

    def label_text(self, lang: str) -> str:
        """The label in `lang` (labels that are plain numbers stay as they are)."""
        return render(self.label, self.label_params, lang) if isinstance(self.label, Msg) else self.label


@dataclass(frozen=True)
class Outcome:
    """The result of one experiment run: rows plus what the student needs to read them."""

    rows: Sequence[Row]
    n: int = 0
    seed: int = 0
    percent: bool = True  # rows are probabilities (shown as %), otherwise expected values
    note: Message = ""  # a msgid shown under the table, translated by the page with `note_params`
    note_params: dict[str, object] = field(default_factory=dict)

    def note_text(self, lang: str) -> str:
        """The note in `lang` ("" when there is none)."""
        return render(self.note, self.note_params, lang) if self.note else ""


@dataclass(frozen=True)
class Experiment:
    """A table of exact values with a seeded simulation beside it; `run(n, seed, lang)` does both."""

    key: str
    title: str  # msgid
    run: Callable[[int, int, str], Outcome]
    simulated: bool = True
    default_trials: int = DEFAULT_TRIALS
    max_trials: int = MAX_TRIALS
    x_title: str = ""  # msgid
    # How the live run names one row, when "<x_title> <label>" reads wrong: a message with %(value)s, the row's
    # label, and singular/plural by it ("1 inch", "4 inches", ４インチ, not "inches 4").
    case_name: Message = ""
    exact_label: str = ""  # msgid; defaults to "exact" in the pages
    extras: Callable[[], dict[str, Any]] | None = None  # more for the page (stored results beside the run)
    # The seed of the first view: chosen where a pupil's first picture of a few rows should not show the 1 run in
    # 20 whose interval misses (any other seed is a fair run).
    default_seed: int = 1
    # One trial of the experiment, when the browser can run it live (suji.lessons.live).
    live: Live | None = None


@dataclass(frozen=True)
class Lesson:
    """A lesson: title, short rules, the questions and the experiments; the game lives in its module."""

    slug: str
    title: str  # msgid
    summary: str  # msgid
    rules: Sequence[str]  # msgids, one short paragraph each
    steps: Callable[[], list[Step]]
    experiments: Sequence[Experiment] = field(default_factory=tuple)
    notes: Sequence[str] = field(default_factory=tuple)  # msgids: readings the lesson chose, example labels
    rule_params: dict[str, object] = field(default_factory=dict)  # what the rules' %(placeholders)s say
    # What the lesson's own page shows beyond rules, questions and experiments (its query string in).
    page_extras: Callable[[Mapping[str, str]], dict[str, Any]] | None = None
    # The lesson's game, replayed from a seed, the student's moves and the page's other fields (None: no game).
    replay: Callable[[int, list[str], Mapping[str, str]], Any] | None = None

    def extras(self, args: Mapping[str, str]) -> dict[str, Any]:
        """What the lesson page shows beyond the standard parts."""
        return self.page_extras(args) if self.page_extras is not None else {}


@dataclass(frozen=True)
class Event:
    """One line of a game log: a msgid (or an `NP_` pair) and its parameters, translated when shown."""

    message: Message
    params: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """A choice offered to the student, with the odds shown before choosing (all translated msgids)."""

    key: str
    label: Message
    odds: Message
    params: dict[str, object] = field(default_factory=dict)
    # Options with the same group (a msgid and its parameters: "capture d6:6") are shown together under it.
    group: Message | None = None
    group_params: dict[str, object] = field(default_factory=dict)

    @property
    def group_key(self) -> tuple:
        return self.group, tuple(sorted((k, str(v)) for k, v in self.group_params.items()))


@dataclass(frozen=True)
class Decision:
    """What the game asks the student now: a prompt and its options (and a note that explains their odds once,
    so each option's odds can be short)."""

    prompt: Message
    options: Sequence[Option]
    params: dict[str, object] = field(default_factory=dict)
    note: Message | None = None

    def groups(self) -> list[list[Option]]:
        """The options gathered by group, groups in the order they first come (one group each without one)."""
        gathered: dict[object, list[Option]] = {}
        for i, option in enumerate(self.options):
            gathered.setdefault(option.group_key if option.group is not None else i, []).append(option)
        return list(gathered.values())
