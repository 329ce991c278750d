"""The normal bot's weights and gates in one documented parameter set, with named styles."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class NormalParams:
    """Every tunable number of the normal bot. Higher pass scores mean "pass this card"."""

    # -- passing -------------------------------------------------------------------------
    #: Passing the Q♠ when it is not guarded by this many other spades.
    pass_queen: float = 100.0
    #: Spades (besides the Q♠) that make holding the Q♠ safe.
    queen_guard: int = 4
    #: Passing the A♠ / K♠ when the Q♠ is not in hand and spades are short.
    pass_high_spade: float = 70.0
    #: Spade length that makes keeping the A♠ / K♠ safe.
    high_spade_guard: int = 4
    #: Base for passing a heart; the heart's rank is added times ``pass_heart_rank``.
    pass_heart: float = 20.0
    pass_heart_rank: float = 3.0
    #: Bonus per card for emptying a suit of at most ``void_length`` cards (not hearts).
    pass_void: float = 12.0
    void_length: int = 2
    #: Weight of a card's rank when nothing else applies.
    pass_rank: float = 2.0
    #: Extra weight for passing the Q♠ to the right (the receiver plays before us).
    pass_queen_right: float = 5.0

    # -- playing ---------------------------------------------------------------------------
    #: Cost of one expected point taken in a trick.
    point_cost: float = 1.0
    #: Extra cost of holding the A♠ / K♠ while the Q♠ is unseen, per trick it stays out.
    high_spade_risk: float = 3.0
    #: Bonus for leading a low spade to flush out the Q♠ when we hold no A♠/K♠/Q♠.
    flush_queen: float = 4.0
    #: Bonus for leading from a short suit (towards a void).
    short_suit_lead: float = 0.6
    #: Weight of keeping high cards: discarding a high card is worth this per rank.
    discard_rank: float = 1.0
    #: Cautious style: multiplies the cost of any chance of winning a trick.
    caution: float = 1.0

    # -- the moon --------------------------------------------------------------------------
    #: Own hand strength (0..1) from which the bot considers shooting the moon.
    moon_consider: float = 0.62
    #: Strength from which it commits, once it has taken points and nobody else has.
    moon_commit: float = 0.72
    #: Strength at which the bot passes to shoot the moon instead of passing danger.
    moon_pass: float = 0.75
    #: Points an opponent must hold, with every point taken so far, before we defend.
    moon_defend_points: int = 10
    #: Defend when that many hearts or more are still unplayed.
    moon_defend_hearts_left: int = 1

    # -- the match ---------------------------------------------------------------------------
    #: Hunt the leader: extra wish to give points to the seat with the lowest total.
    hunt_leader: float = 0.5
    #: Totals within this many points of the end score count as "near the end".
    near_end: int = 20

    def with_gates(self, gates: Mapping[str, float]) -> NormalParams:
        """Return a copy with the moon gates overridden (``consider``, ``commit``, ...).

        Names are matched without the ``moon_`` prefix; unknown names are ignored.
        """
        updates = {}
        for name, value in gates.items():
            field = name if name.startswith("moon_") else f"moon_{name}"
            if field in MOON_GATES:
                kind = type(getattr(self, field))
                updates[field] = kind(value)
        return dataclasses.replace(self, **updates)


MOON_GATES = tuple(
    field.name for field in dataclasses.fields(NormalParams) if field.name.startswith("moon_")
)

#: Named styles: the standard set and variations of it.
STYLES: dict[str, NormalParams] = {
    "standard": NormalParams(),
    "cautious": NormalParams(caution=1.6, moon_consider=0.75, moon_commit=0.85, moon_pass=0.9),
    "moon": NormalParams(moon_consider=0.5, moon_commit=0.6, moon_pass=0.62),
    "hunter": NormalParams(hunt_leader=2.0),
}
