"""The loop draws nothing while nothing moves, and draws again as soon as something does.

Each test runs the real loop (``App.run``) for a fraction of a second on the dummy driver,
stopped by a real QUIT event from an SDL timer, and counts the frames shown
(``pygame.display.flip`` calls). A resize that lands while a frame is drawn must not show a
frame of the old size.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Sequence

import pygame
import pytest
from table_driver import Driver, MakeDriver

from ai.think import Decision
from game.table import loop as app_module
from game.table.bot_requests import InlineBots
from game.table.scene import Scene
from game.table.scenes.table import TableScene
from game.table.scenes.title import TitleScene


class HeldBots(InlineBots):
    """Bots whose answers are kept back while ``held`` (a bot thinking for as long as wanted)."""

    def __init__(self) -> None:
        super().__init__()
        self.held = False

    def poll(self) -> list[tuple[int, Decision]]:
        """Answer nothing while held."""
        return [] if self.held else super().poll()


def run_loop(
    driver: Driver,
    scene: Scene,
    seconds: float,
    events: Sequence[pygame.event.Event] = (),
    look: Callable[[], None] | None = None,
) -> list[float]:
    """Run the real loop with ``scene`` on top for ``seconds``, ``events`` waiting as input.

    A QUIT event posted by an SDL timer ends it; ``look`` is called as each frame is shown.
    Returns when each frame was shown, in seconds from the start (one entry per
    ``pygame.display.flip`` call).
    """
    app = driver.app
    shown: list[float] = []
    flip = pygame.display.flip

    def counting_flip() -> None:
        shown.append(time.perf_counter() - start)
        if look is not None:
            look()
        flip()

    # App.run puts the scene back on top if it is open (no leave, no enter: it goes on)
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)
    app.running = True
    pygame.display.flip = counting_flip
    pygame.time.set_timer(pygame.QUIT, round(seconds * 1000), loops=1)
    start = time.perf_counter()
    try:
        app.run(scene)
    finally:
        pygame.time.set_timer(pygame.QUIT, 0)
        pygame.display.flip = flip
    app.running = True
    return shown


def warmed_title(driver: Driver) -> TitleScene:
    """Return a title menu whose cards and sounds are all prepared (nothing left to move)."""
    title = TitleScene(driver.app)
    driver.app.push(title)
    driver.run_until(lambda: driver.app.warm_up(0.0), 2000)
    driver.step(2)
    return title


def table_waiting_for_the_pass(driver: Driver) -> TableScene:
    """Start a match and run frames until the person must choose cards and all is shown."""
    driver.app.start_match()
    table = driver.table
    driver.run_until(lambda: driver.ready_for_person() and table.session.person_must_pass)
    driver.step(120)  # anything timed (messages, glows) is over
    return table


def test_the_title_menu_shows_no_new_frame_while_nothing_moves(drivers: MakeDriver) -> None:
    driver = drivers(size=(1920, 1080))
    title = warmed_title(driver)
    shown = run_loop(driver, title, 0.6)
    assert len(shown) <= 1, f"{len(shown)} frames shown in 0.6 s of an unchanging title menu"
    assert title.frame_due_in() is None


def test_the_table_waiting_for_the_pass_shows_no_new_frame(drivers: MakeDriver) -> None:
    driver = drivers(size=(1920, 1080))
    table = table_waiting_for_the_pass(driver)
    shown = run_loop(driver, table, 0.6)
    assert len(shown) <= 1, f"{len(shown)} frames shown in 0.6 s of a table waiting"
    assert table.frame_due_in() is None


def test_a_card_chosen_rises_in_frames_then_the_table_is_still_again(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    table = table_waiting_for_the_pass(driver)
    card = table.view.shown.hand[0]
    point = driver.card_pos(card)
    driver.move(point)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=point, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=point, button=1))
    rising = run_loop(driver, table, 0.6, pygame.event.get())
    assert table.selected == [card]
    assert len(rising) >= 5, f"only {len(rising)} frames shown while the chosen card rose"
    assert table.frame_due_in() is None
    after = run_loop(driver, table, 0.4)
    assert len(after) <= 1, f"{len(after)} frames shown after the card had risen"


def test_a_pass_clicked_while_the_loop_sleeps_is_shown_from_its_first_frame(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The time asleep before a click is not played as part of the move the click starts."""
    monkeypatch.setattr(app_module, "IDLE_POLL_S", 0.5)  # the click comes well into a sleep
    driver = drivers()
    table = table_waiting_for_the_pass(driver)
    for card in table.view.shown.hand[:3]:
        driver.click_card(card)
    driver.step(60)
    beats: list[tuple[str, float]] = []

    def look() -> None:
        beat = table.view.timeline.current
        if beat is not None:
            beats.append((beat.name, beat.elapsed))

    click = pygame.event.Event(
        pygame.MOUSEBUTTONDOWN, pos=table.bar.pass_button.rect.center, button=1
    )
    pygame.time.set_timer(click, 300, loops=1)  # arrives while the loop sleeps
    run_loop(driver, table, 0.6, look=look)
    assert not table.session.person_must_pass
    assert beats, "the pass was not shown"
    name, elapsed = beats[0]
    assert elapsed <= 1.5 / app_module.FPS, f"the first frame showed {elapsed:.3f} s of {name!r}"


