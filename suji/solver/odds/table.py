"""The odds table on disk: the best score of every target number for every roll, and lookups in it.

Data flows: a file → `open_table` checks its magic, format, rules fingerprint, size and checksum → an
`OddsTable` → `row(numbers, operators, level)` gives 672 bytes (one per target number: the best score, or
NOT_MAKEABLE) → `best` / `best_score` answer the solver's questions by lookup.

The file: the magic ``SUJIODDS``, a little-endian uint32 header length, a JSON header (format, rules
fingerprint, row and column counts, the body's SHA-256), then the body: row offsets (uint32, rows + 1 of them)
and each row compressed with zlib on its own, so a lookup inflates 672 bytes and nothing more. Anything that
does not check out raises TableError with a code; nothing half-right is ever used.

The table is a deployment artefact: built once (`suji odds build`), copied to each machine and put in place by
a rename. Reading survives whatever happens to the file meanwhile. Rows are read with pread from an open file
(never memory-mapped: a file truncated or copied over while mapped kills the process with SIGBUS); every
`open_table` compares the file's identity (device, inode, size, mtime, ctime) with the one it checked and checks
a replaced file again; a row that cannot be read or inflated (a file damaged after it was checked) raises
TableError("damaged"), and that file is refused from then on (a file put in its place is checked anew), so
the callers drop to the live solver instead of failing. Only regular files are read: a FIFO or a device is refused, never waited on.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import struct
import threading
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from suji.core.caching import LruDict, bounded
from suji.core.errors import SujiError
from suji.core.i18n import N_, translate
from suji.solver.odds import space

MAGIC = b"SUJIODDS"
FORMAT = 1
NOT_MAKEABLE = 255
FILE_NAME = f"odds-v{FORMAT}.suji"


# What a person reads about a table that cannot be used (English msgids; translations/ holds Japanese).
MESSAGES = {
    "missing": N_(
        "There is no odds table at %(path)s yet. Build it with “suji odds build”; until then the live solver answers."
    ),
    "unreadable": N_("The odds table at %(path)s cannot be read (%(detail)s)."),
    "damaged": N_(
        "The odds table at %(path)s is damaged (%(detail)s), so it is not used. Build it again with “suji odds build”."
    ),
    "stale": N_(
        "The odds table at %(path)s was made for other rules or another version (%(detail)s), so it is not used. Build it again with “suji odds build”."
    ),
    "partial": N_("The odds table at %(path)s is not finished (%(detail)s). Run “suji odds build” to go on."),
    "cannot_write": N_(
        "The odds table cannot be written at %(path)s (%(detail)s). Finished parts are kept: make room, or choose another place with --path, and run “suji odds build” again."
    ),
    "busy": N_(
        "Another build of the odds table is running (process %(detail)s). Wait for it; “suji odds status” shows how far it has got."
    ),
}
DETAILS = {
    "empty_file": N_("the file is empty"),
    "not_a_table": N_("the file is not an odds table"),
    "bad_header": N_("its header cannot be read"),
    "bad_checksum": N_("its checksum does not match"),
    "other_format": N_("another file format"),
    "other_rules": N_("other rules"),
    "part_missing": N_("part %(part)s is missing or damaged"),
    "not_a_file": N_("it is not a regular file"),
    "is_folder": N_("it is a folder: give the table's file name"),
    "bad_row": N_("a row cannot be read"),
    "bad_offsets": N_("its row offsets are wrong"),
}


class TableError(SujiError):
    """An odds table that cannot be used; `code` names why (missing, damaged, stale, partial, busy).

    `detail` is a key of DETAILS (translated) or plain text such as a process id.
    """

    MESSAGES = MESSAGES

    def __init__(self, code: str, path: Path | str, detail: str = "", **params: object) -> None:
        super().__init__(code, **params)
        self.path = str(path)
        self.detail = detail

    def message_params(self, lang: str) -> dict:
        detail = self.detail
        if detail in DETAILS:
            detail = translate(DETAILS[detail], lang, **super().message_params(lang))
        return {"path": self.path, "detail": detail}

    def __str__(self) -> str:
        return f"{self.code}: {self.path}" + (f" ({self.detail})" if self.detail else "")


def default_path() -> Path:
    """Where the command line and the web app look for the table: $SUJI_ODDS_PATH, else the user's data folder.

    The data folder is $XDG_DATA_HOME/suji, by default ~/.local/share/suji.
    """
    explicit = os.environ.get("SUJI_ODDS_PATH")
    if explicit:
        return Path(explicit).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "suji" / FILE_NAME


def encode_row(best: dict[int, int]) -> bytes:
    """The 672 bytes of a row: the best score of each target number in order, NOT_MAKEABLE where none."""
    row = bytearray([NOT_MAKEABLE]) * len(space.target_list())
    for target, score in best.items():
        index = space.target_index(target)
        if index is None:
            raise ValueError(f"{target} is not a target number of the standard dice")
        if not 0 <= score < NOT_MAKEABLE:
            raise ValueError(f"score {score} does not fit a row")
        row[index] = score
    return bytes(row)


def decode_row(row: bytes) -> dict[int, int]:
    """The makeable target numbers of a row with their best scores."""
    targets = space.target_list()
    return {targets[i]: score for i, score in enumerate(row) if score != NOT_MAKEABLE}


def pack_rows(rows: Iterable[bytes]) -> bytes:
    """Offsets and compressed rows, the shape of a table's body (and of one part of a build)."""
    blobs = [zlib.compress(row, 9) for row in rows]
    offsets = [0]
    for blob in blobs:
        offsets.append(offsets[-1] + len(blob))
    return struct.pack(f"<{len(offsets)}I", *offsets) + b"".join(blobs)


