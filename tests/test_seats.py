"""The seat grammar (``core.seats``) and which seats this program will play (``ai.registry``)."""

from __future__ import annotations

import pytest

from ai.registry import DEFAULT_SEAT_BOT, SeatRefused, check_seats, seat_bot_names
from core.controller import Controller
from core.errors import HeartsError
from core.record import RecordError, dumps_record, loads_record
from core.seats import Seat, SeatError, parse_seats

GOOD = ["human", "bot", "bot:hard", "bot:hard@250ms", "engine:my-engine --fast", "bot:ismcts"]


@pytest.mark.parametrize("text", GOOD)
def test_a_seat_prints_as_it_was_written(text: str) -> None:
    seat = Seat.parse(text)
    assert str(seat) == text and Seat.parse(str(seat)) == seat
    assert eval(repr(seat), {"Seat": Seat}) == seat


def test_a_seat_knows_its_kind_and_bot_name() -> None:
    hard = Seat.parse("bot:hard@250ms")
    assert hard.is_bot and not hard.is_human and not hard.is_engine
    assert (hard.bot, hard.think_ms, hard.bot_name()) == ("hard", 250, "hard@250ms")
    assert Seat.parse("bot").bot_name("normal") == "normal"
    engine = Seat.parse("engine:  prog -x")
    assert engine.is_engine and engine.command == "prog -x" and str(engine) == "engine:prog -x"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("wizard", "unknown seat 'wizard'"),
        ("bot:engine:rm -rf", "bad bot name"),  # a bot seat can never name a program
        ("bot:os:system", "bad bot name"),  # nor a module to import
        ("bot:Hard", "bad bot name"),
        ("bot:", "bad bot name"),
        ("bot:hard@", "bad think time"),
        ("bot:hard@0ms", "bad think time"),
        ("bot:hard@12", "bad think time"),
        ("engine:", "needs a command"),
        ("engine:   ", "needs a command"),
        ("", "short text"),
        ("x" * 600, "short text"),
        (None, "short text"),
        (7, "short text"),
    ],
)
def test_bad_seats_are_refused_with_the_reason(text: object, message: str) -> None:
    with pytest.raises(SeatError, match=message):
        Seat.parse(text)


def test_four_seats_and_the_number_of_the_bad_one() -> None:
    assert parse_seats(["human", "bot", "bot", "bot"])[0].is_human
    with pytest.raises(SeatError, match="4 seats"):
        parse_seats(["human", "bot"])
    with pytest.raises(SeatError, match="seat 2: unknown seat"):
        parse_seats(["human", "bot", "alien", "bot"])


def test_the_controller_and_records_hold_seats() -> None:
    controller = Controller()
    assert controller.new_match(seed=1, seats=["human", "bot:hard@100ms", "bot", "engine:x"]).ok
    assert controller.seats[1] == Seat("bot", "hard", 100)
    loaded = loads_record(dumps_record(controller))
    assert loaded.seats == controller.seats
    refused = Controller().new_match(seed=1, seats=["human", "bot:engine:x", "bot", "bot"])
    assert not refused.ok and "seat 1: bad bot name" in (refused.error or "")
    text = dumps_record(controller).replace('"bot:hard@100ms"', '"bot:os:system"')
    with pytest.raises(RecordError, match="seat 1: bad bot name"):
        loads_record(text)
    assert issubclass(SeatError, HeartsError)


def test_which_seats_this_program_plays() -> None:
    check_seats(parse_seats(["human", "bot", "bot:hard@50ms", "bot:random"]), allow_engines=False)
    with pytest.raises(SeatRefused, match="unknown bot 'wizard'") as unknown:
        check_seats(parse_seats(["human", "bot:wizard", "bot", "bot"]), allow_engines=True)
    assert (unknown.value.reason, unknown.value.seat) == ("unknown_bot", 1)
    engine = parse_seats(["human", "bot", "engine:python3 -c pass", "bot"])
    with pytest.raises(SeatRefused) as not_allowed:
        check_seats(engine, allow_engines=False)
    assert (not_allowed.value.reason, not_allowed.value.seat) == ("engine_not_allowed", 2)
    check_seats(engine, allow_engines=True)
    missing = parse_seats(["human", "bot", "engine:no-such-program-here", "bot"])
    with pytest.raises(SeatRefused) as unusable:
        check_seats(missing, allow_engines=True)
    assert unusable.value.reason == "engine_unusable"


def test_plain_bot_seats_are_the_normal_bot_everywhere() -> None:
    seats = parse_seats(["human", "bot", "bot:hard@20ms", "engine:x"])
    assert DEFAULT_SEAT_BOT == "normal"
    assert seat_bot_names(seats) == {1: "normal", 2: "hard@20ms"}


def test_a_think_time_for_a_bot_without_one_is_refused() -> None:
    with pytest.raises(SeatRefused, match="no think time") as refused:
        check_seats(parse_seats(["human", "bot:easy@20ms", "bot", "bot"]), allow_engines=False)
    assert refused.value.reason == "unknown_bot"
