"""The moon benchmark: what the search foresees, grouped by what the table shows, against what
the hands' ends said."""

from __future__ import annotations

import math

import pytest

from bench import moons
from bench.__main__ import main
from core.cards import mask_of, parse_cards


@pytest.mark.parametrize(
    ("seat", "taken", "group"),
    [
        (0, (0, 0, 0, 0), moons.GROUPS[0]),
        (0, (2, 3, 0, 0), moons.GROUPS[0]),
        (0, (0, 3, 0, 0), "another seat holds them, 1–3 points"),
        (2, (0, 5, 0, 0), "another seat holds them, 4–12 points"),
        (3, (0, 0, 13, 0), "another seat holds them, 13 or more"),
        (1, (0, 1, 0, 0), "it holds them, 1–3 points"),
        (1, (0, 12, 0, 0), "it holds them, 4–12 points"),
        (0, (26, 0, 0, 0), "it holds them, 13 or more"),
    ],
)
def test_a_decision_is_grouped_by_who_holds_every_point_taken(
    seat: int, taken: tuple[int, int, int, int], group: str
) -> None:
    assert moons.group_of(seat, taken) == group


def test_a_rate_s_interval_treats_each_hand_as_one_sample() -> None:
    # Two hands, each all moons or none: the rate is a half whichever hand holds more
    # decisions, and its interval is wide; the same hands split evenly have no spread.
    rate, interval = moons.rate_and_interval([(10, 10.0), (10, 0.0)])
    assert rate == 0.5 and interval == pytest.approx(1.96 * math.sqrt(2 * 50) / 20)
    assert moons.rate_and_interval([(10, 5.0), (10, 5.0)]) == (0.5, 0.0)
    assert moons.rate_and_interval([(3, 1.0)])[1] == math.inf


def test_every_decision_reports_rates_and_the_hand_s_one_ending() -> None:
    rows = moons.measure(4, deals=40, seed=5, true_runs=8)
    assert {row.hand for row in rows} == {0, 1, 2, 3}
    for row in rows:
        assert row.group in moons.GROUPS
        for rate in (row.own_foreseen, row.other_foreseen, row.own_true, row.other_true):
            assert rate is not None and 0 <= rate <= 1
        assert not (row.own_shot and row.other_shot)
        # Every decision of a hand shares its ending: a moon or none.
        same_hand = [other for other in rows if other.hand == row.hand]
        assert len({other.own_shot or other.other_shot for other in same_hand}) == 1
        # While another seat holds points, this one cannot shoot the moon.
        if row.group.startswith("another"):
            assert row.own_foreseen == row.own_true == 0


def test_the_command_prints_a_row_per_group_met(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moons", "--hands", "2", "--deals", "30", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert moons.GROUPS[0] in out and "foreseen" in out
    assert main(["moons", "--hands", "0"]) == 2


def test_losers_are_the_cards_another_hand_can_beat() -> None:
    deal = mask_of(parse_cards("QS 3C")), mask_of(parse_cards("AS KS 2C 5H")), 0, 0
    assert moons.losers([deal], 1) == [1]  # the 2♣; nothing beats the A♠ and K♠, nor the 5♥
    assert moons.losers([deal], 0) == [1]  # the Q♠ falls to the K♠; the 3♣ stands
    shares = moons.loser_shares([deal, (0, mask_of(parse_cards("2S 3S")), 0, deal[0])], 1)
    assert shares == (0.0, 0.5, 0.5, 0.0, 0.0, 0.0)


def test_losers_are_counted_only_where_another_seat_holds_every_point() -> None:
    rows = moons.measure(6, deals=40, seed=5, loser_draws=16)
    counted = [row for row in rows if row.losers_true is not None]
    assert counted
    for row in rows:
        assert (row.losers_true is not None) == row.group.startswith("another")
    for row in counted:
        assert row.losers_true is not None and 0 <= row.losers_true <= 13
        for shares in (row.losers_unread, row.losers_read):
            assert len(shares) == moons.LOSERS_SHOWN and sum(shares) == pytest.approx(1)
    text, markdown = moons.render(rows, {})
    assert "another seat holds every point taken" in text and "| its losers |" in markdown
    assert moons.measure(2, deals=40, seed=5)[0].losers_true is None  # not asked
