"""Try again at the table: from a reviewed decision the hand is played on as practice, the
coach compares it with the original line, and the real match and the person's files are
left exactly as they were."""

from __future__ import annotations

from pathlib import Path

import pygame
from table_driver import Driver, MakeDriver
from test_review_page import open_review, play_hand_by_keys, reviewed, small_samples

from core.controller import Controller
from core.record import dumps_record, loads_record
from game.table.scenes.replays.replay_page import ReplayPage
from game.table.scenes.review import PracticeOver, ReviewPage
from game.table.scenes.table import TableScene
from game.table.try_again import DEALT_AGAIN, REAL_CARDS, compare_points


def files_of(driver: Driver) -> dict[str, bytes | None]:
    """Return the saved game, the statistics and the kept replays as bytes, once written."""
    app = driver.app
    assert app.saver.flush()
    dirs = app.dirs
    found: dict[str, bytes | None] = {}
    for path in (dirs.save_file, dirs.statistics_file, dirs.reviews_file):
        found[path.name] = path.read_bytes() if path.exists() else None
    replays = sorted(Path(dirs.replays).glob("*")) if Path(dirs.replays).exists() else []
    for path in replays:
        found[f"replays/{path.name}"] = path.read_bytes()
    return found


def practice_table(driver: Driver) -> TableScene:
    """Return the practice table on top of the stack."""
    table = driver.top
    assert isinstance(table, TableScene) and table.practice is not None, driver.describe()
    return table


def play_practice_to_its_end(driver: Driver, table: TableScene) -> PracticeOver:
    """Play the practice hand with the keyboard (the focused card, Enter; a pass takes the
    focused card and the next two) until the coach's comparison opens."""

    def person_to_act() -> bool:
        seat = table.session.view()
        to_act = seat.person_must_pass or seat.person_must_play
        return driver.top is table and table.ready_for_person() and to_act

    for _ in range(40):
        driver.run_until(lambda: person_to_act() or isinstance(driver.top, PracticeOver))
        over = driver.top
        if isinstance(over, PracticeOver):
            return over
        if table.session.view().person_must_pass:
            for key in (pygame.K_UP, pygame.K_RIGHT, pygame.K_UP, pygame.K_RIGHT, pygame.K_UP):
                driver.key(key)
        driver.key(pygame.K_RETURN)
    raise AssertionError(f"the practice hand did not end: {driver.describe()}")


def reviewed_page(driver: Driver) -> ReviewPage:
    """Play the first hand, open its review from the summary and wait for it."""
    small_samples(driver)
    summary = play_hand_by_keys(driver)
    page = open_review(driver, summary)
    reviewed(driver, page)
    return page


def test_try_again_plays_the_hand_on_as_practice_and_keeps_nothing(drivers: MakeDriver) -> None:
    driver = drivers()
    page = reviewed_page(driver)
    real = driver.table
    driver.step(3)  # the page's review is kept beside the saved game
    before = files_of(driver)
    stats = driver.app.books.stats
    assert before["current-game.json"] is not None, "the real match is saved"
    real_record = real.session.record()
    for _ in range(5):
        driver.key(pygame.K_RIGHT)
    assert page.step.kind == "trick" and page.step.trick == 5 - (page.steps[0].kind != "pass")
    driver.step()
    assert page.try_button.rect.width > 0 and page.try_button.label == "Try again"
    driver.click(page.try_button.rect.center)
    table = practice_table(driver)
    practice = table.practice
    assert practice is not None and practice.label == DEALT_AGAIN
    assert table.painter.header().startswith("Practice · other hands dealt again · Hand 1")
    # The practice stands at the decision shown, as the person saw it.
    seat = table.session.view()
    assert seat.person_must_play and len(seat.hand) == 14 - page.step.trick
    over = play_practice_to_its_end(driver, table)
    points = tuple(table.session.sheet().hands[-1].points)
    expected = compare_points(loads_record(real_record), 1, 0, points).text()
    assert over.sentence == expected and over.sentence.startswith("You took")
    driver.key(pygame.K_RETURN)
    assert driver.top is page, driver.describe()
    assert table not in driver.app.scenes()
    # Nothing of the practice was saved, counted or kept to replay.
    assert files_of(driver) == before
    assert driver.app.books.stats == stats
    assert real.session.record() == real_record
    # The real match goes on where it was: the summary, then the next hand at the table.
    driver.key(pygame.K_ESCAPE)
    driver.run_until(lambda: driver.summary_shown())
    driver.key(pygame.K_RETURN)
    driver.run_until(lambda: driver.ready_for_person(), max_frames=3000)
    assert real.session.view().hand_number == 2


def test_with_the_cards_as_they_were_the_practice_deal_is_the_real_one(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    page = reviewed_page(driver)
    real_record = loads_record(driver.table.session.record())
    driver.key(pygame.K_END)
    assert page.decision_index() is None, "the total has no decision to try again"
    driver.key(pygame.K_t)
    assert driver.top is page
    driver.key(pygame.K_HOME)
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_r)
    table = practice_table(driver)
    assert table.practice is not None and table.practice.label == REAL_CARDS
    assert table.painter.header().startswith("Practice · the cards as they were")
    tried = loads_record(table.session.record())
    assert tried.match is not None and real_record.match is not None
    assert tried.match.hands[-1].deal == real_record.match.hands[0].deal
    over = play_practice_to_its_end(driver, table)
    driver.click(over.button.rect.center)
    assert driver.top is page


def test_leaving_a_practice_hand_by_the_pause_menu_keeps_the_real_match(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    page = reviewed_page(driver)
    real_record = driver.table.session.record()
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_t)
    table = practice_table(driver)
    driver.run_until(lambda: driver.top is table and table.view.idle)
    driver.key(pygame.K_ESCAPE)
    driver.click(driver.menu_item_pos("Save and leave to the title"))
    assert page not in driver.app.scenes() and table not in driver.app.scenes()
    assert files_of(driver)["current-game.json"] == real_record.encode()


def test_a_practice_hand_from_a_replay_never_replaces_the_saved_match(
    drivers: MakeDriver,
) -> None:
    from test_replays import archive, finished_match, open_list

    driver = drivers()
    archive(driver, finished_match(11), 11)
    waiting = Controller()
    assert waiting.new_match(None, 5, ["human", "bot:easy", "bot:easy", "bot:easy"]).ok
    driver.app.books.save_game(waiting)
    before = files_of(driver)
    stats = driver.app.books.stats
    open_list(driver)
    driver.key(pygame.K_RETURN, frames=2)
    assert isinstance(driver.top, ReplayPage), driver.describe()
    small_samples(driver)
    driver.key(pygame.K_r, frames=2)
    page = driver.top
    assert isinstance(page, ReviewPage), driver.describe()
    reviewed(driver, page)
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_t)
    table = practice_table(driver)
    over = play_practice_to_its_end(driver, table)
    assert over.sentence.startswith("You took")
    driver.key(pygame.K_RETURN)
    assert driver.top is page
    assert files_of(driver) == before and driver.app.books.stats == stats
    # Leaving a practice hand by the pause menu saves nothing either.
    driver.key(pygame.K_t)
    table = practice_table(driver)
    driver.run_until(lambda: driver.top is table and table.view.idle)
    driver.key(pygame.K_ESCAPE)
    driver.click(driver.menu_item_pos("Save and leave to the title"))
    assert table not in driver.app.scenes()
    assert files_of(driver) == before
    assert before["current-game.json"] == dumps_record(waiting).encode()
