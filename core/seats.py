"""Who plays a seat: a person here, a built-in bot, or an external engine program.

The one owner of the seat grammar, used by the controller, records and every front end::

    human                 a person at this program
    bot                   the front end's default bot
    bot:NAME              a built-in bot by name, e.g. ``bot:hard``
    bot:NAME@MSms         ... with a think time, e.g. ``bot:hard@250ms``
    engine:COMMAND        an external program speaking the engine protocol

A ``Seat`` parses and prints itself (``Seat.parse("bot:hard")``, ``str(seat)``). Whether a
bot name is known is for ``ai`` to say; whether an engine's program may run is for the person
to say (a front end asks before a record's engine seat starts anything).

>>> Seat.parse("bot:hard@250ms")
Seat.parse('bot:hard@250ms')
>>> Seat.parse("bot:hard@250ms").bot_name()
'hard@250ms'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from core.errors import HeartsError
from core.text import short_repr

HUMAN = "human"
BOT = "bot"
ENGINE = "engine"
#: Longest seat text accepted (an engine command with its arguments).
MAX_SEAT_TEXT = 500
_BOT_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
_THINK = re.compile(r"([1-9][0-9]{0,6})ms")
_THREADS = re.compile(r"([1-9][0-9]{0,2})t")
_DEALS = re.compile(r"([1-9][0-9]{0,6})d")


class SeatError(HeartsError):
    """A seat text that is not ``human``, ``bot[:NAME[@MSms]]`` or ``engine:COMMAND``."""


@dataclass(frozen=True)
class Seat:
    """One seat's player: ``kind`` is ``human``, ``bot`` or ``engine``.

    ``bot`` is a bot seat's name ("" for the front end's default bot), ``think_ms`` its think
    time (None for the default), ``command`` an engine seat's command line.
    """

    kind: str
    bot: str = ""
    think_ms: int | None = None
    command: str = ""

    @classmethod
    def parse(cls, text: object) -> Seat:
        """Return the seat a text names; raise SeatError saying what is wrong."""
        if isinstance(text, Seat):
            return text
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_SEAT_TEXT:
            raise SeatError(f"a seat must be a short text, got {short_repr(text)}")
        if text == HUMAN:
            return cls(HUMAN)
        if text == BOT:
            return cls(BOT)
        prefix, colon, rest = text.partition(":")
        if colon and prefix == ENGINE:
            if not rest.strip():
                raise SeatError("an engine seat needs a command: engine:COMMAND")
            return cls(ENGINE, command=rest.strip())
        if colon and prefix == BOT:
            name, think_ms = _split_bot_name(rest, text, BOT + ":")
            return cls(BOT, name, think_ms)
        raise SeatError(
            f"unknown seat {short_repr(text)} (use human, bot, bot:NAME, bot:NAME@MSms "
            "or engine:COMMAND)"
        )

    def __str__(self) -> str:
        if self.kind == ENGINE:
            return f"{ENGINE}:{self.command}"
        if self.kind == BOT and self.bot:
            return f"{BOT}:{self.bot_name()}"
        return self.kind

    def __repr__(self) -> str:
        return f"Seat.parse({str(self)!r})"

    @property
    def is_human(self) -> bool:
        """Return whether a person at this program plays the seat."""
        return self.kind == HUMAN

    @property
    def is_bot(self) -> bool:
        """Return whether a built-in bot plays the seat."""
        return self.kind == BOT

    @property
    def is_engine(self) -> bool:
        """Return whether an external program plays the seat."""
        return self.kind == ENGINE

    def bot_name(self, default: str = "") -> str:
        """Return a bot seat's registry name with its think time, e.g. ``hard@250ms``.

        A plain ``bot`` seat gives ``default`` (the front end's default bot).
        """
        return join_bot_name(self.bot or default, self.think_ms)


def split_bot_name(text: str) -> tuple[str, int | None]:
    """Split a bot's registry name, ``NAME`` or ``NAME@MSms``, into the name and its think time.

    The one grammar of a bot name and think time, for seats and the bot registry alike: the
    name is lowercase, the think time a whole number of milliseconds from 1 to 9999999 written
    with ASCII digits and no leading zero (registry names may add search threads and deals:
    ``split_registry_name``). Raises SeatError saying what is wrong.

    >>> split_bot_name("hard@250ms")
    ('hard', 250)
    >>> split_bot_name("hard")
    ('hard', None)
    >>> split_bot_name("hard@0250ms")
    Traceback (most recent call last):
    ...
    core.seats.SeatError: bad think time in 'hard@0250ms': write it as hard@250ms
    """
    return _split_bot_name(text, text, "")


def join_bot_name(
    name: str, think_ms: int | None = None, threads: int | None = None, deals: int | None = None
) -> str:
    """Return the registry name of a bot with a think time, threads and deals, each if given
    (``split_registry_name`` reads it back).

    >>> join_bot_name("hard", 1000, 2)
    'hard@1000ms/2t'
    >>> join_bot_name("hard", deals=300)
    'hard/300d'
    >>> join_bot_name("hard")
    'hard'
    """
    text = name if think_ms is None else f"{name}@{think_ms}ms"
    text = text if threads is None else f"{text}/{threads}t"
    return text if deals is None else f"{text}/{deals}d"


class RegistryName(NamedTuple):
    """A registry name's parts: the bot, and its think time, search threads and deals a
    decision, each None when not given."""

    name: str
    think_ms: int | None
    threads: int | None
    deals: int | None


def split_registry_name(text: str) -> RegistryName:
    """Split a registry name, ``NAME[@MSms][/Nt][/Nd]``, into its parts.

    ``/Nt`` asks for N search threads (a whole number from 1 to 999); ``/Nd`` for N deals a
    decision (1 to 9999999), searched without a time limit, so that the bot decides the same
    on any machine: it takes no think time. Both are written in ASCII digits without a
    leading zero, threads before deals; which counts a bot can use is for the bot to say.
    Registry names take them, seats do not: a seat's bot searches on the threads and the time
    its program sets. The rest is ``split_bot_name``'s grammar. Raises SeatError saying what
    is wrong.

    >>> split_registry_name("hard@1000ms/2t")
    RegistryName(name='hard', think_ms=1000, threads=2, deals=None)
    >>> split_registry_name("hard/1t/300d")
    RegistryName(name='hard', think_ms=None, threads=1, deals=300)
    >>> split_registry_name("hard@1000ms/0t")
    Traceback (most recent call last):
    ...
    core.seats.SeatError: bad thread count in 'hard@1000ms/0t': write it as hard@1000ms/2t
    """
    rest, *parts = text.split("/")
    name, think_ms = _split_bot_name(rest, text, "")
    deals = None
    if parts and parts[-1].endswith("d"):
        matched = _DEALS.fullmatch(parts.pop())
        if matched is None:
            raise SeatError(f"bad deal count in {short_repr(text)}: write it as {rest}/3000d")
        deals = int(matched.group(1))
    threads = None
    if parts:
        matched = _THREADS.fullmatch(parts[0])
        if matched is None or len(parts) > 1:
            raise SeatError(f"bad thread count in {short_repr(text)}: write it as {rest}/2t")
        threads = int(matched.group(1))
    if deals is not None and think_ms is not None:
        raise SeatError(
            f"bad deal count in {short_repr(text)}: a bot given deals a decision thinks "
            f"without a time limit, so it takes no think time (write {name}/{deals}d)"
        )
    return RegistryName(name, think_ms, threads, deals)


def _split_bot_name(name_text: str, whole: str, prefix: str) -> tuple[str, int | None]:
    """Split ``name_text`` (found in ``whole``); messages show names with ``prefix``."""
    name, at, think = name_text.partition("@")
    if not _BOT_NAME.fullmatch(name):
        raise SeatError(
            f"bad bot name {short_repr(name)} in {short_repr(whole)}: "
            f"use {prefix}NAME with a lowercase name such as {prefix}hard"
        )
    if not at:
        return name, None
    matched = _THINK.fullmatch(think)
    if matched is None:
        raise SeatError(f"bad think time in {short_repr(whole)}: write it as {prefix}{name}@250ms")
    return name, int(matched.group(1))


#: A person at this program as a seat's player (a Seat, not a seat number).
HUMAN_PLAYER = Seat(HUMAN)
DEFAULT_SEATS = (HUMAN_PLAYER, Seat(BOT), Seat(BOT), Seat(BOT))


def parse_seats(texts: Iterable[object]) -> tuple[Seat, Seat, Seat, Seat]:
    """Return four seats from four seat texts; raise SeatError naming the bad seat."""
    items = list(texts)
    if len(items) != 4:
        raise SeatError(f"a match has 4 seats, got {len(items)}")
    seats = []
    for number, text in enumerate(items):
        try:
            seats.append(Seat.parse(text))
        except SeatError as error:
            raise SeatError(f"seat {number}: {error}") from None
    return seats[0], seats[1], seats[2], seats[3]


def seat_texts(seats: Iterable[Seat]) -> tuple[str, ...]:
    """Return the text of each seat, as records and events hold them."""
    return tuple(str(seat) for seat in seats)


def engine_seats(seats: Iterable[Seat]) -> dict[int, Seat]:
    """Return the seats played by external programs, keyed by seat number."""
    return {number: seat for number, seat in enumerate(seats) if seat.is_engine}
