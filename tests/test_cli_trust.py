"""The terminal harness starts no program a file names, shows a seat nothing it may not know,
and replaces or leaves behind no file of the person's."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from ai.registry import SeatRefused, check_seats
from core.seats import parse_seats
from game.terminal.bots import BotSeats
from game.terminal.errors import CliError
from game.terminal.interactive import run_interactive
from game.terminal.main import main as cli_main
from game.terminal.seats import check_seats_supported
from game.terminal.state_file import STATE_ENV

#: A seed whose digits no other part of the output is likely to hold.
SEED = 918273645


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the real user folders; no environment choice of the bots."""
    monkeypatch.setenv(STATE_ENV, str(tmp_path / "env-state.json"))
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(tmp_path / "telemetry"))
    monkeypatch.delenv("MDH_BOT_DIFFICULTY", raising=False)


def cli(state: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run one command on the state file; return its exit status, output and error output."""
    code = cli_main(["--state", str(state), *args])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def marker_engine(marker: Path) -> str:
    """Return an engine command that, if it ever runs, leaves ``marker`` behind."""
    script = f"import pathlib; pathlib.Path({str(marker)!r}).touch()"  # no comma: --seats
    return " ".join(shlex.quote(word) for word in (sys.executable, "-c", script))


def state_with_engine_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], marker: Path
) -> tuple[Path, dict[str, Any]]:
    """Start a match in the play phase, then edit its state file's seat 1 into an engine."""
    state = tmp_path / "s.json"
    code, out, _ = cli(
        state,
        capsys,
        "--json",
        "new",
        "--seats",
        "human,bot:first,bot:first,bot:first",
        "--seed",
        "5",
    )
    assert code == 0
    status = json.loads(out)
    code, out, _ = cli(state, capsys, "--json", "pass", *status["hand"][:3])
    assert code == 0
    record = json.loads(state.read_text(encoding="utf-8"))
    record["seats"][1] = f"engine:{marker_engine(marker)}"
    state.write_text(json.dumps(record), encoding="utf-8")
    return state, json.loads(out)


# -- consent ----------------------------------------------------------------------------------


def test_an_engine_seat_written_into_the_state_file_starts_nothing_unasked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "marker"
    state, status = state_with_engine_seat(tmp_path, capsys, marker)
    before = state.read_bytes()
    for command in (["play", status["legal"][0]], ["redo"], ["next"], ["undo"]):
        code, out, err = cli(state, capsys, "--json", *command)
        assert code == 1, command
        reply = json.loads(out)
        assert reply["reason"] == "engine_not_allowed", (command, reply)
        assert "--allow-engines" in err
        assert not marker.exists(), command
        assert state.read_bytes() == before
    # Looking at the match starts nothing and needs no consent.
    assert cli(state, capsys, "status")[0] == 0
    assert not marker.exists()
    # With consent the same program does start: the refusals above were not by chance.
    code, _, _ = cli(state, capsys, "--allow-engines", "play", status["legal"][0])
    assert code == 0
    assert marker.exists()


def test_the_interactive_session_asks_first_and_no_starts_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "marker"
    state, _ = state_with_engine_seat(tmp_path, capsys, marker)
    before = state.read_bytes()
    for answer in ("\n", "n\n", ""):
        out = io.StringIO()
        assert run_interactive(state, stdin=io.StringIO(answer + "q\n"), stdout=out) == 1
        assert "start these programs on this computer? (y/N)" in out.getvalue()
        assert "nothing was started" in out.getvalue()
        assert not marker.exists()
        assert state.read_bytes() == before
    out = io.StringIO()
    assert run_interactive(state, stdin=io.StringIO("y\n1\nq\n"), stdout=out) == 0
    assert marker.exists()


def test_an_engine_seat_typed_in_the_command_line_is_the_persons_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "marker"
    seats = f"engine:{marker_engine(marker)},bot:first,bot:first,bot:first"
    code, _, _ = cli(tmp_path / "s.json", capsys, "new", "--seats", seats, "--seed", "2")
    assert code == 0
    assert marker.exists()


def test_refusing_engines_is_the_default_of_every_check() -> None:
    seats = parse_seats(["human", "engine:some-program", "bot", "bot"])
    with pytest.raises(SeatRefused) as refused:
        check_seats(seats)
    assert refused.value.reason == "engine_not_allowed" and refused.value.seat == 1
    with pytest.raises(CliError) as error:
        check_seats_supported(seats)
    assert error.value.reason == "engine_not_allowed"
    players = BotSeats()
    with pytest.raises(SeatRefused):
        players.engine(1, seats[1])
    players.close()


# -- what a seat is shown ----------------------------------------------------------------------


def test_a_seat_is_never_shown_the_seed_before_the_match_is_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "s.json"
    new = ["new", "--seats", "human,bot:first,bot:first,bot:first", "--seed", str(SEED)]
    code, out, err = cli(state, capsys, *new, "--end-score", "1")
    assert code == 0 and str(SEED) not in out + err
    code, out, _ = cli(state, capsys, "--json", *new, "--end-score", "1")
    assert code == 0 and str(SEED) not in out
    reply = json.loads(out)
    assert reply["events"][0]["type"] == "match_started"
    assert reply["events"][0]["seed"] is None and reply["seed"] is None
    for _ in range(14):
        code, out, _ = cli(state, capsys, "--json", "status")
        status = json.loads(out)
        assert str(SEED) not in out
        if status["phase"] == "pass":
            cli(state, capsys, "--json", "pass", *status["hand"][:3])
        elif status["phase"] == "play":
            cli(state, capsys, "--json", "play", status["legal"][0])
    code, out, _ = cli(state, capsys, "--json", "status")
    assert json.loads(out)["phase"] == "match_over"
    # Once the match is over, the seed serves replays.
    assert json.loads(out)["seed"] == SEED
    assert f"seed {SEED}" in cli(state, capsys, "status")[1]


def test_the_interactive_session_does_not_show_the_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "s.json"
    out = io.StringIO()
    assert run_interactive(state, stdin=io.StringIO("q\n"), stdout=out) == 0
    seed = json.loads(state.read_text(encoding="utf-8"))["seed"]
    assert "seed" not in out.getvalue() and str(seed) not in out.getvalue()


# -- the person's files -----------------------------------------------------------------------


def test_new_never_replaces_a_file_that_is_not_a_match_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(notes)
    for target in (notes, link):
        code, _, err = cli(target, capsys, "new", "--seed", "1")
        assert code == 1 and "not an MDHearts match file" in err
        code, _, _ = cli(target, capsys, "--json", "new", "--seed", "1")
        assert code == 1
        assert cli_main(["--state", str(target), "--interactive"]) == 1
        assert "not an MDHearts match file" in capsys.readouterr().err
        assert notes.read_text(encoding="utf-8") == "my notes\n"
        assert link.is_symlink()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link.json", "notes.txt"]


def test_new_keeps_a_match_file_it_cannot_use_beside_before_replacing_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "s.json"
    assert cli(state, capsys, "new", "--seed", "1")[0] == 0
    record = json.loads(state.read_text(encoding="utf-8"))
    record["version"] += 1  # from a newer version of the program
    state.write_text(json.dumps(record), encoding="utf-8")
    original = state.read_bytes()
    code, out, _ = cli(state, capsys, "--json", "new", "--seed", "2")
    assert code == 0
    kept = Path(json.loads(out)["kept"])
    assert kept.parent == tmp_path and kept.read_bytes() == original
    assert json.loads(state.read_text(encoding="utf-8"))["seed"] == 2


def test_no_command_leaves_a_lock_file_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "match" / "s.json"
    state.parent.mkdir()
    assert cli(state, capsys, "status")[0] == 1  # no match yet
    assert cli(state, capsys, "new", "--seed", "3")[0] == 0
    assert cli(state, capsys, "status")[0] == 0
    assert cli(state, capsys, "play", "QS")[0] == 1  # refused: still the pass
    assert sorted(path.name for path in state.parent.iterdir()) == ["s.json"]


def test_a_state_file_that_cannot_be_read_is_reported_and_never_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "s.json"
    assert cli(state, capsys, "new", "--seed", "1")[0] == 0
    before = state.read_bytes()

    def denied(path: object, max_bytes: int) -> bytes:
        raise PermissionError(13, "Permission denied", str(path))

    # The machine runs the tests as root, who may read anything: fake the refusal.
    monkeypatch.setattr("core.record.read_regular_file", denied)
    monkeypatch.setattr("game.terminal.state_file.read_regular_file", denied)
    for command in (["status"], ["play", "2C"], ["new", "--seed", "2"]):
        code, _, err = cli(state, capsys, *command)
        assert code == 1 and "Permission denied" in err, (command, err)
        assert state.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir() if path.name != "telemetry") == [
        "s.json"
    ]