def test_a_bots_answer_is_shown_promptly_and_thinking_draws_few_frames(
    drivers: MakeDriver,
) -> None:
    bots = HeldBots()
    driver = drivers(bots=bots)
    bots.held = True
    driver.app.start_match()
    table = driver.table
    session = table.session
    driver.run_until(lambda: driver.ready_for_person() and bool(session.thinking_seats()))
    driver.step(60)
    thinking = run_loop(driver, table, 1.0)
    assert len(thinking) <= 8, f"{len(thinking)} frames in 1 s while only the thinking dots move"
    assert len(thinking) >= 2, "the thinking dots did not step"
    assert session.controller.seats_to_act == [0, 1, 2, 3]
    bots.held = False
    answered = run_loop(driver, table, 0.5)
    assert session.controller.seats_to_act == [0], "the bots' passes were not applied"
    assert answered, "no frame was shown after the bots answered"
    assert answered[0] <= 0.2, f"the bots' answers were shown {answered[0]:.3f} s later"


def test_a_resize_while_a_frame_is_drawn_shows_no_frame_of_the_old_size(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = drivers()
    app = driver.app
    table = table_waiting_for_the_pass(driver)
    shown: list[tuple[tuple[int, int], tuple[int, int], bool]] = []
    flip = pygame.display.flip

    def recording_flip() -> None:
        surface = pygame.display.get_surface()
        shown.append((surface.get_size(), app.layout.size, table.view.layout is app.layout))
        flip()

    monkeypatch.setattr(pygame.display, "flip", recording_flip)
    update = table.update

    def update_then_resize(dt: float) -> None:
        """Move time on; the window is made bigger (by the person) before the frame is shown."""
        update(dt)
        if not shown:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                pygame.Window.from_display_module().size = (1600, 900)

    monkeypatch.setattr(table, "update", update_then_resize)
    driver.step(3)
    assert shown[0][0] == (1600, 900)
    for surface_size, layout_size, table_follows in shown:
        assert layout_size == surface_size, f"a frame laid out for {layout_size} was shown"
        assert table_follows


def test_a_window_still_changing_size_while_the_frame_is_drawn_again_shows_its_last_size(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live resize goes on while the frame is drawn, and again while it is drawn anew: the
    frame shown is drawn at the size the window has when it is shown."""
    driver = drivers()
    app = driver.app
    table = table_waiting_for_the_pass(driver)
    shown: list[tuple[tuple[int, int], tuple[int, int]]] = []
    flip = pygame.display.flip

    def recording_flip() -> None:
        shown.append((pygame.display.get_surface().get_size(), app.layout.size))
        flip()

    monkeypatch.setattr(pygame.display, "flip", recording_flip)
    draw = table.draw
    sizes = [(1600, 900), (1700, 950)]

    def draw_while_resizing(surface: pygame.Surface) -> None:
        draw(surface)
        if sizes:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                pygame.Window.from_display_module().size = sizes.pop(0)

    monkeypatch.setattr(table, "draw", draw_while_resizing)
    driver.step()
    assert shown == [((1700, 950), (1700, 950))], f"frames shown (size, laid out for): {shown}"


def test_the_frame_after_a_resize_draws_no_card_anew_and_the_next_draws_them_exactly(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first frame at a new size scales the cards already drawn (it is shown at once,
    while the old picture would still be in the window); the frame after it draws the faces
    at their exact size, without waiting for input."""
    from game.table.card_art import CardArt

    driver = drivers()
    app = driver.app
    table = table_waiting_for_the_pass(driver)
    drawn: list[int] = []
    draw_face = CardArt._draw_face

    def counting_draw_face(art: CardArt, card: int) -> pygame.Surface:
        drawn.append(card)
        return draw_face(art, card)

    monkeypatch.setattr(CardArt, "_draw_face", counting_draw_face)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        pygame.Window.from_display_module().size = (1600, 900)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1600, 900), w=1600, h=900))
    driver.step()
    assert app.layout.size == (1600, 900)
    assert drawn == [], f"{len(drawn)} faces drawn in the frame right after the resize"
    art = app.card_art()
    hand = table.view.shown.hand
    blits = [art.face(card).get_size() for card in hand]
    assert set(blits) == {art.size}, "the stand-ins are not at the new card size"
    assert app.next_frame_in() == 0, "no frame follows to draw the cards exactly"
    driver.step()
    assert all(art.has_face(card) for card in hand), "the hand's faces were not drawn exactly"


