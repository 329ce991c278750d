"""Statistics: counting hands and matches, streaks, lenient loading, corrupt files set aside."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from game.table.store.stats import (
    MAX_VALUE,
    Statistics,
    StatisticsError,
    load_statistics,
    save_statistics,
)

SAMPLE = Statistics(
    matches_played=12,
    matches_won=5,
    hands_played=140,
    points_total=910,
    moons_shot=3,
    current_streak=2,
    best_streak=4,
)


#: The counts a file holds at its top level; each may be reset alone.
COUNTS = [name for name in SAMPLE.to_dict() if name not in ("version", "by_difficulty", "recent")]
#: The counts that are none (not zero) before the first match is over.
MATCH_POINTS = ("best_match", "worst_match")


def test_new_statistics_are_zero() -> None:
    stats = Statistics()
    assert {name: stats.to_dict()[name] for name in COUNTS} == {
        name: None if name in MATCH_POINTS else 0 for name in COUNTS
    }
    assert stats.to_dict()["by_difficulty"] == {} and stats.to_dict()["recent"] == []
    assert stats.average_points == 0.0
    assert stats.win_rate == 0.0


def test_hands_add_up() -> None:
    stats = Statistics().with_hand(13, False).with_hand(0, True).with_hand(-10, False)
    assert stats.hands_played == 3
    assert stats.points_total == 3
    assert stats.moons_shot == 1
    assert stats.average_points == pytest.approx(1.0)
    assert stats.matches_played == 0


def test_matches_count_wins_and_streaks() -> None:
    stats = Statistics()
    streaks = []
    for won in (True, True, False, True, True, True, False):
        stats = stats.with_match(won)
        streaks.append((stats.current_streak, stats.best_streak))
    assert streaks == [(1, 1), (2, 2), (0, 2), (1, 2), (2, 2), (3, 3), (0, 3)]
    assert (stats.matches_played, stats.matches_won) == (7, 5)
    assert stats.win_rate == pytest.approx(5 / 7)


def test_updates_return_new_statistics() -> None:
    before = Statistics()
    after = before.with_hand(5, False).with_match(True)
    assert before == Statistics()
    assert after != before


def test_a_dict_round_trip_gives_equal_statistics() -> None:
    assert Statistics.from_dict(json.loads(json.dumps(SAMPLE.to_dict()))) == (SAMPLE, [])


def test_saving_and_loading_gives_equal_statistics(tmp_path: Path) -> None:
    path = tmp_path / "data" / "statistics.json"
    save_statistics(SAMPLE, path)
    assert load_statistics(path) == (SAMPLE, [])
    assert os.listdir(path.parent) == ["statistics.json"]


def test_a_missing_file_gives_zeros_silently(tmp_path: Path) -> None:
    assert load_statistics(tmp_path / "statistics.json") == (Statistics(), [])


def test_the_points_total_may_be_negative() -> None:
    stats, warnings = Statistics.from_dict({"hands_played": 2, "points_total": -15})
    assert warnings == []
    assert stats.average_points == pytest.approx(-7.5)


BAD_VALUES = [
    -1,
    1.5,
    "3",
    True,
    None,
    [1],
    MAX_VALUE + 1,
]


@pytest.mark.parametrize("name", COUNTS)
@pytest.mark.parametrize("bad", BAD_VALUES)
def test_a_bad_field_is_reset_to_zero_and_the_others_survive(name: str, bad: Any) -> None:
    if bad is None and name in MATCH_POINTS:
        return  # none is what these hold before a match is over
    if name in ("points_total", *MATCH_POINTS) and bad == -1:
        bad = -MAX_VALUE - 1
    data = SAMPLE.to_dict()
    data[name] = bad
    stats, warnings = Statistics.from_dict(data)
    reset, word = (None, "none") if name in MATCH_POINTS else (0, "0")
    assert len(warnings) == 1
    assert f"statistic {name!r}" in warnings[0] and f"reset to {word}" in warnings[0]
    assert getattr(stats, name) == reset
    for other in COUNTS:
        if other != name:
            assert getattr(stats, other) == getattr(SAMPLE, other), other


def test_unknown_and_missing_fields() -> None:
    stats, warnings = Statistics.from_dict({"matches_won": 4, "elo": 1500})
    assert stats == Statistics(matches_won=4)
    assert warnings == ["unknown statistic 'elo' was ignored"]


@pytest.mark.parametrize("data", [[], "stats", None])
def test_data_that_is_not_an_object_gives_zeros(data: object) -> None:
    stats, warnings = Statistics.from_dict(data)
    assert stats == Statistics()
    assert len(warnings) == 1 and "JSON object" in warnings[0]


def test_invalid_values_are_refused_when_built() -> None:
    with pytest.raises(StatisticsError, match="moons_shot"):
        Statistics(moons_shot=-1)
    with pytest.raises(StatisticsError, match="matches_won"):
        Statistics(matches_won=True)


@pytest.mark.parametrize(
    "content",
    [b"\xde\xad\xbe\xef", b'{"matches_played": 3,', b"[1, 2, 3]", b'{"x": "\xc3"}', b"null"],
)
def test_a_corrupt_file_is_set_aside_and_zeros_used(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "statistics.json"
    path.write_bytes(content)
    stats, messages = load_statistics(path)
    assert stats == Statistics()
    moved = list(tmp_path.glob("statistics.json.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == content
    assert not path.exists()
    assert len(messages) == 1
    assert messages[0].startswith("statistics.json was unreadable (")
    assert messages[0].endswith(f"was moved to {moved[0].name}; the statistics start from zero")


def test_a_huge_file_is_set_aside_unread(tmp_path: Path) -> None:
    path = tmp_path / "statistics.json"
    path.write_bytes(b'{"matches_played": ' + b"1" * (1 << 20) + b"}")
    stats, messages = load_statistics(path)
    assert stats == Statistics()
    assert "larger than 1024 KiB" in messages[0]
    assert not path.exists()


def test_a_failed_save_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "statistics.json"
    save_statistics(SAMPLE, path)

    def refuse(source: object, target: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        save_statistics(SAMPLE.with_match(True), path)
    monkeypatch.undo()
    assert load_statistics(path) == (SAMPLE, [])
    assert os.listdir(tmp_path) == ["statistics.json"]


def test_a_newer_versions_file_is_kept_beside_it_before_it_is_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "statistics.json"
    newer = {**SAMPLE.to_dict(), "version": 4, "hearts_taken": 31, "streaks": {"longest": 9}}
    path.write_text(json.dumps(newer), encoding="utf-8")
    original = path.read_bytes()
    stats, warnings = load_statistics(path)
    assert stats == SAMPLE
    assert warnings[-1] == (
        "statistics.json is from a newer version of MDHearts (version 4); the original is kept "
        "as statistics.json.v4-backup"
    )
    save_statistics(stats.with_hand(3), path)  # one hand played
    assert (tmp_path / "statistics.json.v4-backup").read_bytes() == original
    stats, warnings = load_statistics(path)
    assert stats.hands_played == SAMPLE.hands_played + 1 and warnings == []


def test_a_newer_version_without_new_fields_is_kept_too(tmp_path: Path) -> None:
    path = tmp_path / "statistics.json"
    path.write_text(json.dumps({**SAMPLE.to_dict(), "version": 9}), encoding="utf-8")
    warnings = load_statistics(path)[1]
    assert any(warning.endswith("kept as statistics.json.v9-backup") for warning in warnings)
    assert load_statistics(path)[1] == ["statistics version 9 was read as 3"], "said once"


def test_statistics_that_cannot_be_read_are_set_aside_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "statistics.json"
    save_statistics(SAMPLE, path)
    original = path.read_bytes()

    def refuse(*args: object) -> bytes:
        raise PermissionError(13, "Permission denied")

    with monkeypatch.context() as patch:
        patch.setattr("game.table.store.json_store.read_regular_file", refuse)
        stats, messages = load_statistics(path)
    assert stats == Statistics()
    [moved] = tmp_path.glob("statistics.json.unreadable-*")
    assert messages == [
        f"statistics.json could not be read (Permission denied) and was moved to {moved.name}; "
        "the statistics start from zero"
    ]
    save_statistics(stats.with_hand(3), path)
    assert moved.read_bytes() == original
