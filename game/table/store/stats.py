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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from core.files import short_repr
from game.table.store.json_store import kind_of, load_json_file, write_json_atomically
from game.table.store.settings import DIFFICULTIES

#: Largest magnitude of any statistic; keeps a hand-edited file from holding absurd numbers.
MAX_VALUE = 10**12
#: The version of the statistics file this program writes.
VERSION = 3
#: How many of the last matches are kept, for the chart of recent results.
RECENT_MATCHES = 20
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


def _check_value(name: str, value: object) -> int:
    """Return a valid value of the statistic ``name`` or raise StatisticsError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise StatisticsError(f"must be a whole number, got {short_repr(value)}")
    least = -MAX_VALUE if name in _SIGNED else 0
    if not least <= value <= MAX_VALUE:
        raise StatisticsError(f"must be from {least} to {MAX_VALUE}, got {short_repr(value)}")
    return value


def _check_optional(name: str, value: object) -> int | None:
    """Return a valid value of a statistic that is None until a match is over."""
    return None if value is None else _check_value(name, value)


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
        for name, check in _tally_checks().items():
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
        return {name: getattr(self, name) for name in _tally_checks()}


def _tally_checks() -> dict[str, Callable[[str, object], int | None]]:
    """Return the check of every counting field of a Tally."""
    return {
        item.name: _check_optional if item.name in ("best_match", "worst_match") else _check_value
        for item in dataclasses.fields(Tally)
    }


def _read_fields(
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
            reset = "none" if check is _check_optional else "0"
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
        points = _check_value("points", data["points"])
        return cls(data["difficulty"], points, data["won"], None if loss is None else float(loss))

    def to_dict(self) -> dict[str, Any]:
        """Return the result as plain JSON-ready data (no loss before the review)."""
        data: dict[str, Any] = {"difficulty": self.difficulty, "points": self.points}
        data["won"] = self.won
        if self.loss_per_decision is not None:
            data["loss_per_decision"] = self.loss_per_decision
        return data


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
                _check_value(name, getattr(self, name))
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
        values, found = _read_fields(data, _TOP_CHECKS, "")
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
    **_tally_checks(),
    **dict.fromkeys(_EXTRA_COUNTS, _check_value),
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
        values, found = _read_fields(counts, _tally_checks(), f"by_difficulty.{level}.")
        unknown = sorted(set(counts) - set(_tally_checks()))
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
