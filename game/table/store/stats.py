"""The player's statistics over all matches: a frozen ``Statistics``, loaded leniently.

The file is versioned JSON. Version 3 holds the counts over all matches at the top level (as
version 1 did, with no ``version`` field: such a file still loads whole), the same counts per
difficulty of the opponents (``by_difficulty``), and the last matches' results (``recent``).
Version 3 adds the coach's counts (``decisions_reviewed``, ``loss_hundredths``) and a recent
match's ``loss_per_decision``; a version-2 file loads whole, with none reviewed.
Loading keeps every valid field and resets each invalid one with one warning. A file that is
not a JSON object at all is set aside and the statistics start from zero.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from core.files import short_repr
from game.table.store.json_store import kind_of, load_json_file, write_json_atomically
from game.table.store.tally import (
    LEVELS,
    MAX_LOSS_PER_DECISION,
    MAX_VALUE,
    MIXED,
    MatchResult,
    StatisticsError,
    Tally,
    check_value,
    match_difficulty,
    read_fields,
    tally_checks,
)

__all__ = [
    "LEVELS",
    "MAX_LOSS_PER_DECISION",
    "MAX_VALUE",
    "MIXED",
    "RECENT_MATCHES",
    "VERSION",
    "MatchResult",
    "Statistics",
    "StatisticsError",
    "Tally",
    "load_statistics",
    "match_difficulty",
    "save_statistics",
]

#: The version of the statistics file this program writes.
VERSION = 3
#: How many of the last matches are kept, for the chart of recent results.
RECENT_MATCHES = 20


@dataclass(frozen=True)
class Statistics(Tally):
    """The counts over all matches, the streaks, the counts per difficulty, the last matches."""

    #: Matches won in a row, up to the last one.
    current_streak: int = 0
    best_streak: int = 0
    #: The counts of the matches played against each difficulty (``LEVELS``).
    by_difficulty: Mapping[str, Tally] = field(default_factory=dict)
    #: The last matches, oldest first, at most ``RECENT_MATCHES``.
    recent: tuple[MatchResult, ...] = ()
    #: The hands and matches a version-1 file counted: it did not record hands won, moons
    #: conceded or match points, so the shares of those leave these out.
    earlier_hands: int = 0
    earlier_matches: int = 0

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in _EXTRA_COUNTS:
            try:
                check_value(name, getattr(self, name))
            except StatisticsError as error:
                raise StatisticsError(f"{name} {error}") from None
        unknown = sorted(set(self.by_difficulty) - set(LEVELS))
        if unknown:
            raise StatisticsError(f"by_difficulty must be of {', '.join(LEVELS)}, got {unknown}")

    @property
    def hands_recorded(self) -> int:
        """Return the hands whose wins and moons were recorded (those since version 2)."""
        return max(0, self.hands_played - self.earlier_hands)

    def tally(self, difficulty: str) -> Tally:
        """Return the counts of the matches played against ``difficulty``."""
        return self.by_difficulty.get(difficulty, Tally())

    def _with_tally(self, difficulty: str | None, change: Callable[[Tally], Tally]) -> Self:
        if difficulty is None:
            return self
        tallies = {**self.by_difficulty, difficulty: change(self.tally(difficulty))}
        return dataclasses.replace(self, by_difficulty=tallies)

    def with_hand(
        self,
        points: int,
        shot_moon: bool = False,
        *,
        won: bool = False,
        moon_conceded: bool = False,
        difficulty: str | None = None,
    ) -> Self:
        """Return the statistics after a hand, counted under ``difficulty`` too when given."""
        counts = {"shot_moon": shot_moon, "won": won, "moon_conceded": moon_conceded}
        done = super().with_hand(points, **counts)
        return done._with_tally(difficulty, lambda tally: tally.with_hand(points, **counts))

    def with_hand_scored(
        self, points: Sequence[int], moon_shooter: int | None, seat: int, difficulty: str
    ) -> Self:
        """Return the statistics after a hand scored ``points`` (per seat) for the player at
        ``seat``: won when nobody took fewer points, the moon shot or conceded."""
        return self.with_hand(
            points[seat],
            moon_shooter == seat,
            won=points[seat] == min(points),
            moon_conceded=moon_shooter is not None and moon_shooter != seat,
            difficulty=difficulty,
        )

    def with_match(
        self, won: bool, points: int | None = None, *, difficulty: str | None = None
    ) -> Self:
        """Return the statistics after a match; streaks follow, and with ``points`` and
        ``difficulty`` the match joins the recent ones and its difficulty's counts."""
        streak = self.current_streak + 1 if won else 0
        done = dataclasses.replace(
            super().with_match(won, points),
            current_streak=streak,
            best_streak=max(self.best_streak, streak),
        )
        if points is None or difficulty is None:
            return done
        recent = (*self.recent, MatchResult(difficulty, points, won))[-RECENT_MATCHES:]
        done = dataclasses.replace(done, recent=recent)
        return done._with_tally(difficulty, lambda tally: tally.with_match(won, points))

    def with_match_review(self, decisions: int, loss: float, difficulty: str) -> Self:
        """Return the statistics after the coach reviewed the last match counted: its
        ``decisions`` lost ``loss`` points together. The last recent match gets its loss per
        decision (once: a match already reviewed is not counted again)."""
        if not decisions or not self.recent or self.recent[-1].loss_per_decision is not None:
            return self
        last = dataclasses.replace(self.recent[-1], loss_per_decision=round(loss / decisions, 3))
        done = dataclasses.replace(
            super().with_review(decisions, loss), recent=(*self.recent[:-1], last)
        )
        return done._with_tally(difficulty, lambda tally: tally.with_review(decisions, loss))

    def to_dict(self) -> dict[str, Any]:
        """Return the statistics as plain JSON-ready data (the current version)."""
        return {
            "version": VERSION,
            **self.tally_dict(),
            **{name: getattr(self, name) for name in _EXTRA_COUNTS},
            "by_difficulty": {
                level: self.by_difficulty[level].tally_dict()
                for level in LEVELS
                if level in self.by_difficulty
            },
            "recent": [result.to_dict() for result in self.recent],
        }

    @classmethod
    def from_dict(cls, data: object) -> tuple[Statistics, list[str]]:
        """Build statistics from JSON data of any version; return them and one warning per
        field not used.

        Missing fields are zero; invalid ones are reset with a warning; unknown ones are
        dropped with a warning. Never raises for bad data.
        """
        if not isinstance(data, dict):
            return cls(), [
                f"the statistics must be a JSON object, got {kind_of(data)}; they start from zero"
            ]
        warnings = [
            f"unknown statistic {short_repr(key)} was ignored" for key in data if key not in _KEYS
        ]
        version = data.get("version", 1)
        if version not in (1, 2, VERSION):
            warnings.append(f"statistics version {short_repr(version)} was read as {VERSION}")
        values, found = read_fields(data, _TOP_CHECKS, "")
        warnings += found
        if version == 1:  # its hands and matches are all earlier than the detailed counts
            values["earlier_hands"] = values.get("hands_played", 0)
            values["earlier_matches"] = values.get("matches_played", 0)
        tallies, found = _read_tallies(data.get("by_difficulty", {}))
        warnings += found
        recent, found = _read_recent(data.get("recent", []))
        warnings += found
        return cls(**values, by_difficulty=tallies, recent=recent), warnings


