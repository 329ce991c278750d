"""What happened after a command: small immutable event values a transport can animate."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from core.actions import Action, PassAction
from core.cards import card_text
from core.rules import pass_sender


def _plain(name: str, value: Any) -> Any:
    """Convert an event field to JSON data; card fields become their text forms."""
    if name == "card":
        return card_text(value)
    if name in ("cards", "dealt"):
        return [card_text(card) for card in value]
    if name == "passes":
        return [[card_text(card) for card in cards] for cards in value]
    if name == "action":
        return value.to_dict()
    if isinstance(value, tuple):
        return list(value)
    return value


@dataclass(frozen=True)
class Event:
    """Base of all events; ``kind`` names the event in its JSON form."""

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON data with a ``type`` key."""
        data: dict[str, Any] = {"type": self.kind}
        for field in dataclasses.fields(self):
            data[field.name] = _plain(field.name, getattr(self, field.name))
        return data


@dataclass(frozen=True)
class MatchStarted(Event):
    """A new match began."""

    kind: ClassVar[str] = "match_started"
    seed: int
    seats: tuple[str, ...]


@dataclass(frozen=True)
class HandStarted(Event):
    """A hand was dealt."""

    kind: ClassVar[str] = "hand_started"
    hand_number: int
    direction: str


@dataclass(frozen=True)
class PassSubmitted(Event):
    """A seat chose its three cards to pass (which ones is private to that seat)."""

    kind: ClassVar[str] = "pass_submitted"
    seat: int


@dataclass(frozen=True)
class PassesExchanged(Event):
    """All four passes were exchanged; ``passes[s]`` are the cards seat s gave away (none
    where a seat's view hides them, ``seen_by``)."""

    kind: ClassVar[str] = "passes_exchanged"
    direction: str
    passes: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class CardPlayed(Event):
    """A seat played a card to the current trick."""

    kind: ClassVar[str] = "card_played"
    seat: int
    card: int


@dataclass(frozen=True)
class HeartsBroken(Event):
    """Hearts were broken by this card."""

    kind: ClassVar[str] = "hearts_broken"
    seat: int
    card: int


@dataclass(frozen=True)
class TrickWon(Event):
    """A trick was completed and taken by ``seat``; ``cards`` are in play order."""

    kind: ClassVar[str] = "trick_won"
    seat: int
    trick_number: int
    cards: tuple[int, ...]
    points: int


@dataclass(frozen=True)
class HandScored(Event):
    """The hand ended; ``points`` are this hand's, moon and bonuses applied."""

    kind: ClassVar[str] = "hand_scored"
    points: tuple[int, ...]
    totals: tuple[int, ...]
    moon_shooter: int | None


@dataclass(frozen=True)
class MatchOver(Event):
    """The match ended; the lowest total wins."""

    kind: ClassVar[str] = "match_over"
    winner: int
    totals: tuple[int, ...]


@dataclass(frozen=True)
class ActionUndone(Event):
    """An action was taken back."""

    kind: ClassVar[str] = "action_undone"
    action: Action


def passes_known(viewer: int, direction: str) -> tuple[int, int]:
    """Return the seats whose passed cards ``viewer`` knows: its own, and the seat that passed
    to it (whose cards it received)."""
    return (viewer, pass_sender(viewer, direction))


def seat_view(data: dict[str, Any], viewer: int | None, *, match_over: bool) -> dict[str, Any]:
    """Return an event's JSON data (``Event.to_dict``) as the seat ``viewer`` may see it.

    A seat knows its own pass and the cards it received: the other passes are blanked. The
    match's seed deals every hand, so it is blanked too until the match is over (then it
    serves replays). With no viewer (nobody's cards to keep secret) nothing is hidden.
    ``seen_by`` is the same for an event itself.
    """
    if viewer is None:
        return data
    if data["type"] == MatchStarted.kind and not match_over:
        data["seed"] = None
    elif data["type"] == PassesExchanged.kind:
        known = passes_known(viewer, data["direction"])
        data["passes"] = [
            cards if seat in known else None for seat, cards in enumerate(data["passes"])
        ]
    elif data["type"] == ActionUndone.kind:
        action = data["action"]
        if "pass" in action and action["seat"] != viewer:
            action["pass"] = None
    return data


def seen_by(event: Event, viewer: int | None, *, match_over: bool) -> Event:
    """Return the event as the seat ``viewer`` may see it, as ``seat_view`` does its data: a
    pass the seat does not know has no cards (every pass is three cards, so its count is
    known), and the seed is 0 until the match is over. With no viewer it is unchanged."""
    if viewer is None:
        return event
    if isinstance(event, MatchStarted) and not match_over:
        return dataclasses.replace(event, seed=0)
    if isinstance(event, PassesExchanged):
        known = passes_known(viewer, event.direction)
        passes = tuple(cards if seat in known else () for seat, cards in enumerate(event.passes))
        return dataclasses.replace(event, passes=passes)
    if isinstance(event, ActionUndone):
        action = event.action
        if isinstance(action, PassAction) and action.seat != viewer:
            return ActionUndone(PassAction(action.seat, ()))
    return event
