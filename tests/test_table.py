"""The real pygame table, headless, driven by posted mouse and keyboard events.

Every test builds an App on the SDL dummy driver with its files under pytest's tmp_path, posts
input events and runs frames; the deals come from a fixed seed.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pygame
import pytest
from table_driver import SLOW_FRAME_S, Driver, MakeDriver, make_dirs, open_title

from core.controller import Controller
from core.files import CORRUPT_SUFFIX
from core.record import dumps_record, loads_record
from game.table import app as app_module
from game.table import main as table_program
from game.table.match.port import action_cards
from game.table.scene import SCENES, Scene
from game.table.scenes.match_result import MatchOverScene
from game.table.scenes.summary import HandSummary
from game.table.scenes.table import TableScene
from game.table.scenes.title import TitleScene
from game.table.session import TableSession

SEED = 20241122
#: What the table may say when the person clicks a card the rules refuse.
REFUSALS = {
    *(f"You must follow suit: play a {suit}" for suit in ("club", "diamond", "spade", "heart")),
    "No points on the first trick",
    "Hearts are not broken",
    "The first trick must be led with the 2♣",
}


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every new match from the same seed."""
    original = TableSession.new_match.__func__  # type: ignore[attr-defined]

    def seeded(cls: type[TableSession], /, *args: object, **kwargs: object) -> TableSession:
        if kwargs.get("seed") is None:
            kwargs["seed"] = SEED
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(TableSession, "new_match", classmethod(seeded))


def new_match_from_title(driver: Driver) -> TableScene:
    """Choose "New match" on the title menu with the keyboard."""
    title = open_title(driver)
    assert title.index == driver.menu_index("New match")
    driver.key(pygame.K_RETURN)
    return driver.table


def state_of(controller: Controller) -> dict[str, object]:
    """Return the controller's record without its redo list."""
    data = json.loads(dumps_record(controller))
    del data["redo"]
    return dict(data)


def action_count(controller: Controller) -> int:
    """Return how many actions were taken in the match so far."""
    match = controller.match
    assert match is not None
    return sum(len(hand.actions) for hand in match.hands)


def tricks_won(controller: Controller) -> int:
    """Return the finished tricks of the current hand."""
    return sum(1 for trick in controller.tricks if trick.winner is not None)


def wait_for_person(driver: Driver, max_frames: int = 5000) -> None:
    """Run frames until the person must act or a summary is shown."""
    driver.run_until(lambda: driver.ready_for_person() or driver.summary_shown(), max_frames)


def pass_by_mouse(driver: Driver) -> list[int]:
    """Click three cards and the pass button; return the passed cards."""
    table = driver.table
    session = table.session
    assert session.person_must_pass, driver.describe()
    chosen = table.view.shown.hand[-3:]
    for count, card in enumerate(chosen, start=1):
        assert not table.pass_button_shown()
        driver.click_card(card)
        assert table.selected == chosen[:count]
    driver.click_card(chosen[0])
    assert table.selected == chosen[1:]
    assert not table.pass_button_shown()
    driver.click_card(chosen[0])
    assert sorted(table.selected) == sorted(chosen)
    assert table.pass_button_shown()
    driver.step()
    assert table.bar.pass_button.label.startswith("Pass to ")
    driver.click(table.bar.pass_button.rect.center)
    assert not session.person_must_pass
    assert table.selected == []
    return chosen


def play_by_mouse(driver: Driver, rng: random.Random) -> tuple[bool, int]:
    """Play the rest of the hand by clicking cards; return (an illegal click was tried, plays)."""
    table = driver.table
    session = table.session
    controller = session.controller
    tried_illegal = False
    plays = 0
    while True:
        wait_for_person(driver)
        if driver.summary_shown():
            return tried_illegal, plays
        assert session.person_must_play, driver.describe()
        legal = session.legal_cards()
        illegal = [card for card in controller.hand(0) if card not in legal]
        if illegal and not tried_illegal:
            before, shown = dumps_record(controller), list(table.view.shown.hand)
            driver.click_card(rng.choice(illegal))
            assert table.message is not None
            assert table.message[0] in REFUSALS
            assert dumps_record(controller) == before
            assert table.view.shown.hand == shown
            assert session.person_must_play
            tried_illegal = True
        card = rng.choice(legal)
        actions = action_count(controller)
        driver.click_card(card)
        assert card not in controller.hand(0)
        # The bots wait until the person's card has been shown.
        assert action_count(controller) == actions + 1
        plays += 1


