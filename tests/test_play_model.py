"""A learned model of play: the fit recovers a planted preference, the weights file is read
back as written and refused with a clear message when malformed, and ``bench policy`` records,
fits and writes a model end to end."""

from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path
from typing import Any

import pytest

from ai.play_model import DEFAULT_PATH, PlayModelError, load_play_model, model_json
from ai.search import FEATURE_COUNT, LEARNED_KINDS, WEIGHT_UNIT, LearnedModel
from bench.__main__ import main as bench_main
from bench.policy_data import decode, encode, read_hands
from bench.policy_fit import Choice, fit, predicted


def planted_choices(rng: random.Random, planted: list[list[float]], count: int) -> list[Choice]:
    """Return choices whose cards are drawn from a softmax of the planted weights (in logits)."""
    choices = []
    for _ in range(count):
        kind = rng.randrange(LEARNED_KINDS)
        n = rng.randrange(2, 9)
        rows = tuple(tuple(rng.randrange(0, 4) for _ in range(FEATURE_COUNT)) for _ in range(n))
        logits = [sum(w * f for w, f in zip(planted[kind], row, strict=True)) for row in rows]
        top = max(logits)
        shares = [math.exp(logit - top) for logit in logits]
        played = rng.choices(range(n), weights=shares)[0]
        choices.append(Choice(kind, rows, played))
    return choices


def test_the_fit_recovers_a_planted_preference() -> None:
    rng = random.Random(12)
    planted = [[0.0] * FEATURE_COUNT for _ in range(LEARNED_KINDS)]
    planted[0][0] = 1.5
    planted[1][8] = -2.0
    planted[2][3] = 1.0
    planted[2][5] = -0.5
    choices = planted_choices(rng, planted, 6000)
    model = fit(choices, penalty=0.1)
    for kind in range(LEARNED_KINDS):
        for feature in range(FEATURE_COUNT):
            found = model.weights[kind * FEATURE_COUNT + feature] / WEIGHT_UNIT
            assert found == pytest.approx(planted[kind][feature], abs=0.2), (kind, feature)
    # Cards are drawn from the softmax itself: little uniform play is mixed in.
    assert model.mix <= 0.02
    held_out = planted_choices(rng, planted, 500)
    best = sum(predicted(model, choice) == choice.played for choice in held_out)
    assert best > 0.5 * len(held_out)


def a_model() -> LearnedModel:
    return LearnedModel(tuple(range(-24, 24)), 0.05)


def test_a_model_is_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(model_json(a_model(), {"hands": 3}), encoding="utf-8")
    assert load_play_model(path) == a_model()


def test_the_shipped_model_loads() -> None:
    model = load_play_model()
    assert len(model.weights) == LEARNED_KINDS * FEATURE_COUNT
    assert DEFAULT_PATH.name == "play_model.json"


