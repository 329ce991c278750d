"""The person's files (``core.files``): atomic writes, strict JSON, locks and user folders."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from core.files import (
    ALREADY_RUNNING,
    FileContentError,
    LockBusyError,
    StrictJsonError,
    lock_path,
    lock_user_folder,
    locked,
    parse_strict_json,
    read_regular_file,
    temp_files_of,
    user_dirs,
    write_atomically,
)

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs and modes are POSIX")


def only_entries(folder: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir())


@posix_only
def test_a_fifo_is_never_replaced_nor_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="a named pipe"):
        write_atomically(fifo, "text")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    with pytest.raises(FileContentError, match="a named pipe"):
        read_regular_file(fifo, 100)
    assert only_entries(tmp_path) == ["pipe"]


@posix_only
def test_a_device_is_never_replaced() -> None:
    with pytest.raises(OSError, match="a device"):
        write_atomically("/dev/null", "text")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_folder_is_never_replaced(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError, match="a folder"):
        write_atomically(tmp_path / "folder", "text")
    assert (tmp_path / "folder").is_dir()


@posix_only
def test_a_write_goes_through_a_symlink_to_its_target(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "state.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomically(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert only_entries(tmp_path / "real") == ["state.json"]
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "real" / "later.json")
    write_atomically(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "real" / "later.json").read_text() == "made"


@posix_only
def test_an_existing_files_mode_is_kept_and_a_new_file_follows_the_umask(tmp_path: Path) -> None:
    shared = tmp_path / "shared.json"
    shared.write_text("old")
    shared.chmod(0o664)
    write_atomically(shared, "new")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o664
    previous = os.umask(0o022)
    try:
        write_atomically(tmp_path / "fresh.json", "x")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "fresh.json").stat().st_mode) == 0o644


def test_no_folder_is_made_unless_asked(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="the folder does not exist"):
        write_atomically(tmp_path / "a" / "b.json", "x")
    assert only_entries(tmp_path) == []
    write_atomically(tmp_path / "a" / "b.json", "x", make_folders=True)
    assert (tmp_path / "a" / "b.json").read_text() == "x"


def test_a_failed_write_leaves_the_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "file.json"
    path.write_text("old")

    def broken_replace(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space"):
        write_atomically(path, "new")
    assert path.read_text() == "old" and only_entries(tmp_path) == ["file.json"]


@posix_only
def test_temporary_files_of_a_killed_writer_are_removed_by_the_next_write(tmp_path: Path) -> None:
    path = tmp_path / "current-game.json"
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    stale = tmp_path / f".current-game.json.{child.pid}-deadbeef.tmp"
    stale.write_text("half")
    live = tmp_path / f".current-game.json.{os.getppid()}-cafecafe.tmp"
    live.write_text("someone else is writing")
    other = tmp_path / ".other.json.1-00000000.tmp"
    other.write_text("not ours")
    write_atomically(path, "whole")
    assert temp_files_of(path) == [live]
    assert other.exists() and path.read_text() == "whole"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"type": "legal", "type": "quit"}', "'type' appears twice"),
        ('{"a": NaN}', "NaN is not allowed"),
        ('{"a": -Infinity}', "-Infinity is not allowed"),
        ('{"a": 1e400}', "out of range"),
        ('{"a": 1' + "0" * 40 + "}", "more than 30 digits"),
        ("[" * 50_000 + "]" * 50_000, "nested"),
        ('{"a": [[[[1]]]]}', "nested more than 3 levels"),
        ('{"a": ', "Expecting value"),
    ],
)
def test_strict_json_refuses_what_plain_json_lets_through(text: str, message: str) -> None:
    with pytest.raises(StrictJsonError, match=message):
        parse_strict_json(text, max_depth=3 if "[[[[" in text else None)


def test_strict_json_reads_plain_json() -> None:
    assert parse_strict_json('{"a": [1, 2.5, "x", null, true]}', max_depth=2) == {
        "a": [1, 2.5, "x", None, True]
    }


LOCK_HOLDER = textwrap.dedent(
    """
    import sys, time
    from core.files import locked
    with locked(sys.argv[1]):
        print("held", flush=True)
        time.sleep(float(sys.argv[2]))
    """
)


def test_a_lock_is_held_across_processes_and_ends_with_its_holder(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(path), "60"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(LockBusyError), locked(path, wait_s=0.2):
            pass
        holder.kill()  # a killed holder cannot leave the file locked
        holder.wait()
        start = time.monotonic()
        with locked(path, wait_s=5):
            assert time.monotonic() - start < 5
    finally:
        holder.kill()
        holder.wait()
    assert lock_path(path).name == ".state.json.lock"


def test_mdh_home_holds_every_user_folder(tmp_path: Path) -> None:
    dirs, warnings = user_dirs({"MDH_HOME": str(tmp_path)})
    assert warnings == []
    assert dirs.cli_state_file == tmp_path / "data" / "cli-match.json"
    assert dirs.telemetry == tmp_path / "log" / "telemetry"
    assert dirs.save_file == tmp_path / "state" / "current-game.json"
    default, warnings = user_dirs({"MDH_HOME": " "})
    assert len(warnings) == 1 and "MDH_HOME" in warnings[0] and default != dirs


def test_a_lock_is_held_by_one_at_a_time_though_its_file_comes_and_goes(tmp_path: Path) -> None:
    target = tmp_path / "match.json"
    inside = 0
    most = 0
    guard = threading.Lock()

    def take_turns() -> None:
        nonlocal inside, most
        for _ in range(15):
            with locked(target, wait_s=30):
                with guard:
                    inside += 1
                    most = max(most, inside)
                time.sleep(0.002)
                with guard:
                    inside -= 1

    workers = [threading.Thread(target=take_turns) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert most == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{\n "a": 1,\n "b": 2,\n "c": "cut', "Unterminated string starting at line 4 column 7"),
        ('{"a": "x\x01y"}', "Invalid control character at line 1 column 9"),
        ('{"a": }', "Expecting value at line 1 column 7"),
    ],
)
def test_a_json_error_says_where_once(text: str, message: str) -> None:
    with pytest.raises(StrictJsonError) as caught:
        parse_strict_json(text)
    assert str(caught.value) == message


# -- one table per user folder ------------------------------------------------------------------


def test_the_user_folder_lock_refuses_a_second_holder_and_keeps_its_file(tmp_path: Path) -> None:
    dirs, _ = user_dirs({"MDH_HOME": str(tmp_path)})
    held = lock_user_folder(dirs)
    try:
        with pytest.raises(LockBusyError, match=ALREADY_RUNNING):
            lock_user_folder(dirs)
    finally:
        held.release()
    held.release()  # twice is harmless
    assert dirs.lock_file.exists(), "the lock file stays: removing it could let two holders in"
    lock_user_folder(dirs).release()


#: Plain ``mdhearts``: the table.
TABLE = [sys.executable, "-c", "import sys; from game.main import main; sys.exit(main([]))"]


def _table_env(home: Path) -> dict[str, str]:
    return {**os.environ, "MDH_HOME": str(home), "SDL_VIDEODRIVER": "dummy"}


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Return every file under ``folder`` with its size and modification time."""
    return {
        str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
    }


