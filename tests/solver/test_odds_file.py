"""The odds table as a deployment artefact: a file replaced, truncated or damaged under a reader is never a crash.

The tables here are made directly (every row "nothing makeable" but one, whose best score says which file it
came from), so each test can make several in a moment. They are real table files: `open_table` checks them in
full, and the changes are made to the file on disk while it is open, as `cp` or a bad disk would make them.
"""

from __future__ import annotations

import os
import shutil
import signal
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from suji.solver.odds import LIVE, TABLE, TableError, best_by_target, open_table, space, table_or_none
from suji.solver.odds import build as odds_build
from suji.solver.odds import table as odds_table

NUMBERS, OPERATORS = (1, 1, 2, 3, 4), ("+", "+", "²", "−")
TARGETS = (446, 464, 644)
OTHER_OPERATORS = [ops for ops in space.operator_sets() if ops != OPERATORS][:3]  # rows not read before


def make_table(path: Path, score: int) -> Path:
    """A checked table file whose only makeable row is NUMBERS/OPERATORS, with `score` for target 446."""
    rows = space.row_count()
    special = space.number_index(NUMBERS) * len(space.operator_sets()) + space.operator_index(OPERATORS)
    empty = zlib.compress(bytes([odds_table.NOT_MAKEABLE]) * len(space.target_list()), 9)
    row = odds_table.encode_row({446: score})
    chosen = zlib.compress(row, 9)
    offsets, blobs, at = [0], [], 0
    for index in range(rows):
        blob = chosen if index == special else empty
        at += len(blob)
        offsets.append(at)
        blobs.append(blob)
    odds_table.write_table(path, struct.pack(f"<{rows + 1}I", *offsets) + b"".join(blobs))
    return path


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("odds-files")
    return make_table(folder / "first.suji", 30), make_table(folder / "second.suji", 40)


def score_in(table) -> int | None:  # noqa: ANN001
    return table.best_score(NUMBERS, OPERATORS, TARGETS)


def test_a_table_copied_over_the_open_one_is_read_again(tables, tmp_path):
    first, second = tables
    path = tmp_path / "odds.suji"
    shutil.copyfile(first, path)
    old = open_table(path)
    assert score_in(old) == 30
    # `cp` truncates the very file that is open and writes the new one into it (the reader used to die of
    # SIGBUS here): the next lookup through the old handle reads the new bytes or is refused, never a crash.
    subprocess.run(["cp", str(second), str(path)], check=True)
    try:
        old.best(NUMBERS, OTHER_OPERATORS[0])
    except TableError as error:
        assert error.code == "damaged"
    new = open_table(path)  # a new inode-size-mtime: checked again, and used
    assert new is not old and score_in(new) == 40
    assert best_by_target(NUMBERS, OPERATORS, targets=TARGETS, table=new) == ({446: 40}, TABLE)


def test_a_table_truncated_under_a_reader_is_refused_and_a_renamed_one_is_taken(tables, tmp_path):
    first, second = tables
    path = tmp_path / "odds.suji"
    shutil.copyfile(first, path)
    table = open_table(path)
    assert score_in(table) == 30
    os.truncate(path, 100)
    with pytest.raises(TableError) as caught:
        table.best(NUMBERS, OTHER_OPERATORS[1])  # a row not read before: gone from the file
    assert caught.value.code == "damaged"
    with pytest.raises(TableError) as caught:
        open_table(path)
    assert caught.value.code == "damaged" and table_or_none(path) is None
    assert odds_build.table_status(path).state == "damaged"
    # The way to put a table in place: copy it beside, then rename it over (readers see old or new, whole).
    staged = tmp_path / "odds.suji.new"
    shutil.copyfile(second, staged)
    os.replace(staged, path)
    assert score_in(open_table(path)) == 40 and odds_build.table_status(path).state == "ready"


def test_offsets_damaged_after_opening_are_a_damaged_table_and_the_solver_answers(tables, tmp_path):
    first, _ = tables
    path = tmp_path / "odds.suji"
    shutil.copyfile(first, path)
    table = open_table(path)
    header_len = struct.unpack_from("<I", path.read_bytes(), len(odds_table.MAGIC))[0]
    body = len(odds_table.MAGIC) + 4 + header_len
    index = space.number_index(NUMBERS) * len(space.operator_sets()) + space.operator_index(OPERATORS)
    with open(path, "r+b") as f:  # the row's end offset points far away (a bad sector, a stray write)
        f.seek(body + 4 * (index + 1))
        f.write(struct.pack("<I", 0xFFFFFF00))
    with pytest.raises(TableError) as caught:  # was zlib.error
        score_in(table)
    assert caught.value.code == "damaged"
    # Whoever asks the table gets the live solver's answer instead (446 is made: 21²+4+1 scores 24).
    best, source = best_by_target(NUMBERS, OPERATORS, targets=TARGETS, table=table)
    assert source == LIVE and best[446] == 24
    with pytest.raises(TableError):
        open_table(path)


def test_a_row_that_stops_reading_refuses_that_file_until_another_takes_its_place(tables, tmp_path):
    first, second = tables
    path = tmp_path / "odds.suji"
    shutil.copyfile(first, path)
    table = open_table(path)
    odds_table._inflate.cache_clear()
    # The same file, unchanged on disk, whose reads now fail (as on a failing disk): the table's descriptor is
    # made to point at a folder, where every read fails with an OSError.
    folder = os.open(tmp_path, os.O_RDONLY)
    os.dup2(folder, table._file.fileno())
    os.close(folder)
    with pytest.raises(TableError):
        score_in(table)
    with pytest.raises(TableError) as caught:
        open_table(path)  # not opened again and again: that file is refused
    assert caught.value.code == "damaged" and caught.value.detail == "bad_row"
    staged = tmp_path / "staged.suji"
    shutil.copyfile(second, staged)
    os.replace(staged, path)
    assert score_in(open_table(path)) == 40


