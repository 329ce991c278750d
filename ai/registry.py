"""Bots by name, so tournaments, transports and settings can name a seat's player."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from ai.basic import FirstLegalBot, RandomBot
from ai.bot import Bot, close_bot
from ai.easy import EasyBot
from ai.external import ENGINE_PREFIX, make_engine_bot, split_command
from ai.hard import HardBot
from ai.normal import NormalBot
from ai.search_py import check_threads
from core.seats import Seat, split_bot_name, split_registry_name

BotFactory = Callable[[int | None], Bot]

#: Each bot name with a factory taking a seed.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "first": lambda seed: FirstLegalBot(),
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
    "ismcts": lambda seed: _ismcts(seed),
}


def _ismcts(seed: int | None) -> Bot:
    """OpenSpiel's ISMCTS, a yardstick seat (needs the optional open-spiel package)."""
    from ai.ismcts import IsmctsBot

    try:
        return IsmctsBot(seed)
    except ImportError as error:
        raise ValueError(f"the ismcts bot is not available: {error}") from None


def split_think_time(name: str) -> tuple[str, float | None]:
    """Split ``NAME@MSms`` into the name and its think time in ms (None when not given).

    The grammar is the seats' (``core.seats.split_bot_name``). Raises ValueError (a SeatError)
    for a malformed name or think time.
    """
    base, think_ms = split_bot_name(name)
    return base, None if think_ms is None else float(think_ms)


def is_registered(name: str) -> bool:
    """Return whether ``name`` is a registered bot, with or without a valid think time, thread
    count and deal count."""
    try:
        return split_registry_name(name).name in BOTS
    except ValueError:
        return False


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Return a new bot by name or ``engine:COMMAND`` (seeded when it uses chance).

    ``NAME@MSms`` (e.g. ``hard@250ms``) sets the think time of a bot that has one,
    ``NAME/Nt`` (e.g. ``hard@1000ms/2t``) the search threads of a bot that has them, and
    ``NAME/Nd`` (e.g. ``hard/3000d``) the deals a decision of a bot that searches them,
    without a time limit (its decisions then depend on its seed alone). Raises ValueError
    for an unknown name, a bad think time, thread count or deal count, or an unusable engine
    command.
    """
    if name.startswith(ENGINE_PREFIX):
        return make_engine_bot(name, seed)
    base, think_ms, threads, deals = split_registry_name(name)
    try:
        factory = BOTS[base]
    except KeyError:
        raise ValueError(f"unknown bot {base!r} (known: {', '.join(sorted(BOTS))})") from None
    bot = factory(seed)
    try:
        if think_ms is not None:
            if not hasattr(bot, "think_ms"):
                raise ValueError(f"the {base} bot has no think time to set")
            cast(Any, bot).think_ms = float(think_ms)
        if threads is not None:
            if not hasattr(bot, "threads"):
                raise ValueError(f"the {base} bot has no search threads to set")
            try:
                cast(Any, bot).threads = check_threads(threads)
            except ValueError as error:
                raise ValueError(f"bad thread count in {name!r}: {error}") from None
        if deals is not None:
            if not hasattr(bot, "max_samples"):
                raise ValueError(f"the {base} bot has no deals a decision to set")
            cast(Any, bot).max_samples = deals
    except ValueError:
        close_bot(bot)
        raise
    return bot


#: The bot of a plain ``bot`` seat, in every front end.
DEFAULT_SEAT_BOT = "normal"


class SeatRefused(ValueError):
    """A seat this program will not play; ``reason`` says why as a code a front end words.

    ``unknown_bot``: no bot of that name or think time; ``engine_not_allowed``: the seat
    would start a program and the person has not agreed; ``engine_unusable``: its command
    cannot run here.
    """

    def __init__(self, message: str, reason: str, seat: int) -> None:
        super().__init__(message)
        self.reason = reason
        self.seat = seat


def check_seats(
    seats: Sequence[Seat], *, allow_engines: bool = False, first_number: int = 0
) -> None:
    """Raise SeatRefused for the first seat this program cannot or may not play.

    Nothing is started: an engine's command is only looked up. An engine seat is refused
    unless ``allow_engines`` says the person agreed to start its program. ``first_number``
    is the seat number of ``seats[0]`` (to check some seats of a match).
    """
    for number, seat in enumerate(seats, start=first_number):
        if seat.is_bot and seat.bot:
            if not is_registered(seat.bot_name()):
                raise SeatRefused(
                    f"seat {number}: unknown bot {seat.bot!r} (known: {', '.join(sorted(BOTS))})",
                    "unknown_bot",
                    number,
                )
            if seat.think_ms is not None:
                try:  # only some bots have a think time to set
                    close_bot(make_bot(seat.bot_name(DEFAULT_SEAT_BOT)))
                except ValueError as error:
                    raise SeatRefused(f"seat {number}: {error}", "unknown_bot", number) from None
        elif seat.is_engine:
            if not allow_engines:
                raise SeatRefused(
                    f"seat {number} is played by the program {seat.command!r:.60}, which may "
                    "only start with your consent",
                    "engine_not_allowed",
                    number,
                )
            try:
                split_command(seat.command)
            except ValueError as error:
                raise SeatRefused(f"seat {number}: {error}", "engine_unusable", number) from None


def seat_bot_names(seats: Sequence[Seat], default: str = DEFAULT_SEAT_BOT) -> dict[int, str]:
    """Return the bot name of every built-in bot seat (with its think time), by seat number."""
    return {number: seat.bot_name(default) for number, seat in enumerate(seats) if seat.is_bot}


def seat_player_names(seats: Sequence[Seat], default: str = DEFAULT_SEAT_BOT) -> dict[int, str]:
    """Return the player of every seat that is not a person's, as a name ``make_bot`` takes.

    Bot seats give their bot's name (``default`` for a plain ``bot``), engine seats
    ``engine:COMMAND``: starting that program is the caller's decision, made with consent.
    """
    names = seat_bot_names(seats, default)
    names.update({number: str(seat) for number, seat in enumerate(seats) if seat.is_engine})
    return dict(sorted(names.items()))


def make_seat_bots(seats: Sequence[Seat], default: str = DEFAULT_SEAT_BOT) -> dict[int, Bot]:
    """Return a new bot for every built-in bot seat, by seat number; ValueError if unknown."""
    return {number: make_bot(name) for number, name in seat_bot_names(seats, default).items()}
