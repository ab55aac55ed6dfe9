"""Building the odds table: solve every roll once, in parts that survive an interruption, on N processes.

Data flows: part i of the build is number set i (space.number_sets()) with all 126 operator sets → the
solver's best_score_by_target for the 672 target numbers → 126 encoded rows → one part file, written
atomically and checksummed, in the folder ``<table>.partial`` → when every part is there, the parts are joined
into the table file (table.write_table) and the folder goes.

A build can stop at any moment (Ctrl+C, SIGTERM, a power cut): finished parts stay, a damaged part is solved
again, and the same command goes on where it stopped. A lock file beside the table keeps a second build from
running at the same time; it says which process holds it.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import struct
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from suji.solver.odds import space
from suji.solver.odds.table import TableError, default_path, encode_row, pack_rows, write_table
from suji.solver.search import best_score_by_target

PART_MAGIC = b"SUJIPART"
_SPREAD = 389  # a step coprime with the 696 parts: i ↦ 389·i mod 696 visits every part once
_PART_HEAD = len(PART_MAGIC) + 16 + 32  # magic, rules fingerprint (16 ASCII), SHA-256 of the body


def parts_dir(path: Path) -> Path:
    return path.with_name(path.name + ".partial")


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def part_count() -> int:
    return len(space.number_sets())


def solve_part(index: int) -> bytes:
    """The packed rows of part `index`: one number set with every operator set, all 672 target numbers."""
    numbers = list(space.number_sets())[index]
    targets = space.target_list()
    rows: dict[space.OperatorSet, bytes] = {}
    # Operator sets that differ only in + and − share the solver's terms (it caches them): solve them together.
    by_terms = sorted(space.operator_sets(), key=lambda ops: [f for f in ops if f not in ("+", "−")])
    for ops in by_terms:
        rows[ops] = encode_row(best_score_by_target(numbers, ops, targets))
    return pack_rows(rows[ops] for ops in space.operator_sets())


def _part_file(folder: Path, index: int) -> Path:
    return folder / f"part-{index:03d}.bin"


def write_part(folder: Path, index: int, body: bytes) -> None:
    """Write one finished part atomically, with the rules it was built for and its checksum."""
    folder.mkdir(parents=True, exist_ok=True)
    target = _part_file(folder, index)
    tmp = target.with_suffix(".tmp")
    try:
        with open(tmp, "wb") as out:
            out.write(PART_MAGIC + space.rules_fingerprint().encode() + hashlib.sha256(body).digest() + body)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)  # a disk that filled up keeps no half-written part
        raise


def read_part(folder: Path, index: int) -> bytes | None:
    """The body of a finished part, or None when it is missing, damaged or built for other rules."""
    try:
        data = _part_file(folder, index).read_bytes()
    except OSError:
        return None
    head, body = data[:_PART_HEAD], data[_PART_HEAD:]
    if (
        len(head) != _PART_HEAD
        or head[: len(PART_MAGIC)] != PART_MAGIC
        or head[len(PART_MAGIC) : len(PART_MAGIC) + 16] != space.rules_fingerprint().encode()
        or hashlib.sha256(body).digest() != head[len(PART_MAGIC) + 16 :]
    ):
        return None
    return body


def finished_parts(folder: Path) -> set[int]:
    """The parts whose files are present (checked in full only when the build resumes or joins them)."""
    found = set()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        name = entry.name
        if name.startswith("part-") and name.endswith(".bin"):
            try:
                found.add(int(name[5:-4]))
            except ValueError:
                continue
    return {i for i in found if 0 <= i < part_count()}


def join_parts(folder: Path, path: Path, seconds: float | None = None) -> None:
    """Join every part into the table file (offsets shifted, rows copied as they are) and remove the parts."""
    per_part = len(space.operator_sets())
    offsets: list[int] = [0]
    blobs: list[bytes] = []
    for index in range(part_count()):
        body = read_part(folder, index)
        head = 4 * (per_part + 1)
        local = struct.unpack_from(f"<{per_part + 1}I", body, 0) if body and len(body) >= head else None
        if body is None or local is None or local[-1] != len(body) - head:
            raise TableError("partial", path, "part_missing", part=index)
        rows = body[head:]
        base = offsets[-1]
        offsets.extend(base + o for o in local[1:])
        blobs.append(rows)
    body = struct.pack(f"<{len(offsets)}I", *offsets) + b"".join(blobs)
    write_table(path, body, seconds)
    shutil.rmtree(folder, ignore_errors=True)


@dataclass(frozen=True)
class Progress:
    """How far a build has got: parts done of all, and an estimate of the seconds left (None until known)."""

    done: int
    total: int
    seconds: float
    seconds_left: float | None

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0


class BuildStopped(Exception):
    """The build was interrupted; `done` parts are kept and the same command goes on from there."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"stopped with {done} of {total} parts done")
        self.done = done
        self.total = total