#: The counts of Statistics beyond a Tally's, at the top level of the file.
_EXTRA_COUNTS = ("current_streak", "best_streak", "earlier_hands", "earlier_matches")
_TOP_CHECKS: dict[str, Callable[[str, object], object]] = {
    **tally_checks(),
    **dict.fromkeys(_EXTRA_COUNTS, check_value),
}
_KEYS = frozenset({*_TOP_CHECKS, "version", "by_difficulty", "recent"})


def _read_tallies(data: object) -> tuple[dict[str, Tally], list[str]]:
    """Return the counts per difficulty found in ``data`` and the warnings about the rest."""
    if not isinstance(data, dict):
        return {}, [f"statistic 'by_difficulty' must be an object, got {kind_of(data)}"]
    tallies: dict[str, Tally] = {}
    warnings: list[str] = []
    for level, counts in data.items():
        if level not in LEVELS or not isinstance(counts, dict):
            warnings.append(f"statistics of difficulty {short_repr(level)} were ignored")
            continue
        values, found = read_fields(counts, tally_checks(), f"by_difficulty.{level}.")
        unknown = sorted(set(counts) - set(tally_checks()))
        warnings += found + [f"unknown statistic {short_repr(key)} was ignored" for key in unknown]
        tallies[level] = Tally(**values)
    return tallies, warnings


def _read_recent(data: object) -> tuple[tuple[MatchResult, ...], list[str]]:
    """Return the valid recent matches found in ``data`` and one warning if any was not."""
    if not isinstance(data, list):
        return (), [f"statistic 'recent' must be a list, got {kind_of(data)}"]
    results: list[MatchResult] = []
    dropped = 0
    for item in data:
        try:
            results.append(MatchResult.from_dict(item))
        except StatisticsError:
            dropped += 1
    warnings = [f"{dropped} invalid recent match(es) were ignored"] if dropped else []
    return tuple(results[-RECENT_MATCHES:]), warnings


def load_statistics(path: str | os.PathLike[str]) -> tuple[Statistics, list[str]]:
    """Load statistics from ``path``; return them and the warnings to show. Never raises.

    No file gives zeros without a warning; a file that is not a JSON object is set aside and
    gives zeros with one message. A file of a newer version, or with a field this version does
    not use, is first copied beside it (``load_json_file``), since the next save leaves it out.
    """
    return load_json_file(
        path,
        Statistics.from_dict,
        Statistics(),
        fallback="the statistics start from zero",
        version=VERSION,
    )


def save_statistics(stats: Statistics, path: str | os.PathLike[str]) -> None:
    """Save statistics to ``path`` atomically; raise OSError (leaving the old file) on failure."""
    write_json_atomically(path, stats.to_dict())
