"""Richer statistics: per difficulty, hands won, moons, best and worst match, the last matches.

The file is versioned: a version-1 file (no ``version``) still loads whole. The table records
each hand and match; the statistics page shows a table and a chart of the last matches.
"""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from table_driver import MakeDriver

from game.table import theme
from game.table.scene import scene_named
from game.table.scenes.pages import StatsPage, draw_recent_chart, stats_lines
from game.table.store.stats import (
    RECENT_MATCHES,
    VERSION,
    MatchResult,
    Statistics,
    StatisticsError,
    Tally,
    load_statistics,
    match_difficulty,
    save_statistics,
)
from game.tools.scripted import ScriptedTable

#: A statistics file as the first version wrote it.
VERSION_1 = {
    "matches_played": 12,
    "matches_won": 5,
    "hands_played": 140,
    "points_total": 910,
    "moons_shot": 3,
    "current_streak": 2,
    "best_streak": 4,
}


def test_a_version_1_file_loads_without_losing_anything(tmp_path: Path) -> None:
    path = tmp_path / "statistics.json"
    path.write_text(json.dumps(VERSION_1), encoding="utf-8")
    stats, warnings = load_statistics(path)
    assert warnings == []
    for name, value in VERSION_1.items():
        assert getattr(stats, name) == value, name
    # Its hands and matches did not record wins or moons: they are known as earlier ones.
    assert (stats.earlier_hands, stats.earlier_matches) == (140, 12)
    assert stats.hands_recorded == 0
    # Saved again, it is a version-2 file that keeps every count and reads back the same.
    save_statistics(stats, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["version"] == VERSION
    assert {name: saved[name] for name in VERSION_1} == VERSION_1
    assert load_statistics(path) == (stats, [])
    # Playing on adds to the old counts.
    later = stats.with_hand_scored((3, 10, 13, 0), None, 0, "normal").with_match(True, 40)
    assert later.hands_played == 141 and later.matches_played == 13
    assert later.hands_recorded == 1 and later.current_streak == 3


def test_hands_count_wins_and_moons_per_difficulty() -> None:
    stats = Statistics()
    stats = stats.with_hand_scored((0, 5, 13, 8), None, 0, "hard")  # fewest points: won
    stats = stats.with_hand_scored((4, 4, 9, 9), None, 0, "hard")  # shares the fewest: won
    stats = stats.with_hand_scored((26, 26, 0, 26), 2, 0, "hard")  # North shot the moon
    stats = stats.with_hand_scored((0, 26, 26, 26), 0, 0, "easy")  # the player shot it
    hard, easy = stats.tally("hard"), stats.tally("easy")
    assert (hard.hands_played, hard.hands_won, hard.points_total) == (3, 2, 30)
    assert (hard.moons_shot, hard.moons_conceded) == (0, 1)
    assert (easy.hands_played, easy.hands_won, easy.moons_shot) == (1, 1, 1)
    assert (stats.hands_played, stats.hands_won, stats.points_total) == (4, 3, 30)
    assert (stats.moons_shot, stats.moons_conceded) == (1, 1)
    assert stats.tally("normal") == Tally()


def test_matches_keep_the_best_the_worst_and_the_last_twenty() -> None:
    stats = Statistics()
    finals = [(40 + 7 * n) % 90 + 10 for n in range(RECENT_MATCHES + 5)]
    for number, points in enumerate(finals):
        stats = stats.with_match(number % 3 == 0, points, difficulty="normal")
    assert stats.best_match == min(finals) and stats.worst_match == max(finals)
    assert stats.tally("normal").best_match == min(finals)
    assert [result.points for result in stats.recent] == finals[-RECENT_MATCHES:]
    assert stats.recent[-1] == MatchResult("normal", finals[-1], (len(finals) - 1) % 3 == 0)
    assert Statistics.from_dict(stats.to_dict()) == (stats, [])


def test_a_match_counts_under_its_opponents_level() -> None:
    with pytest.raises(StatisticsError, match="by_difficulty"):
        Statistics().with_hand(3, difficulty="legendary")
    assert match_difficulty(["hard", "hard", "hard"]) == "hard"
    assert match_difficulty(["easy", "hard", "hard"]) == "mixed"
    assert match_difficulty(["ismcts", "ismcts", "ismcts"]) == "mixed"


@pytest.mark.parametrize(
    ("part", "bad"),
    [
        ("by_difficulty", {"legendary": {"hands_played": 3}}),
        ("by_difficulty", {"easy": {"hands_played": -2, "hands_won": 1}}),
        ("by_difficulty", []),
        ("recent", [{"difficulty": "easy", "points": "many", "won": True}]),
        ("recent", {"points": 3}),
    ],
)
def test_a_bad_part_is_dropped_and_the_rest_is_kept(part: str, bad: object) -> None:
    good = Statistics().with_hand_scored((1, 2, 3, 20), None, 0, "easy")
    good = good.with_match(True, 30, difficulty="easy")
    data = good.to_dict()
    data[part] = bad
    stats, warnings = Statistics.from_dict(data)
    assert len(warnings) == 1, warnings
    assert stats.hands_played == 1 and stats.best_match == 30


def test_the_table_records_a_whole_match_per_difficulty(drivers: MakeDriver) -> None:
    app = drivers().app
    app.change_settings(
        app.settings.with_changes(
            speed="instant",
            opponents=("easy", "easy", "easy"),
            rules={**app.settings.rules.to_dict(), "end_score": 30},
        )
    )
    table = ScriptedTable(app, seed=5)
    for _ in range(30):
        if not table.at_summary():
            break
        table.next_hand()
        if table.run_until(table.match_over, max_frames=60, act=False):
            break
    assert table.match_over(), "the match did not end"
    controller = table.session.controller
    scores = controller.hand_scores
    stats = app.books.stats
    easy = stats.tally("easy")
    assert (easy.matches_played, easy.hands_played) == (1, len(scores))
    assert easy.hands_won == sum(1 for score in scores if score.points[0] == min(score.points))
    assert easy.moons_conceded == sum(1 for score in scores if score.moon_shooter in (1, 2, 3))
    final = controller.totals[0]
    assert easy.best_match == easy.worst_match == final
    assert stats.recent == (MatchResult("easy", final, controller.winner == 0),)
    app.saver.flush()
    assert load_statistics(app.dirs.statistics_file) == (stats, [])


# -- the page ------------------------------------------------------------------------------


def played_stats() -> Statistics:
    """Return statistics of matches against two difficulties."""
    stats = Statistics()
    for number in range(RECENT_MATCHES + 3):
        level = "hard" if number % 2 else "normal"
        stats = stats.with_hand_scored((number % 9, 4, 6, 16), None, 0, level)
        stats = stats.with_match(number % 4 == 0, 20 + 3 * number, difficulty=level)
    return stats


def test_the_page_has_a_column_per_difficulty_played() -> None:
    rows = stats_lines(played_stats())
    assert rows[0] == ("", "All", "Normal", "Hard")
    by_name = {row[0]: row[1:] for row in rows if isinstance(row, tuple)}
    assert by_name["Matches played"] == ("23", "12", "11")
    assert by_name["Best match"] == ("20", "20", "23")
    assert by_name["Worst match"] == ("86", "86", "83")
    assert set(by_name) >= {"Hands won", "Points per hand", "Moons shot", "Moons conceded"}


def test_a_version_1_page_says_what_was_not_counted_then() -> None:
    stats, _ = Statistics.from_dict(VERSION_1)
    text = " ".join(str(line) for line in stats_lines(stats))
    assert "first 12 matches and 140 hands" in text


def test_the_chart_draws_a_bar_per_match_coloured_by_result() -> None:
    pygame.init()
    surface = pygame.Surface((600, 300))
    rect = pygame.Rect(20, 20, 560, 260)
    results = [MatchResult("easy", 10 + 10 * n, n % 2 == 0) for n in range(6)]
    draw_recent_chart(surface, rect, results, 14)
    slot = rect.width / RECENT_MATCHES
    for number, result in enumerate(results):
        x = round(rect.left + (number + 0.5) * slot)
        colour = surface.get_at((x, rect.bottom - 3))[:3]
        assert colour == (theme.GOOD if result.won else theme.DANGER), number
    # A taller bar for more points.
    heights = [
        sum(
            surface.get_at((round(rect.left + (n + 0.5) * slot), y))[:3]
            in (theme.GOOD, theme.DANGER)
            for y in range(rect.top, rect.bottom)
        )
        for n in range(len(results))
    ]
    assert heights == sorted(heights) and heights[0] < heights[-1]


@pytest.mark.parametrize("size", [(1280, 720), (1024, 1280), (800, 600)])
def test_the_page_shows_every_row_and_the_chart_inside_its_panel(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    import game.table.scenes.pages as pages
    import game.table.scenes.text_page as text_page

    app = drivers(size=size).app
    app.books.stats = played_stats()
    page = scene_named("statistics", app)
    assert isinstance(page, StatsPage)
    charts: list[pygame.Rect] = []
    real_chart = pages.draw_recent_chart
    monkeypatch.setattr(
        pages,
        "draw_recent_chart",
        lambda s, rect, *a: charts.append(rect) or real_chart(s, rect, *a),
    )
    texts: list[str] = []
    real_text = text_page.draw_text
    monkeypatch.setattr(
        text_page,
        "draw_text",
        lambda s, text, *a, **k: texts.append(text) or real_text(s, text, *a, **k),
    )
    page.draw(pygame.Surface(app.layout.size))
    assert any(text.startswith("Winning streak") for text in texts)
    assert len(charts) == 1 and page.panel().contains(charts[0])
    assert charts[0].height >= app.layout.px(100)