def test_a_file_written_with_bad_offsets_is_refused_on_opening(tables, tmp_path):
    first, _ = tables
    data = bytearray(first.read_bytes())
    header_len = struct.unpack_from("<I", data, len(odds_table.MAGIC))[0]
    start = len(odds_table.MAGIC) + 4 + header_len
    body = bytearray(data[start:])
    struct.pack_into("<I", body, 4 * 10, 0xFFFF)  # offsets no longer climb, though the checksum will match
    path = tmp_path / "bad.suji"
    odds_table.write_table(path, bytes(body))
    with pytest.raises(TableError) as caught:
        odds_table.read_table(path)
    assert caught.value.code == "damaged" and "offsets" in caught.value.message("en")
    assert caught.value.message("ja")


def test_a_fifo_or_a_folder_is_refused_at_once(tmp_path):
    fifo = tmp_path / "odds.suji"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path):
        with pytest.raises(TableError) as caught:
            open_table(path)
        assert caught.value.code == "unreadable"
        with pytest.raises(TableError):
            odds_table.read_table(path)  # opened without waiting for a writer, then refused
    assert "regular file" in TableError("unreadable", fifo, "not_a_file").message("en")


@pytest.mark.slow
def test_odds_status_on_a_fifo_answers_at_once(tmp_path):
    fifo = tmp_path / "odds.suji"
    os.mkfifo(fifo)
    # No writer ever opens the FIFO: a reader that waited for one would never come back (the timeout fails it).
    result = subprocess.run(
        [sys.executable, "-m", "suji", "odds", "status", "--path", str(fifo), "--lang", "en"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 1 and "not a regular file" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


# ---- building: a bad place fails at once, a full disk or an unwritable lock is a message -----------------------


def fake_parts(monkeypatch) -> list[int]:  # noqa: ANN001
    solved: list[int] = []
    monkeypatch.setattr(odds_build, "solve_part", lambda i: solved.append(i) or odds_table.pack_rows([b"\xff"]))
    return solved


def test_a_build_into_a_folder_or_through_a_file_fails_before_solving_anything(tmp_path, monkeypatch):
    solved = fake_parts(monkeypatch)
    a_file = tmp_path / "plain"
    a_file.write_text("x")
    for path, detail in ((tmp_path, "is_folder"), (a_file / "odds.suji", None)):
        with pytest.raises(TableError) as caught:
            odds_build.build(path, workers=1)
        assert caught.value.code == "cannot_write" and (detail is None or caught.value.detail == detail)
        assert "--path" in caught.value.message("en") and caught.value.message("ja")
    assert solved == []


def test_a_lock_that_cannot_be_made_is_a_message(tmp_path, monkeypatch):
    solved = fake_parts(monkeypatch)
    path = tmp_path / "odds.suji"
    odds_build.lock_path(path).mkdir()  # something in the lock's place that cannot be opened as a file
    with pytest.raises(TableError) as caught:
        odds_build.build(path, workers=1, parts=[0])
    assert caught.value.code == "cannot_write" and solved == []
    assert not odds_build.build_running(path)


def test_a_full_disk_stops_the_build_with_a_message_and_keeps_finished_parts(tmp_path, monkeypatch):
    fake_parts(monkeypatch)
    path = tmp_path / "odds.suji"
    odds_build.build(path, workers=1, parts=[0])  # one part finished
    folder = odds_build.parts_dir(path)
    # Writing part 1 goes to /dev/full: every write fails with ENOSPC, as on a full disk.
    (folder / "part-001.tmp").symlink_to("/dev/full")
    with pytest.raises(TableError) as caught:
        odds_build.build(path, workers=1, parts=[0, 1])
    assert caught.value.code == "cannot_write" and "space" in caught.value.detail.lower()
    assert odds_build.finished_parts(folder) == {0} and not (folder / "part-001.tmp").exists()
    assert odds_build.build(path, workers=1, parts=[0, 1]).done == 2  # room again: it goes on


@pytest.mark.slow
def test_the_command_line_says_what_is_wrong_with_the_place_and_exits_1(tmp_path):
    lock_dir = tmp_path / "locked.suji"
    odds_build.lock_path(lock_dir).mkdir()
    for path in (tmp_path, lock_dir):
        result = subprocess.run(
            [sys.executable, "-m", "suji", "odds", "build", "--path", str(path), "--lang", "en", "--quiet"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert result.returncode == 1 and "cannot be written" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr


def test_a_build_stopped_before_its_first_part_says_so_and_exits_1(tmp_path, monkeypatch, capsys):
    # SIGTERM (a server stopping its build) raises KeyboardInterrupt wherever the build is: before its loop of
    # parts began (taking its lock, counting parts done) it left with a traceback and exit -2, not the message
    # and exit 1 that a stop in the loop gives (CI met it once).
    from suji.cli import main

    def stopped_at_once(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(odds_build, "build", stopped_at_once)
    path = tmp_path / "odds.suji"
    handler = signal.getsignal(signal.SIGTERM)  # the command sets its own; pytest's comes back after
    try:
        assert main(["odds", "build", "--path", str(path), "--lang", "en", "--quiet"]) == 1
    finally:
        signal.signal(signal.SIGTERM, handler)
    done, total = odds_build.part_status(path)
    assert f"Stopped: {done} of {total} parts are done and kept." in capsys.readouterr().err
