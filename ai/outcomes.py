"""Where a candidate's cost comes from: the search's tallies turned into parts of the cost.

The search (``ai.search.evaluate_detail``) counts, per candidate over the runs that valued it,
what the searching seat ends up with (``TALLY_...``). ``Outcome`` reads those counts as rates
("takes the Q♠ in 31% of deals") and splits the candidate's summed cost into parts that add up
to it exactly, in cost units (three to a point of Diff; see ``ai.search_py``, "Cost"):

- ``moon``: −78 per run where the seat shoots the moon, +26 per run where another seat does;
- ``hearts``: in the runs without a moon, 4 per heart the seat takes, less 13 a run (a seat
  taking its share, a quarter of the hearts, costs nothing);
- ``queen``: in the runs without a moon, 52 when the seat takes the Q♠, less 13 a run;
- ``jack`` (J♦ rule only): 10 a run, less 40 when the seat takes the J♦;
- ``bonus`` (no-tricks bonus only, runs without a moon): −15 when the seat takes no trick, +5
  per other seat that takes none;
- ``match``: the match weight when the hand loses the match for the seat, minus it when it
  wins it.

The split is exact because a hand without a moon gives away every point card: the others'
points are the 26 (16 with the J♦ rule) less the seat's own, so the seat's points against the
others' are a sum over its own cards. A moon's shift by the rules moves every seat alike and
cancels out.

>>> from ai.search import TALLY_SIZE
>>> tallies = [0] * TALLY_SIZE
>>> tallies[TALLY_QUEEN] = 1
>>> Outcome(4, tuple(tallies), 0, 0).parts_units()["queen"]
0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ai.search import (
    TALLY_BONUS,
    TALLY_CONCEDED,
    TALLY_HEARTS,
    TALLY_JACK,
    TALLY_MATCH_LOST,
    TALLY_MATCH_WON,
    TALLY_OTHERS_BONUS,
    TALLY_QUEEN,
    TALLY_SHOT,
    TALLY_SIZE,
    TALLY_TRICK,
)
from core.rules import FLAG_JACK_OF_DIAMONDS, FLAG_NO_TRICKS_BONUS

#: The parts of a cost, in the order they are listed.
PARTS = ("hearts", "queen", "jack", "moon", "bonus", "match")
#: Cost units per point of Diff.
UNITS_PER_POINT = 3


@dataclass(frozen=True)
class Outcome:
    """What one candidate led to over ``runs`` runs of the search: its summed ``tallies``
    (``TALLY_SIZE`` counts), under the rules' ``flags`` and the search's ``match_weight``."""

    runs: int
    tallies: tuple[int, ...]
    flags: int
    match_weight: int

    def __post_init__(self) -> None:
        if len(self.tallies) != TALLY_SIZE or self.runs < 0:
            raise ValueError(f"an outcome has {TALLY_SIZE} tallies and a run count")

    def rate(self, tally: int) -> float:
        """Return a tally per run: a share of the runs, or hearts per run (0 with no runs)."""
        return self.tallies[tally] / self.runs if self.runs else 0.0

    @property
    def hearts(self) -> float:
        """Return the hearts the seat takes on average."""
        return self.rate(TALLY_HEARTS)

    @property
    def queen(self) -> float:
        """Return the share of runs where the seat takes the Q♠."""
        return self.rate(TALLY_QUEEN)

    @property
    def jack(self) -> float:
        """Return the share of runs where the seat takes the J♦ (0 without that rule)."""
        return self.rate(TALLY_JACK)

    @property
    def shot(self) -> float:
        """Return the share of runs where the seat shoots the moon."""
        return self.rate(TALLY_SHOT)

    @property
    def conceded(self) -> float:
        """Return the share of runs where another seat shoots the moon."""
        return self.rate(TALLY_CONCEDED)

    @property
    def trick(self) -> float:
        """Return the share of runs where the seat wins the trick being played (for a pass:
        where it leads the first trick)."""
        return self.rate(TALLY_TRICK)

    @property
    def no_trick(self) -> float:
        """Return the share of runs where the seat takes no trick and gets the bonus."""
        return self.rate(TALLY_BONUS)

    @property
    def match_lost(self) -> float:
        """Return the share of runs where the hand loses the match for the seat."""
        return self.rate(TALLY_MATCH_LOST)

    @property
    def match_won(self) -> float:
        """Return the share of runs where the hand wins the match for the seat."""
        return self.rate(TALLY_MATCH_WON)

    def parts_units(self) -> dict[str, int]:
        """Return the parts of the summed cost in cost units (see the module notes): they add
        up to the candidate's summed cost exactly."""
        t = self.tallies
        shot, conceded = t[TALLY_SHOT], t[TALLY_CONCEDED]
        no_moon = self.runs - shot - conceded
        return {
            "hearts": 4 * (t[TALLY_HEARTS] - 13 * shot) - 13 * no_moon,
            "queen": 52 * (t[TALLY_QUEEN] - shot) - 13 * no_moon,
            "jack": 10 * self.runs - 40 * t[TALLY_JACK]
            if self.flags & FLAG_JACK_OF_DIAMONDS
            else 0,
            "moon": 26 * conceded - 78 * shot,
            "bonus": 5 * t[TALLY_OTHERS_BONUS] - 15 * t[TALLY_BONUS]
            if self.flags & FLAG_NO_TRICKS_BONUS
            else 0,
            "match": self.match_weight * (t[TALLY_MATCH_LOST] - t[TALLY_MATCH_WON]),
        }

    def parts(self) -> dict[str, float]:
        """Return the parts of the mean cost in points of Diff (they add up to it)."""
        scale = UNITS_PER_POINT * max(self.runs, 1)
        return {name: units / scale for name, units in self.parts_units().items()}

    def to_dict(self) -> dict[str, Any]:
        """Return the rates and the parts, rounded, as ``mdhearts review --json`` prints them."""
        return {
            "hearts": round(self.hearts, 2),
            "queen": round(self.queen, 3),
            "jack": round(self.jack, 3),
            "moon_shot": round(self.shot, 3),
            "moon_conceded": round(self.conceded, 3),
            "wins_trick": round(self.trick, 3),
            "no_trick": round(self.no_trick, 3),
            "match_lost": round(self.match_lost, 3),
            "match_won": round(self.match_won, 3),
            "parts": {name: round(value, 2) for name, value in self.parts().items()},
        }