class _Lock:
    """An exclusive lock on `<table>.lock` (fcntl), naming the process that holds it."""

    def __init__(self, path: Path) -> None:
        self.path = lock_path(path)
        self.table = path
        self.handle = None

    def __enter__(self) -> _Lock:
        import fcntl

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(self.path, "a+")
        except OSError as error:  # a read-only place, a folder where the lock goes, a path through a file
            raise TableError("cannot_write", self.table, error.strerror or str(error)) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip()
            handle.close()
            raise TableError("busy", self.table, holder) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self.handle = handle
        return self

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()  # closing releases the lock


def build_running(path: Path | None = None) -> bool:
    """Whether some process is building the table at `path` now (it holds the lock)."""
    import fcntl

    lock = lock_path(Path(path) if path is not None else default_path())
    try:
        # Never wait on a FIFO put where the lock goes; only a regular file is a lock.
        fd = os.open(lock, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return False
    handle = os.fdopen(fd, "rb")
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        return False


def _init_worker(nice: int) -> None:
    if nice:
        os.nice(nice)


def _init_pool_worker(nice: int) -> None:
    # Ctrl+C reaches the whole process group: the parent stops the pool, the workers need not hear it.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the command's SIGTERM handler; the pool ends its workers with SIGTERM.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _init_worker(nice)


def build(
    path: Path | None = None,
    workers: int | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    nice: int = 0,
    parts: Iterable[int] | None = None,
    parent_pid: int | None = None,
) -> Progress:
    """Build (or go on building) the table at `path` on `workers` processes; returns the final progress.

    `parts` limits the build to some parts (the tests build a slice); the table file is written only when
    every part is done. `parent_pid`: stop when that process is gone (a server's background build). Raises
    TableError("busy") when another build holds the lock, BuildStopped when interrupted.
    """
    path = Path(path) if path is not None else default_path()
    folder = parts_dir(path)
    workers = max(1, workers or os.cpu_count() or 1)
    wanted = sorted(set(parts) if parts is not None else range(part_count()))
    started = time.monotonic()
    check_place(path)
    with _Lock(path):
        if path.exists() and parts is None:
            try:
                from suji.solver.odds.table import read_table

                read_table(path)
                return Progress(part_count(), part_count(), 0.0, 0.0)
            except TableError:
                pass  # stale or damaged: build it again
        done = {i for i in finished_parts(folder) if read_part(folder, i) is not None}
        # Parts differ in cost (many 6s, which read as 9 too, cost most): solving them in a spread-out order
        # makes the rate so far a fair estimate of the time left.
        todo = sorted((i for i in wanted if i not in done), key=lambda i: (i * _SPREAD) % part_count())
        total = len(wanted)
        finished_before = total - len(todo)

        def report(count: int) -> Progress:
            elapsed = time.monotonic() - started
            new = count - finished_before
            left = elapsed / new * (total - count) if new else None
            progress = Progress(count, total, elapsed, left)
            if on_progress:
                on_progress(progress)
            return progress

        count = finished_before
        progress = report(count)
        try:
            for index, body in _solve_parts(todo, workers, nice, parent_pid):
                write_part(folder, index, body)
                count += 1
                progress = report(count)
            if parts is None:
                join_parts(folder, path, time.monotonic() - started)
        except KeyboardInterrupt:
            raise BuildStopped(count, total) from None
        except OSError as error:  # the disk filled up, the folder went read-only or away
            raise TableError("cannot_write", path, error.strerror or str(error)) from None
        return progress


def check_place(path: Path) -> None:
    """Fail at once, before any solving, when no table can be written at `path` (TableError "cannot_write")."""
    if path.is_dir():
        raise TableError("cannot_write", path, "is_folder")
    if path.exists() and not path.is_file():
        raise TableError("cannot_write", path, "not_a_file")
    if any(folder.exists() and not folder.is_dir() for folder in path.parents):
        raise TableError("cannot_write", path, os.strerror(errno.ENOTDIR))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TableError("cannot_write", path, error.strerror or str(error)) from None


def _solve_parts(
    todo: Sequence[int], workers: int, nice: int, parent_pid: int | None
) -> Iterable[tuple[int, bytes]]:
    """Solve the parts, yielding each as it finishes (in this process when workers is 1)."""
    if workers == 1 or len(todo) <= 1:
        _init_worker(nice)
        for index in todo:
            if parent_pid is not None and os.getppid() != parent_pid:
                raise KeyboardInterrupt  # the server that started this build has gone
            yield index, solve_part(index)
        return
    from multiprocessing import get_context

    context = get_context("fork" if "fork" in _start_methods() else "spawn")
    pool = context.Pool(workers, initializer=_init_pool_worker, initargs=(nice,))
    try:
        yield from pool.imap_unordered(_solve_indexed, todo)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _solve_indexed(index: int) -> tuple[int, bytes]:
    return index, solve_part(index)


def _start_methods() -> list[str]:
    from multiprocessing import get_all_start_methods

    return get_all_start_methods()


@dataclass(frozen=True)
class TableStatus:
    """What a page says about the table: "ready", "building" (with progress), "partial", "missing", "damaged"
    or "stale"."""

    state: str
    done: int = 0
    total: int = 0
    seconds_left: float | None = None

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else 0


def table_status(path: Path | None = None) -> TableStatus:
    """The table's state, with a build's progress and an estimate of the time left from its part files."""
    from suji.solver.odds.table import open_table

    path = Path(path) if path is not None else default_path()
    try:
        open_table(path)
        return TableStatus("ready", part_count(), part_count())
    except TableError as error:
        problem = error.code
    folder = parts_dir(path)
    times = []
    try:
        for entry in os.scandir(folder):
            if entry.name.startswith("part-") and entry.name.endswith(".bin"):
                times.append(entry.stat().st_mtime)
    except OSError:
        pass
    done, total = len(times), part_count()
    if build_running(path):
        left = None
        if done >= 2:
            times.sort()
            rate = (times[-1] - times[0]) / (done - 1)
            left = max(0.0, rate * (total - done))
        return TableStatus("building", done, total, left)
    if done:
        return TableStatus("partial", done, total)
    return TableStatus(problem if problem in ("damaged", "stale") else "missing", 0, total)


def part_status(path: Path | None = None) -> tuple[int, int]:
    """(parts done, all parts) of an unfinished build at `path`, counted from the files present."""
    path = Path(path) if path is not None else default_path()
    return len(finished_parts(parts_dir(path))), part_count()


__all__ = [
    "BuildStopped",
    "Progress",
    "TableStatus",
    "table_status",
    "build",
    "build_running",
    "join_parts",
    "part_status",
    "read_part",
    "solve_part",
    "write_part",
]
