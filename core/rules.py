"""Rule variants as data: a frozen ``RuleSet`` with documented defaults, and pass directions.

The defaults are standard (Microsoft) Hearts: pass left, right, across, hold; the holder of the
2♣ leads it; no hearts or Q♠ on the first trick unless a player holds nothing else; hearts may
not be led until broken unless the leader holds only hearts; the Q♠ breaks hearts; shooting the
moon adds 26 to every other player; the match ends when a player reaches 100 and the lowest
total wins. When two or more players share the lowest total at that point, play goes on with
further hands until one player alone has the lowest total.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from core.cards import HEARTS, QUEEN_OF_SPADES, suit_of
from core.errors import RulesOptionError

#: Seat offset of the receiver for each pass direction (seats are numbered clockwise).
PASS_OFFSETS = {"left": 1, "across": 2, "right": 3, "hold": 0}
MOON_MODES = ("add", "subtract", "auto")
FIRST_LEADS = ("two_of_clubs", "any_club")
#: Longest pass cycle: ample for any house rule, and it keeps a record's header small.
MAX_PASS_CYCLE = 16

# Bit flags handed to the fast kernel; they mirror the options of a RuleSet.
FLAG_ANY_CLUB_LEAD = 1
FLAG_NO_POINTS_FIRST_TRICK = 2
FLAG_QUEEN_BREAKS_HEARTS = 4
FLAG_MUST_BREAK_HEARTS = 8
FLAG_JACK_OF_DIAMONDS = 16
FLAG_NO_TRICKS_BONUS = 32

JACK_OF_DIAMONDS_POINTS = -10
NO_TRICKS_BONUS_POINTS = -5
MOON_POINTS = 26


def pass_receiver(seat: int, direction: str) -> int:
    """Return the seat that receives the cards ``seat`` passes in ``direction``."""
    return (seat + PASS_OFFSETS[direction]) % 4


def pass_sender(seat: int, direction: str) -> int:
    """Return the seat whose passed cards ``seat`` receives in ``direction``."""
    return (seat - PASS_OFFSETS[direction]) % 4


@dataclass(frozen=True)
class RuleSet:
    """The rule options of a match; every field has the standard value as its default."""

    #: Pass directions, one per hand, repeating: left = seat+1, right = seat+3, across = seat+2.
    pass_cycle: tuple[str, ...] = ("left", "right", "across", "hold")
    #: ``two_of_clubs``: the 2♣ holder must lead it; ``any_club``: that player leads any club.
    first_lead: str = "two_of_clubs"
    #: No heart and no Q♠ on the first trick unless the player holds nothing else.
    no_points_first_trick: bool = True
    #: Hearts may not be led until broken, unless the leader holds only hearts.
    must_break_hearts: bool = True
    #: Playing the Q♠ breaks hearts too.
    queen_breaks_hearts: bool = True
    #: Moon scoring: ``add`` 26 to the others, ``subtract`` 26 from the shooter, or ``auto``
    #: (subtract when adding would make the shooter lose the match).
    moon: str = "add"
    #: The J♦ counts −10 for the player who takes it.
    jack_of_diamonds: bool = False
    #: A player who takes no trick in a hand gets −5 (not in a hand where the moon is shot).
    no_tricks_bonus: bool = False
    #: The match ends after the hand in which a player's total reaches this score.
    end_score: int = 100

    def __post_init__(self) -> None:
        cycle = self.pass_cycle
        if isinstance(cycle, list):
            object.__setattr__(self, "pass_cycle", tuple(cycle))
            cycle = self.pass_cycle
        if not isinstance(cycle, tuple) or not 1 <= len(cycle) <= MAX_PASS_CYCLE:
            raise RulesOptionError(f"pass_cycle must be a list of 1 to {MAX_PASS_CYCLE} directions")
        for direction in cycle:
            if not isinstance(direction, str) or direction not in PASS_OFFSETS:
                raise RulesOptionError(
                    f"pass_cycle: unknown direction {direction!r:.20} "
                    "(use left, right, across, hold)"
                )
        if self.first_lead not in FIRST_LEADS:
            raise RulesOptionError(f"first_lead must be one of {', '.join(FIRST_LEADS)}")
        if self.moon not in MOON_MODES:
            raise RulesOptionError(f"moon must be one of {', '.join(MOON_MODES)}")
        for name in (
            "no_points_first_trick",
            "must_break_hearts",
            "queen_breaks_hearts",
            "jack_of_diamonds",
            "no_tricks_bonus",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesOptionError(f"{name} must be true or false")
        if (
            not isinstance(self.end_score, int)
            or isinstance(self.end_score, bool)
            or not 1 <= self.end_score <= 10_000
        ):
            raise RulesOptionError("end_score must be a whole number from 1 to 10000")

    @cached_property
    def flags(self) -> int:
        """Return the options as the bit flags the fast kernel takes."""
        return (
            (FLAG_ANY_CLUB_LEAD if self.first_lead == "any_club" else 0)
            | (FLAG_NO_POINTS_FIRST_TRICK if self.no_points_first_trick else 0)
            | (FLAG_QUEEN_BREAKS_HEARTS if self.queen_breaks_hearts else 0)
            | (FLAG_MUST_BREAK_HEARTS if self.must_break_hearts else 0)
            | (FLAG_JACK_OF_DIAMONDS if self.jack_of_diamonds else 0)
            | (FLAG_NO_TRICKS_BONUS if self.no_tricks_bonus else 0)
        )

    def breaks_hearts(self, card: int) -> bool:
        """Return whether playing ``card`` breaks hearts under these rules.

        >>> from core.cards import parse_card
        >>> RuleSet().breaks_hearts(parse_card("QS")), RuleSet().breaks_hearts(parse_card("KS"))
        (True, False)
        >>> RuleSet(queen_breaks_hearts=False).breaks_hearts(parse_card("QS"))
        False
        """
        return suit_of(card) == HEARTS or (card == QUEEN_OF_SPADES and self.queen_breaks_hearts)

    def direction_of_hand(self, hand_index: int) -> str:
        """Return the pass direction of the hand with this 0-based index."""
        return self.pass_cycle[hand_index % len(self.pass_cycle)]

    def to_dict(self) -> dict[str, Any]:
        """Return the options as plain JSON-ready data."""
        # The options are flat: no deep copy (``dataclasses.asdict``) is needed.
        data = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        data["pass_cycle"] = list(self.pass_cycle)
        return data

    @classmethod
    def from_dict(cls, data: object) -> RuleSet:
        """Build a RuleSet from JSON data; missing options take their defaults."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesOptionError(f"rules must be an object, got {type(data).__name__}")
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise RulesOptionError(
                f"unknown rule option {unknown[0]!r} (known: {', '.join(sorted(known))})"
            )
        values = dict(data)
        if "pass_cycle" in values and not isinstance(values["pass_cycle"], (list, tuple)):
            raise RulesOptionError("pass_cycle must be a list of directions")
        return cls(**values)


STANDARD_RULES = RuleSet()
