"""Fuzzing the CLI: any arguments and any state file give an exit status, never a traceback.

Whenever a command fails, the state file must be byte for byte what it was.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.registry import make_seat_bots
from core.controller import Controller
from core.record import dumps_record
from game.terminal.bots import play_bots
from game.terminal.errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from game.terminal.main import main as cli_main
from game.terminal.state_file import STATE_ENV

EXPECTED_CODES = {EXIT_OK, EXIT_FAILED, EXIT_USAGE}
FUZZ = settings(
    max_examples=int(os.environ.get("MDH_FUZZ_EXAMPLES", "150")),
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

WORDS = [
    "new", "status", "pass", "play", "undo", "redo", "next", "save", "load", "sheet",
    "--json", "--symbols", "--seat", "--seed", "--seats", "--state", "--interactive", "--help",
    "--pass-cycle", "--first-lead", "--moon", "--end-score", "--points-first-trick",
    "--no-must-break-hearts", "--jack-of-diamonds", "--no-tricks-bonus",
    "2C", "QS", "AH", "KH", "TD", "10h", "qs", "XX", "", " ", "-", "--", "-1", "0", "1", "3",
    "4", "99", "1e9", "human,bot,bot,bot", "bot,bot,bot,bot", "human,engine:x,bot,bot",
    "left,right", "hold", "any_club", "auto", "a.json", ".", "..", "\x00", "\udcff", "é♠",
]  # fmt: skip

token = st.one_of(
    st.sampled_from(WORDS),
    st.text(max_size=12).filter(lambda text: os.sep not in text and not text.startswith("~")),
)


def _mid_hand_record() -> str:
    controller = Controller()
    controller.new_match(seed=21, seats=["human", "bot", "bot", "bot"])
    play_bots(controller, make_seat_bots(controller.seats))
    hand = controller.hand(0)
    controller.submit_pass(0, hand[:3])
    play_bots(controller, make_seat_bots(controller.seats))
    controller.play_card(0, controller.legal_cards(0)[0])
    play_bots(controller, make_seat_bots(controller.seats))
    return dumps_record(controller)


MID_HAND = _mid_hand_record()


@contextlib.contextmanager
def _sandbox(folder: Path) -> Iterator[tuple[io.StringIO, io.StringIO]]:
    """Run in ``folder`` with empty standard input and captured output."""
    out, err = io.StringIO(), io.StringIO()
    old_cwd, old_stdin = Path.cwd(), sys.stdin
    os.chdir(folder)
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield out, err
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)


def _run(folder: Path, state: Path, argv: list[str]) -> tuple[int, str]:
    with _sandbox(folder) as (_, err):
        code = cli_main(["--state", str(state), *argv])
    return code, err.getvalue()


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(STATE_ENV, str(tmp_path / "env-state.json"))
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(tmp_path / "telemetry"))
    return tmp_path


@FUZZ
@given(argv=st.lists(token, max_size=6))
def test_random_arguments_never_raise_and_failures_keep_the_state(
    folder: Path, argv: list[str]
) -> None:
    state = folder / "match.json"
    state.write_text(MID_HAND)
    before = state.read_bytes()
    code, err = _run(folder, state, argv)
    assert code in EXPECTED_CODES, err
    assert "Traceback" not in err
    if code != 0:
        assert state.read_bytes() == before
        assert err


@FUZZ
@given(
    command=st.sampled_from(
        [["status"], ["play", "2C"], ["pass", "2C", "3C", "4C"], ["undo"], ["redo"], ["next"],
         ["sheet"], ["--json", "status"]]
    ),
    content=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)),
)  # fmt: skip
def test_random_state_files_are_refused_and_kept(
    folder: Path, command: list[str], content: bytes
) -> None:
    state = folder / "match.json"
    state.write_bytes(content)
    code, err = _run(folder, state, command)
    assert code == EXIT_FAILED, err
    assert "state file is not a usable match" in err
    assert state.read_bytes() == content


json_value = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Return the path of every value inside nested JSON data."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*prefix, index))
    return found


RECORD = json.loads(MID_HAND)
RECORD_PATHS = _paths(RECORD)[1:]


@FUZZ
@given(where=st.sampled_from(RECORD_PATHS), value=json_value)
def test_tampered_records_are_refused_or_loaded_never_crash(
    folder: Path, where: tuple[Any, ...], value: Any
) -> None:
    record = json.loads(MID_HAND)
    target = record
    for step in where[:-1]:
        target = target[step]
    target[where[-1]] = value
    state = folder / "match.json"
    state.write_text(json.dumps(record))
    before = state.read_bytes()
    code, err = _run(folder, state, ["status"])
    assert code in (EXIT_OK, EXIT_FAILED), err
    assert state.read_bytes() == before
    source = folder / "tampered.json"
    source.write_bytes(before)
    state.write_text(MID_HAND)
    code, err = _run(folder, state, ["load", str(source)])
    assert code in (EXIT_OK, EXIT_FAILED), err
    if code != 0:
        assert state.read_text() == MID_HAND
