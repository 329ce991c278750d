"""Tournaments on duplicate deals, the easy bot, and the tournament command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from positions import play_randomly

from ai.easy import EasyBot
from ai.registry import BOTS, make_bot
from ai.tournament import (
    mean_and_interval,
    percentile,
    play_duplicate_deal,
    play_hand,
    run_tournament,
)
from core.controller import Controller
from core.match import deal_for
from core.rules import RuleSet
from game.tournament_cmd import main


# The searching bots take seconds per hand; tests/test_hard.py and tests/test_ismcts.py cover them.
@pytest.mark.parametrize("name", sorted(set(BOTS) - {"ismcts", "hard"}))
def test_every_registered_bot_plays_legal_hands(name: str) -> None:
    for index in range(8):
        bots = [make_bot(name, index * 4 + seat) for seat in range(4)]
        rules = RuleSet()
        outcome = play_hand(rules, rules.direction_of_hand(index), deal_for(9, index), bots)
        assert sum(outcome.score.taken_points) == 26
        assert all(len(times) >= 13 for times in outcome.decision_ms)


def test_easy_bot_only_plays_legal_cards_from_any_position() -> None:
    bot = EasyBot(3)
    for seed in range(30):
        controller = Controller()
        controller.new_match(seed=seed, seats=["bot"] * 4)
        play_randomly(controller, random.Random(seed), seed * 2)
        if controller.phase == "play":
            seat = controller.seats_to_act[0]
            assert bot.choose_play(controller.observation(seat)) in controller.legal_cards(seat)


def test_a_deterministic_lineup_scores_the_same_hand_from_every_rotation() -> None:
    result = play_duplicate_deal(["first"] * 4, RuleSet(), seed=5, index=2)
    by_rotation = [sorted(result.points[slot][r] for slot in range(4)) for r in range(4)]
    assert by_rotation[0] == by_rotation[1] == by_rotation[2] == by_rotation[3]
    # Slot k sits at seat (k - r) mod 4, so seat 0's points move one slot per rotation.
    assert [result.points[r][r] for r in range(4)] == [result.points[0][0]] * 4


def test_identical_bots_have_a_diff_of_exactly_zero() -> None:
    summaries = run_tournament(["random"] * 4, deals=6, seed=3, workers=1)
    assert len(summaries) == 1 and summaries[0].hands == 6 * 4 * 4
    assert summaries[0].diff == pytest.approx(0.0, abs=1e-9)


def test_diffs_of_two_bots_balance() -> None:
    summaries = run_tournament(["easy", "random", "random", "random"], deals=10, seed=1, workers=1)
    easy, rand = summaries
    # Each hand's diffs sum to zero over the four seats.
    assert easy.diff + 3 * rand.diff == pytest.approx(0.0, abs=1e-9)


def test_statistics_helpers() -> None:
    mean, half = mean_and_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and half == pytest.approx(1.96 * 1.2909944 / 2)
    assert percentile([5, 1, 3, 2, 4], 0.5) == 3
    assert percentile([], 0.9) == 0.0


def test_the_tournament_command_reports_and_writes_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "result.json"
    table = tmp_path / "result.md"
    code = main(
        [
            "--seats",
            "easy,first,first,first",
            "--deals",
            "4",
            "--matches",
            "2",
            "--workers",
            "1",
            "--json",
            str(out),
            "--markdown",
            str(table),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "| easy ×1 | 16 |" in printed and "| first ×3 | 48 |" in printed
    data = json.loads(out.read_text())
    assert data["lineup"] == ["easy", "first", "first", "first"]
    assert table.read_text() in printed


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seats", "easy,easy"], "four bots"),
        (["--seats", "easy,genius,easy,easy"], "unknown bot 'genius'"),
        (["--deals", "0"], "--deals"),
        (["--deals", "many"], "invalid int"),
        (["--seed", "-1"], "--seed"),
    ],
)
def test_bad_tournament_arguments_are_refused(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
