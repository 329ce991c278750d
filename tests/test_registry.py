"""Bots by name: the registry's names and the ``NAME@MSms`` think-time form."""

from __future__ import annotations

import pytest

from ai.hard import HardBot
from ai.registry import is_registered, make_bot, split_think_time
from ai.think import is_bot_spec


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
