"""What the table does as the view shows each event: sounds, messages, the points rising over
a name plate, and the big moments and dialogs of the match flow."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from core import events as ev
from core.cards import QUEEN_OF_SPADES, card_label
from game.table.wording import breaking_hearts

if TYPE_CHECKING:
    import pygame

    from game.table.app import App
    from game.table.match.flow import MatchFlow
    from game.table.table_view import TableView


class CuedTable(Protocol):
    """What the view's cues read and change on the table (``TableScene``)."""

    @property
    def app(self) -> App:
        """The running table (its sounds and settings)."""

    @property
    def flow(self) -> MatchFlow:
        """What is counted, kept and shown as the match goes on."""

    @property
    def view(self) -> TableView:
        """Where every card is drawn."""

    @property
    def gains(self) -> list[Gain]:
        """The "+N points" rising over the name plates."""

    @property
    def keys_waiting(self) -> list[pygame.event.Event]:
        """Keys kept while cards moved."""

    @property
    def selected(self) -> list[int]:
        """The cards chosen to pass."""

    #: Whether the rest of the hand is played at the instant speed (no points remain).
    rushing: bool

    def say(self, text: str) -> None:
        """Show a short message above the person's hand."""
        ...

    def seat_does(self, seat: int, verb: str) -> str:
        """Return a seat's name with ``verb`` agreeing with it."""
        ...


#: How long a "+N points" rises over a name plate after a trick is taken.
GAIN_SECONDS = 1.4


@dataclass
class Gain:
    """Points just taken by a seat, shown rising over its name plate for a moment."""

    seat: int
    points: int
    left: float


def on_cue(table: CuedTable, name: str, value: object) -> None:
    """React to the view reaching a beat ``name`` (its event is ``value``)."""
    sounds = table.app.sounds
    if name == "deal":
        sounds.play("deal")
        table.selected.clear()
        table.keys_waiting.clear()
        table.gains.clear()
        table.rushing = False
        table.view.speed = table.app.settings.speed
    elif name == "pass":
        sounds.play("pass")
    elif name == "play" and isinstance(value, ev.CardPlayed):
        sounds.play("play")
        if value.card == QUEEN_OF_SPADES:
            table.say(f"{table.seat_does(value.seat, 'plays')} the {card_label(value.card)}")
    elif name == "hearts_broken" and isinstance(value, ev.HeartsBroken):
        sounds.play("hearts_broken")
        table.say(breaking_hearts(value.card))
    elif name == "collect":
        sounds.play("sweep")
    elif name == "trick_taken" and isinstance(value, ev.TrickWon) and value.points:
        add_gain(table.gains, value.seat, value.points)
        if QUEEN_OF_SPADES in value.cards:
            table.say(table.flow.queen_taken(value))
    elif name == "hand_scored" and isinstance(value, ev.HandScored):
        table.gains.clear()  # the summary shows the points; no label outlives the hand
        table.flow.hand_scored(value, table.view.shown.hand_number)
    elif name == "match_over" and isinstance(value, ev.MatchOver):
        table.flow.match_over(value)


def add_gain(gains: list[Gain], seat: int, points: int) -> None:
    """Show points just taken over a seat's plate, added to a label still showing there."""
    for index, gain in enumerate(gains):
        if gain.seat == seat:
            gains[index] = Gain(seat, gain.points + points, GAIN_SECONDS)
            return
    gains.append(Gain(seat, points, GAIN_SECONDS))


def tick_gains(gains: list[Gain], dt: float) -> list[Gain]:
    """Return the labels still showing ``dt`` seconds later."""
    return [Gain(g.seat, g.points, g.left - dt) for g in gains if g.left > dt]