def finish_summary_by_mouse(driver: Driver) -> None:
    """Click the summary's button."""
    summary = driver.top
    assert isinstance(summary, HandSummary)
    assert summary.button.label == "Next hand"
    driver.step()
    driver.click(summary.button.rect.center)
    assert summary not in driver.app.scenes()


@pytest.mark.parametrize("bots", ["inline", "worker"])
def test_a_whole_hand_with_the_mouse(drivers: MakeDriver, bots: str) -> None:
    if bots == "inline":
        driver = drivers()
    else:
        environ = {**os.environ, "MDH_THINK_LIMIT_MS": "50"}
        driver = drivers(inline=False, environ=environ)
        assert driver.app.think.limit_ms == 50
    table = new_match_from_title(driver)
    session = table.session
    controller = session.controller
    assert controller.hand_number == 1
    thinking_frames = 0

    def count_thinking() -> None:
        nonlocal thinking_frames
        thinking_frames += bool(session.thinking_seats())

    driver.after_step.append(count_thinking)
    driver.step(5)
    assert not table.view.idle, "the deal is being shown"
    driver.click(driver.app.layout.centre)
    assert table.view.idle, "a click hurries the deal"
    assert table.view.shown.hand == sorted(controller.hand(0))
    wait_for_person(driver)
    passed = pass_by_mouse(driver)
    wait_for_person(driver)
    assert set(passed).isdisjoint(controller.hand(0))
    tried_illegal, plays = play_by_mouse(driver, random.Random(1))
    assert tried_illegal
    assert plays == 13
    assert controller.phase == "hand_over"
    assert driver.app.books.stats.hands_played == 1
    finish_summary_by_mouse(driver)
    driver.run_until(driver.ready_for_person)
    assert controller.hand_number == 2
    assert table.view.shown.hand_number == 2
    assert sorted(table.view.shown.hand) == sorted(controller.hand(0))
    assert len(table.view.shown.hand) == 13
    if bots == "worker":
        # Answers came back frames after their requests, and no frame waited for one.
        assert thinking_frames > 10
        times = sorted(driver.step_times)
        slow = [round(t, 3) for t in times if t >= SLOW_FRAME_S]
        assert times[-1] < 1.0, f"a frame took {times[-1]:.3f} s"
        assert len(slow) <= len(times) // 100, f"{len(slow)} of {len(times)} slow frames: {slow}"


def test_a_whole_match_with_the_keyboard(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="instant"))
    table = new_match_from_title(driver)
    session = table.session
    controller = session.controller
    summaries = 0
    step = pygame.K_RIGHT
    while not isinstance(driver.top, MatchOverScene):
        driver.run_until(
            lambda: (
                driver.ready_for_person()
                or driver.summary_shown()
                or isinstance(driver.top, MatchOverScene)
            )
        )
        if isinstance(driver.top, HandSummary):
            summaries += 1
            last = controller.phase == "match_over"
            assert driver.top.button.label == ("See the result" if last else "Next hand")
            driver.key(pygame.K_RETURN)
        elif session.person_must_pass:
            for key in (pygame.K_UP, pygame.K_RIGHT, pygame.K_UP, pygame.K_LEFT, pygame.K_LEFT):
                driver.key(key)
            driver.key(pygame.K_UP)
            assert len(set(table.selected)) == 3
            driver.key(pygame.K_DOWN)
            assert len(table.selected) == 2
            driver.key(pygame.K_UP)
            assert len(set(table.selected)) == 3
            driver.key(pygame.K_RETURN)
            assert not session.person_must_pass
            assert table.selected == []
        elif isinstance(driver.top, TableScene):
            step = pygame.K_LEFT if step == pygame.K_RIGHT else pygame.K_RIGHT
            driver.key(step)
            card = table.pointer.focused()
            assert card in session.legal_cards()
            driver.key(pygame.K_RETURN)
            assert card not in controller.hand(0)
    assert controller.phase == "match_over"
    assert max(controller.totals) >= controller.rules.end_score
    assert summaries == controller.hand_number
    assert app.books.stats.matches_played == 1
    assert app.books.stats.hands_played == controller.hand_number
    assert app.books.stats.matches_won == (1 if controller.winner == 0 else 0)
    assert app.saver.flush()
    assert not app.dirs.save_file.exists()
    on_disk = json.loads(app.dirs.statistics_file.read_text(encoding="utf-8"))
    assert on_disk["matches_played"] == 1
    assert on_disk["hands_played"] == controller.hand_number