def unpack_rows(body: bytes, count: int) -> list[bytes]:
    """Every row of a packed body of `count` rows (used to assemble and to verify)."""
    offsets = struct.unpack_from(f"<{count + 1}I", body, 0)
    start = 4 * (count + 1)
    return [zlib.decompress(body[start + offsets[i] : start + offsets[i + 1]]) for i in range(count)]


def header_for(body: bytes, seconds: float | None = None) -> dict:
    return {
        "format": FORMAT,
        "rules": space.rules_fingerprint(),
        "rows": space.row_count(),
        "number_sets": len(space.number_sets()),
        "operator_sets": len(space.operator_sets()),
        "targets": len(space.target_list()),
        "sha256": hashlib.sha256(body).hexdigest(),
        "build_seconds": round(seconds, 1) if seconds is not None else None,
    }


def write_table(path: Path, body: bytes, seconds: float | None = None) -> None:
    """Write a complete table atomically: a reader sees the old file or the whole new one, never a part."""
    header = json.dumps(header_for(body, seconds), sort_keys=True).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as out:
        out.write(MAGIC + struct.pack("<I", len(header)) + header + body)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


# Rows are a few dozen bytes compressed; anything far larger is a damaged offset, not a row to read.
MAX_ROW_BLOB = 4096
_CHUNK = 1 << 20
Identity = tuple[int, int, int, int, int]  # device, inode, size, mtime and ctime in ns: which file was checked


def _identity(info: os.stat_result) -> Identity:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


