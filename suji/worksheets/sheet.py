"""Teacher worksheets: printable sets of certified problems, in several versions, with an answer key.

A worksheet is fully determined by its settings: version k of seed S draws its certified rolls from
``random.Random(f"{S}/v{k}")`` (the problem choice that class mode shares, suji.solver.problems.version_problems),
so printing the same settings again gives the same sheet, and the versions (for neighbouring desks) have different
dice. On a mixed sheet the same stream also picks each problem's level. Rolls whose best score is 0 (a bare
number is a target) are skipped. This module builds the data and the texts; the HTML (suji.worksheets.html) and
the PDF (suji.worksheets.pdf) only draw it. No Flask here.

Free text that reaches the PDF (the title, the seed) may only hold characters its fonts can draw (`pdf_can_print`):
anything else would print as an empty box, so the settings refuse it with a message naming it.

On paper a version takes the fewest pages of at most MAX_PER_PAGE problems, filled evenly (`page_sizes`: 8 on one
page, 10 as 5 + 5, 12 as 6 + 6); the PDF and the print view both lay out `Version.pages()` and let the problem
boxes grow to fill each page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace

from suji.core.caching import bounded
from suji.core.furigana import PUPIL_DEFAULT, parse_grade
from suji.core.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, sentence_gap, template, translate
from suji.core.text import clean_line, unprintable_chars, whole_number
from suji.core.text import printable as pdf_can_print  # noqa: F401  (the PDF draws with it)
from suji.rules.dice import Roll
from suji.rules.working import working
from suji.solver.problems import (
    CHOICE_MESSAGES,
    MIXED,
    VERSION_LABELS,
    ChoiceError,
    Level,
    new_seed,
    read_level,
    read_seed,
    version_problems,
    version_seed,
)
from suji.solver.problems import LEVEL_NAMES as PROBLEM_LEVEL_NAMES
from suji.solver.problems import MAX_SEED_LENGTH as MAX_SEED_LENGTH  # the web form shows it

MIN_COUNT, MAX_COUNT = 1, 40
MIN_VERSIONS, MAX_VERSIONS = 1, 6
MAX_TITLE_LENGTH = 60
PAPERS = ("a4", "letter")
TARGET_MODES = ("list", "dice")  # print the six target numbers, or only the target dice
YES_NO = ("yes", "no")
# Problems on one page: 8 still leave each one room for the dice, the target numbers and a line to write on (the
# PDF shrinks the dice a little for 7 or 8 a page), and a sheet of up to 8 is one sheet of paper per version.
MAX_PER_PAGE = 8

LEVEL_NAMES = {
    **PROBLEM_LEVEL_NAMES,
    MIXED: N_("Mixed levels: each problem's level is under its number"),
}

# Every text printed on a sheet, by key; `sheet_texts(lang)` translates them for the HTML and the PDF alike.
SHEET_TEXTS = {
    "default_title": N_("Sūji de Asobo practice sheet"),
    "name": N_("Name"),
    "date": N_("Date"),
    # The school forms at the top of a sheet; each %(blank)s is a line to write on (`form_parts`).
    "name_form": N_("Grade %(blank)s Class %(blank)s No. %(blank)s Name %(blank)s"),
    "date_form": N_("Date %(blank)s"),
    "score_form": N_("%(blank)s points"),
    "number_column": N_("No."),
    "version": N_("Version %(version)s"),
    "seed": N_("Seed: %(seed)s"),
    "page": N_("Page %(page)s of %(pages)s"),
    "instructions": N_(
        "Make one of the target numbers with the number dice and the operator dice. "
        "You need not use every die, but more dice and harder operators score more."
    ),
    "instructions_dice": N_(
        "The target numbers are the 3-digit numbers made from the three target dice in any order. "
        "A 6 may be read as 9."
    ),
    "instructions_nine": N_("A 6 may be read as 9 on every die."),
    "problem": N_("Problem %(number)s"),
    "level": N_("Level"),
    "level_of": N_("Level %(level)s"),
    "target_dice": N_("Target dice"),
    "targets": N_("Target numbers"),
    "number_dice": N_("Number dice"),
    "operator_dice": N_("Operator dice"),
    "formula": N_("Formula"),
    "target_made": N_("Target"),
    "score": N_("Score"),
    "answer_key": N_("Answer key"),
    "answer_key_for": N_("Answer key — version %(version)s"),
    "key_note": N_(
        "Best score with the operators of this level. A pupil who also uses the other dice may score more."
    ),
    "key_note_all": N_("Best score with every die rolled."),
    "key_note_mixed": N_(
        "Best score with the operators of each problem's level. "
        "At levels 1 and 2, a pupil who also uses the other dice may score more."
    ),
    "best_score": N_("Best score"),
    "best_formula": N_("One best formula"),
    "solutions": N_("Solutions"),
    "solutions_note": N_("Solutions: how many different formulas make that target, none with a die that changes nothing."),
    "print": N_("Print"),
    "download_pdf": N_("Download PDF"),
    "change_settings": N_("Change the settings"),
}

# Settings errors, shown in the page's language above the form.
ERROR_MESSAGES = {
    "count": N_("The number of problems must be a whole number from %(low)s to %(high)s."),
    "versions": N_("The number of versions must be a whole number from %(low)s to %(high)s."),
    "paper": N_("The paper must be A4 or Letter."),
    "lang": N_("The language of the sheet must be Japanese or English."),
    "title": N_("The title must be at most %(high)s characters, without control characters."),
    "title_font": N_("The PDF cannot print %(chars)s in the title. Please use other characters."),
    "targets": N_("Choose whether to print the target numbers or only the target dice."),
    "yes_no": N_("Choose yes or no."),
    "furigana": N_("Furigana must be none or a grade from 1 to 6."),
    "total": N_(
        "At most %(high)s problems in all here: the number of problems times the number of versions. "
        "The command line “suji worksheet” makes larger sets."
    ),
    **CHOICE_MESSAGES,  # the level and the seed, read as a class reads them (suji.solver.problems)
}


@dataclass(frozen=True)
class Settings:
    """What a teacher chooses; hashable, so built worksheets can be cached by their settings."""

    count: int = 10
    level: Level = 1  # 1, 2, 3 or MIXED
    seed: str = ""
    lang: str = DEFAULT_LANGUAGE
    paper: str = "a4"
    versions: int = 1
    targets: str = "list"  # "list": print the target numbers; "dice": only the target dice
    title: str = ""  # empty: the default title in the sheet's language
    name_line: bool = True
    key: bool = True
    steps: bool = False  # the working of each key formula, line by line, in the answer key
    score_box: bool = False  # a box for the teacher's mark (「　点」) beside the name line
    furigana: int = PUPIL_DEFAULT  # ruby on the kanji above this grade on a Japanese sheet (0: none)

    def query(self) -> dict[str, str]:
        """The settings as GET parameters (the URL of a sheet keeps all of them)."""
        return {
            "count": str(self.count), "level": str(self.level), "seed": self.seed, "lang": self.lang,
            "paper": self.paper, "versions": str(self.versions), "targets": self.targets, "title": self.title,
            "name": "yes" if self.name_line else "no", "key": "yes" if self.key else "no",
            "steps": "yes" if self.steps else "no", "score": "yes" if self.score_box else "no",
            "furigana": str(self.furigana),
        }  # fmt: skip


class SettingsError(ChoiceError):
    """One bad setting: `field` names the form field; `code` keys ERROR_MESSAGES (a field, or "yes_no" …).

    Collected, not raised: the form shows every bad field at once.
    """

    MESSAGES = ERROR_MESSAGES


def count_range(max_total: int | None = None) -> tuple[int, int]:
    """The problems a sheet may have, where at most `max_total` are made in all (the web's cap): a count beyond it
    can never be made there, so its range is said as that caller's (1–30 on the web, 1–40 on the command line)."""
    return MIN_COUNT, MAX_COUNT if max_total is None else min(MAX_COUNT, max_total)


def parse_settings(
    params: Mapping[str, str], default_lang: str = DEFAULT_LANGUAGE, max_total: int | None = None
) -> tuple[Settings, list[SettingsError]]:
    """Read settings from GET parameters or CLI options (all strings); missing ones take their defaults.

    Returns the settings (bad fields keep their defaults) and the list of errors, empty when all is well. An
    empty seed stays empty: the caller picks a new one (and, on the web, puts it into the URL). `max_total`
    bounds the problems of all versions together (the web's bound on one request's work).
    """
    defaults = Settings(lang=default_lang if default_lang in LANGUAGES else DEFAULT_LANGUAGE)
    values: dict[str, object] = {}
    errors: list[SettingsError] = []

    def get(name: str) -> str | None:
        value = params.get(name)
        return None if value is None else str(value)

    for name, low, high in (("count", *count_range(max_total)), ("versions", MIN_VERSIONS, MAX_VERSIONS)):
        raw = get(name)
        if raw is not None:
            number = whole_number(raw, low, high)
            if number is None:
                errors.append(SettingsError(name, low=low, high=high))
            else:
                values[name] = number
    total = int(values.get("count", defaults.count)) * int(values.get("versions", defaults.versions))  # type: ignore[call-overload]
    if max_total is not None and total > max_total:
        errors.append(SettingsError("count", "total", high=max_total))
    raw = get("level")
    if raw is not None:
        level = read_level(raw)
        if level is None:
            errors.append(SettingsError("level"))
        else:
            values["level"] = level
    for name, choices in (("paper", PAPERS), ("lang", LANGUAGES), ("targets", TARGET_MODES)):
        raw = get(name)
        if raw is not None:
            if raw.strip().lower() in choices:
                values[name] = raw.strip().lower()
            else:
                errors.append(SettingsError(name))
    raw = get("seed")
    if raw is not None:
        try:
            values["seed"] = read_seed(raw)
        except ChoiceError as error:
            errors.append(SettingsError(error.field, error.code, **error.params))
    raw = get("title")
    if raw is not None:
        text = clean_line(raw)
        if text is None or len(text) > MAX_TITLE_LENGTH:
            errors.append(SettingsError("title", high=MAX_TITLE_LENGTH))
        elif bad := unprintable_chars(text):
            # Refused rather than dropped: the teacher sees at once what will not print, and the HTML and the
            # PDF of one URL keep showing the same title.
            errors.append(SettingsError("title", "title_font", chars=bad))
        else:
            values["title"] = text
    raw = get("furigana")
    if raw is not None:
        grade = parse_grade(raw, -1)
        if grade < 0:
            errors.append(SettingsError("furigana"))
        else:
            values["furigana"] = grade
    for name, attr in (("name", "name_line"), ("key", "key"), ("steps", "steps"), ("score", "score_box")):
        raw = get(name)
        if raw is not None:
            if raw.strip().lower() in YES_NO:
                values[attr] = raw.strip().lower() == "yes"
            else:
                errors.append(SettingsError(name, "yes_no"))
    return replace(defaults, **values), errors  # type: ignore[arg-type]


@dataclass(frozen=True)
class KeyEntry:
    """The answer key of one problem: the target of the best score, that score, one formula, the count."""

    target: int
    best_score: int
    best_formula: str
    tokens: tuple[str, ...]
    solutions: int
    steps: tuple[str, ...] = ()  # the lines of its working: 2+3×4, 2+12, 14 (suji.rules.working)


@dataclass(frozen=True)
class SheetProblem:
    """One numbered problem on a sheet: its level (the sheet's, or its own on a mixed sheet), dice and key."""

    number: int
    roll: Roll
    key: KeyEntry
    level: int = 1

    def to_dict(self) -> dict:
        return {
            "number": self.number,
            "level": self.level,
            "target_dice": list(self.roll.target_dice),
            "number_dice": list(self.roll.number_dice),
            "operator_dice": list(self.roll.operator_dice),
            "targets": list(self.roll.targets),
            "key": {
                "target": self.key.target,
                "best_score": self.key.best_score,
                "best_formula": self.key.best_formula,
                "tokens": list(self.key.tokens),
                "solutions": self.key.solutions,
                "steps": list(self.key.steps),
            },
        }


def page_sizes(count: int, per_page: int = MAX_PER_PAGE) -> list[int]:
    """How many problems each page of a version holds: the fewest pages of at most `per_page` problems, shared
    out evenly, the larger pages first (8 → 8, 9 → 5 + 4, 12 → 6 + 6), so that no page is left half empty."""
    if count <= 0:
        return []
    pages = -(-count // max(1, per_page))
    size, larger = divmod(count, pages)
    return [size + 1] * larger + [size] * (pages - larger)


@dataclass(frozen=True)
class Version:
    """One version of the sheet (A, B, …) with its own dice."""

    label: str
    seed: str
    problems: tuple[SheetProblem, ...]

    def pages(self, per_page: int = MAX_PER_PAGE) -> tuple[tuple[SheetProblem, ...], ...]:
        """The problems page by page, as `page_sizes` shares them out."""
        pages: list[tuple[SheetProblem, ...]] = []
        start = 0
        for size in page_sizes(len(self.problems), per_page):
            pages.append(self.problems[start : start + size])
            start += size
        return tuple(pages)


@dataclass(frozen=True)
class Worksheet:
    """A whole worksheet: the settings (with the seed filled in) and one problem list per version."""

    settings: Settings
    versions: tuple[Version, ...]

    @property
    def mixed(self) -> bool:
        """Whether each problem has its own level (shown on the sheet and in the key)."""
        return self.settings.level == MIXED

    @property
    def level_text(self) -> str:
        """The key of the level line in `sheet_texts` (level1 … level3, levelmixed)."""
        return f"level{self.settings.level}"

    @property
    def key_note(self) -> str:
        """The key of the answer key's note in `sheet_texts`: what "best" means at this sheet's level."""
        if self.mixed:
            return "key_note_mixed"
        return "key_note_all" if self.settings.level == 3 else "key_note"

    @property
    def title(self) -> str:
        return self.settings.title or translate(SHEET_TEXTS["default_title"], self.settings.lang)

    def to_dict(self) -> dict:
        """The JSON form: the settings, then for each version and problem the dice and the key."""
        settings = asdict(self.settings)
        settings["title"] = self.title
        return {
            "settings": settings,
            "versions": [
                {"label": v.label, "seed": v.seed, "problems": [p.to_dict() for p in v.problems]}
                for v in self.versions
            ],
        }


@bounded("sheet_problems")
def _version_problems(count: int, level: Level, seed: str) -> tuple[SheetProblem, ...]:
    # Cached: the print view, the PDF and the JSON of one sheet are often asked for one after the other.
    problems = []
    for chosen in version_problems(count, level, seed):
        top = chosen.problem.solution.top
        assert top is not None  # certified, with a best score above 0
        key = KeyEntry(top.target, top.score, top.formula, tuple(top.tokens), top.solutions,
                       key_steps(top.faces))  # fmt: skip
        problems.append(SheetProblem(chosen.number, chosen.roll, key, chosen.level))
    return tuple(problems)


def key_steps(faces: tuple) -> tuple[str, ...]:
    """The lines of a key formula's working; a step that only joins digits changes no text and is left out."""
    lines = working(faces).lines
    return tuple(line for i, line in enumerate(lines) if i == 0 or line != lines[i - 1])


def build_worksheet(settings: Settings) -> Worksheet:
    """Roll and solve every problem of every version (a new seed when the settings have none)."""
    if not settings.seed:
        settings = replace(settings, seed=new_seed())
    versions = tuple(
        Version(VERSION_LABELS[i], version_seed(settings.seed, i),
                _version_problems(settings.count, settings.level, version_seed(settings.seed, i)))
        for i in range(settings.versions)
    )  # fmt: skip
    return Worksheet(settings, versions)


def sheet_texts(lang: str) -> dict[str, str]:
    """Every fixed text of a sheet in `lang`; a text with ``%(placeholders)s`` is left for the caller to fill
    (`suji.core.i18n.fill`, or Jinja's ``|format``): the page number changes on every page."""
    texts = {
        key: template(msg, lang) if "%(" in msg else translate(msg, lang) for key, msg in SHEET_TEXTS.items()
    }
    texts.update({f"level{n}": translate(msg, lang) for n, msg in LEVEL_NAMES.items()})  # level1 … levelmixed
    texts["sentence_gap"] = sentence_gap(lang)
    return texts


def form_parts(text: str) -> list[tuple[str, str]]:
    """A school form's text as ("text", …) and ("blank", "short" | "long") parts: the last blank of a line that
    ends with it is long (the name, an English date), the others short (年, 組, 番, 月, 日, 点)."""
    pieces = text.split("%(blank)s")
    parts: list[tuple[str, str]] = []
    for i, piece in enumerate(pieces):
        if piece:
            parts.append(("text", piece))
        if i < len(pieces) - 1:
            last = i == len(pieces) - 2 and not pieces[-1].strip()
            parts.append(("blank", "long" if last else "short"))
    return parts


CLI_TEXT = {
    "output_is_dir": N_("“%(path)s” is a folder: give a file name to write the sheet to."),
    "no_folder": N_("There is no folder “%(path)s” to write the sheet in."),
    "not_writable": N_("The folder “%(path)s” cannot be written to."),
}


def output_path_problem(output: str, lang: str) -> str | None:
    """Why a file of print (a sheet, the dice nets) cannot be written at `output`, or None ("-": stdout)."""
    import os
    from pathlib import Path

    if output == "-":
        return None
    target = Path(output)
    if target.is_dir():
        return translate(CLI_TEXT["output_is_dir"], lang, path=output)
    if not target.parent.is_dir():
        return translate(CLI_TEXT["no_folder"], lang, path=str(target.parent))
    if not os.access(target.parent, os.W_OK):
        return translate(CLI_TEXT["not_writable"], lang, path=str(target.parent))
    return None
