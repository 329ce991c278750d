"""One table of the server in memory: its seats, its match (through the one controller), and
the counter every published event advances. No input or output here: the hub stores and sends.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ai.registry import DEFAULT_SEAT_BOT, SeatRefused, check_seats
from core import events as ev
from core.controller import Controller, Result
from core.errors import HeartsError
from core.rules import RuleSet
from core.seats import HUMAN, Seat

#: A seat a person may take with the invite code.
OPEN = "open"
#: The bot that plays for a person who is away past the grace time, or an empty seat.
STANDIN_BOT = DEFAULT_SEAT_BOT


class TableError(ValueError):
    """A table that cannot be made as asked; ``reason`` is a protocol reason code."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class SeatChanged(ev.Event):
    """Who sits in a seat, and whether they are here: public, sent to every client.

    ``player`` is ``person`` or ``bot:NAME``; ``away`` is True while a person's connection is
    gone; ``bot_plays`` names the bot that plays for an away person once the grace time is over.
    """

    kind: ClassVar[str] = "seat_changed"
    seat: int
    player: str
    name: str | None
    away: bool
    bot_plays: str | None


@dataclass(frozen=True)
class TableStarted(ev.Event):
    """The host started the table: the match begins."""

    kind: ClassVar[str] = "table_started"


@dataclass
class SeatState:
    """One seat: ``open`` (a person's, once taken) or ``bot:NAME``; a person's token as a hash."""

    kind: str
    name: str | None = None
    token_hash: str | None = None
    connected: bool = False
    away_since: float | None = None
    standin: bool = False

    @property
    def is_person(self) -> bool:
        """Return whether the seat is (or may be) a person's."""
        return self.kind == OPEN

    @property
    def taken(self) -> bool:
        """Return whether a person holds this seat."""
        return self.token_hash is not None

    def to_dict(self) -> dict[str, Any]:
        """Return what is stored of the seat (the token only as its hash)."""
        return {"kind": self.kind, "name": self.name, "token_hash": self.token_hash}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatState:
        """Return a seat as it was stored (a person counts as away until they rejoin)."""
        seat = cls(str(data["kind"]), data.get("name"), data.get("token_hash"))
        if seat.taken:
            seat.away_since = time.monotonic()
        return seat


def parse_table_seats(texts: list[str]) -> list[SeatState]:
    """Return the seats of a new table from ``open`` / ``bot`` / ``bot:NAME`` texts."""
    seats = []
    for number, text in enumerate(texts):
        if text == OPEN:
            seats.append(SeatState(OPEN))
            continue
        try:
            seat = Seat.parse(text)
        except HeartsError as error:
            raise TableError(f"seat {number}: {error}", "bad_seats") from None
        if not seat.is_bot:
            raise TableError(f"seat {number}: use open or bot:NAME, got {text!r}", "bad_seats")
        try:
            check_seats([seat], allow_engines=False, first_number=number)
        except SeatRefused as error:
            raise TableError(str(error), "bad_seats") from None
        seats.append(SeatState(f"bot:{seat.bot_name(DEFAULT_SEAT_BOT)}"))
    return seats


def parse_rules(data: object) -> RuleSet:
    """Return the rules of a new table; raise TableError (``bad_rules``) saying what is wrong."""
    try:
        return RuleSet.from_dict(data)
    except (HeartsError, TypeError, ValueError) as error:
        raise TableError(f"bad rules: {error}", "bad_rules") from None


@dataclass
class Table:
    """A table: its code, host, rules, seats, and its match once started.

    ``seq`` counts the events published so far: the next one has ``seq + 1``.
    """

    id: int
    code: str
    host_hash: str
    rules: RuleSet
    seats: list[SeatState]
    controller: Controller | None = None
    seq: int = 0
    created: float = field(default_factory=time.time)

    @property
    def started(self) -> bool:
        """Return whether the match has begun."""
        return self.controller is not None

    @property
    def finished(self) -> bool:
        """Return whether the match is over."""
        return self.controller is not None and self.controller.phase == "match_over"

    def bot_for(self, seat: int) -> str | None:
        """Return the bot that plays ``seat`` now (a bot seat, or a person away past grace)."""
        state = self.seats[seat]
        if not state.is_person:
            return state.kind.partition(":")[2] or STANDIN_BOT
        if not state.taken or state.standin:
            return STANDIN_BOT
        return None

    def seat_event(self, seat: int) -> SeatChanged:
        """Return the public event saying who is in ``seat`` now."""
        state = self.seats[seat]
        player = ("person" if state.taken else OPEN) if state.is_person else state.kind
        bot = self.bot_for(seat) if state.taken else None
        return SeatChanged(seat, player, state.name, state.away_since is not None, bot)

    def start(self) -> Result:
        """Begin the match: people in their seats, bots in the others."""
        for state in self.seats:
            if state.is_person and not state.taken:
                state.kind = f"bot:{STANDIN_BOT}"
        kinds = [HUMAN if state.is_person else state.kind for state in self.seats]
        controller = Controller()
        result = controller.new_match(self.rules, None, kinds)
        if result.ok:
            self.controller = controller
        return result

    def move(self, seat: int, choice: list[str] | str | tuple[int, ...] | int) -> Result:
        """Pass or play for ``seat``; a finished hand is followed by the next deal."""
        controller = self.controller
        if controller is None:
            return Result(False, error="the match has not begun", reason="no_match")
        if isinstance(choice, (list, tuple)):
            result = controller.submit_pass(seat, choice)
        else:
            result = controller.play_card(seat, choice)
        if result.ok and controller.phase == "hand_over":
            dealt = controller.next_hand()
            return Result(True, result.events + dealt.events)
        return result
