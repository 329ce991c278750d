"""The CLI harness: scripted play, every command, bad input refused with the file untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import platformdirs
import pytest

from ai.basic import FirstLegalBot
from ai.registry import make_seat_bots
from core.cards import card_text, parse_card
from core.controller import Controller
from core.observation import Observation
from core.record import load_record
from game.terminal.bots import BotError, play_bots
from game.terminal.main import main as cli_main
from game.terminal.state_file import STATE_ENV, default_state_path

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the real user data and log folders."""
    monkeypatch.setenv(STATE_ENV, str(tmp_path / "env-state.json"))
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(tmp_path / "telemetry"))


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "match.json"


class Cli:
    """Runs ``mdhearts cli`` in-process against one state file and captures its output."""

    def __init__(self, state: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.state = state
        self.capsys = capsys
        self.out = self.err = ""

    def __call__(self, *args: str) -> int:
        code = cli_main(["--state", str(self.state), *args])
        captured = self.capsys.readouterr()
        self.out, self.err = captured.out, captured.err
        assert "Traceback" not in self.err
        return code

    def json(self, *args: str) -> dict[str, Any]:
        assert self("--json", *args) == 0, self.err
        data = json.loads(self.out)
        assert data["ok"] is True
        return data

    def status(self, *args: str) -> dict[str, Any]:
        return self.json("status", *args)

    def refused(self, *args: str, code: int = 1) -> str:
        """Run a command that must fail and leave the state file byte for byte as it was."""
        before = self.state.read_bytes() if self.state.exists() else None
        assert self(*args) == code, (args, self.out, self.err)
        after = self.state.read_bytes() if self.state.exists() else None
        assert after == before
        assert self.err.startswith(("mdhearts cli: error:", "usage:"))
        return self.err


@pytest.fixture
def run(state: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(state, capsys)


def _step(run: Cli) -> dict[str, Any]:
    """Make one legal move for the human as a script would: read the status, act on it."""
    status = run.status()
    if status["phase"] == "pass":
        return run.json("pass", *status["hand"][:3])
    return run.json("play", status["legal"][0])


def _to_play_phase(run: Cli, seed: str = "11") -> dict[str, Any]:
    run.json("new", "--seed", seed)
    return _step(run)


# -- scripted play ------------------------------------------------------------------------------


def test_a_script_plays_a_whole_hand_from_status_json(run: Cli) -> None:
    started = run.json("new", "--seed", "3")
    assert [e["type"] for e in started["events"][:2]] == ["match_started", "hand_started"]
    assert started["phase"] == "pass" and started["to_act"] == [0]
    assert len(started["hand"]) == 13
    moves = 0
    while run.status()["phase"] == "play" or moves == 0:
        result = _step(run)
        moves += 1
    assert moves == 14  # one pass, thirteen cards
    assert result["phase"] == "hand_over"
    types = [e["type"] for e in result["events"]]
    assert types[-1] == "hand_scored"
    assert sum(result["hand_points"]) == 26
    assert sum(result["totals"]) in (26, 78)
    assert result["hand"] == [] and result["legal"] == []
    assert load_record(run.state).phase == "hand_over"


def test_text_status_shows_the_table(run: Cli) -> None:
    _to_play_phase(run)
    assert run("status") == 0
    for part in ("hand 1, pass left, phase play", "your hand:", "you passed:", "totals"):
        assert part in run.out
    assert run("--symbols", "status") == 0
    assert "♣" in run.out or "♠" in run.out or "♥" in run.out or "♦" in run.out


def test_status_lists_the_current_and_last_trick(run: Cli) -> None:
    status = _to_play_phase(run)
    while status["last_trick"] is None:
        status = _step(run)
    last = status["last_trick"]
    assert last["number"] == 1 and len(last["cards"]) == 4
    assert last["winner"] in range(4) and last["points"] == 0
    assert status["trick"]["number"] == 2


# -- passing and playing ------------------------------------------------------------------------


def test_pass_phase(run: Cli) -> None:
    status = run.json("new", "--seed", "5")
    hand = status["hand"]
    assert "pass exactly 3 different cards" in run.refused("pass", hand[0], hand[1])
    assert "pass exactly 3" in run.refused("pass", hand[0], hand[0], hand[1])
    missing = next(card_text(c) for c in range(52) if card_text(c) not in hand)
    assert f"you do not hold {missing}" in run.refused("pass", missing, hand[0], hand[1])
    assert "pass three cards first" in run.refused("play", hand[0])
    assert "not a card" in run.refused("pass", "QX", hand[0], hand[1])
    passed = run.json("pass", f"{hand[0]},{hand[1]}", hand[2].lower())
    assert passed["phase"] == "play"
    assert passed["passed"] == sorted(hand[:3], key=parse_card)
    assert len(passed["received"]) == 3
    exchanged = next(e for e in passed["events"] if e["type"] == "passes_exchanged")
    assert exchanged["passes"][0] == passed["passed"]  # seat 0 passes left, gets seat 3's cards
    assert exchanged["passes"][3] == passed["received"]
    assert exchanged["passes"][1] is None and exchanged["passes"][2] is None
    assert "this is not the passing phase" in run.refused("pass", *passed["hand"][:3])


def test_illegal_play_exits_non_zero_with_the_rule_and_keeps_the_file(run: Cli) -> None:
    status = _to_play_phase(run)
    bad = next(card for card in status["hand"] if card not in status["legal"])
    expected = load_record(run.state).play_card(0, bad).error
    assert expected
    assert expected in run.refused("play", bad)
    assert run("--json", "play", bad) == 1
    assert json.loads(run.out) == {"ok": False, "error": expected}
    missing = next(card_text(c) for c in range(52) if card_text(c) not in status["hand"])
    assert f"you do not hold {missing}" in run.refused("play", missing)


def test_follow_suit_message_comes_from_the_rules(run: Cli) -> None:
    for seed in range(40):
        status = run.json("new", "--seed", str(seed), "--pass-cycle", "hold")
        trick = status["trick"]
        if trick["cards"] and status["legal"] != status["hand"]:
            bad = next(card for card in status["hand"] if card not in status["legal"])
            message = run.refused("play", bad)
            assert "must follow suit" in message or "no points on the first trick" in message
            return
    pytest.fail("no seed gave a follow-suit position")


def test_cards_are_accepted_in_any_case_and_with_10(run: Cli) -> None:
    status = _to_play_phase(run)
    card = status["legal"][0].lower().replace("t", "10")
    after = run.json("play", card)
    assert after["events"][0] == {"type": "card_played", "seat": 0, "card": status["legal"][0]}


# -- undo, redo, next ---------------------------------------------------------------------------


def test_undo_goes_back_before_the_human_move_and_redo_replays_it(run: Cli) -> None:
    before_play = _to_play_phase(run)
    assert before_play["can_undo"] is False  # the pass stays once the cards are exchanged
    after_play = _step(run)
    undone = run.json("undo")
    assert {e["type"] for e in undone["events"]} == {"action_undone"}
    assert undone["events"][-1]["action"]["seat"] == 0
    assert undone["hand"] == before_play["hand"] and undone["trick"] == before_play["trick"]
    assert undone["can_redo"] is True and undone["to_act"] == [0]
    redone = run.json("redo")
    assert redone["hand"] == after_play["hand"] and redone["trick"] == after_play["trick"]
    assert redone["can_redo"] is False
    assert "nothing to redo" in run.refused("redo")


def test_undo_of_the_pass_and_nothing_left_to_undo(run: Cli) -> None:
    fresh = run.json("new", "--seed", "8")
    assert fresh["can_undo"] is False  # only the bots have passed
    assert "nothing to undo" in run.refused("undo")
    passed = run.json("pass", *fresh["hand"][:3])
    assert passed["can_undo"] is False  # the cards were exchanged: the pass stays
    assert "cannot be taken back once the cards are exchanged" in run.refused("undo")


def test_a_new_move_after_undo_clears_redo(run: Cli) -> None:
    _to_play_phase(run)
    _step(run)
    run.json("undo")
    after = _step(run)
    assert after["can_redo"] is False


def test_next_deals_the_next_hand_only_when_the_hand_is_over(run: Cli) -> None:
    _to_play_phase(run)
    assert "the current hand is not over yet" in run.refused("next")
    while run.status()["phase"] != "hand_over":
        _step(run)
    dealt = run.json("next")
    assert dealt["hand_number"] == 2 and dealt["direction"] == "right"
    assert dealt["events"][0] == {"type": "hand_started", "hand_number": 2, "direction": "right"}


def test_all_bot_matches_play_whole_hands_until_the_match_is_over(run: Cli) -> None:
    status = run.json("new", "--seats", "bot,bot,bot:easy,bot", "--seed", "2", "--end-score", "30")
    assert status["phase"] == "hand_over" and status["seat"] is None and status["hand"] is None
    while status["phase"] != "match_over":
        status = run.json("next")
    assert status["winner"] == min(range(4), key=lambda seat: status["totals"][seat])
    assert "the match is over" in run.refused("next")
    assert "no seat in this match is human" in run.refused("play", "2C")
    assert run("sheet") == 0 and "Winner" in run.out


def test_undo_without_humans_takes_back_the_whole_hand(run: Cli) -> None:
    over = run.json("new", "--seats", "bot,bot,bot,bot", "--seed", "9")
    undone = run.json("undo")
    assert undone["phase"] == "pass" and undone["to_act"] == [0, 1, 2, 3]
    assert all(len(e["action"].get("pass") or "xyz") == 3 for e in undone["events"])
    assert len(undone["events"]) == 56
    replayed = run.json("redo")
    assert replayed["phase"] == "hand_over" and replayed["totals"] == over["totals"]


def test_several_humans_act_in_turn(run: Cli) -> None:
    status = run.json("new", "--seats", "human,bot,human,bot", "--seed", "4")
    assert status["to_act"] == [0, 2] and status["seat"] == 0
    seat2 = run.status("--seat", "2")
    assert seat2["seat"] == 2 and seat2["hand"] != status["hand"]
    assert "not you" in run.refused("status", "--seat", "1")
    run.json("pass", *status["hand"][:3])
    after = run.status()
    assert after["seat"] == 2 and after["to_act"] == [2]
    assert "seat 0 has already passed" in run.refused("pass", "--seat", "0", *status["hand"][3:6])
    assert run.json("pass", *seat2["hand"][:3], "--seat", "2")["phase"] == "play"


# -- rules --------------------------------------------------------------------------------------


def test_rule_options_reach_the_match(run: Cli) -> None:
    status = run.json(
        "new",
        "--pass-cycle", "hold,left",
        "--first-lead", "any_club",
        "--points-first-trick",
        "--no-must-break-hearts",
        "--jack-of-diamonds",
        "--no-tricks-bonus",
        "--moon", "auto",
        "--end-score", "50",
    )  # fmt: skip
    assert status["rules"] == {
        "pass_cycle": ["hold", "left"],
        "first_lead": "any_club",
        "no_points_first_trick": False,
        "must_break_hearts": False,
        "queen_breaks_hearts": True,
        "moon": "auto",
        "jack_of_diamonds": True,
        "no_tricks_bonus": True,
        "end_score": 50,
    }
    assert status["phase"] == "play"
    rules = run.json("new", "--no-points-first-trick", "--no-no-tricks-bonus")["rules"]
    assert rules["no_points_first_trick"] is True and rules["no_tricks_bonus"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pass-cycle", "left,up"], "unknown direction 'up'"),
        (["--pass-cycle", ""], "unknown direction"),
        (["--end-score", "0"], "end_score must be"),
        (["--end-score", "ten"], "invalid int value"),
        (["--moon", "sideways"], "invalid choice"),
        (["--first-lead", "hearts"], "invalid choice"),
        (["--seed", "abc"], "invalid int value"),
        (["--seed", "-1"], "seed must be a whole number"),
        (["--seed", str(2**64)], "seed must be a whole number"),
        (["--seats", "human,bot"], "4 comma-separated seats"),
        (["--seats", "human,robot,bot,bot"], "unknown seat 'robot'"),
        (["--seats", "human,engine:./no-such-program,bot,bot"], "no-such-program"),
        (["--no-such-rule"], "unrecognized arguments"),
    ],
)
def test_bad_new_options_are_refused(run: Cli, args: list[str], message: str) -> None:
    run.json("new", "--seed", "1")
    assert message in run.refused("new", *args, code=2)


# -- files --------------------------------------------------------------------------------------


def test_save_and_load(run: Cli, tmp_path: Path) -> None:
    saved_status = _to_play_phase(run)
    missing = tmp_path / "missing" / "copy.json"
    assert "the folder does not exist" in run.refused("save", str(missing))
    assert not missing.parent.exists()
    copy = tmp_path / "saved" / "copy.json"
    copy.parent.mkdir()
    assert run("save", str(copy)) == 0 and "saved the match" in run.out
    assert copy.read_bytes() == run.state.read_bytes()
    _step(run)
    loaded = run.json("load", str(copy))
    assert loaded["hand"] == saved_status["hand"] and loaded["loaded"] == str(copy)
    assert run.state.read_bytes() == copy.read_bytes()


def test_load_refuses_bad_records_and_keeps_the_state(run: Cli, tmp_path: Path) -> None:
    _to_play_phase(run)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert "cannot load the match" in run.refused("load", str(bad))
    assert "cannot load the match" in run.refused("load", str(tmp_path / "missing.json"))
    assert "cannot load the match" in run.refused("load", str(tmp_path))
    record = json.loads(run.state.read_text())
    record["seats"][1] = "engine:./other-program"
    bad.write_text(json.dumps(record))
    assert "starts only with your consent" in run.refused("load", str(bad))


def test_save_to_an_unwritable_place_fails_cleanly(run: Cli, tmp_path: Path) -> None:
    _to_play_phase(run)
    assert "cannot write" in run.refused("save", str(tmp_path))
    assert "not a usable file path" in run.refused("save", "", code=2)


@pytest.mark.parametrize(
    "args",
    [["status"], ["pass", "QS", "AH", "KH"], ["play", "QS"], ["undo"], ["redo"], ["next"],
     ["save", "elsewhere.json"], ["sheet"]],
)  # fmt: skip
def test_commands_without_a_match_say_how_to_start_one(run: Cli, args: list[str]) -> None:
    message = run.refused(*args)
    assert "no match: start one with `mdhearts cli new`" in message
    assert not run.state.exists()


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage",
        b"{}",
        b"[1, 2]",
        b'{"format": "mdhearts-record", "version": 99}',
        b"\xff\xfe",
    ],
)
def test_a_corrupt_state_file_is_reported_and_kept(run: Cli, content: bytes) -> None:
    run.state.write_bytes(content)
    for args in (["status"], ["play", "2C"], ["undo"], ["next"]):
        message = run.refused(*args)
        assert "state file is not a usable match" in message and "mdhearts cli new" in message
    assert run.state.read_bytes() == content