def edited(change: str) -> str:
    data = json.loads(model_json(a_model(), {}))
    if change == "format":
        data["format"] = "something else"
    elif change == "features":
        data["features"] = data["features"][:-1]
    elif change == "count":
        data["weights"]["lead"] = data["weights"]["lead"][:-1]
    elif change == "fraction":
        data["weights"]["discard"][3] = 1.5
    elif change == "mix":
        data["mix"] = 0
    elif change == "kinds":
        del data["weights"]["follow"]
    elif change == "huge":
        data["weights"]["lead"][0] = 1 << 40
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "play model .*: Expecting property name"),
        ('{"a": 1, "a": 2}', "twice|repeat|duplicate"),
        (edited("format"), "not a play model"),
        (edited("features"), "fitted on other features"),
        (edited("count"), "lead weights are not a list of 16"),
        (edited("fraction"), "discard weights are not all whole numbers"),
        (edited("mix"), r"mix is not a number in \(0, 1\]"),
        (edited("kinds"), "weights is not an object of lead, follow, discard"),
        (edited("huge"), "at most"),
    ],
)
def test_a_malformed_weights_file_is_refused_clearly(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "model.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PlayModelError, match=message):
        load_play_model(path)


def test_a_missing_weights_file_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(PlayModelError, match="cannot be read"):
        load_play_model(tmp_path / "absent.json")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_weights_file_that_is_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "model.json"
    os.mkfifo(fifo)
    with pytest.raises(PlayModelError, match=r"FIFO|not a regular file"):
        load_play_model(fifo)


def test_bench_policy_records_fits_and_writes_a_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "plays.jsonl"
    weights = tmp_path / "model.json"
    args = ["policy", "--hands", "5", "--deals", "12", "--data", str(data)]
    assert bench_main([*args, "--write", str(weights)]) == 0
    out = capsys.readouterr().out
    assert "learned: card played" in out and out.count("plays") >= 4
    hands = {number: (plays, bot) for number, plays, bot in read_hands(data)}
    assert sorted(hands) == [0, 1, 2, 3, 4]
    assert all(plays and bot == "hard" for plays, bot in hands.values())
    assert decode(encode(hands[0][0], "hard")) == (hands[0][0], "hard")
    model = load_play_model(weights)
    # Run again: the hands recorded are read, not played again, and give the same model.
    before = data.read_text(encoding="utf-8")
    assert bench_main([*args, "--write", str(weights)]) == 0
    assert data.read_text(encoding="utf-8") == before
    assert load_play_model(weights) == model


def test_bench_policy_refuses_a_malformed_file_of_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "plays.jsonl"
    data.write_text('{"hand": 0, "plays": [[1, 2]]}\n', encoding="utf-8")
    assert bench_main(["policy", "--hands", "5", "--data", str(data)]) == 2
    assert "not a deal journal; it was left as it is" in capsys.readouterr().err
    assert data.read_text(encoding="utf-8") == '{"hand": 0, "plays": [[1, 2]]}\n'
    # A journal of these hands with a damaged play: named by its hand, and left as it is.
    good = tmp_path / "good.jsonl"
    args = ["policy", "--hands", "5", "--deals", "6", "--seed", "3"]
    assert bench_main([*args, "--data", str(good)]) == 0
    capsys.readouterr()
    lines = good.read_text(encoding="utf-8").splitlines(keepends=True)
    entry = json.loads(lines[2])
    entry["result"]["plays"][0][9] = 60  # a card that is not a card
    lines[2] = json.dumps(entry) + "\n"
    good.write_text("".join(lines), encoding="utf-8")
    assert bench_main([*args, "--data", str(good)]) == 2
    assert f"hand {entry['deal']}: a malformed hand of plays" in capsys.readouterr().err
    assert good.read_text(encoding="utf-8") == "".join(lines)


def test_bench_policy_continues_a_file_cut_short_and_refuses_other_hands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "plays.jsonl"
    args = ["policy", "--hands", "5", "--deals", "6", "--data", str(data)]
    assert bench_main([*args, "--seed", "4"]) == 0
    whole = data.read_text(encoding="utf-8")
    # Killed while writing hand 4, and before hand 3: the torn line is dropped, both played again.
    lines = whole.splitlines(keepends=True)
    data.write_text("".join(lines[:4]) + lines[5][:20], encoding="utf-8")
    assert bench_main([*args, "--seed", "4"]) == 0
    assert sorted(number for number, _, _ in read_hands(data)) == [0, 1, 2, 3, 4]
    assert {n: p for n, p, _ in read_hands(data)} == {
        n: p for n, p, _ in (decode_line(line) for line in lines[1:])
    }
    capsys.readouterr()
    # Another seed or other deals a decision: refused, the file left as it is.
    kept = data.read_text(encoding="utf-8")
    for other in (["--seed", "5"], ["--seed", "4", "--deals", "7"]):
        assert bench_main([*args, *other]) == 2
        assert "another tournament or code (differs in" in capsys.readouterr().err
        assert data.read_text(encoding="utf-8") == kept


def decode_line(line: str) -> tuple[int, list[Any], str]:
    """Return a journal line's hand number, plays and bot."""
    entry = json.loads(line)
    return (entry["deal"], *decode(entry["result"]))


def test_bench_policy_plays_hands_with_each_bot_in_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "plays.jsonl"
    args = ["policy", "--hands", "10", "--deals", "8", "--data", str(data)]
    assert bench_main([*args, "--bots", "hard,normal"]) == 0
    assert "all, normal bots" in capsys.readouterr().out
    bots = {number: bot for number, _, bot in read_hands(data)}
    assert bots == {number: ("hard", "normal")[number % 2] for number in range(10)}
    # The same file with other bots is refused, not mixed.
    assert bench_main([*args, "--bots", "normal"]) == 2
    assert "(differs in bots)" in capsys.readouterr().err
