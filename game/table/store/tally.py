"""The counts of the player's matches and hands (``Tally``) and one finished match's result
(``MatchResult``), each checked as it is made; the statistics file is read with these checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Self

from core.files import short_repr
from game.table.store.settings import DIFFICULTIES

#: Largest magnitude of any statistic; keeps a hand-edited file from holding absurd numbers.
MAX_VALUE = 10**12
#: Most points a decision can lose on average (a moon conceded and more): bounds a file's value.
MAX_LOSS_PER_DECISION = 100.0
#: The difficulty a match counts under when its opponents are not all of one level.
MIXED = "mixed"
#: Every difficulty a match may count under, in the order the statistics page shows them.
LEVELS = (*DIFFICULTIES, MIXED)
#: Statistics that may be negative: a hand's points may be (the J♦ and the no-tricks bonus).
_SIGNED = frozenset({"points_total", "best_match", "worst_match"})


class StatisticsError(ValueError):
    """A statistic has an invalid value."""


def check_value(name: str, value: object) -> int:
    """Return a valid value of the statistic ``name`` or raise StatisticsError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise StatisticsError(f"must be a whole number, got {short_repr(value)}")
    least = -MAX_VALUE if name in _SIGNED else 0
    if not least <= value <= MAX_VALUE:
        raise StatisticsError(f"must be from {least} to {MAX_VALUE}, got {short_repr(value)}")
    return value


def check_optional(name: str, value: object) -> int | None:
    """Return a valid value of a statistic that is None until a match is over."""
    return None if value is None else check_value(name, value)


def match_difficulty(levels: Iterable[str]) -> str:
    """Return the difficulty a match counts under: its opponents' level when all three share
    one of the table's difficulties, else ``mixed``."""
    found = set(levels)
    if len(found) == 1 and (level := found.pop()) in DIFFICULTIES:
        return level
    return MIXED


@dataclass(frozen=True)
class Tally:
    """Counts over a set of the player's matches and hands; all start at zero."""

    matches_played: int = 0
    matches_won: int = 0
    hands_played: int = 0
    #: Hands in which nobody took fewer points than the player.
    hands_won: int = 0
    #: The player's points over all hands.
    points_total: int = 0
    moons_shot: int = 0
    #: Hands in which another player shot the moon.
    moons_conceded: int = 0
    #: The fewest and the most points the player ended a match with (None before one ends).
    best_match: int | None = None
    worst_match: int | None = None
    #: The player's decisions the coach reviewed (in matches whose every hand it reviewed), and
    #: the points they lost together, in hundredths of a point.
    decisions_reviewed: int = 0
    loss_hundredths: int = 0

    def __post_init__(self) -> None:
        for name, check in tally_checks().items():
            try:
                check(name, getattr(self, name))
            except StatisticsError as error:
                raise StatisticsError(f"{name} {error}") from None

    @property
    def average_points(self) -> float:
        """Return the player's average points per hand (0.0 before the first hand)."""
        return self.points_total / self.hands_played if self.hands_played else 0.0

    @property
    def win_rate(self) -> float:
        """Return the share of matches won, from 0.0 to 1.0 (0.0 before the first match)."""
        return self.matches_won / self.matches_played if self.matches_played else 0.0

    @property
    def hands_recorded(self) -> int:
        """Return the hands whose wins and moons were recorded (all of them here)."""
        return self.hands_played

    @property
    def loss_per_decision(self) -> float | None:
        """Return the points lost per reviewed decision (None before any was reviewed)."""
        if not self.decisions_reviewed:
            return None
        return self.loss_hundredths / 100 / self.decisions_reviewed

    def with_review(self, decisions: int, loss: float) -> Self:
        """Return the counts after a match whose ``decisions`` lost ``loss`` points."""
        return dataclasses.replace(
            self,
            decisions_reviewed=self.decisions_reviewed + decisions,
            loss_hundredths=self.loss_hundredths + round(loss * 100),
        )

    def with_hand(
        self,
        points: int,
        shot_moon: bool = False,
        *,
        won: bool = False,
        moon_conceded: bool = False,
    ) -> Self:
        """Return the counts after a hand in which the player scored ``points``."""
        return dataclasses.replace(
            self,
            hands_played=self.hands_played + 1,
            hands_won=self.hands_won + (1 if won else 0),
            points_total=self.points_total + points,
            moons_shot=self.moons_shot + (1 if shot_moon else 0),
            moons_conceded=self.moons_conceded + (1 if moon_conceded else 0),
        )

    def with_match(self, won: bool, points: int | None = None) -> Self:
        """Return the counts after a match the player won or lost, ending with ``points``."""
        best, worst = self.best_match, self.worst_match
        if points is not None:
            best = points if best is None else min(best, points)
            worst = points if worst is None else max(worst, points)
        return dataclasses.replace(
            self,
            matches_played=self.matches_played + 1,
            matches_won=self.matches_won + (1 if won else 0),
            best_match=best,
            worst_match=worst,
        )

    def tally_dict(self) -> dict[str, Any]:
        """Return the counts as plain JSON-ready data."""
        return {name: getattr(self, name) for name in tally_checks()}


def tally_checks() -> dict[str, Callable[[str, object], int | None]]:
    """Return the check of every counting field of a Tally."""
    return {
        item.name: check_optional if item.name in ("best_match", "worst_match") else check_value
        for item in dataclasses.fields(Tally)
    }


def read_fields(
    data: Mapping[str, Any], checks: Mapping[str, Callable[[str, object], object]], where: str
) -> tuple[dict[str, Any], list[str]]:
    """Return the valid fields of ``data`` named in ``checks`` and a warning per invalid one."""
    values: dict[str, Any] = {}
    warnings: list[str] = []
    for name, check in checks.items():
        if name not in data:
            continue
        try:
            values[name] = check(name, data[name])
        except StatisticsError as error:
            reset = "none" if check is check_optional else "0"
            warnings.append(f"statistic {where + name!r} {error}; it is reset to {reset}")
    return values, warnings


@dataclass(frozen=True)
class MatchResult:
    """One finished match, for the charts of recent matches."""

    difficulty: str
    #: The player's total at the end.
    points: int
    won: bool
    #: The points the player lost per decision, by the coach's review (None until reviewed).
    loss_per_decision: float | None = None

    @classmethod
    def from_dict(cls, data: object) -> MatchResult:
        """Build a result from JSON data; raise StatisticsError when it is not one."""
        keys = {"difficulty", "points", "won"}
        if not isinstance(data, dict) or not keys <= set(data) <= keys | {"loss_per_decision"}:
            raise StatisticsError(f"a recent match must be an object, got {short_repr(data)}")
        if data["difficulty"] not in LEVELS or not isinstance(data["won"], bool):
            raise StatisticsError(f"a recent match is invalid: {short_repr(data)}")
        loss = data.get("loss_per_decision")
        if loss is not None and (
            isinstance(loss, bool)
            or not isinstance(loss, (int, float))
            or not 0 <= loss <= MAX_LOSS_PER_DECISION
        ):
            raise StatisticsError(f"a recent match's loss is invalid: {short_repr(data)}")
        points = check_value("points", data["points"])
        return cls(data["difficulty"], points, data["won"], None if loss is None else float(loss))

    def to_dict(self) -> dict[str, Any]:
        """Return the result as plain JSON-ready data (no loss before the review)."""
        data: dict[str, Any] = {"difficulty": self.difficulty, "points": self.points}
        data["won"] = self.won
        if self.loss_per_decision is not None:
            data["loss_per_decision"] = self.loss_per_decision
        return data
