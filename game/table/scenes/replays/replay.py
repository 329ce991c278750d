"""A kept match opened to replay: its controller, who played each seat, its reviews."""

from __future__ import annotations

from dataclasses import dataclass, field

from ai.registry import seat_player_names
from ai.review import Review
from core.controller import Controller
from core.record import dumps_record
from game.table.match.port import ReviewKey
from game.table.scenes.table import seat_label


@dataclass
class Replay:
    """A kept match opened to replay: its controller, who played each seat, its reviews."""

    controller: Controller
    person: str | None
    players: dict[int, str]
    reviews: dict[ReviewKey, Review] = field(default_factory=dict)

    @classmethod
    def of(cls, controller: Controller, person_name: str) -> Replay:
        """Return the replay of a finished match; seat 0 is ``person_name`` if a person played."""
        person = person_name if controller.seats[0].is_human else None
        return cls(controller, person, seat_player_names(controller.seats, "bot"))

    def record(self) -> str:
        """Return the match's record (``core.record`` text): what the review page reads."""
        return dumps_record(self.controller)

    def seat_name(self, seat: int) -> str:
        """Return the name shown for a seat."""
        player = self.players.get(seat, "")
        return seat_label(seat, "program" if player.startswith("engine:") else player, self.person)

    def short_name(self, seat: int) -> str:
        """Return a seat's name without its player: the person's name, or the seat's
        ("West"), as the table says whom a pass goes to."""
        return seat_label(seat, "", self.person)