def test_a_tampered_state_file_is_refused(run: Cli) -> None:
    _to_play_phase(run)
    record = json.loads(run.state.read_text())
    actions = record["hands"][0]["actions"]
    actions[-1], actions[-2] = actions[-2], actions[-1]
    record["hands"][0]["actions"] = actions
    run.state.write_text(json.dumps(record))
    assert "state file is not a usable match" in run.refused("status")


def test_state_path_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "from-env" / "state.json"
    monkeypatch.setenv(STATE_ENV, str(target))
    assert cli_main(["new", "--seed", "1"]) == 1  # a folder named by the person is not made
    assert not target.parent.exists()
    target.parent.mkdir()
    assert cli_main(["new", "--seed", "1"]) == 0
    assert target.exists()
    other = tmp_path / "flag.json"
    assert cli_main(["status", "--state", str(other)]) == 1
    assert cli_main(["--state", str(target), "status"]) == 0
    capsys.readouterr()
    monkeypatch.setenv(STATE_ENV, "")
    assert cli_main(["status"]) == 2
    assert "MDH_CLI_STATE is set but empty" in capsys.readouterr().err


def test_the_default_state_file_is_in_the_user_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(STATE_ENV)
    monkeypatch.setenv("MDH_HOME", str(tmp_path / "home"))
    assert default_state_path() == tmp_path / "home" / "data" / "cli-match.json"
    assert (tmp_path / "home" / "data").is_dir()  # the program's own folder is made
    monkeypatch.delenv("MDH_HOME")
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "plat"))
    assert default_state_path() == tmp_path / "plat" / "cli-match.json"


