"""The pass benchmark: the best candidate against the best of all 286 sets."""

from __future__ import annotations

import pytest

from ai.hard import pass_candidates
from bench import passes
from bench.__main__ import main
from core.cards import cards_of
from core.hand import HandState
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet


def test_the_best_set_is_never_worse_than_the_best_candidate() -> None:
    checks = passes.measure(3, seed=5, screen=40, check=80)
    assert [check.direction for check in checks] == ["left", "right", "across"]
    for number, check in enumerate(checks):
        hand = HandState.new(RuleSet(), check.direction, deal_for(5, number)).hands[0]
        assert check.candidate in pass_candidates(hand)
        assert check.shortfall >= 0
        if check.best == check.candidate:
            assert check.shortfall == 0


def test_a_poor_candidate_shows_a_shortfall(monkeypatch: pytest.MonkeyPatch) -> None:
    # With a single, poor candidate (the three lowest cards), the best of all sets beats it.
    def lowest(hand: int, limit: int = 10) -> list[tuple[int, int, int]]:
        low = sorted(card for card in range(52) if hand >> card & 1)[:3]
        return [(low[0], low[1], low[2])]

    monkeypatch.setattr(passes, "pass_candidates", lowest)
    monkeypatch.setattr("ai.hard.pass_candidates", lowest)
    checks = passes.measure(2, seed=5, screen=60, check=120)
    assert all(check.shortfall > 0 for check in checks)


def test_the_bots_own_decision_is_valued_with_the_finalists() -> None:
    checks = passes.measure(3, seed=5, screen=40, check=80, decide=30)
    for number, check in enumerate(checks):
        hand = HandState.new(RuleSet(), check.direction, deal_for(5, number)).hands[0]
        assert check.decision in pass_candidates(hand)
        assert check.decision_shortfall is not None and check.decision_shortfall >= 0
        if check.decision == check.best:
            assert check.decision_shortfall == 0
    assert all(check.decision is None for check in passes.measure(1, 5, 40, 80))


def test_a_poor_decision_shows_a_shortfall(monkeypatch: pytest.MonkeyPatch) -> None:
    def lowest(bot: object, observation: Observation) -> tuple[int, int, int]:
        low = cards_of(observation.hand)[:3]
        return (low[2], low[0], low[1])  # out of order, as a bot may return it

    monkeypatch.setattr(passes.HardBot, "choose_pass", lowest)
    checks = passes.measure(2, seed=5, screen=60, check=120, decide=30)
    assert all(check.decision_shortfall and check.decision_shortfall > 0 for check in checks)
    assert all(check.decision == tuple(sorted(check.decision or ())) for check in checks)


def test_bad_counts_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["passes", "--hands", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
    assert main(["passes", "--decide", "-1"]) == 2
    assert "--decide at least 0" in capsys.readouterr().err
