"""CSV for spreadsheets: the one writer of every CSV file the app gives out, and its one guard against formulas.

    rows of values ──cell (each text)──▶ csv (CRLF lines) ──▶ UTF-8 with a byte-order mark

A name typed by a pupil ends up in a teacher's spreadsheet. A cell whose text starts with = + - @ (or their
full-width forms, which a Japanese spreadsheet may read the same way), a tab or a carriage return can be run as a
formula when the file is opened ("CSV injection"): such a text gets a quote mark in front, which the spreadsheet
shows as text. Numbers are written as they are (a number is never a formula). The byte-order mark makes
spreadsheets read Japanese names right.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

# What a formula (or a spreadsheet's "dynamic data exchange") may start with. A tab and a carriage return are here
# too: some spreadsheets skip leading blanks before they look for "=" (OWASP's list).
FORMULA_STARTS = frozenset("=+-@\t\r\n" "＝＋－＠")
QUOTE = "'"
BYTE_ORDER_MARK = "\ufeff"


def cell(value: object) -> object:
    """`value` as a cell: a text that a spreadsheet could read as a formula gets a quote mark first."""
    if isinstance(value, str) and value[:1] in FORMULA_STARTS:
        return QUOTE + value
    return value


def csv_bytes(rows: Iterable[Iterable[object]]) -> bytes:
    """The rows as CSV (lines end CRLF, as RFC 4180 says) in UTF-8 with a byte-order mark, every cell guarded."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return (BYTE_ORDER_MARK + out.getvalue()).encode("utf-8")
