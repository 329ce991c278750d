"""The hand's summary and the match result: what gold marks, the score sheet and the last
trick from them (S, L), and the result's table of every hand."""

from __future__ import annotations

import random

import pygame
import pytest
from positions import play_randomly
from table_driver import Driver, MakeDriver

from core import events as ev
from core.controller import Controller
from game.table import theme
from game.table.match_sheet import match_sheet
from game.table.scenes import match_result as match_result_module
from game.table.scenes import summary as summary_module
from game.table.scenes.last_trick import LastTrick
from game.table.scenes.match_result import MatchOverScene
from game.table.scenes.pages import ScoreSheet
from game.table.scenes.summary import HandSummary
from game.table.scenes.table import TableScene
from game.table.score_table import hand_rows
from game.table.session import TableSession

Drawn = tuple[str, tuple[int, ...]]


def table_at(driver: Driver, finished: bool) -> TableScene:
    """Return the table showing a person's match played at random to a hand's end (or to the
    match's end when ``finished``)."""
    controller = Controller()
    seats = ["human", "bot:normal", "bot:normal", "bot:normal"]
    assert controller.new_match(None, 11, seats).ok
    rng = random.Random(11)
    goal = "match_over" if finished else "hand_over"
    while controller.phase != goal or (not finished and controller.hand_number < 3):
        play_randomly(controller, rng, 1)
    names = {seat: "normal" for seat in (1, 2, 3)}
    session = TableSession(controller, names, driver.app.bots)
    driver.app.replace_scene("table", session, resumed=True)
    driver.step()
    return driver.table


def texts_drawn(
    monkeypatch: pytest.MonkeyPatch, driver: Driver, scene: HandSummary | MatchOverScene
) -> list[Drawn]:
    """Return each text the scene draws, with its colour."""
    drawn: list[Drawn] = []
    original = summary_module.draw_text

    def recording(
        surface: pygame.Surface, text: str, px: int, colour: tuple[int, ...], **kw: object
    ) -> pygame.Rect:
        drawn.append((text, tuple(colour)))
        return original(surface, text, px, colour, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(summary_module, "draw_text", recording)
    monkeypatch.setattr(match_result_module, "draw_text", recording)
    scene.draw(driver.app.screen)
    monkeypatch.undo()
    return drawn


def test_gold_on_the_summary_marks_the_hands_best_and_says_so(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = drivers()
    table = table_at(driver, finished=False)
    # South took no points this hand; West leads the match.
    event = ev.HandScored((0, 5, 8, 13), (40, 10, 30, 50), None)
    summary = HandSummary(driver.app, table, event)
    driver.app.push(summary)
    drawn = texts_drawn(monkeypatch, driver, summary)
    gold = [text for text, colour in drawn if colour[:3] == theme.ACCENT]
    assert table.seat_name(0) in gold, "the hand's best is not gold"
    assert table.seat_name(1) not in gold, "the match leader is gold, as if it won the hand"
    assert any("fewest points this hand" in text for text, _ in drawn), "nothing says what gold is"
    # A tie for the fewest points marks both.
    summary.event = ev.HandScored((0, 0, 13, 13), (0, 0, 13, 13), None)
    gold = [
        text
        for text, colour in texts_drawn(monkeypatch, driver, summary)
        if colour[:3] == theme.ACCENT
    ]
    assert table.seat_name(0) in gold and table.seat_name(1) in gold


@pytest.mark.parametrize("finished", [False, True], ids=["hand summary", "match result"])
def test_s_and_l_show_the_score_sheet_and_the_last_trick_over_the_end_of_a_hand(
    drivers: MakeDriver, finished: bool
) -> None:
    driver = drivers()
    table = table_at(driver, finished)
    controller = table.session.controller
    if finished:
        driver.app.push_scene("match_over", table)
    else:
        driver.app.push_scene("hand_summary", table, table.session.view().finished_hand())
    over = driver.top
    assert isinstance(over, MatchOverScene if finished else HandSummary)
    driver.key(pygame.K_s)
    sheet = driver.top
    assert isinstance(sheet, ScoreSheet) and sheet.sheet == match_sheet(controller)
    driver.key(pygame.K_ESCAPE)
    assert driver.top is over
    driver.key(pygame.K_l)
    shown = driver.top
    assert isinstance(shown, LastTrick)
    last = controller.last_trick
    assert last is not None
    assert sorted(card for _, card in shown.cards) == sorted(last.cards)
    assert shown.winner == last.winner
    driver.key(pygame.K_ESCAPE)
    assert driver.top is over
    driver.step()


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_the_match_result_shows_every_hand(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    driver = drivers(size=size)
    table = table_at(driver, finished=True)
    controller = table.session.controller
    driver.app.push_scene("match_over", table)
    result = driver.top
    assert isinstance(result, MatchOverScene)
    driver.step()
    drawn = [text for text, _ in texts_drawn(monkeypatch, driver, result)]
    start = drawn.index("Hand")
    rows = [drawn[index : index + 5] for index in range(start, start + 5 * 40, 5)]
    hands = controller.hand_scores
    assert len(hands) > 5
    expected = [["Hand", driver.app.settings.player_name, "West", "North", "East"]]
    for number, score in enumerate(hands, start=1):
        expected.append([str(number), *(str(points) for points in score.points)])
    expected.append(["Total", *(str(total) for total in controller.totals)])
    assert [[cell.rstrip("*") for cell in row] for row in rows[: len(expected)]] == expected
    assert result.panel().height <= size[1]


def test_a_result_too_long_for_the_window_adds_up_the_first_hands() -> None:
    controller = Controller()
    assert controller.new_match(None, 11, ["human", "bot:normal", "bot:normal", "bot:normal"]).ok
    play_randomly(controller, random.Random(11), 100_000)
    scores = controller.hand_scores
    sheet = match_sheet(controller)
    rows = hand_rows(sheet, most=3)
    assert len(rows) == 3
    first = len(scores) - 2
    summed = [sum(score.points[seat] for score in scores[:first]) for seat in range(4)]
    assert rows[0] == (f"1-{first}", *(str(points) for points in summed))
    assert [row[0] for row in rows[1:]] == [str(first + 1), str(first + 2)]
    assert hand_rows(sheet) == hand_rows(sheet, most=len(scores))


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (1024, 1280), (800, 600)])
def test_the_match_result_covers_each_name_plate_whole_or_not_at_all(
    drivers: MakeDriver, size: tuple[int, int]
) -> None:
    """No sliver of a name plate (half a name) shows beside the match result."""
    driver = drivers(size=size)
    table = table_at(driver, finished=True)
    driver.app.push_scene("match_over", table)
    result = driver.top
    assert isinstance(result, MatchOverScene)
    panel = result.panel()
    for plate in driver.app.layout.name_plates:
        assert panel.contains(plate) or not panel.colliderect(plate), (size, plate, panel)
    assert pygame.Rect(0, 0, *size).contains(panel)