def test_undo_and_redo_with_the_keys(drivers: MakeDriver) -> None:
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    session = table.session
    controller = session.controller
    wait_for_person(driver)
    pass_by_mouse(driver)
    wait_for_person(driver)
    assert session.person_must_play
    before = state_of(controller)
    card = session.legal_cards()[-1]
    driver.click_card(card)
    wait_for_person(driver)
    after = dumps_record(controller)
    assert card not in controller.hand(0)

    driver.key(pygame.K_z, pygame.KMOD_LCTRL)
    assert card in controller.hand(0)
    assert card in table.view.shown.hand
    assert state_of(controller) == before
    assert controller.can_redo
    driver.step(30)
    assert state_of(controller) == before, "the bots must not move after an undo"
    assert session.person_must_play
    assert driver.app.saver.flush()
    assert driver.app.dirs.save_file.read_text(encoding="utf-8") == dumps_record(controller)

    driver.key(pygame.K_y, pygame.KMOD_LCTRL)
    assert dumps_record(controller) == after
    assert card not in table.view.shown.hand
    assert sorted(table.view.shown.hand) == sorted(controller.hand(0))

    driver.key(pygame.K_z, pygame.KMOD_RCTRL)
    assert state_of(controller) == before
    driver.key(pygame.K_z, pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT)
    assert dumps_record(controller) == after
    wait_for_person(driver)
    assert session.person_must_play
    played = session.legal_cards()[0]
    driver.click_card(played)
    assert played not in controller.hand(0)


def test_hints_and_playing_them(drivers: MakeDriver) -> None:
    from ai.think import ThinkConfig
    from game.table.bot_requests import InlineBots

    driver = drivers(bots=InlineBots(ThinkConfig(limit_ms=100)))
    driver.app.start_match()
    table = driver.table
    session = table.session
    controller = session.controller
    wait_for_person(driver)
    assert session.person_must_pass

    driver.key(pygame.K_h)
    assert table.show_analysis
    driver.run_until(lambda: session.hint is not None, 20)
    hint = session.hint
    assert hint is not None
    cards = action_cards(hint.action)
    assert len(cards) == 3 and set(cards) <= set(controller.hand(0))
    driver.key(pygame.K_SPACE)
    assert not session.person_must_pass
    wait_for_person(driver)
    assert set(cards).isdisjoint(controller.hand(0))

    assert session.person_must_play
    driver.key(pygame.K_h)
    driver.run_until(lambda: session.hint is not None, 20)
    hint = session.hint
    assert hint is not None
    [card] = action_cards(hint.action)
    assert card in session.legal_cards()
    driver.key(pygame.K_SPACE)
    assert card not in controller.hand(0)
    assert session.hint is None and not table.show_analysis

    wait_for_person(driver)
    assert session.person_must_play
    legal, actions = session.legal_cards(), action_count(controller)
    hand = set(controller.hand(0))
    driver.key(pygame.K_SPACE)
    driver.run_until(lambda: action_count(controller) > actions, 20)
    played = hand - set(controller.hand(0))
    assert len(played) == 1 and played <= set(legal)


def hand_inside_window(driver: Driver) -> None:
    """Check the layout is the window's and every hand card lies inside the window."""
    app = driver.app
    table = driver.table
    size = app_module.display_surface().get_size()
    assert app.screen.get_size() == size
    assert (app.layout.width, app.layout.height) == size
    assert table.view.layout is app.layout
    window = pygame.Rect((0, 0), size)
    width, height = app.layout.card_size
    cards = table.pointer.hand_cards()
    assert len(cards) == len(table.view.shown.hand)
    for drawn in cards:
        rect = pygame.Rect(0, 0, width, height)
        rect.center = (round(drawn.centre[0]), round(drawn.centre[1]))
        assert window.contains(rect), (rect, size)
    for button in table.bar.top:
        assert window.contains(button.rect)
    for plate in app.layout.name_plates:
        assert window.contains(plate)


