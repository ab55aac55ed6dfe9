"""The Japanese text as data: the kanji grades file from KANJIDIC2, and the catalog's Japanese for textlint.

    suji i18n kanji-grades [KANJIDIC2.xml.gz]   # regenerate suji/core/kanji_grades.txt (Debian's kanjidic-xml)
    suji i18n lint                              # the catalog's and the templates' Japanese through textlint

The grades are read once, here, from KANJIDIC2's <grade> field (1–6: the 学年別漢字配当表 of the 2020 course of
study), and kept in the package: the app never reads Debian's file. textlint (npm, installed by .ci/run into
.ci/textlint/node_modules) reads plain text, so each Japanese message becomes one paragraph, with its
placeholders filled by a neutral value (a number, the most common thing they hold).
"""

from __future__ import annotations

import gzip
import re
import subprocess
from pathlib import Path

from suji.core.resources import resource_dir

KANJIDIC2 = Path("/usr/share/edict/kanjidic2.xml.gz")
GRADES_FILE = Path(__file__).resolve().parent.parent / "core" / "kanji_grades.txt"
TEXTLINT_DIR = resource_dir("translations").parent / ".ci" / "textlint"
PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def kanji_by_grade(source: Path = KANJIDIC2) -> dict[int, str]:
    """Grade 1–6 → the kanji taught that year, in code-point order, from a KANJIDIC2 file (.xml or .xml.gz)."""
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as f:
        text = f.read()
    grades: dict[int, list[str]] = {grade: [] for grade in range(1, 7)}
    for character in re.finditer(r"<character>(.*?)</character>", text, re.S):
        body = character.group(1)
        literal = re.search(r"<literal>(.)</literal>", body)
        grade = re.search(r"<grade>(\d+)</grade>", body)
        if literal and grade and 1 <= int(grade.group(1)) <= 6:
            grades[int(grade.group(1))].append(literal.group(1))
    return {grade: "".join(sorted(kanji)) for grade, kanji in grades.items()}


def write_kanji_grades(source: Path = KANJIDIC2, target: Path = GRADES_FILE) -> Path:
    """Write the grades file the package reads (suji.core.furigana): one line per grade, `N<TAB>kanji…`."""
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as f:
        version = re.search(r"<database_version>(.*?)</database_version>", f.read())
    grades = kanji_by_grade(source)
    lines = [
        "# 学年別漢字配当表 (the kanji of each primary-school grade), from KANJIDIC2's grade field"
        f" (database {version.group(1) if version else 'unknown'}).",
        "# Regenerate with `suji i18n kanji-grades`; grade<TAB>kanji in code-point order.",
        *(f"{grade}\t{kanji}" for grade, kanji in grades.items()),
    ]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def _plain(text: str) -> str:
    """A message as a reader sees it: placeholders filled with a neutral number, %% as %."""
    return PLACEHOLDER.sub(lambda m: "%" if m.group(0) == "%%" else "3", text)


def catalog_paragraphs(lang: str = "ja") -> list[str]:
    """Every Japanese translation of the catalog, one paragraph each (plural forms once)."""
    from babel.messages.pofile import read_po

    from suji.dev.catalogs import catalog_path

    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    paragraphs = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for text in dict.fromkeys(strings):
            if text and JAPANESE.search(text):
                paragraphs.append(_plain(text).strip())
    return paragraphs


def template_paragraphs() -> list[str]:
    """The Japanese written into the templates themselves (outside `_()`): text between tags."""
    paragraphs = []
    for path in sorted(resource_dir("templates").rglob("*.html")):
        source = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", path.read_text(encoding="utf-8"), flags=re.S)
        for text in re.split(r"<[^>]*>", source):
            text = " ".join(text.split())
            if JAPANESE.search(text):
                paragraphs.append(text)
    return paragraphs


def write_lint_text(folder: Path) -> list[Path]:
    """The texts textlint reads: catalog.txt and templates.txt in `folder`, paragraphs apart."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, paragraphs in (("catalog", catalog_paragraphs()), ("templates", template_paragraphs())):
        path = folder / f"{name}.txt"
        path.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
        written.append(path)
    return written


def textlint_command() -> list[str] | None:
    """The textlint that .ci/run installed, with the project's rules, or None when it is not installed."""
    binary = TEXTLINT_DIR / "node_modules" / ".bin" / "textlint"
    if not binary.exists():
        return None
    return [str(binary), "--config", str(TEXTLINT_DIR / ".textlintrc.json"), "--format", "unix"]


def lint(folder: Path) -> subprocess.CompletedProcess[str]:
    """Run textlint on the catalog's and the templates' Japanese (written into `folder`)."""
    command = textlint_command()
    if command is None:
        raise FileNotFoundError(f"textlint is not installed in {TEXTLINT_DIR} (npm install there)")
    files = write_lint_text(folder)
    return subprocess.run([*command, *map(str, files)], capture_output=True, text=True, cwd=TEXTLINT_DIR)
