"""Bots by name: the registry's names, the ``NAME@MSms`` think time and ``/Nt`` threads."""

from __future__ import annotations

import re

import pytest

from ai.hard import HardBot
from ai.registry import is_registered, make_bot, split_think_time
from ai.think import is_bot_spec
from core.hand import HandState
from core.match import deal_for
from core.rules import RuleSet


def test_think_time_suffix_sets_the_bots_think_time() -> None:
    bot = make_bot("hard@250ms", 1)
    assert isinstance(bot, HardBot)
    assert bot.think_ms == 250
    assert make_bot("hard", 1).think_ms == HardBot().think_ms  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["hard@", "hard@250", "hard@0ms", "hard@-5ms", "hard@1.5ms"])
def test_malformed_think_time_is_refused_with_the_expected_form(name: str) -> None:
    with pytest.raises(ValueError, match="hard@250ms"):
        make_bot(name, 1)
    assert not is_registered(name)
    assert not is_bot_spec(name)


def test_a_bot_without_a_think_time_refuses_one() -> None:
    with pytest.raises(ValueError, match="no think time"):
        make_bot("normal@100ms", 1)


def test_names_split_and_register() -> None:
    assert split_think_time("hard") == ("hard", None)
    assert split_think_time("hard@40ms") == ("hard", 40.0)
    assert is_registered("hard@40ms") and is_bot_spec("hard@40ms")
    assert not is_registered("nobody@40ms")
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        make_bot("nobody@40ms")


def test_every_seat_that_is_not_a_persons_gets_its_player_name() -> None:
    from ai.registry import seat_player_names
    from core.seats import parse_seats

    seats = parse_seats(["human", "bot", "bot:hard@250ms", "engine:my-engine --fast"])
    assert seat_player_names(seats, "easy") == {
        1: "easy",
        2: "hard@250ms",
        3: "engine:my-engine --fast",
    }


@pytest.mark.parametrize("name", ["hard@0250ms", "hard@99999999ms", "hard@２５０ms", "hard@٢٥٠ms"])
def test_the_registry_and_the_seats_refuse_the_same_think_times(name: str) -> None:
    from core.seats import Seat, SeatError

    with pytest.raises(SeatError):
        Seat.parse(f"bot:{name}")
    with pytest.raises(ValueError, match="hard@250ms"):
        split_think_time(name)
    with pytest.raises(ValueError, match="hard@250ms"):
        make_bot(name, 1)
    assert not is_registered(name)
    assert not is_bot_spec(name)


def test_the_longest_think_time_both_accept() -> None:
    from core.seats import Seat

    assert Seat.parse("bot:hard@9999999ms").think_ms == 9999999
    assert split_think_time("hard@9999999ms") == ("hard", 9999999.0)


def test_a_thread_count_sets_the_bots_search_threads_and_only_its() -> None:
    bot = make_bot("hard@250ms/3t", 1)
    assert isinstance(bot, HardBot)
    assert (bot.threads, bot.think_ms) == (3, 250)
    assert make_bot("hard/1t", 1).threads == 1  # type: ignore[attr-defined]
    assert make_bot("hard@250ms", 1).threads == HardBot().threads  # type: ignore[attr-defined]
    assert is_registered("hard@250ms/3t") and is_bot_spec("hard/3t")


@pytest.mark.parametrize(
    "name",
    ["hard/", "hard/t", "hard/2", "hard/0t", "hard/02t", "hard/1000t", "hard/2T", "hard/２t"],
)
def test_malformed_thread_counts_are_refused_with_the_expected_form(name: str) -> None:
    with pytest.raises(ValueError, match=f"bad thread count in '{name}': write it as hard/2t"):
        make_bot(name, 1)
    assert not is_registered(name)
    assert not is_bot_spec(name)


def test_thread_counts_the_bot_cannot_use_are_refused() -> None:
    with pytest.raises(ValueError, match="bad thread count in 'hard/257t': threads must be from"):
        make_bot("hard/257t", 1)
    with pytest.raises(ValueError, match="the normal bot has no search threads to set"):
        make_bot("normal/2t", 1)
    with pytest.raises(ValueError, match="bad thread count in 'hard@5ms/2t/2t'"):
        make_bot("hard@5ms/2t/2t", 1)


def test_a_deal_count_makes_the_hard_bot_decide_by_its_seed_alone() -> None:
    bot = make_bot("hard/1t/40d", 3)
    assert isinstance(bot, HardBot)
    assert (bot.threads, bot.max_samples) == (1, 40)
    assert is_registered("hard/40d") and is_bot_spec("hard/1t/40d")
    hand = HandState.new(RuleSet(), "hold", deal_for(5, 0))
    observation = hand.observation(hand.turn or 0, (0, 0, 0, 0))
    plays = {make_bot("hard/40d", 3).choose_play(observation) for _ in range(3)}
    assert len(plays) == 1


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("hard/0d", "bad deal count in 'hard/0d': write it as hard/3000d"),
        ("hard/040d", "bad deal count in 'hard/040d': write it as hard/3000d"),
        ("hard/10000000d", "bad deal count in 'hard/10000000d'"),
        ("hard/d", "bad deal count in 'hard/d'"),
        ("hard/40d/2t", "bad thread count in 'hard/40d/2t'"),
        ("hard/40d/40d", "bad thread count in 'hard/40d/40d'"),
        ("hard@100ms/40d", "takes no think time (write hard/40d)"),
        ("normal/40d", "the normal bot has no deals a decision to set"),
    ],
)
def test_malformed_or_unusable_deal_counts_are_refused(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        make_bot(name, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bot:hard/2t", "bad bot name"),
        ("bot:hard@250ms/2t", "bad think time"),
        ("bot:hard/40d", "bad bot name"),
    ],
)
def test_seats_take_no_thread_count(text: str, message: str) -> None:
    """A seat's bot searches on the threads its program sets: the seat grammar is unchanged."""
    from core.seats import Seat, SeatError

    with pytest.raises(SeatError, match=message):
        Seat.parse(text)
