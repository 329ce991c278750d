"""``mdhearts review``: a coach's text, the JSON form, and one clear line for bad input."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from ai.autoplay import play_bots
from ai.registry import make_bot
from ai.review import DecisionReview
from core.controller import Controller
from core.record import dumps_record, save_record
from game.main import main as mdhearts
from game.tools.review import decision_line, main

SAMPLES = ["--samples", "20"]
FIELDS = ("hand", "seat", "kind", "trick", "chosen", "best", "loss", "class")
OUTCOME_FIELDS = [
    "hearts",
    "queen",
    "jack",
    "moon_shot",
    "moon_conceded",
    "wins_trick",
    "no_trick",
    "match_lost",
    "match_won",
    "parts",
]


def _match(path: Path, seats: list[str], hands: int, extra_plays: int = 0) -> Controller:
    """Save a match of ``hands`` finished hands (then ``extra_plays`` actions of the next)."""
    controller = Controller()
    assert controller.new_match(seed=41, seats=seats).ok
    bots = {seat: make_bot("random", seat) for seat in range(4)}
    for number in range(hands):
        if number:
            assert controller.next_hand().ok
        play_bots(controller, bots)
    if extra_plays:
        assert controller.next_hand().ok
        for _ in range(extra_plays):
            seat = controller.seats_to_act[0]
            if controller.phase == "pass":
                assert controller.submit_pass(seat, controller.hand(seat)[:3]).ok
            else:
                assert controller.play_card(seat, controller.legal_cards(seat)[0]).ok
    save_record(controller, path)
    return controller


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A record of two finished hands and a third begun; a person at seat 0."""
    path = tmp_path / "match.json"
    _match(path, ["human", "bot:normal", "bot:normal", "bot:hard"], 2, extra_plays=6)
    return path


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_json_form_has_exactly_the_documented_fields(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run([str(record), "--json", *SAMPLES], capsys)
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert out.endswith("}\n") and out.count("\n") == 1
    assert list(data) == ["decisions", "total_loss", "small_slips"]
    decisions = data["decisions"]
    assert len(decisions) == 14  # hand 2, the last finished one: the pass and 13 plays
    for decision in decisions:
        assert list(decision) == [
            "hand",
            "seat",
            "kind",
            "trick",
            "chosen",
            "best",
            "loss",
            "margin",
            "clear",
            "too_close",
            "class",
            "close",
            "why",
            "why_part",
            "chosen_outcome",
            "best_outcome",
        ]
        assert decision["hand"] == 2 and decision["seat"] == 0
        assert isinstance(decision["loss"], float) and decision["loss"] >= 0
        assert decision["class"] in ("fine", "inaccuracy", "mistake")
        if decision["chosen_outcome"] is None:  # a forced card is not searched
            assert decision["margin"] is None and decision["loss"] == 0
            continue
        assert decision["clear"] == (decision["loss"] > decision["margin"])
        assert (decision["why"] is None) == (decision["best"] == decision["chosen"])
        for outcome in (decision["chosen_outcome"], decision["best_outcome"]):
            assert list(outcome) == OUTCOME_FIELDS
            assert list(outcome["parts"]) == ["hearts", "queen", "jack", "moon", "bonus", "match"]
    listed = [d for d in decisions if d["class"] != "fine" or d["too_close"]]
    slips = [d for d in decisions if d not in listed and d["loss"] > 0]
    assert data["small_slips"] == {
        "count": len(slips),
        "loss": round(sum(d["loss"] for d in slips), 2),
    }
    first, *plays = decisions
    assert first["kind"] == "pass" and first["trick"] is None
    assert len(first["chosen"]) == len(first["best"]) == 3
    assert all(re.fullmatch(r"[2-9TJQKA][CDSH]", card) for card in first["chosen"] + first["best"])
    assert [play["trick"] for play in plays] == list(range(1, 14))
    assert all(play["kind"] == "play" and len(play["chosen"]) == 2 for play in plays)
    assert data["total_loss"] == round(sum(d["loss"] for d in decisions), 2)


def test_the_same_seed_and_samples_give_the_same_output(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = {_run([str(record), "--json", *SAMPLES, "--seed", "3"], capsys)[1] for _ in range(2)}
    assert len(outputs) == 1
    texts = {_run([str(record), *SAMPLES, "--seed", "3"], capsys)[1] for _ in range(2)}
    assert len(texts) == 1
    other = _run([str(record), "--json", *SAMPLES, "--seed", "4"], capsys)[1]
    assert other not in outputs


def test_the_text_reads_like_a_coach(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run([str(record), *SAMPLES], capsys)
    assert (status, err) == (0, "")
    data = json.loads(_run([str(record), "--json", *SAMPLES], capsys)[1])
    lines = out.splitlines()
    assert lines[0] == "Review of seat 0 (human): 20 deals searched per decision, seed 0."
    assert "Hand 2 (pass right):" in lines
    body = [line.strip() for line in lines if line.startswith("  ") and line[2] != " "]
    whys = [line.strip() for line in lines if line.startswith("    ")]
    assert len(body) == 14
    assert body[0].startswith("Pass: you passed ")
    listed = [d for d in data["decisions"] if d["class"] != "fine" or d["too_close"]]
    assert [f"Why: {d['why']}" for d in listed] == whys
    for line, decision in zip(body, data["decisions"], strict=True):
        where = "Pass" if decision["trick"] is None else f"Trick {decision['trick']}"
        assert line.startswith(f"{where}: you ")
        if decision["class"] != "fine":
            article = "an" if decision["class"] == "inaccuracy" else "a"
            assert f"— {article} {decision['class']}: " in line
            assert (
                f"was better by {decision['loss']:.2f} points (± {decision['margin']:.2f})." in line
            )
        if decision["too_close"]:
            assert "— too close to call: " in line and "within the search's noise" in line
    assert any("♠" in line or "♥" in line or "♣" in line or "♦" in line for line in body)
    assert not re.search(r"\b[2-9TJQKA][CDSH]\b", "\n".join(body))  # symbols, not QS
    assert lines[-1].startswith(f"Points lost to decisions: {data['total_loss']:.2f} (")


def test_a_forced_card_and_a_mistake_are_said_so() -> None:
    forced = DecisionReview(1, 0, "play", 13, (51,), (51,), 0.0, None, None, 0)
    assert decision_line(forced, "you") == "Trick 13: you played A♥, the only legal card."
    mistake = DecisionReview(1, 2, "play", 4, (36,), (34,), 2.6, 3.0, 0.4, 20)
    assert decision_line(mistake, "seat 2") == (
        "Trick 4: seat 2 played Q♠ — a mistake: 10♠ was better by 2.60 points."
    )
    slip = DecisionReview(1, 0, "pass", None, (36, 51, 50), (0, 1, 2), 0.7, 1.0, 0.3, 20)
    assert decision_line(slip, "you") == (
        "Pass: you passed Q♠ A♥ K♥ — an inaccuracy: 2♣ 3♣ 4♣ was better by 0.70 points."
    )
    best = DecisionReview(1, 0, "play", 2, (3,), (3,), 0.0, 1.0, 1.0, 20)
    assert decision_line(best, "you") == "Trick 2: you played 5♣ — the best choice."
    tied = replace(best, margin=0.3, close=((4,), (5,)))
    assert decision_line(tied, "you") == (
        "Trick 2: you played 5♣ — the best choice found (6♣ or 7♣: too close to call)."
    )
    clear = replace(mistake, margin=0.8)
    assert decision_line(clear, "seat 2") == (
        "Trick 4: seat 2 played Q♠ — a mistake: 10♠ was better by 2.60 points (± 0.80)."
    )
    close = replace(mistake, margin=2.9)
    assert decision_line(close, "seat 2") == (
        "Trick 4: seat 2 played Q♠ — too close to call: 10♠ was better by 2.60 points "
        "(± 2.90), within the search's noise."
    )
    same = DecisionReview(1, 0, "play", 2, (3,), (4,), 0.0, 1.0, 1.0, 20)
    assert decision_line(same, "you") == "Trick 2: you played 5♣ — as good as 6♣."
    fine = DecisionReview(1, 0, "play", 2, (3,), (4,), 0.2, 1.2, 1.0, 20)
    assert (
        decision_line(fine, "you") == "Trick 2: you played 5♣ — fine (6♣ was 0.20 points better)."
    )


def test_seat_and_hand_default_to_the_person_and_the_last_finished_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "person-at-2.json"
    _match(path, ["bot:normal", "bot:normal", "human", "bot:normal"], 3)
    data = json.loads(_run([str(path), "--json", *SAMPLES], capsys)[1])
    assert {(d["hand"], d["seat"]) for d in data["decisions"]} == {(3, 2)}
    bots_only = tmp_path / "bots.json"
    _match(bots_only, ["bot:normal"] * 4, 1)
    status, out, _ = _run([str(bots_only), *SAMPLES], capsys)
    assert status == 0 and out.startswith("Review of seat 0 (bot:normal)")
    assert "Trick 1: seat 0 played" in out


def test_a_chosen_seat_and_every_hand_can_be_reviewed(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [str(record), "--json", *SAMPLES, "--seat", "3"]
    every = json.loads(_run([*args, "--hand", "all"], capsys)[1])
    assert [d["hand"] for d in every["decisions"]] == [1] * 14 + [2] * 14
    assert {d["seat"] for d in every["decisions"]} == {3}
    one = json.loads(_run([*args, "--hand", "1"], capsys)[1])
    assert one["decisions"] == every["decisions"][:14]
    text = _run([str(record), *SAMPLES, "--hand", "all"], capsys)[1]
    assert "Lost in hand 1: " in text and "Lost in hand 2: " in text


def test_the_table_save_and_the_mdhearts_command_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    controller = _match(tmp_path / "unused.json", ["human", "bot", "bot", "bot"], 1)
    save = tmp_path / "current-game.json"
    save.write_text(dumps_record(controller), encoding="utf-8")  # as the table writes it
    assert mdhearts(["review", str(save), "--json", *SAMPLES]) == 0
    assert len(json.loads(capsys.readouterr().out)["decisions"]) == 14


def test_a_time_limit_still_searches_every_decision(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run([str(record), "--json", "--samples", "50", "--think-ms", "1"], capsys)
    assert status == 0 and len(json.loads(out)["decisions"]) == 14


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{missing}"], "cannot read {missing}: No such file or directory"),
        (["{notjson}"], "the record is not valid JSON"),
        (["{foreign}"], "mdhearts-record"),
        (["{folder}"], "is a folder"),
        (["{record}", "--hand", "4"], "hand 4 is not in the record: it holds hands 1 to 3"),
        (["{record}", "--hand", "3"], "hand 3 is not finished yet"),
        (["{record}", "--hand", "0"], "argument --hand: must be a hand number"),
        (["{record}", "--hand", "two"], "argument --hand: must be a hand number"),
        (["{record}", "--seat", "4"], "argument --seat: must be a whole number from 0 to 3"),
        (["{record}", "--seat", "-1"], "argument --seat: must be a whole number from 0 to 3"),
        (["{record}", "--samples", "0"], "argument --samples: must be a whole number from 1"),
        (["{record}", "--samples", "10001"], "argument --samples: must be a whole number"),
        (["{record}", "--samples", "1e9"], "argument --samples: must be a whole number"),
        (["{record}", "--think-ms", "0"], "argument --think-ms: must be a whole number"),
        (["{record}", "--seed", "-3"], "argument --seed: must be a whole number"),
        (["{record}", "--frobnicate"], "unrecognized arguments: --frobnicate"),
        ([], "the following arguments are required: RECORD"),
        (["{fresh}"], "no hand of the record is finished yet"),
    ],
)
def test_bad_input_gets_one_clear_line_and_status_2(
    args: list[str],
    message: str,
    record: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "not.json").write_text("not json at all", encoding="utf-8")
    (tmp_path / "foreign.json").write_text('{"format": "chess", "version": 1}', encoding="utf-8")
    fresh = Controller()
    assert fresh.new_match(seed=1).ok
    save_record(fresh, tmp_path / "fresh.json")
    places = {
        "missing": str(tmp_path / "missing.json"),
        "notjson": str(tmp_path / "not.json"),
        "foreign": str(tmp_path / "foreign.json"),
        "folder": str(tmp_path),
        "record": str(record),
        "fresh": str(tmp_path / "fresh.json"),
    }
    filled = [arg.format(**places) for arg in args]
    status, out, err = _run(filled, capsys)
    assert status == 2
    assert out == ""
    assert err.startswith("mdhearts review: error: ") and err.count("\n") == 1, err
    assert message.format(**places) in err
    assert "Traceback" not in err


def test_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["--help"], capsys)
    assert status == 0
    for option in ("--seat", "--hand", "--json", "--samples", "--seed", "--think-ms"):
        assert option in out
