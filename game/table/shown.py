"""What the table shows: the displayed state of the hand in progress, and a card to draw.

The view (``TableView``) keeps a ``Shown`` that trails the match by a few animated beats, and
says where each visible card is drawn as a ``DrawnCard``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.table.anim import Point

Key = tuple[object, ...]
#: A visible card: its key, face (None: its back), target, small, on its side, glowing.
Wanted = tuple[Key, int | None, Point, bool, bool, bool]


@dataclass(frozen=True)
class DrawnCard:
    """One card to draw this frame: face (or None for a back), centre, size, and its glow."""

    key: Key
    card: int | None
    centre: Point
    small: bool
    rotated: bool
    glow: bool = False
    #: The share of its width the card shows (below 1 while it turns over).
    squeeze: float = 1.0


@dataclass
class Shown:
    """The displayed state of the hand in progress."""

    hand_number: int = 0
    direction: str = "hold"
    hand: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    trick: list[tuple[int, int]] = field(default_factory=list)
    leaving: list[tuple[int, int, int]] = field(default_factory=list)  # seat, card, to seat
    flying: list[tuple[Key, int | None, int, int]] = field(default_factory=list)
    taken: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    hearts_broken: bool = False
    passing: bool = False
    received: set[int] = field(default_factory=set)
    arriving: set[int] = field(default_factory=set)  # received cards not yet turned face up
    last_trick: tuple[tuple[int, int], ...] = ()
    last_winner: int | None = None