@dataclass(frozen=True, eq=False)  # compared and hashed by identity (the row cache keys on it)
class OddsTable:
    """A checked table, read from an open file; lookups are thread-safe and take a few microseconds.

    A lookup raises TableError("damaged") when the file no longer reads as it did when checked.
    """

    path: Path
    header: dict
    _file: object  # the open file (kept open: a file renamed over this one leaves this one readable)
    _body_start: int
    identity: Identity

    def row(self, numbers: Iterable[int], operators: Iterable[str], level: int = space.FULL_LEVEL) -> bytes:
        """The 672 bytes of a roll at a level; KeyError for dice the standard set cannot show."""
        n = space.number_index(numbers)
        ops = space.level_operators(operators, level) if level != space.FULL_LEVEL else operators
        o = space.operator_index(ops)
        if n is None or o is None:
            raise KeyError("not a roll of the standard dice")
        return self._row(n * len(space.operator_sets()) + o)

    def _row(self, index: int) -> bytes:
        try:
            return _inflate(self, index)
        except TableError:
            suspect(self)
            raise

    def best(
        self,
        numbers: Iterable[int],
        operators: Iterable[str],
        targets: Iterable[int] | None = None,
        level: int = space.FULL_LEVEL,
    ) -> dict[int, int]:
        """The best score of every makeable target (all 672 target numbers, or only `targets`)."""
        row = self.row(numbers, operators, level)
        if targets is None:
            return decode_row(row)
        found = {}
        for t in targets:
            i = space.target_index(t)
            if i is None:
                raise KeyError(f"{t} is not a target number of the standard dice")
            if row[i] != NOT_MAKEABLE:
                found[t] = row[i]
        return found

    def best_score(
        self,
        numbers: Iterable[int],
        operators: Iterable[str],
        targets: Iterable[int],
        level: int = space.FULL_LEVEL,
    ) -> int | None:
        """The best score over the targets of a roll, or None when none of them can be made."""
        row = self.row(numbers, operators, level)
        best = -1
        for t in targets:
            i = space.target_index(t)
            if i is None:
                raise KeyError(f"{t} is not a target number of the standard dice")
            score = row[i]
            if score != NOT_MAKEABLE and score > best:
                best = score
        return best if best >= 0 else None

    def covers(self, numbers: Iterable[int], operators: Iterable[str], targets: Iterable[int]) -> bool:
        """Whether the table has this roll (standard dice and target numbers)."""
        return (
            space.number_index(numbers) is not None
            and space.operator_index(operators) is not None
            and all(space.target_index(t) is not None for t in targets)
        )


def _read_at(fd: int, size: int, offset: int) -> bytes:
    """Exactly `size` bytes at `offset` (a short read means the file is shorter than it was: ValueError)."""
    data = os.pread(fd, size, offset)
    while len(data) < size:
        more = os.pread(fd, size - len(data), offset + len(data))
        if not more:
            raise ValueError("short read")
        data += more
    return data


@bounded("odds_row")
def _inflate(table: OddsTable, index: int) -> bytes:
    fd = table._file.fileno()  # type: ignore[attr-defined]
    rows_at = table._body_start + 4 * (table.header["rows"] + 1)
    try:
        start, end = struct.unpack("<2I", _read_at(fd, 8, table._body_start + 4 * index))
        if not 0 <= end - start <= MAX_ROW_BLOB:
            raise ValueError("bad offsets")
        row = zlib.decompress(_read_at(fd, end - start, rows_at + start))
    except (OSError, ValueError, struct.error, zlib.error):
        raise TableError("damaged", table.path, "bad_row") from None
    if len(row) != len(space.target_list()):
        raise TableError("damaged", table.path, "bad_row")
    return row


def read_table(path: Path) -> OddsTable:
    """Open and check a table file; TableError (missing, unreadable, damaged, stale) when it cannot be used."""
    path = Path(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below).
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise TableError("missing", path) from None
    except OSError as error:
        raise TableError("unreadable", path, error.strerror or str(error)) from None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        regular = False
    if not regular:
        os.close(fd)
        raise TableError("unreadable", path, "not_a_file")
    handle = os.fdopen(fd, "rb", buffering=0)
    try:
        table = _check(path, handle)
    except BaseException:
        handle.close()
        raise
    return table


