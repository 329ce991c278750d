"""Moves as small immutable values with a compact text form: a pass of three cards or a play."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.cards import card_text, parse_card, parse_cards
from core.errors import RecordError


@dataclass(frozen=True)
class PassAction:
    """A seat's choice of three cards to pass."""

    seat: int
    cards: tuple[int, ...]

    @property
    def text(self) -> str:
        """Return the cards as text, e.g. ``QS AH KH``."""
        return " ".join(card_text(card) for card in self.cards)

    def to_dict(self) -> dict[str, Any]:
        """Return the action as record data."""
        return {"seat": self.seat, "pass": [card_text(card) for card in self.cards]}

    def __repr__(self) -> str:
        return f"PassAction(seat={self.seat}, {self.text})"


@dataclass(frozen=True)
class PlayAction:
    """A seat playing one card to the current trick."""

    seat: int
    card: int

    @property
    def text(self) -> str:
        """Return the card as text, e.g. ``QS``."""
        return card_text(self.card)

    def to_dict(self) -> dict[str, Any]:
        """Return the action as record data."""
        return {"seat": self.seat, "play": card_text(self.card)}

    def __repr__(self) -> str:
        return f"PlayAction(seat={self.seat}, {self.text})"


Action = PassAction | PlayAction


def action_from_dict(data: object) -> Action:
    """Parse one action of a game record; raise RecordError on anything malformed."""
    if not isinstance(data, dict):
        raise RecordError(f"an action must be an object, got {data!r:.60}")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise RecordError("action seat must be a whole number from 0 to 3")
    keys = set(data) - {"seat"}
    if keys == {"pass"}:
        cards = data["pass"]
        if not isinstance(cards, list) or len(cards) != 3:
            raise RecordError("a pass action must list exactly three cards")
        return PassAction(seat, tuple(parse_cards(cards)))
    if keys == {"play"}:
        return PlayAction(seat, parse_card(data["play"]))
    raise RecordError(f"an action has 'seat' and either 'pass' or 'play', got {sorted(keys)}")
