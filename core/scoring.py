"""Scoring a finished hand (moon and bonuses) and deciding who wins a match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.cards import POINT_CARDS_MASK
from core.kernel import trick_points
from core.rules import (
    FLAG_NO_TRICKS_BONUS,
    JACK_OF_DIAMONDS_POINTS,
    MOON_POINTS,
    NO_TRICKS_BONUS_POINTS,
    RuleSet,
)


@dataclass(frozen=True)
class HandScore:
    """The result of one hand: points per seat with moon and bonuses applied."""

    points: tuple[int, int, int, int]
    taken_points: tuple[int, int, int, int]
    moon_shooter: int | None


def match_winner(totals: Sequence[int], end_score: int) -> int | None:
    """Return the winning seat if the match is over, else None.

    The match is over once a total reaches ``end_score`` and one seat alone has the lowest
    total; while the lowest total is shared, play goes on.
    """
    if max(totals) < end_score:
        return None
    lowest = min(totals)
    leaders = [seat for seat, total in enumerate(totals) if total == lowest]
    return leaders[0] if len(leaders) == 1 else None


def add_scored(
    taken: Sequence[int], tricks_won: Sequence[int], flags: int
) -> tuple[list[int], int]:
    """Return a finished hand's points under the ``add`` moon rule, and the shooter or -1.

    ``taken`` holds the cards each seat took (masks), ``tricks_won`` each seat's tricks (or
    its ``taken`` mask: all that counts is whether it won none), ``flags`` the rules' flags. A
    moon gives the others 26 each and the shooter none; the no-tricks bonus counts only in a
    hand without a moon. The one owner of hand scoring: ``score_hand`` and the pure-Python
    search build on it (the compiled search keeps a typed copy, held to it by its tests).

    >>> from core.cards import FULL_DECK
    >>> add_scored([FULL_DECK, 0, 0, 0], [13, 0, 0, 0], RuleSet(no_tricks_bonus=True).flags)
    ([0, 26, 26, 26], 0)
    """
    points = [trick_points(mask, flags) for mask in taken]
    shooter = next(
        (seat for seat in range(4) if taken[seat] & POINT_CARDS_MASK == POINT_CARDS_MASK), -1
    )
    if shooter >= 0:
        for seat in range(4):
            points[seat] += -MOON_POINTS if seat == shooter else MOON_POINTS
    elif flags & FLAG_NO_TRICKS_BONUS:
        for seat in range(4):
            if not tricks_won[seat]:
                points[seat] += NO_TRICKS_BONUS_POINTS
    return points, shooter


def moon_subtracts(
    rules: RuleSet, totals_before: Sequence[int], added: Sequence[int], shooter: int
) -> bool:
    """Return whether ``shooter``'s moon takes 26 from every seat instead of adding 26 to the
    others: the automatic moon decision, for the rules and the bots alike.

    ``added`` is the hand's points with the moon added (``add_scored``). ``subtract`` always
    does; ``auto`` does when adding would end the match with a seat other than the shooter
    lowest.

    >>> auto = RuleSet(moon="auto")
    >>> moon_subtracts(auto, [90, 95, 10, 20], [0, 26, 26, 26], 0)
    True
    >>> moon_subtracts(auto, [10, 95, 20, 50], [0, 26, 26, 26], 0)
    False
    """
    if rules.moon == "add":
        return False
    if rules.moon == "subtract":
        return True
    after_add = [total + points for total, points in zip(totals_before, added, strict=True)]
    winner = match_winner(after_add, rules.end_score)
    return winner is not None and winner != shooter


def score_hand(
    rules: RuleSet,
    taken: Sequence[int],
    tricks_won: Sequence[int],
    totals_before: Sequence[int],
) -> HandScore:
    """Score a finished hand from the cards each seat took (masks) and its trick counts."""
    flags = rules.flags
    taken_points = tuple(trick_points(mask, flags) for mask in taken)
    points, shooter = add_scored(taken, tricks_won, flags)
    if shooter >= 0 and moon_subtracts(rules, totals_before, points, shooter):
        points = [p - MOON_POINTS for p in points]
    return HandScore(
        points=(points[0], points[1], points[2], points[3]),
        taken_points=(taken_points[0], taken_points[1], taken_points[2], taken_points[3]),
        moon_shooter=None if shooter < 0 else shooter,
    )


#: Points the four seats share in a hand without a moon: the 13 hearts and the Q♠.
HAND_POINTS = 26
#: Most points one seat takes in a hand without a moon: every point card but one heart.
_MOST_TAKEN_WITHOUT_MOON = HAND_POINTS - 1


def seat_points_range(rules: RuleSet) -> tuple[int, int]:
    """Return the fewest and the most points one seat can score in one hand under ``rules``.

    Without a moon a seat takes 0 to 25 (all 26 would be the moon), −10 with the J♦ alone, or
    −5 for no trick. A moon added gives the others 26 and the shooter 0 (−10 with the J♦); a
    moon subtracted gives the shooter −26 (−36 with the J♦) and the others 0 (−10).
    """
    jack = JACK_OF_DIAMONDS_POINTS if rules.jack_of_diamonds else 0
    least = min(jack, NO_TRICKS_BONUS_POINTS if rules.no_tricks_bonus else 0)
    most = _MOST_TAKEN_WITHOUT_MOON
    if rules.moon in ("add", "auto"):
        most = MOON_POINTS
    if rules.moon in ("subtract", "auto"):
        least = -MOON_POINTS + jack
    return least, most


def totals_unreachable(rules: RuleSet, hands: int, totals: Sequence[int]) -> str | None:
    """Say why ``hands`` finished hands cannot add up to ``totals``; None when they can.

    Each seat's total lies within ``hands`` times its range per hand (``seat_points_range``),
    and the four totals add up to what the hands give out together: 26 a hand (16 with the
    J♦ counting −10), 52 more for each moon added to the others, 52 less for each moon
    subtracted from its shooter, and 5 less for each seat that takes no trick when that bonus
    is played (at most two a hand, never with a moon).
    """
    least, most = seat_points_range(rules)
    for seat, total in enumerate(totals):
        if not hands * least <= total <= hands * most:
            return (
                f"seat {seat} scores {least} to {most} points a hand, "
                f"so {hands} hands give it {hands * least} to {hands * most}, not {total}"
            )
    per_hand = HAND_POINTS + (JACK_OF_DIAMONDS_POINTS if rules.jack_of_diamonds else 0)
    if not _sum_reachable(rules, hands, sum(totals) - hands * per_hand):
        moons = {"add": "more", "subtract": "less", "auto": "more or less"}[rules.moon]
        bonus = ", 5 less for each seat that takes no trick" if rules.no_tricks_bonus else ""
        return (
            f"they add up to {sum(totals)}, but {hands} hands give out {hands * per_hand} "
            f"in all, {2 * MOON_POINTS} {moons} for each moon{bonus}"
        )
    return None


def _sum_reachable(rules: RuleSet, hands: int, extra: int) -> bool:
    """Whether ``hands`` hands can give out ``extra`` points beyond their plain share.

    A moon adds or takes away 2 × 26 (``moons`` is the net count, added minus subtracted) and
    each no-trick bonus takes away 5, so ``extra = 52 × moons − 5 × bonuses``; a moon uses a
    hand, and a hand holds at most two bonuses. Each step of 5 moons costs more hands than it
    saves, so the fewest hands come from the smallest ``moons`` that fits; 5 candidates cover
    every remainder.
    """
    moon = 2 * MOON_POINTS
    lowest = -hands if rules.moon in ("subtract", "auto") else 0
    highest = hands if rules.moon in ("add", "auto") else 0
    if not rules.no_tricks_bonus:
        return extra % moon == 0 and lowest <= extra // moon <= highest
    bonus = -NO_TRICKS_BONUS_POINTS
    start = max(lowest, -(-extra // moon))  # the fewest moons that leave no negative bonus
    for moons in range(start, min(start + bonus, highest + 1)):
        bonuses, remainder = divmod(moon * moons - extra, bonus)
        if remainder == 0:
            return abs(moons) + (bonuses + 1) // 2 <= hands
    return False