def test_sheet_prints_the_score_sheet(run: Cli) -> None:
    run.json("new", "--seats", "bot,bot,bot,bot", "--seed", "6")
    assert run("sheet") == 0
    assert "Hand" in run.out and "Total" in run.out
    assert "sheet" in run.json("sheet")


# -- malformed commands -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        ([], 2, "give a command"),
        (["bogus"], 2, "invalid choice: 'bogus'"),
        (["play"], 2, "the following arguments are required: CARD"),
        (["pass"], 2, "the following arguments are required: CARD"),
        (["play", "QS", "KH"], 2, "unrecognized arguments: KH"),
        (["play", "ZZ"], 1, "not a card: 'ZZ'"),
        (["play", "Q"], 1, "not a card"),
        (["play", ""], 1, "not a card"),
        (["status", "--seat", "9"], 2, "invalid choice: 9"),
        (["status", "--seat", "x"], 2, "invalid int value"),
        (["status", "--seat", "1"], 1, "not you"),
        (["--interactive", "status"], 2, "--interactive takes no command"),
        (["--stat", "x", "status"], 2, "invalid choice: 'x'"),
        (["save"], 2, "required: PATH"),
        (["load", "\x00"], 2, "not a usable file path"),
        (["next"], 1, "the current hand is not over yet"),
        (["redo"], 1, "nothing to redo"),
    ],
)
def test_malformed_commands_are_refused_cleanly(
    run: Cli, args: list[str], code: int, message: str
) -> None:
    _to_play_phase(run)
    assert message in run.refused(*args, code=code)


