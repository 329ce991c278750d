"""The game in progress: resuming from the save file, bad files set aside, background saving."""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from positions import play_randomly

from core.controller import Controller
from core.files import write_atomically
from core.record import MAX_RECORD_BYTES, dumps_record
from game.table.store.saves import BackgroundSaver, discard_game, load_game


def match_in_progress(seed: int = 7, steps: int = 90) -> Controller:
    """Return a match a few dozen random actions in: past the first hand, mid-hand."""
    controller = Controller()
    assert controller.new_match(seed=seed).ok
    play_randomly(controller, random.Random(seed), steps)
    assert controller.phase in ("pass", "play")
    return controller


def test_no_file_means_no_game(tmp_path: Path) -> None:
    assert load_game(tmp_path / "current-game.json") == (None, None)


@pytest.mark.parametrize("steps", [0, 30, 90])
def test_a_saved_game_loads_back_equal(tmp_path: Path, steps: int) -> None:
    controller = Controller()
    assert controller.new_match(seed=11, rules={"jack_of_diamonds": True}).ok
    play_randomly(controller, random.Random(steps), steps)
    text = dumps_record(controller)
    path = tmp_path / "current-game.json"
    write_atomically(path, text)
    loaded, message = load_game(path)
    assert message is None and loaded is not None
    assert dumps_record(loaded) == text
    assert loaded.hand_number == controller.hand_number
    assert loaded.seats_to_act == controller.seats_to_act
    assert path.exists()


def test_undone_actions_are_kept_for_redo(tmp_path: Path) -> None:
    controller = match_in_progress()
    assert controller.undo().ok and controller.undo().ok
    path = tmp_path / "current-game.json"
    write_atomically(path, dumps_record(controller))
    loaded, _ = load_game(path)
    assert loaded is not None and loaded.can_redo
    assert dumps_record(loaded) == dumps_record(controller)


def _record_text() -> str:
    return dumps_record(match_in_progress(seed=3, steps=20))


def _tampered() -> bytes:
    data = json.loads(_record_text())
    data["hands"][0]["deal"][0][0], data["hands"][0]["deal"][1][0] = (
        data["hands"][0]["deal"][1][0],
        data["hands"][0]["deal"][0][0],
    )
    return json.dumps(data).encode()


def _newer_version() -> bytes:
    data = json.loads(_record_text())
    data["version"] = 99
    return json.dumps(data).encode()


