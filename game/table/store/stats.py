"""The player's statistics over all matches: a frozen ``Statistics``, loaded leniently.

Loading keeps every valid field and resets each invalid one to zero with one warning. A file
that is not a JSON object at all is set aside and the statistics start from zero.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any

from core.files import short_repr
from game.table.store.json_store import kind_of, read_json_object, write_json_atomically

#: Largest magnitude of any statistic; keeps a hand-edited file from holding absurd numbers.
MAX_VALUE = 10**12


class StatisticsError(ValueError):
    """A statistic has an invalid value."""


def _check_value(name: str, value: object) -> int:
    """Return a valid value of the statistic ``name`` or raise StatisticsError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise StatisticsError(f"must be a whole number, got {short_repr(value)}")
    # A hand's points may be negative (the J♦ and the no-tricks bonus), so their sum may be.
    least = -MAX_VALUE if name == "points_total" else 0
    if not least <= value <= MAX_VALUE:
        raise StatisticsError(f"must be from {least} to {MAX_VALUE}, got {short_repr(value)}")
    return value


@dataclass(frozen=True)
class Statistics:
    """Counts over all the player's matches and hands; all start at zero."""

    matches_played: int = 0
    matches_won: int = 0
    hands_played: int = 0
    #: The player's points over all hands.
    points_total: int = 0
    moons_shot: int = 0
    #: Matches won in a row, up to the last one.
    current_streak: int = 0
    best_streak: int = 0

    def __post_init__(self) -> None:
        for name in _FIELDS:
            try:
                _check_value(name, getattr(self, name))
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

    def with_hand(self, points: int, shot_moon: bool) -> Statistics:
        """Return the statistics after a hand in which the player scored ``points``."""
        return dataclasses.replace(
            self,
            hands_played=self.hands_played + 1,
            points_total=self.points_total + points,
            moons_shot=self.moons_shot + (1 if shot_moon else 0),
        )

    def with_match(self, won: bool) -> Statistics:
        """Return the statistics after a match the player won or lost; streaks follow."""
        streak = self.current_streak + 1 if won else 0
        return dataclasses.replace(
            self,
            matches_played=self.matches_played + 1,
            matches_won=self.matches_won + (1 if won else 0),
            current_streak=streak,
            best_streak=max(self.best_streak, streak),
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the statistics as plain JSON-ready data."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> tuple[Statistics, list[str]]:
        """Build statistics from JSON data; return them and one warning per field not used.

        Missing fields are zero; invalid ones are zero with a warning; unknown ones are
        dropped with a warning. Never raises for bad data.
        """
        if not isinstance(data, dict):
            return cls(), [
                f"the statistics must be a JSON object, got {kind_of(data)}; they start from zero"
            ]
        warnings = [
            f"unknown statistic {short_repr(key)} was ignored" for key in data if key not in _FIELDS
        ]
        values: dict[str, int] = {}
        for name in _FIELDS:
            if name not in data:
                continue
            try:
                values[name] = _check_value(name, data[name])
            except StatisticsError as error:
                warnings.append(f"statistic {name!r} {error}; it is reset to 0")
        return cls(**values), warnings


_FIELDS = tuple(field.name for field in dataclasses.fields(Statistics))


def load_statistics(path: str | os.PathLike[str]) -> tuple[Statistics, list[str]]:
    """Load statistics from ``path``; return them and the warnings to show. Never raises.

    No file gives zeros without a warning; a file that is not a JSON object is set aside and
    gives zeros with one message.
    """
    data, message = read_json_object(path, fallback="the statistics start from zero")
    if message is not None:
        return Statistics(), [message]
    if data is None:
        return Statistics(), []
    return Statistics.from_dict(data)


def save_statistics(stats: Statistics, path: str | os.PathLike[str]) -> None:
    """Save statistics to ``path`` atomically; raise OSError (leaving the old file) on failure."""
    write_json_atomically(path, stats.to_dict())