def test_help_exits_zero(run: Cli) -> None:
    assert run("--help") == 0 and "COMMAND" in run.out
    assert run("new", "--help") == 0 and "--pass-cycle" in run.out


def test_a_nul_in_the_state_path_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["--state", "a\x00b", "status"]) == 2
    assert "not a usable file path" in capsys.readouterr().err


# -- autoplay -----------------------------------------------------------------------------------


def test_play_bots_stops_at_a_human_seat_and_at_the_end_of_the_hand() -> None:
    controller = Controller()
    controller.new_match(seed=1, seats=["human", "bot", "bot", "bot"])
    events = play_bots(controller, make_seat_bots(controller.seats))
    assert [e.kind for e in events] == ["pass_submitted"] * 3
    assert controller.seats_to_act == [0]
    assert play_bots(controller, make_seat_bots(controller.seats)) == []
    everyone = {seat: FirstLegalBot() for seat in range(4)}
    events = play_bots(controller, everyone)
    assert controller.phase == "hand_over" and events[-1].kind == "hand_scored"


def test_play_bots_reports_a_bot_that_breaks_the_rules() -> None:
    class Cheater(FirstLegalBot):
        def choose_play(self, observation: Observation) -> int:
            return 51  # the ace of hearts, whatever the rules say

    controller = Controller()
    controller.new_match(seed=1, seats=["bot"] * 4, rules={"pass_cycle": ["hold"]})
    with pytest.raises(BotError, match="illegal move"):
        play_bots(controller, {seat: Cheater() for seat in range(4)})


# -- as a program -------------------------------------------------------------------------------


def test_the_installed_command_runs_in_a_subprocess(tmp_path: Path) -> None:
    state = tmp_path / "sub.json"
    env = {**os.environ, STATE_ENV: str(tmp_path / "unused.json")}
    base = [sys.executable, "-m", "game", "cli", "--state", str(state)]
    started = subprocess.run(
        [*base, "--json", "new", "--seed", "12"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout)["phase"] == "pass"
    before = state.read_bytes()
    refused = subprocess.run(
        [*base, "play", "XX"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert refused.returncode == 1
    assert "not a card" in refused.stderr and "Traceback" not in refused.stderr
    assert state.read_bytes() == before