def test_the_idle_benchmark_measures_the_title_and_the_table_drawing_nothing() -> None:
    from bench.idle import IDLE_HEADER, idle_rows, run_idle, target_rows

    results = run_idle((800, 600), 0.5)
    assert [result.moment for result in results] == [
        "title menu",
        "table waiting for the person's pass",
    ]
    for result in results:
        assert result.frames == 0, f"{result.frames} frames drawn on the idle {result.moment}"
        assert result.seconds >= 0.5 and result.cpu_seconds >= 0
    assert all(len(row) == len(IDLE_HEADER) for row in idle_rows(results))
    assert [row[2] in ("met", "not met") for row in target_rows(results)] == [True, True]


def test_the_real_loop_shows_a_watched_hand_to_its_summary(drivers: MakeDriver) -> None:
    """Nothing stalls in the sleeping loop: every beat, answer and timer moves the hand on."""
    from game.table.scenes.summary import HandSummary

    driver = drivers()
    app = driver.app
    app.settings = app.settings.with_changes(speed="fast", opponents=("easy",) * 3)
    app.start_match(watch=True)
    deadline = time.perf_counter() + 60
    app.run_until(
        lambda: isinstance(app.top_scene(), HandSummary) or time.perf_counter() > deadline
    )
    assert isinstance(app.top_scene(), HandSummary), driver.describe()
    assert driver.table.session.controller.phase == "hand_over"
    deadline = time.perf_counter() + 30  # the summary counts down and goes on by itself
    app.run_until(
        lambda: driver.table.session.controller.hand_number == 2 or time.perf_counter() > deadline
    )
    assert driver.table.session.controller.hand_number == 2, driver.describe()


def test_a_moment_is_drawn_at_the_displays_pace_then_the_loop_rests(drivers: MakeDriver) -> None:
    from game.table.scenes.moment import Moment

    driver = drivers()
    table = table_waiting_for_the_pass(driver)
    driver.app.push(Moment(driver.app, "queen", "West takes the Q♠"))
    shown = run_loop(driver, driver.app.top_scene(), 2.0)
    during = [at for at in shown if at < 1.2]
    after = [at for at in shown if at > 1.7]
    assert len(during) >= 30, shown  # the moment animates (1.4 s at 60 fps)
    assert not after, after  # then the table rests again
    assert driver.top is table


def test_a_watched_summarys_countdown_is_drawn_each_second(drivers: MakeDriver) -> None:
    from game.table.scenes.summary import HandSummary

    driver = drivers()
    app = driver.app
    app.settings = app.settings.with_changes(speed="instant")
    app.start_match(watch=True)
    driver.run_until(lambda: isinstance(app.top_scene(), HandSummary), 20_000)
    summary = app.top_scene()
    shown = run_loop(driver, summary, 3.3)  # the summary goes on after 4 s
    assert len(shown) >= 3, shown  # "Next hand (3)", "(2)", "(1)" at least
    assert len(shown) <= 12, shown  # but not every frame