def _holds_lock(pid: int) -> bool:
    """Return whether process ``pid`` holds a lock, without taking one (Linux's lock table)."""
    with open("/proc/locks", encoding="ascii") as table:
        return any(line.split()[1:2] == ["FLOCK"] and str(pid) in line.split() for line in table)


def _wait_until_locked(table: subprocess.Popen[bytes]) -> None:
    """Wait until the table process holds the user folder's lock (or, where the system does
    not list locks, until it has run long enough to have refused to start)."""
    deadline = time.monotonic() + 60
    listed = os.path.exists("/proc/locks")
    started = time.monotonic()
    while not (_holds_lock(table.pid) if listed else time.monotonic() - started > 15):
        assert table.poll() is None, f"the table ended with status {table.returncode}"
        assert time.monotonic() < deadline, "the table never took its lock"
        time.sleep(0.05)


def test_a_second_table_on_the_same_folders_says_so_writes_nothing_and_ends(
    tmp_path: Path,
) -> None:
    from game.table.main import ALREADY_RUNNING_STATUS

    home = tmp_path / "home"
    dirs, _ = user_dirs({"MDH_HOME": str(home)})
    dirs.data.mkdir(parents=True)
    dirs.statistics_file.write_text('{"version": 3, "hands_played": 7}\n', encoding="utf-8")
    first = subprocess.Popen(TABLE, env=_table_env(home), stderr=subprocess.DEVNULL)
    try:
        _wait_until_locked(first)
        before = _snapshot(home)
        start = time.monotonic()
        second = subprocess.run(
            TABLE, env=_table_env(home), capture_output=True, text=True, timeout=30
        )
        took = time.monotonic() - start
        assert second.returncode == ALREADY_RUNNING_STATUS, second.stderr
        assert "MDHearts is already running" in second.stderr
        assert took < 20, f"the second table took {took:.1f} s to end"
        assert _snapshot(home) == before, "the second table wrote in the user folder"
        assert first.poll() is None, "the first table goes on"
        first.kill()  # kill -9: the system ends its lock with it, no stale lock is left
        first.wait()
        lock_user_folder(dirs).release()
        third = subprocess.Popen(TABLE, env=_table_env(home), stderr=subprocess.DEVNULL)
        try:
            _wait_until_locked(third)  # a new table starts and holds the folder
            with pytest.raises(LockBusyError):
                lock_user_folder(dirs)
        finally:
            third.kill()
            third.wait()
    finally:
        first.kill()
        first.wait()


def test_the_table_holds_the_lock_before_it_writes_and_tells_a_second_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.table import main as table_main
    from game.table.main import ALREADY_RUNNING_STATUS

    home = tmp_path / "home"
    monkeypatch.setenv("MDH_HOME", str(home))
    dirs, _ = user_dirs()
    shown: list[list[str]] = []
    monkeypatch.setattr(table_main, "show_briefly", lambda lines, *args: shown.append(lines))

    def no_table(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a second table opened")

    monkeypatch.setattr(table_main, "App", no_table)
    held = lock_user_folder(dirs)
    try:
        before = _snapshot(home)
        assert table_main.main() == ALREADY_RUNNING_STATUS
        assert _snapshot(home) == before
        assert shown and "MDHearts is already running" in shown[0][0]
    finally:
        held.release()
