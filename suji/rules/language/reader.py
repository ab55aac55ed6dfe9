"""Reading a formula text: the one reader from text to the dice of each reading, with where each die is written.

    text ──scan (a character at a time when each is a spelling alone, else the spelling table's pattern)──▶
         pieces: a face and its span in the text
         ──readings (a × followed by 1 0/1/2 may be a constant die)──▶ the dice of each reading
         ──the automaton (the grammar die by die)──▶ a Reading, or the FormulaError naming the mistake and its column

A text is scanned once (`scan`); everything that asks about it (the readings, the dice a formula being typed
uses, the better message for a missing constant die) reads that one scan. The values of a reading's dice are
worked out by suji.rules.language.evaluate. Nothing here builds a parse tree, calls a parser library, SymPy or
eval: the grammar file (grammar/suji.lark) is the reference the tests hold this reader to.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from itertools import combinations
from typing import NamedTuple

from suji.core.text import shown
from suji.rules.language.automaton import mistake, refusal
from suji.rules.language.errors import FormulaError
from suji.rules.language.spelling import (
    NOT_SINGLE,
    SPACE_TERMINAL,
    TIMES,
    Face,
    constant_die,
    face_of_match,
    scanner,
    single_characters,
)

# The most characters a formula may have: every reader and every stored formula keeps to it.
MAX_FORMULA_LENGTH = 200
# A text with many "×1d" spots could be read in 2^k ways; readings beyond this many are not tried.
MAX_READINGS = 64

_PARENTHESES = frozenset("()（）[]{}［］｛｝")


def formula_field(value: object) -> str:
    """A formula as a form or a request sends it, cut one character past MAX_FORMULA_LENGTH: no request can ask
    for more reading than that, and a formula too long is still refused as too long rather than read in part."""
    return str(value if value is not None else "")[: MAX_FORMULA_LENGTH + 1]


class Piece(NamedTuple):
    """A piece of a formula text as the scanner splits it: where it is (0-based, end exclusive) and the die face
    it stands for (None: a character no die shows). "×1d" stays three pieces here; see `readings`."""

    start: int
    end: int
    face: Face | None


# Named tuples made without their Python-level __new__ (a scan and a reading make one per die, per request).
_piece = partial(tuple.__new__, Piece)


class UsedDie(NamedTuple):
    """One die in a formula: its face (an int for a digit, the printed symbol for an operator), its column (1-based)
    and where its spelling ends in the text (0-based, exclusive; None when not read from a text). A named tuple:
    a formula's dice are made for every reading of every text checked."""

    face: Face
    column: int
    end: int | None = None

    @property
    def text(self) -> str:
        return str(self.face)


_die = partial(tuple.__new__, UsedDie)


class Scanned:
    """A text scanned once, on first need: its pieces (spaces left out, going on past characters no die shows) up
    to the length limit, and the index of its first unreadable character (None: none)."""

    __slots__ = ("text", "_found", "_readable")

    def __init__(self, text: str) -> None:
        self.text = text
        self._found: tuple[tuple[Piece, ...], int | None] | None = None
        self._readable: tuple[Piece, ...] | None = None

    def _scan(self) -> tuple[tuple[Piece, ...], int | None]:
        if self._found is None:
            self._found = self._scan_now()
        return self._found

    def _scan_now(self) -> tuple[tuple[Piece, ...], int | None]:
        # Most texts are one-character spellings only (digits, + − × ÷ ² √, spaces): read a character at a time.
        rest = self.text[:MAX_FORMULA_LENGTH]
        single = single_characters()
        found: list[Piece] = []
        for pos, char in enumerate(rest):
            face = single.get(char, NOT_SINGLE)
            if face is NOT_SINGLE:
                return self._scan_pattern(rest)
            if face is not None:
                found.append(_piece((pos, pos + 1, face)))
        return tuple(found), None

    def _scan_pattern(self, rest: str) -> tuple[tuple[Piece, ...], int | None]:
        """The scan of any text, with the spelling table's pattern (the reference of the character-at-a-time one)."""
        match = scanner().match
        found: list[Piece] = []
        bad = None
        pos, end = 0, len(rest)
        while pos < end:
            hit = match(rest, pos)
            if hit is None:
                bad = pos if bad is None else bad
                found.append(Piece(pos, pos + 1, None))
                pos += 1
                continue
            kind = hit.lastgroup
            if kind != SPACE_TERMINAL:
                found.append(Piece(pos, hit.end(), face_of_match(kind, hit.group())))  # type: ignore[arg-type]
            pos = hit.end()
        return tuple(found), bad

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return self._scan()[0]

    @property
    def bad(self) -> int | None:
        return self._scan()[1]

    @property
    def readable(self) -> tuple[Piece, ...]:
        """The pieces before the first unreadable character."""
        if self._readable is None:
            pieces, bad = self._scan()
            self._readable = pieces if bad is None else tuple(p for p in pieces if p.end <= bad)
        return self._readable


def scan(text: str) -> Scanned:
    """`text` to be split (its first MAX_FORMULA_LENGTH characters) into pieces with the spelling table's pattern,
    once, when first asked."""
    return Scanned(text)


def pieces(text: str) -> list[Piece]:
    """The text split into die faces, going on past characters no die shows (None faces).

    For a formula still being written (it may end with an operator, or hold a typo): the page greys out the
    dice the text already uses. Spaces are left out.
    """
    return list(scan(text).pieces)


