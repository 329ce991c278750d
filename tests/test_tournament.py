"""Tournaments on duplicate deals, the easy bot, and the tournament command."""

from __future__ import annotations

import functools
import json
import os
import random
import signal
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest
from positions import play_randomly

from ai import tournament
from ai.basic import FirstLegalBot
from ai.bot import Bot, Budget
from ai.easy import EasyBot
from ai.registry import BOTS, BotFactory, make_bot
from ai.tournament import (
    HandOutcome,
    mean_and_interval,
    percentile,
    play_duplicate_deal,
    play_hand,
    run_tournament,
)
from core.cards import QUEEN_OF_SPADES, cards_of, rank_of
from core.controller import Controller
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet
from game.tools.tournament import main


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


class NamedFirstBot(FirstLegalBot):
    """The first-legal bot under its own name, so a spy can tell the lineup's slots apart."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name


class WorstBot:
    """A deliberately terrible player: keeps its dangerous cards and takes every trick it can.

    It passes its three lowest cards, plays the Q♠ whenever it may, and otherwise plays its
    highest-ranked legal card.
    """

    def __init__(self) -> None:
        self.last_decision: dict[str, Any] = {}

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Pass the three lowest-ranked cards."""
        cards = sorted(cards_of(observation.hand), key=rank_of)
        return cards[0], cards[1], cards[2]

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Play the Q♠ if legal, else the highest-ranked legal card."""
        legal = cards_of(observation.legal_mask())
        return max(legal, key=lambda card: (card == QUEEN_OF_SPADES, rank_of(card), card))


def named_first_bot(name: str, seed: int | None) -> Bot:
    """Return a first-legal bot called ``name`` (the seed is not used)."""
    return NamedFirstBot(name)


def register(monkeypatch: pytest.MonkeyPatch, name: str, factory: BotFactory) -> None:
    """Register a bot for this test only (tournaments with one worker run in this process)."""
    monkeypatch.setitem(BOTS, name, factory)


def test_a_deterministic_bot_against_itself_scores_every_deal_alike_from_each_slot() -> None:
    for index in range(6):
        result = play_duplicate_deal(["first"] * 4, RuleSet(), seed=11, index=index)
        assert all(len(points) == 4 for points in result.points)
        # Over its four rotations every slot holds each seat's cards once, so every slot's
        # total is the whole hand's total.
        totals = {sum(points) for points in result.points}
        hand_total = sum(result.points[slot][0] for slot in range(4))
        assert totals == {hand_total}, result.points


def test_a_deterministic_bot_against_itself_has_a_diff_of_zero_on_every_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    register(monkeypatch, "first_twin", lambda seed: FirstLegalBot())
    summaries = run_tournament(["first", "first_twin", "first", "first_twin"], 8, 4, workers=1)
    assert [s.name for s in summaries] == ["first", "first_twin"]
    for summary in summaries:
        # Zero mean and zero spread: the diff of every single deal is zero.
        assert summary.diff == pytest.approx(0.0, abs=1e-9)
        assert summary.diff_ci == pytest.approx(0.0, abs=1e-9)
    assert summaries[0].mean_points == pytest.approx(summaries[1].mean_points, abs=1e-9)


def test_a_terrible_bot_is_clearly_worse_than_a_sensible_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    register(monkeypatch, "worst", lambda seed: WorstBot())
    normal, worst = run_tournament(["normal", "worst", "normal", "normal"], 16, 2, workers=1)
    assert worst.name == "worst" and normal.name == "normal"
    # The whole 95% interval lies on the losing side for the bad bot, the winning side for
    # the others.
    assert worst.diff - worst.diff_ci > 0, (worst.diff, worst.diff_ci)
    assert normal.diff + normal.diff_ci < 0, (normal.diff, normal.diff_ci)
    assert worst.mean_points - worst.mean_points_ci > normal.mean_points + normal.mean_points_ci


def test_every_deal_is_played_in_every_rotation_and_scored_for_the_right_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = ["north", "east", "south", "west"]
    for name in names:
        register(monkeypatch, name, functools.partial(named_first_bot, name))
    played: list[tuple[tuple[int, ...], str, list[str], list[int]]] = []
    real_play_hand = tournament.play_hand

    def spy(
        rules: RuleSet, direction: str, deal: Sequence[int], bots: Sequence[Bot]
    ) -> HandOutcome:
        outcome = real_play_hand(rules, direction, deal, bots)
        seated = [cast(NamedFirstBot, bot).name for bot in bots]
        played.append((tuple(deal), direction, seated, list(outcome.score.points)))
        return outcome

    monkeypatch.setattr(tournament, "play_hand", spy)
    deals, seed = 5, 7
    summaries = run_tournament(names, deals, seed, workers=1)

    assert len(played) == deals * 4
    rules = RuleSet()
    for index in range(deals):
        deal = tuple(deal_for(seed, index))
        rotations = [hand for hand in played if hand[0] == deal]
        assert len(rotations) == 4, f"deal {index} was played {len(rotations)} times"
        assert {hand[1] for hand in rotations} == {rules.direction_of_hand(index)}
        for _, _, seated, _ in rotations:
            assert sorted(seated) == sorted(names)
        for name in names:
            seats = {seated.index(name) for _, _, seated, _ in rotations}
            assert seats == {0, 1, 2, 3}, f"{name} sat at {sorted(seats)} on deal {index}"

    # The summaries are computed from the very hands that were played.
    for summary in summaries:
        own = [points[seated.index(summary.name)] for _, _, seated, points in played]
        diffs = [
            points[seated.index(summary.name)]
            - (sum(points) - points[seated.index(summary.name)]) / 3
            for _, _, seated, points in played
        ]
        assert summary.hands == len(own) == deals * 4
        assert summary.mean_points == pytest.approx(statistics.fmean(own))
        assert summary.diff == pytest.approx(statistics.fmean(diffs))


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


@pytest.mark.parametrize(
    ("where", "message"),
    [
        (".", "it is a folder"),
        ("missing/result.json", "the folder"),
        ("/dev/null", "it is not a regular file (a device)"),
        ("pipe", "it is not a regular file (a named pipe)"),
    ],
)
@pytest.mark.parametrize("option", ["--json", "--markdown"])
def test_an_output_that_cannot_be_written_is_refused_before_the_tournament(
    option: str,
    where: str,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    os.mkfifo(tmp_path / "pipe")
    monkeypatch.chdir(tmp_path)

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tournament ran")

    monkeypatch.setattr("game.tools.tournament.run_tournament", never)
    assert main(["--deals", "1", option, where]) == 2
    captured = capsys.readouterr()
    assert f"argument {option}: cannot write {where!r}: {message}" in captured.err
    assert captured.out == "" and "Traceback" not in captured.err


def test_ctrl_c_stops_the_tournament_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("game.tools.tournament.run_tournament", interrupted)
    assert main(["--deals", "1"]) == 130
    assert capsys.readouterr().err == "mdhearts tournament: stopped\n"


def test_a_pool_worker_searches_on_one_thread_unless_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pool keeps every core busy, so its hard bots must not each add threads."""
    from ai.cores import THREADS_ENV
    from ai.hard import HardBot
    from ai.tournament import _start_pool_worker

    monkeypatch.setattr(signal, "signal", lambda *_: None)
    monkeypatch.delenv(THREADS_ENV, raising=False)
    monkeypatch.setattr("ai.cores.available_cores", lambda: 8)
    assert HardBot().threads == 7
    _start_pool_worker()
    assert HardBot().threads == 1
    monkeypatch.setenv(THREADS_ENV, "3")
    _start_pool_worker()
    assert HardBot().threads == 3


def test_each_seat_searches_on_its_own_threads_in_one_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``hard/3t`` searches on 3 threads; a hard seat naming none on one, as in a pool worker."""
    from ai.cores import THREADS_ENV
    from ai.hard import HardBot

    monkeypatch.delenv(THREADS_ENV, raising=False)
    monkeypatch.setattr("ai.cores.available_cores", lambda: 8)
    played = []

    def recording(rules: RuleSet, direction: str, deal: Sequence[int], bots: Sequence[Bot]) -> Any:
        played.append(sorted(bot.threads for bot in bots if isinstance(bot, HardBot)))
        return play_hand(rules, direction, deal, bots)

    monkeypatch.setattr(tournament, "play_hand", recording)
    run_tournament(["hard@2ms/3t", "hard@2ms", "hard@2ms/1t", "easy"], 1, seed=5, workers=1)
    assert played == [[1, 1, 3]] * 4
    assert THREADS_ENV not in os.environ
