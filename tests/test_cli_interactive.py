"""The interactive menu session, driven through a fake standard input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cards import card_text
from core.record import load_record
from game.terminal.interactive import run_interactive
from game.terminal.main import main as cli_main
from game.terminal.state_file import STATE_ENV

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STATE_ENV, str(tmp_path / "env-state.json"))
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(tmp_path / "telemetry"))


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "match.json"


def session(state: Path, text: str, symbols: bool = False) -> tuple[int, str]:
    """Run a session on ``text`` as its input; return the exit status and the output."""
    out = io.StringIO()
    code = run_interactive(state, symbols=symbols, stdin=io.StringIO(text), stdout=out)
    return code, out.getvalue()


def test_a_whole_hand_by_menu_numbers_through_main(
    state: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["--state", str(state), "new", "--seed", "13"]) == 0
    lines = ["1 2 3"] + ["1"] * 13 + ["", "q"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert cli_main(["--interactive", "--state", str(state)]) == 0
    out = capsys.readouterr().out
    assert "pass which 3 cards?" in out and "play which card?" in out
    assert "hand scored" in out and "hand 2 dealt" in out
    controller = load_record(state)
    assert controller.hand_number == 2 and sum(controller.totals) in (26, 78)
    logs = state.parent.glob("*/*.ndjson")
    files = {path.name.startswith("mdhearts-cli-"): path for path in logs}
    one_shot, session_file = files[True], files[False]
    assert len(one_shot.read_text().splitlines()) == 3  # the bots' passes after `new`
    records = [json.loads(line) for line in session_file.read_text().splitlines()]
    assert len(records) == 39 + 3  # the bots' plays of hand 1 and passes of hand 2
    assert not any(record["fallback_used"] for record in records)


def test_cards_can_be_typed_as_text(state: Path) -> None:
    assert cli_main(["--state", str(state), "new", "--seed", "13", "--pass-cycle", "hold"]) == 0
    controller = load_record(state)
    legal = controller.legal_cards(0)
    code, out = session(state, f"{card_text(legal[0]).lower()}\nq\n")
    assert code == 0 and f"you (seat 0) played {card_text(legal[0])}" in out


def test_bad_input_is_answered_and_changes_nothing(state: Path) -> None:
    assert cli_main(["--state", str(state), "new", "--seed", "2"]) == 0
    before = state.read_bytes()
    bad = ["hello", "0", "14", "99999999999999999999", "1 2", "1 1 1", "QS QS QS", "ZZ ZZ ZZ",
           "²", "undo", "redo", "next", "save", "s \x00", "1,2", "   ", "\t"]  # fmt: skip
    code, out = session(state, "\n".join(bad) + "\n")
    assert code == 0
    for message in ("not a card", "not on the menu", "pass exactly 3", "nothing to undo",
                    "nothing to redo", "not over yet", "not a usable file path"):  # fmt: skip
        assert message in out
    assert state.read_bytes() == before


def test_end_of_input_and_quit_exit_zero(state: Path) -> None:
    assert session(state, "")[0] == 0
    assert state.exists()  # a new match was started and saved
    assert session(state, "q\n")[0] == 0
    assert session(state, "QUIT\n")[0] == 0


def test_undo_redo_and_save(state: Path, tmp_path: Path) -> None:
    assert cli_main(["--state", str(state), "new", "--seed", "5", "--pass-cycle", "hold"]) == 0
    copy = tmp_path / "copy.json"
    code, out = session(state, f"1\nu\nr\nu\ns {copy}\nq\n")
    assert code == 0
    assert out.count("undone: you (seat 0) played") == 2
    assert f"saved the match to {copy}" in out
    assert load_record(copy).can_redo and load_record(state).can_redo


def test_next_and_new(state: Path) -> None:
    assert cli_main(["--state", str(state), "new", "--seats", "bot,bot,bot,bot"]) == 0
    code, out = session(state, "n\n\nnew\nq\n")
    assert code == 0
    assert "hand 2 dealt" in out and "hand 3 dealt" in out and "new match" in out
    assert load_record(state).hand_number == 1


def test_a_corrupt_state_file_starts_a_new_match(state: Path) -> None:
    cut_short = '{\n "format": "mdhearts-record",\n "version": 3,\n "ru'
    state.write_text(cut_short)
    code, out = session(state, "q\n", symbols=True)
    assert code == 0
    assert "state file is not a usable match" in out and "starting a new match" in out
    assert load_record(state).phase == "pass"
    assert any(symbol in out for symbol in "♣♦♠♥")
    kept = list(state.parent.glob(f"{state.name}.corrupt-*"))
    assert [path.read_text() for path in kept] == [cut_short]


def test_the_session_survives_a_finished_match(state: Path) -> None:
    args = ["--state", str(state), "new", "--seats", "bot,bot,bot,bot", "--seed", "0"]
    assert cli_main([*args, "--end-score", "1"]) == 0
    assert load_record(state).phase == "match_over"
    code, out = session(state, "1\nn\n\nu\nr\nnew\nq\n")
    assert code == 0
    assert "the match is over" in out and "not a move you can make now" in out
    assert "new match" in out and load_record(state).hand_number == 1


def test_status_json_agrees_with_the_session(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["--state", str(state), "new", "--seed", "17"]) == 0
    session(state, "1 2 3\nq\n")
    capsys.readouterr()
    assert cli_main(["--state", str(state), "--json", "status"]) == 0
    assert json.loads(capsys.readouterr().out)["phase"] == "play"


lines = st.lists(
    st.one_of(
        st.sampled_from(["1", "2", "13", "1 2 3", "u", "r", "n", "", "?", "new", "s", "QS", "2C"]),
        st.text(max_size=10).filter(lambda text: "\n" not in text and "\r" not in text),
    ).filter(lambda text: not text.strip().lower().startswith(("s ", "save "))),
    max_size=25,
)


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(inputs=lines)
def test_random_input_never_crashes_the_session(state: Path, inputs: list[str]) -> None:
    state.unlink(missing_ok=True)
    code, _ = session(state, "\n".join(inputs) + "\n")
    assert code == 0
    load_record(state)


def test_mdhearts_cli_interactive_starts_a_session(tmp_path: Path) -> None:
    state = tmp_path / "bare.json"
    env = {**os.environ, STATE_ENV: str(state)}
    done = subprocess.run(
        [sys.executable, "-m", "game", "cli", "--interactive"],
        input="?\nq\n", cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "pass which 3 cards?" in done.stdout and "u, undo" in done.stdout
    assert load_record(state).phase == "pass"
