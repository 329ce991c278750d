"""What one seat may know: its own hand, its pass, every card played, the totals.

An ``Observation`` is the only thing bots and external programs are ever given.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.cards import suit_of
from core.kernel import legal_mask, trick_winner_offset
from core.rules import RuleSet


@dataclass(frozen=True)
class TrickView:
    """A trick as everyone saw it: its leader and the cards in play order."""

    leader: int
    cards: tuple[int, ...]

    def winner(self) -> int | None:
        """Return the seat that took the trick, or None while it is not complete."""
        if len(self.cards) < 4:
            return None
        return (self.leader + trick_winner_offset(*self.cards)) % 4


@dataclass(frozen=True)
class Observation:
    """One seat's view of the hand in progress.

    ``tricks`` lists the completed tricks of this hand, then the current one (0–3 cards) while
    the hand is being played; it is empty before the first lead. ``passed``/``received`` are
    None on a hold hand or before the exchange. ``scores`` are the match totals before this hand.
    """

    seat: int
    rules: RuleSet
    direction: str
    hand: int
    passed: tuple[int, ...] | None
    received: tuple[int, ...] | None
    tricks: tuple[TrickView, ...]
    scores: tuple[int, int, int, int]

    @property
    def must_pass(self) -> bool:
        """Return whether this seat still has to choose its pass."""
        return self.direction != "hold" and self.passed is None

    @property
    def played_mask(self) -> int:
        """Return the mask of every card played this hand."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        return mask

    @property
    def played_by(self) -> tuple[int, int, int, int]:
        """Return, per seat, the mask of the cards it has played this hand."""
        played = [0, 0, 0, 0]
        for trick in self.tricks:
            for position, card in enumerate(trick.cards):
                played[(trick.leader + position) % 4] |= 1 << card
        return played[0], played[1], played[2], played[3]

    @property
    def hearts_broken(self) -> bool:
        """Return whether hearts have been broken this hand."""
        return any(self.rules.breaks_hearts(card) for trick in self.tricks for card in trick.cards)

    @property
    def current_trick(self) -> TrickView | None:
        """Return the trick being played, or None when none is open."""
        if self.tricks and len(self.tricks[-1].cards) < 4:
            return self.tricks[-1]
        return None

    @property
    def to_play(self) -> int | None:
        """Return the seat whose turn it is to play, or None."""
        trick = self.current_trick
        if trick is None:
            return None
        return (trick.leader + len(trick.cards)) % 4

    def legal_mask(self) -> int:
        """Return the mask of cards this seat may play now (0 when it is not its turn)."""
        trick = self.current_trick
        if trick is None or self.to_play != self.seat:
            return 0
        led_suit = suit_of(trick.cards[0]) if trick.cards else -1
        return legal_mask(
            self.hand, led_suit, len(self.tricks) == 1, self.hearts_broken, self.rules.flags
        )