BAD_SAVES = {
    "garbage bytes": (lambda: b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
    "truncated": (lambda: _record_text()[:200].encode(), "cut short"),
    "a JSON array": (lambda: b"[1, 2, 3]", "must be a JSON object"),
    "foreign JSON": (lambda: b'{"hello": "world"}', "not an MDHearts record"),
    "invalid UTF-8": (lambda: b'{"format": "\xff"}', "not UTF-8"),
    "empty": (lambda: b"", "empty"),
    "newer version": (_newer_version, "newer MDHearts"),
    "tampered deal": (_tampered, "the deal is not the one the seed gives"),
    "huge": (lambda: b" " * (MAX_RECORD_BYTES + 1), f"larger than {MAX_RECORD_BYTES // 1024} KiB"),
}


@pytest.mark.parametrize("case", list(BAD_SAVES))
def test_a_bad_save_is_set_aside_with_a_message(tmp_path: Path, case: str) -> None:
    make, words = BAD_SAVES[case]
    content = make()
    path = tmp_path / "current-game.json"
    path.write_bytes(content)
    controller, message = load_game(path)
    assert controller is None and message is not None
    assert words in message, message
    moved = list(tmp_path.glob("current-game.json.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == content
    assert not path.exists()
    assert message.startswith("current-game.json was unreadable (")
    assert message.endswith(f"was moved to {moved[0].name}; the saved game cannot be resumed")
    assert load_game(path) == (None, None)


def test_a_save_that_cannot_be_read_is_set_aside_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "current-game.json"
    write_atomically(path, _record_text())
    original = path.read_bytes()

    def refuse(*args: object) -> bytes:
        raise PermissionError(13, "Permission denied")

    with monkeypatch.context() as patch:
        patch.setattr("game.table.store.json_store.read_regular_file", refuse)
        controller, message = load_game(path)
    assert controller is None
    [moved] = tmp_path.glob("current-game.json.unreadable-*")
    assert message == (
        f"current-game.json could not be read (Permission denied) and was moved to "
        f"{moved.name}; the saved game cannot be resumed"
    )
    write_atomically(path, _record_text())  # the next match is saved under the same name
    assert moved.read_bytes() == original


def test_discard_removes_the_save_and_ignores_a_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "current-game.json"
    path.write_text("{}", encoding="utf-8")
    discard_game(path)
    assert not path.exists()
    discard_game(path)
    assert os.listdir(tmp_path) == []


class GatedWriter:
    """A write function that records its calls and holds the first one until released."""

    def __init__(self) -> None:
        self.calls: list[tuple[Path, str]] = []
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, path: Path, text: str) -> None:
        self.started.set()
        assert self.release.wait(5), "the test never released the writer"
        self.calls.append((path, text))


@pytest.fixture
def saver() -> Iterator[BackgroundSaver]:
    """Yield a saver writing real files, closed after the test."""
    instance = BackgroundSaver()
    yield instance
    instance.close()


def test_the_saver_writes_the_latest_text(tmp_path: Path, saver: BackgroundSaver) -> None:
    path = tmp_path / "state" / "current-game.json"
    for number in range(50):
        saver.submit(path, f"text {number}\n")
    assert saver.flush()
    assert path.read_text(encoding="utf-8") == "text 49\n"
    assert os.listdir(path.parent) == ["current-game.json"]
    assert saver.errors() == []


def test_the_saver_coalesces_unwritten_texts(tmp_path: Path) -> None:
    writer = GatedWriter()
    saver = BackgroundSaver(write=writer)
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    try:
        saver.submit(first, "A1")
        assert writer.started.wait(5)
        started = time.perf_counter()
        for text in ("A2", "A3", "A4"):
            saver.submit(first, text)
        saver.submit(second, "B1")
        assert time.perf_counter() - started < 0.5, "submit waited on the blocked writer"
        assert saver.flush(timeout=0.05) is False
        writer.release.set()
        assert saver.flush()
    finally:
        writer.release.set()
        saver.close()
    assert writer.calls == [(first, "A1"), (first, "A4"), (second, "B1")]


def test_flush_waits_for_everything_submitted(tmp_path: Path, saver: BackgroundSaver) -> None:
    paths = [tmp_path / f"{number}.json" for number in range(5)]
    for path in paths:
        saver.submit(path, path.name)
    assert saver.flush()
    assert [path.read_text(encoding="utf-8") for path in paths] == [path.name for path in paths]


def test_the_saver_reports_failed_writes(tmp_path: Path, saver: BackgroundSaver) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a regular file", encoding="utf-8")
    good = tmp_path / "good.json"
    saver.submit(blocker / "current-game.json", "text")
    saver.submit(good, "fine")
    assert saver.flush()
    errors = saver.errors()
    assert len(errors) == 1 and errors[0].startswith("could not save current-game.json: ")
    assert "Errno" in errors[0]
    assert saver.errors() == []
    assert good.read_text(encoding="utf-8") == "fine"
    saver.submit(good, "still working")
    assert saver.flush() and good.read_text(encoding="utf-8") == "still working"


def test_a_failed_background_write_leaves_the_old_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saver: BackgroundSaver
) -> None:
    path = tmp_path / "current-game.json"
    saver.submit(path, "old")
    assert saver.flush()

    def refuse(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    saver.submit(path, "new")
    assert saver.flush()
    monkeypatch.undo()
    assert saver.errors() == [
        "could not save current-game.json: [Errno 28] No space left on device"
    ]
    assert path.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["current-game.json"]


def test_discard_through_the_saver_wins_over_an_unwritten_save(tmp_path: Path) -> None:
    path = tmp_path / "current-game.json"
    writer = GatedWriter()
    saver = BackgroundSaver(write=write_through(writer))
    try:
        saver.submit(tmp_path / "other.json", "first")
        assert writer.started.wait(5)
        saver.submit(path, "unwritten")
        saver.discard(path)
        writer.release.set()
        assert saver.flush()
    finally:
        writer.release.set()
        saver.close()
    assert not path.exists()
    assert saver.errors() == []


def write_through(writer: GatedWriter) -> Callable[[Path, str], None]:
    """Return a write function that waits on ``writer`` and then really writes the file."""

    def write(path: Path, text: str) -> None:
        writer(path, text)
        write_atomically(path, text)

    return write


def test_close_flushes_and_stops_the_thread(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    saver = BackgroundSaver()
    path = tmp_path / "current-game.json"
    saver.submit(path, "last words")
    threads = set(threading.enumerate()) - before
    assert len(threads) == 1 and all(thread.daemon for thread in threads)
    assert saver.close() is True
    assert path.read_text(encoding="utf-8") == "last words"
    assert not any(thread.is_alive() for thread in threads)
    with pytest.raises(RuntimeError, match="closed"):
        saver.submit(path, "too late")


def test_a_game_saved_in_the_background_resumes(tmp_path: Path, saver: BackgroundSaver) -> None:
    controller = match_in_progress(seed=21)
    path = tmp_path / "current-game.json"
    for _ in range(3):
        saver.submit(path, dumps_record(controller))
        play_randomly(controller, random.Random(5), 1)
    saver.submit(path, dumps_record(controller))
    assert saver.flush()
    loaded, message = load_game(path)
    assert message is None and loaded is not None
    assert dumps_record(loaded) == dumps_record(controller)