def test_fullscreen_toggles_keep_the_game(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    app.start_match()
    table = driver.table
    session = table.session
    controller = session.controller
    wait_for_person(driver)
    pass_by_mouse(driver)
    rng = random.Random(5)
    toggles = [(pygame.K_F11, 0), (pygame.K_RETURN, pygame.KMOD_LALT)]
    windowed = app.screen.get_size()
    while toggles:
        wait_for_person(driver)
        assert session.person_must_play
        legal = session.legal_cards()
        if controller.current_trick is not None and controller.current_trick.cards:
            key, mod = toggles.pop(0)
            before = dumps_record(controller)
            was_fullscreen = app.fullscreen
            driver.key(key, mod)
            assert app.fullscreen != was_fullscreen
            assert app.settings.fullscreen == app.fullscreen
            assert dumps_record(controller) == before
            assert session.person_must_play and session.legal_cards() == legal
            driver.step()
            hand_inside_window(driver)
            if app.fullscreen:
                assert app.screen.get_size() != windowed
            else:
                assert app.screen.get_size() == windowed
        driver.click_card(rng.choice(legal))
    assert not app.fullscreen
    wait_for_person(driver)
    assert session.person_must_play or driver.summary_shown()


def test_resume_after_a_restart(drivers: MakeDriver) -> None:
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    session = table.session
    controller = session.controller
    save_file = driver.app.dirs.save_file
    wait_for_person(driver)
    pass_by_mouse(driver)
    rng = random.Random(3)
    won = 0
    while won < 2 or not driver.ready_for_person():
        if driver.ready_for_person():
            driver.click_card(rng.choice(session.legal_cards()))
        else:
            driver.step()
        if tricks_won(controller) > won:
            won = tricks_won(controller)
            assert driver.app.saver.flush()
            assert save_file.read_text(encoding="utf-8") == dumps_record(controller)
    driver.close()
    saved = save_file.read_text(encoding="utf-8")
    assert tricks_won(loads_record(saved)) == 2

    again = drivers()
    title = open_title(again)
    assert title.has_saved_game
    assert title.items[0].usable()
    assert title.index == again.menu_index("Continue the match")
    again.key(pygame.K_RETURN, frames=0)
    again.pump()
    table = again.table
    session = table.session
    controller = session.controller
    assert dumps_record(controller) == saved
    assert sorted(table.view.shown.hand) == sorted(controller.hand(0))
    assert table.view.shown.counts == [len(controller.hand(seat)) for seat in range(4)]
    wait_for_person(again)
    assert session.person_must_play
    card = rng.choice(session.legal_cards())
    again.click_card(card)
    assert card not in controller.hand(0)
    again.run_until(lambda: tricks_won(controller) == 3)


def test_bad_files_are_set_aside(drivers: MakeDriver, home: Path) -> None:
    dirs = make_dirs(home)
    dirs.config.mkdir(parents=True)
    dirs.state.mkdir(parents=True)
    dirs.settings_file.write_text("{not json", encoding="utf-8")
    dirs.save_file.write_text('{"format": "something else"}', encoding="utf-8")
    driver = drivers()
    app = driver.app
    assert not dirs.settings_file.exists()
    aside = list(dirs.config.glob(f"settings.json{CORRUPT_SUFFIX}*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == "{not json"
    assert any(aside[0].name in text for text, _ in app.toasts), app.toasts

    title = open_title(driver)
    assert title.has_saved_game
    driver.key(pygame.K_RETURN)
    assert isinstance(driver.top, TitleScene)
    assert not dirs.save_file.exists()
    aside = list(dirs.state.glob(f"current-game.json{CORRUPT_SUFFIX}*"))
    assert len(aside) == 1
    assert aside[0].read_text(encoding="utf-8") == '{"format": "something else"}'
    assert any(aside[0].name in text for text, _ in app.toasts), app.toasts
    assert not title.has_saved_game
    assert not title.items[0].usable()
    assert title.index == driver.menu_index("New match")
    driver.key(pygame.K_RETURN)
    wait_for_person(driver)
    assert driver.table.session.person_must_pass
    assert app.saver.flush()
    assert loads_record(dirs.save_file.read_text(encoding="utf-8")).hand_number == 1


class _BrokenScene(Scene):
    """A title screen whose every frame fails; a loop that swallowed the error is stopped."""

    def __init__(self, app: app_module.App) -> None:
        super().__init__(app)
        self.frames = 0

    def update(self, dt: float) -> None:
        self.frames += 1
        if self.frames > 1:
            self.app.running = False
        raise RuntimeError("the scene broke on purpose")


def test_a_crash_is_written_to_the_crash_log(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MDH_HOME", str(tmp_path))
    monkeypatch.setitem(SCENES, "title", _BrokenScene)
    assert table_program.main() == 1
    log = tmp_path / "log" / "crash.log"
    text = log.read_text(encoding="utf-8")
    assert "Traceback" in text
    assert "RuntimeError: the scene broke on purpose" in text
    assert ", in update" in text
    message = capsys.readouterr().err
    assert "MDHearts stopped because of an error." in message
    assert str(log) in message
    assert pygame.display.get_init() is False


def test_watching_the_bots_plays_a_hand(drivers: MakeDriver, home: Path) -> None:
    dirs = make_dirs(home)
    saved = Controller()
    assert saved.new_match(seed=5, seats=["human", "bot:normal", "bot:normal", "bot:normal"]).ok
    dirs.state.mkdir(parents=True)
    dirs.save_file.write_text(dumps_record(saved), encoding="utf-8")
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="instant"))
    open_title(driver)
    driver.click(driver.menu_item_pos("Watch the bots play"))
    table = driver.table
    session = table.session
    assert not session.person_plays
    driver.run_until(driver.summary_shown, 2000)
    assert session.controller.phase == "hand_over"
    assert tricks_won(session.controller) == 13
    assert app.books.stats.hands_played == 0
    driver.key(pygame.K_RETURN)
    driver.run_until(lambda: table.view.shown.hand_number == 2 and table.view.idle, 50)
    assert session.controller.hand_number == 2
    assert app.saver.flush()
    assert dirs.save_file.read_text(encoding="utf-8") == dumps_record(saved), (
        "watching must leave the person's saved match alone"
    )


@pytest.mark.parametrize("size", [(1600, 900), (800, 600)])
def test_the_table_follows_a_window_resize(drivers: MakeDriver, size: tuple[int, int]) -> None:
    driver = drivers()
    app = driver.app
    app.start_match()
    wait_for_person(driver)
    hand_inside_window(driver)
    pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    pygame.event.post(pygame.event.Event(pygame.WINDOWSIZECHANGED, x=size[0], y=size[1]))
    driver.step()
    assert (app.layout.width, app.layout.height) == size
    assert app.windowed_size == size
    hand_inside_window(driver)
    table = driver.table
    card = table.view.shown.hand[0]
    driver.click_card(card)
    assert table.selected == [card]
    pass_by_mouse_after_one(driver, card)
    wait_for_person(driver)
    hand_inside_window(driver)
    driver.close()
    saved = json.loads(app.dirs.settings_file.read_text(encoding="utf-8"))
    assert tuple(saved["window_size"]) == size


def pass_by_mouse_after_one(driver: Driver, first: int) -> None:
    """Choose two more cards beside ``first`` and click the pass button."""
    table = driver.table
    for card in [c for c in table.view.shown.hand if c != first][:2]:
        driver.click_card(card)
    assert table.pass_button_shown()
    driver.step()
    driver.click(table.bar.pass_button.rect.center)
    assert not table.session.person_must_pass


def test_the_player_types_a_name_in_the_settings(drivers: MakeDriver) -> None:
    """Settings → "Your name": typed text, Backspace and Enter change the saved name."""
    from game.table.scenes.name_entry import NameEntry
    from game.table.scenes.settings_menu import settings_menu

    driver = drivers()
    app = driver.app
    app.push(settings_menu(app))
    driver.key(pygame.K_RETURN)  # the first line is the name
    assert isinstance(app.top_scene(), NameEntry)
    for _ in range(len(app.settings.player_name)):
        driver.key(pygame.K_BACKSPACE)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Ada"))
    driver.step()
    driver.key(pygame.K_RETURN)
    assert app.settings.player_name == "Ada"
    assert not isinstance(app.top_scene(), NameEntry)
    app.push(NameEntry(app))
    for _ in range(3):
        driver.key(pygame.K_BACKSPACE)
    driver.key(pygame.K_RETURN)  # an empty name is refused, the old one stays
    assert isinstance(app.top_scene(), NameEntry) and app.top_scene().problem
    assert app.settings.player_name == "Ada"


def test_the_last_trick_is_shown_again_with_l(drivers: MakeDriver) -> None:
    """L shows the last completed trick's four cards and its winner; a key closes it."""
    from game.table.scenes.last_trick import LastTrick
    from game.tools.scripted import ScriptedTable

    driver = drivers()
    table = ScriptedTable(driver.app, seed=12)
    driver.key(pygame.K_l)
    assert not isinstance(driver.top, LastTrick), "no trick has been completed yet"
    assert table.at_mid_trick(cards_on_table=0)
    driver.key(pygame.K_l)
    shown = driver.top
    assert isinstance(shown, LastTrick)
    last = table.session.controller.last_trick
    assert last is not None
    assert sorted(card for _, card in shown.cards) == sorted(last.cards)
    assert shown.winner == last.winner
    driver.key(pygame.K_SPACE)
    assert driver.top is table.scene


def test_speed_changed_in_the_menu_applies_when_the_menu_closes(drivers: MakeDriver) -> None:
    """Esc opens the menu over a watched match; a new speed is used once it closes."""
    driver = drivers()
    app = driver.app
    app.start_match(watch=True)
    table = driver.table
    driver.key(pygame.K_ESCAPE)
    assert driver.top is not table
    app.change_settings(app.settings.with_changes(speed="fast", click_to_continue=True))
    driver.key(pygame.K_ESCAPE)  # closes the menu
    assert driver.top is table
    assert table.view.speed == "fast" and table.view.click_to_continue


def test_resume_between_hands_shows_the_summary_then_deals(drivers: MakeDriver) -> None:
    """A match closed at a hand's end resumes with that hand's summary, then the next deal."""
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="instant"))
    app.start_match()
    table = driver.table
    controller = table.session.controller
    driver.run_until(lambda: controller.phase == "hand_over" or driver.ready_for_person())
    while controller.phase != "hand_over":
        if table.session.person_must_pass:
            table.selected = controller.hand(0)[:3]
            table.controls.pass_selected()
        elif table.session.person_must_play:
            table.controls.play(table.session.legal_cards()[0])
        driver.run_until(lambda: controller.phase == "hand_over" or driver.ready_for_person())
    points = controller.hand_scores[-1].points
    driver.close()

    again = drivers()
    open_title(again)
    again.key(pygame.K_RETURN)  # "Continue the match"
    again.step(2)
    summary = again.top
    assert isinstance(summary, HandSummary)
    assert summary.event.points == points
    again.key(pygame.K_RETURN)
    again.run_until(lambda: again.table.session.controller.hand_number == 2)
    assert again.table.session.controller.phase in ("pass", "play")


def test_bad_environment_values_are_shown_not_fatal(drivers: MakeDriver) -> None:
    """An invalid MDH_* value is ignored with a message on screen; the table still opens."""
    driver = drivers(environ={"MDH_THINK_LIMIT_MS": "soon"}, notices=["ignoring MDH_HOME=''"])
    texts = " ".join(text for text, _ in driver.app.toasts)
    assert "MDH_THINK_LIMIT_MS" in texts and "MDH_HOME" in texts
    assert driver.app.think.limit_ms > 0
    driver.app.start_match()
    wait_for_person(driver)


def test_the_score_sheet_is_a_table_of_every_hand(drivers: MakeDriver) -> None:
    """The score sheet has a row per finished hand and a total row equal to the match totals."""
    from game.table.scenes.pages import score_page
    from game.tools.scripted import ScriptedTable

    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="instant"))
    table = ScriptedTable(app, seed=3)
    for _ in range(2):
        assert table.at_summary()
        table.next_hand()
    controller = table.session.controller
    page = score_page(app, table.session.sheet())
    lines = page.lines() if callable(page.lines) else page.lines
    rows = [line for line in lines if isinstance(line, tuple)]
    assert rows[0] == ("Hand", app.settings.player_name, "West", "North", "East")
    assert [row[0] for row in rows[1:]] == ["1", "2", "Total"]
    assert rows[-1][1:] == tuple(str(total) for total in controller.totals)
    app.push(page)
    driver.step()


def test_a_saved_window_larger_than_the_desktop_opens_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window saved on a large screen opens within a smaller (or portrait) desktop; a size
    asked for explicitly (tools, tests) is kept as it is."""
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1024, 1280)])
    from game.table.app import App
    from game.table.bot_requests import InlineBots
    from game.table.store.settings import Settings, save_settings

    dirs = make_dirs(tmp_path)
    save_settings(Settings(window_size=(1280, 720)), dirs.settings_file)
    app = App(dirs, bots=InlineBots())
    try:
        assert app.screen.get_size() == (921, 720)
    finally:
        app.close()
    app = App(dirs, size=(1280, 720), bots=InlineBots())
    try:
        assert app.screen.get_size() == (1280, 720)
    finally:
        app.close()