def _unreadable(scanned: Scanned) -> FormulaError:
    index = scanned.bad
    assert index is not None
    char = scanned.text[index]
    if char in _PARENTHESES:
        return FormulaError("parentheses", index + 1)
    if char in "=＝":
        return FormulaError("equals", index + 1)
    return FormulaError("unknown_char", index + 1, char=shown(char))


class Reading:
    """One way to read a formula text: its dice in order (a formula of the language) and their faces."""

    __slots__ = ("dice", "faces")

    def __init__(self, dice: tuple[UsedDie, ...], faces: tuple[Face, ...] | None = None) -> None:
        self.dice = dice
        self.faces: tuple[Face, ...] = faces if faces is not None else tuple(d.face for d in dice)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reading) and other.dice == self.dice

    def __hash__(self) -> int:
        return hash(self.dice)

    def __repr__(self) -> str:
        return f"Reading({self.dice!r})"


def _constant_spots(tokens: tuple[Piece, ...]) -> list[int]:
    """Indexes i where pieces i, i+1, i+2 read "× 1 0/1/2": a constant die, or a × die and a two-digit number."""
    faces = [t.face for t in tokens]
    return [i for i in range(len(tokens) - 2) if faces[i] == TIMES and constant_die(*faces[i : i + 3])]


def _merged(tokens: tuple[Piece, ...], spots: tuple[int, ...]) -> tuple[UsedDie, ...]:
    """The dice of the pieces with the "× 1 d" at each spot read as one constant die."""
    if not spots:
        return tuple([_die((face, start + 1, end)) for start, end, face in tokens])
    dice: list[UsedDie] = []
    wanted = set(spots)
    i = 0
    while i < len(tokens):
        piece = tokens[i]
        if i in wanted:
            last = tokens[i + 2]
            dice.append(_die((f"×1{last.face}", piece.start + 1, last.end)))
            i += 3
        else:
            dice.append(_die((piece.face, piece.start + 1, piece.end)))
            i += 1
    return tuple(dice)


def _reading(dice: tuple[UsedDie, ...]) -> Reading:
    """The dice as a Reading when they form a formula, else the FormulaError naming the first mistake."""
    faces = tuple([d[0] for d in dice])
    stop = refusal(faces)
    if stop is not None:
        before = dice[stop - 1] if stop else None
        refused = dice[stop] if stop < len(dice) else None
        code, where, token = mistake(before.face if before else None, refused.face if refused else None)
        at = {"before": before, "refused": refused}.get(where) if where else None
        params = {} if token is None else {"token": token}
        raise FormulaError(code, at.column if at is not None else None, **params)
    if 0 in faces:
        raise FormulaError("zero", dice[faces.index(0)].column)
    return Reading(dice, faces)


def _tokens(text: str | Scanned, allow_empty: bool) -> tuple[Piece, ...]:
    scanned = text if isinstance(text, Scanned) else scan(text)
    if len(scanned.text) > MAX_FORMULA_LENGTH:
        raise FormulaError("too_long", None, limit=MAX_FORMULA_LENGTH)
    if not allow_empty and not scanned.text.strip():
        raise FormulaError("empty")
    if scanned.bad is not None:
        raise _unreadable(scanned)
    return scanned.readable


def _dice_readings(tokens: tuple[Piece, ...], constant_dice: int | None) -> Iterator[tuple[UsedDie, ...]]:
    """The dice of every reading, those with the most constant dice first, MAX_READINGS at most."""
    spots = _constant_spots(tokens)
    # The usual text has no "× 1 d": its one reading, each piece a die (what the loop below yields for it).
    if not spots and (constant_dice is None or constant_dice >= 0):
        yield _merged(tokens, ())
        return
    most = len(spots) if constant_dice is None else min(len(spots), constant_dice)
    count = 0
    for size in range(most, -1, -1):  # readings with constant dice first (none when the roll has none)
        for chosen in combinations(spots, size):
            if count == MAX_READINGS:
                return
            count += 1
            yield _merged(tokens, chosen)


def readings(text: str | Scanned, constant_dice: int | None = None) -> Iterator[Reading | FormulaError]:
    """Every reading of `text` (or of its scan), each a Reading or the FormulaError that reading runs into.

    `constant_dice` is how many constant dice the roll has (None: unknown). Readings that merge "× 1 d" into a
    constant die come first when the roll has such a die; readings needing more constant dice than the roll
    has are skipped, since no roll could play them. Raises FormulaError for a text no reading can start on
    (too long, empty, a character no die shows).
    """
    tokens = _tokens(text, allow_empty=False)
    if not tokens:
        raise FormulaError("empty")
    for dice in _dice_readings(tokens, constant_dice):
        # Yielded after the try, not inside its except: the error is a value here, not an exception in flight
        # (and the compiled twin, suji.core.native, keeps no exception state across the yield).
        try:
            found: Reading | FormulaError = _reading(dice)
        except FormulaError as error:
            found = error
        yield found


def parse(text: str) -> Reading:
    """The first valid reading of `text` (constant dice preferred), or the FormulaError of the first reading."""
    first_error = None
    for reading in readings(text, constant_dice=None):
        if isinstance(reading, Reading):
            return reading
        first_error = first_error or reading
    assert first_error is not None
    raise first_error


def prefix_readings(text: str, constant_dice: int | None = None) -> list[tuple[UsedDie, ...]]:
    """The dice of the start of a formula, one tuple per reading, without checking it is whole (it may end in an
    operator).

    Used by "still on track?": the text need not be a whole formula yet. Raises FormulaError for text that
    cannot be the start of any formula (unknown characters, parentheses, too long).
    """
    return list(_dice_readings(_tokens(text, allow_empty=True), constant_dice))
