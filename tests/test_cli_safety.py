"""The terminal harness keeps the person's files and moves safe: engine seats, locks, odd files."""

from __future__ import annotations

import io
import json
import os
import shlex
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.files import CORRUPT_SUFFIX
from core.record import RECORD_VERSION, load_record
from game.terminal.interactive import run_interactive
from game.terminal.main import main as cli_main
from game.terminal.state_file import STATE_ENV

ENGINES = Path(__file__).resolve().parent / "engines"
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the real user folders; no environment choice of the bots."""
    monkeypatch.setenv(STATE_ENV, str(tmp_path / "env-state.json"))
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(tmp_path / "telemetry"))
    monkeypatch.delenv("MDH_BOT_DIFFICULTY", raising=False)


def run(state: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    """Run one JSON command on the state file; return its exit status and its reply."""
    code = cli_main(["--state", str(state), "--json", *args])
    out = capsys.readouterr().out
    return code, json.loads(out) if out else None


def echo_engine() -> str:
    """Return the command of the test engine that plays like the ``first`` bot."""
    return " ".join(shlex.quote(word) for word in (sys.executable, str(ENGINES / "echo_engine.py")))


# -- which player a seat gets ------------------------------------------------------------------


def test_an_engine_seat_is_asked_and_the_hand_reaches_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "match.json"
    seats = f"human,engine:{echo_engine()},bot:first,bot:first"
    code, status = run(state, capsys, "new", "--seats", seats, "--seed", "5")
    assert code == 0, status
    for _ in range(15):
        if status["phase"] not in ("pass", "play"):
            break
        assert status["to_act"] == [0], status["to_act"]
        # The match file names a program: each later command needs the person's consent.
        if status["phase"] == "pass":
            code, status = run(state, capsys, "--allow-engines", "pass", *status["hand"][:3])
        else:
            code, status = run(state, capsys, "--allow-engines", "play", status["legal"][0])
        assert code == 0, status
    assert status["phase"] in ("hand_over", "match_over")
    assert len(load_record(state).tricks) == 13


def test_plain_bot_seats_are_the_normal_bot_as_on_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run(tmp_path / "match.json", capsys, "new", "--seed", "9")
    assert code == 0
    records = [
        json.loads(line)
        for path in (tmp_path / "telemetry").glob("*.ndjson")
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    assert len(records) == 3  # the three bots' passes
    assert {record["tier"] for record in records} == {"normal"}


# -- the state file ------------------------------------------------------------------------------


def _unloadable_newer_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    state = tmp_path / "match.json"
    assert run(state, capsys, "new", "--seed", "2")[0] == 0
    record = json.loads(state.read_text(encoding="utf-8"))
    record["version"] = RECORD_VERSION + 1
    state.write_text(json.dumps(record), encoding="utf-8")
    return state


def test_interactive_sets_an_unloadable_state_file_aside_before_a_new_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _unloadable_newer_record(tmp_path, capsys)
    original = state.read_bytes()
    out = io.StringIO()
    assert run_interactive(state, stdin=io.StringIO("q\n"), stdout=out) == 0
    kept = list(tmp_path.glob(f"match.json{CORRUPT_SUFFIX}*"))
    assert len(kept) == 1 and kept[0].read_bytes() == original
    assert str(kept[0]) in out.getvalue()
    assert load_record(state).hand_number == 1


def _play_loop_script(state: Path, rounds: int) -> str:
    """Return a program that tries ``rounds`` moves, each read from the status it just got."""
    return f"""
import contextlib, io, json, sys
from game.terminal.main import main as cli_main
made = 0
for _ in range({rounds}):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli_main(["--state", {str(state)!r}, "--json", "status"])
    status = json.loads(out.getvalue())
    if not status["to_act"]:
        break
    seat = status["to_act"][0]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli_main(
            ["--state", {str(state)!r}, "play", status["legal"][0], "--seat", str(seat)]
        )
    made += code == 0
print(made)
"""


def test_parallel_plays_are_each_recorded_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "match.json"
    args = ["new", "--seats", "human,human,human,human", "--pass-cycle", "hold", "--seed", "4"]
    assert run(state, capsys, *args)[0] == 0
    script = _play_loop_script(state, 12)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    players = [
        subprocess.Popen(
            [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=REPO, env=env
        )
        for _ in range(4)
    ]
    made = sum(int(player.communicate(timeout=120)[0]) for player in players)
    controller = load_record(state)
    recorded = sum(len(trick.cards) for trick in controller.tricks)
    assert made == recorded
    assert made >= 12  # the lock serialises the players; it does not starve them


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_save_onto_a_named_pipe_is_refused_and_the_pipe_stays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "match.json"
    assert run(state, capsys, "new", "--seed", "1")[0] == 0
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    code, reply = run(state, capsys, "save", str(pipe))
    assert code == 1 and "not a regular file" in reply["error"]
    assert stat.S_ISFIFO(pipe.stat().st_mode)


def test_a_symlinked_state_file_stays_a_link_and_its_target_follows_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "real" / "match.json"
    target.parent.mkdir()
    link = tmp_path / "match.json"
    link.symlink_to(target)
    code, status = run(link, capsys, "new", "--seed", "3")
    assert code == 0
    assert run(link, capsys, "pass", *status["hand"][:3])[0] == 0
    assert link.is_symlink()
    assert load_record(target).phase == "play"
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_saved_files_get_the_usual_mode_and_no_unasked_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "match.json"
    old_mask = os.umask(0o022)
    try:
        assert run(state, capsys, "new", "--seed", "1")[0] == 0
        assert run(state, capsys, "save", str(tmp_path / "copy.json"))[0] == 0
    finally:
        os.umask(old_mask)
    assert stat.S_IMODE((tmp_path / "copy.json").stat().st_mode) == 0o644
    assert stat.S_IMODE(state.stat().st_mode) == 0o644
    code, reply = run(state, capsys, "save", str(tmp_path / "missing" / "copy.json"))
    assert code == 1 and "missing" in reply["error"]
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("stdout", ["full", "closed"])
def test_a_saved_move_exits_zero_when_its_output_cannot_be_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stdout: str
) -> None:
    if stdout == "full" and not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    if stdout == "closed" and os.name != "posix":
        pytest.skip("closing the child's output before it starts needs preexec_fn (POSIX)")
    state = tmp_path / "match.json"
    code, status = run(state, capsys, "new", "--seed", "6")
    assert code == 0
    command = [
        sys.executable,
        "-m",
        "game",
        "cli",
        "--state",
        str(state),
        "pass",
        *status["hand"][:3],
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if stdout == "full":
        with open("/dev/full", "w") as full:
            done = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, env=env, cwd=REPO)
    else:
        done = subprocess.run(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=REPO,
            preexec_fn=lambda: os.close(1),
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert load_record(state).phase == "play"