def _check(path: Path, handle) -> OddsTable:  # noqa: ANN001 - an unbuffered binary file
    fd = handle.fileno()
    try:
        info = os.fstat(fd)
        size = info.st_size
        if size == 0:
            raise TableError("damaged", path, "empty_file")
        if size < len(MAGIC) + 4 or _read_at(fd, len(MAGIC), 0) != MAGIC:
            raise TableError("damaged", path, "not_a_table")
        (header_len,) = struct.unpack("<I", _read_at(fd, 4, len(MAGIC)))
        body_start = len(MAGIC) + 4 + header_len
        if body_start > size:
            raise TableError("damaged", path, "bad_header")
        try:
            header = json.loads(_read_at(fd, header_len, len(MAGIC) + 4))
        except (ValueError, UnicodeDecodeError):
            raise TableError("damaged", path, "bad_header") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise TableError("stale", path, "other_format")
        if header.get("rules") != space.rules_fingerprint() or header.get("rows") != space.row_count():
            raise TableError("stale", path, "other_rules")
        digest = hashlib.sha256()
        offset = body_start
        while offset < size:
            chunk = _read_at(fd, min(_CHUNK, size - offset), offset)
            digest.update(chunk)
            offset += len(chunk)
        if digest.hexdigest() != header.get("sha256") or os.pread(fd, 1, size):
            raise TableError("damaged", path, "bad_checksum")  # changed, or still growing, while checked
        rows = header["rows"]
        offsets = struct.unpack(f"<{rows + 1}I", _read_at(fd, 4 * (rows + 1), body_start))
        rows_at = body_start + 4 * (rows + 1)
        if offsets[0] != 0 or rows_at + offsets[-1] != size or not all(
            0 <= b - a <= MAX_ROW_BLOB for a, b in zip(offsets, offsets[1:], strict=False)
        ):
            raise TableError("damaged", path, "bad_offsets")  # a file written wrongly, checksum and all
    except TableError:
        raise
    except (OSError, ValueError):  # shorter than its header says, or unreadable
        raise TableError("damaged", path, "bad_checksum") from None
    return OddsTable(path, header, handle, body_start, _identity(info))


# Per path: the identity of the file last checked, and the table or the reason it cannot be used.
_CACHE: LruDict[str, tuple[Identity | None, OddsTable | TableError]] = LruDict("odds_table")
_CACHE_LOCK = threading.Lock()


def suspect(table: OddsTable) -> None:
    """A row of `table` stopped reading: refuse that file from now on (a file put in its place is checked anew)."""
    with _CACHE_LOCK:
        cached = _CACHE.get(str(table.path))
        if cached is not None and cached[1] is table:
            _CACHE.put(str(table.path), (table.identity, TableError("damaged", table.path, "bad_row")))


def open_table(path: Path | None = None) -> OddsTable:
    """The table at `path` (default: default_path()), checked once per version of the file and then kept.

    Raises TableError when there is none or it cannot be used. A file replaced (renamed over, copied over,
    touched) is noticed by its identity and checked again; one whose rows stopped reading is refused.
    """
    path = Path(path) if path is not None else default_path()
    try:
        info = path.stat()
    except FileNotFoundError:
        raise TableError("missing", path) from None
    except OSError as error:
        raise TableError("unreadable", path, error.strerror or str(error)) from None
    if not stat.S_ISREG(info.st_mode):
        raise TableError("unreadable", path, "not_a_file")
    with _CACHE_LOCK:
        cached = _CACHE.get(str(path))
        if cached is None or cached[0] != _identity(info):
            try:
                result: OddsTable | TableError = read_table(path)
                seen: Identity = result.identity
            except TableError as error:
                result, seen = error, _identity(info)
            if cached is not None and isinstance(cached[1], OddsTable) and cached[1] is not result:
                _inflate.cache_clear()  # the rows of the old file go, and with them its last references
            cached = (seen, result)
            _CACHE.put(str(path), cached)
    if isinstance(cached[1], TableError):
        raise cached[1]
    return cached[1]


def table_or_none(path: Path | None = None) -> OddsTable | None:
    """The usable table, or None (missing, damaged or stale): callers then use the live solver."""
    try:
        return open_table(path)
    except TableError:
        return None
