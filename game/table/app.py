"""The running table: the window, the main loop, and the services the screens share.

The loop hands input to the top screen, moves time on and draws. While something moves it runs
at the display's pace (``Clock.tick``); while nothing does, it draws nothing and sleeps until
input arrives or a timer comes due, waking a few times a second to poll the bots' answers.
Nothing in a frame waits: bots think in the worker process and saves are written by a
background thread.
"""

from __future__ import annotations

import contextlib
import os
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ai.telemetry import telemetry_from_env
from ai.think import ThinkConfig, think_config_from_env
from core.controller import Controller
from core.files import UserDirs, user_dirs
from core.record import dumps_record
from game.paths import asset_path
from game.table.bot_requests import AsyncBots, WorkerBots
from game.table.coach import Coach
from game.table.review_requests import AsyncReviews, InlineReviews, WorkerReviews
from game.table.session import TableSession
from game.table.store.json_store import json_text
from game.table.store.replays import replay_name, replay_text, surplus
from game.table.store.review_file import reviews_text
from game.table.store.saves import BackgroundSaver, load_game
from game.table.store.settings import MIN_WINDOW, Settings, fit_window, load_settings
from game.table.store.stats import Statistics, load_statistics, match_difficulty

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Per-monitor DPI awareness on Windows, so the window is drawn at the real pixel size.
os.environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")

import pygame

from game.table.card_art import CardArt, CardArtCache, CardStyle
from game.table.layout import Layout, compute_layout
from game.table.scene import Scene, SceneStack, scene_named
from game.table.sounds import SoundBoard

TITLE = "MDHearts"
FPS = 60
#: The longest step of time one frame may take (a stall is not replayed as a jump).
MAX_DT = 0.1
TOAST_SECONDS = 4.0
#: The longest the loop sleeps while nothing moves: the bots' answers, the saver's errors and
#: the screens' timers are looked at this often, so a bot's move shows within this time.
IDLE_POLL_S = 0.05
#: How often a sleeping loop looks for input (less than a frame at 60 Hz). pygame's own
#: ``event.wait(timeout)`` looks every millisecond, which costs about 5 % of a core by itself.
INPUT_POLL_S = 0.01
#: How many times one frame is drawn again when the window changed size while it was drawn.
RESIZE_REDRAWS = 4
#: Slack when comparing a timer with the time moved on (the two sums round differently).
TIME_SLACK_S = 1e-6


def display_surface() -> pygame.Surface:
    """Return the window's surface (the window must be open)."""
    surface = pygame.display.get_surface()
    if surface is None:
        raise RuntimeError("the window is not open")
    return surface


class App:
    """The running table: window, screens, settings, statistics, saves, sounds and bots.

    ``notices`` are messages to show when it opens (a bad environment variable found before,
    say); problems it finds itself in the settings, files and environment are shown too.
    Hand reviews run where the bots do unless ``reviews`` says otherwise: in a worker process
    of their own beside the bot worker's, or in this process with ``InlineBots``.
    """

    def __init__(
        self,
        dirs: UserDirs | None = None,
        size: tuple[int, int] | None = None,
        bots: AsyncBots | None = None,
        environ: dict[str, str] | None = None,
        notices: list[str] | None = None,
        reviews: AsyncReviews | None = None,
    ) -> None:
        env = dict(os.environ if environ is None else environ)
        warnings: list[str] = list(notices or [])
        if dirs is None:
            dirs, warnings = user_dirs(env)
        self.dirs = dirs
        self.settings, found = load_settings(dirs.settings_file)
        warnings += found
        self.stats, found = load_statistics(dirs.statistics_file)
        warnings += found
        self.think, found = think_config_from_env(env, ThinkConfig())
        warnings += found
        telemetry, found = telemetry_from_env(env, None)
        warnings += found
        self.toasts: list[tuple[str, float]] = [(text, TOAST_SECONDS * 2) for text in warnings]
        report = None if telemetry is None else telemetry.record
        self.bots: AsyncBots = bots if bots is not None else WorkerBots(self.think, report)
        if reviews is None:
            reviews = WorkerReviews() if isinstance(self.bots, WorkerBots) else InlineReviews()
        self.reviews: AsyncReviews = reviews
        self.coach = Coach(reviews)
        self.saver = BackgroundSaver()
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(TITLE)
        with contextlib.suppress(pygame.error, FileNotFoundError):
            pygame.display.set_icon(pygame.image.load(str(asset_path("icon.png"))))
        self.windowed_size = size or self.settings.window_size
        self.fullscreen = False
        self.screen = self._open_window(self.settings.fullscreen and size is None)
        self.layout: Layout = compute_layout(*self.screen.get_size())
        self.art = CardArtCache()
        self.sounds = SoundBoard(self.settings.sound)
        self.stack = SceneStack()
        self.clock = pygame.time.Clock()
        self.running = True
        self.frame_times: list[float] = []
        #: Frames shown so far (``display.flip`` calls).
        self.frames_drawn = 0
        self._frame_wanted = True
        self._drawn_scenes: list[Scene] = []
        if isinstance(self.bots, WorkerBots):
            self.bots.start()

    # -- the window -----------------------------------------------------------------------

    def _open_window(self, fullscreen: bool) -> pygame.Surface:
        self.fullscreen = fullscreen
        if fullscreen:
            with contextlib.suppress(pygame.error):
                return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            self.fullscreen = False
        screen = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
        _keep_window_at_least(MIN_WINDOW)
        return screen

    def toggle_fullscreen(self) -> None:
        """Switch between a window and desktop fullscreen; the game goes on untouched."""
        if not self.fullscreen:
            self.windowed_size = self.screen.get_size()
        self.screen = self._open_window(not self.fullscreen)
        self.settings = self.settings.with_changes(fullscreen=self.fullscreen)
        self.save_settings()
        self._resized()

    def _resized(self) -> None:
        self.screen = display_surface()
        self.art.quick = True
        self.layout = compute_layout(*self.screen.get_size())
        if not self.fullscreen:
            self.windowed_size = self.screen.get_size()
        for scene in self.stack.scenes:
            scene.resize()
        self.request_frame()

    # -- services for the screens ---------------------------------------------------------

    def card_art(self, small: bool = False) -> CardArt:
        """Return the card art in the settings' style at the layout's size (bots' if small)."""
        settings = self.settings
        style = CardStyle(settings.four_colour, settings.large_print, settings.card_back)
        layout = self.layout
        width = layout.small_card_size[0] if small else layout.card_size[0]
        return self.art.get(width, style)

    def warm_up(self, budget_s: float) -> bool:
        """Draw cards and synthesise sounds not made yet, for about ``budget_s`` seconds.

        Returns whether everything is ready. Screens call it every frame, with a larger budget
        where nothing moves (the title menu), so no frame of play makes many at once.
        """
        deadline = time.perf_counter() + budget_s
        return (
            self.card_art().warm(deadline)
            and self.card_art(small=True).warm(deadline)
            and self.sounds.preload(deadline)
        )

    def toast(self, text: str, seconds: float = TOAST_SECONDS) -> None:
        """Show a short message at the top of the window."""
        kept = [(t, s) for t, s in self.toasts if t != text][-2:]
        self.toasts = [*kept, (text, seconds)]
        self.request_frame()

    def request_frame(self) -> None:
        """Have the loop draw the next frame: the picture changed without input or a timer."""
        self._frame_wanted = True

    def change_settings(self, settings: Settings) -> None:
        """Use and save new settings."""
        self.settings = settings
        self.sounds.enabled = settings.sound
        self.save_settings()
        self.request_frame()

    def save_settings(self) -> None:
        """Write the settings in the background."""
        settings = self.settings
        if not self.fullscreen:
            size = self.screen.get_size()
            settings = settings.with_changes(window_size=fit_window((size[0], size[1])))
        self.saver.submit(self.dirs.settings_file, json_text(settings.to_dict()))

    def change_stats(self, stats: Statistics) -> None:
        """Use and save new statistics."""
        self.stats = stats
        self.saver.submit(self.dirs.statistics_file, json_text(stats.to_dict()))

    def save_game(self, controller: Controller) -> None:
        """Write the game in progress now, so a killed program loses nothing shown."""
        self.saver.write_now(self.dirs.save_file, dumps_record(controller))

    def push_scene(self, name: str, *args: Any, **kwargs: Any) -> None:
        """Show the screen registered as ``name`` (made with these arguments) on top."""
        self.stack.push(scene_named(name, self, *args, **kwargs))

    def replace_scene(self, name: str, *args: Any, **kwargs: Any) -> None:
        """Close every screen and show the one registered as ``name``."""
        self.stack.replace(scene_named(name, self, *args, **kwargs))

    def push(self, scene: Scene) -> None:
        """Show a screen made here (not by name) on top."""
        self.stack.push(scene)

    def close_scene(self, scene: Scene) -> None:
        """Close a screen wherever it is; closing the top one resumes the one below."""
        self.stack.remove(scene)

    def scene_below(self, scene: Scene) -> Scene | None:
        """Return the screen just under ``scene``, if any."""
        return self.stack.below(scene)

    def start_match(self, watch: bool = False) -> None:
        """Start a new match with the settings' opponents and rules and show the table."""
        settings = self.settings
        self.bots.cancel_all()
        self.reviews.cancel()
        session = TableSession.new_match(
            self.bots,
            settings.opponents,
            settings.rules,
            limit_ms=self.think.limit_ms,
            watch=watch,
        )
        self.replace_scene("table", session)
        if not watch:
            self.save_game(session.controller)
            self.saver.discard(self.dirs.reviews_file)

    def archive_match(self, controller: Controller) -> None:
        """Keep a finished match to replay (in the background), removing the oldest ones
        beyond the number the person keeps; with none kept, nothing is written or removed."""
        kept = self.settings.replays_kept
        if kept == 0:
            return
        folder = self.dirs.replays
        for old in surplus(folder, kept):
            self.saver.discard(old)
        name = replay_name(controller, datetime.now(UTC))
        self.saver.submit(folder / name, replay_text(controller))

    def discard_game(self) -> None:
        """Forget the saved game in progress (it is over) and its reviews."""
        self.saver.write_now(self.dirs.save_file, None)
        self.saver.discard(self.dirs.reviews_file)

    def load_saved_game(self) -> Controller | None:
        """Return the saved game in progress, if any; a bad file is set aside with a message."""
        self.saver.flush()
        controller, message = load_game(self.dirs.save_file)
        if message:
            self.toast(message, TOAST_SECONDS * 2)
        if controller is not None and controller.phase == "match_over":
            return None
        return controller

    # -- the loop -------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """Handle the keys that work everywhere, then offer the event to the screens from the
        top down until one consumes it (``SceneStack.handle``)."""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            if display_surface().get_size() != self.layout.size:
                self._resized()
            return
        if event.type == pygame.KEYDOWN and (
            event.key == pygame.K_F11
            or (event.key == pygame.K_RETURN and event.mod & pygame.KMOD_ALT)
        ):
            self.toggle_fullscreen()
            return
        self.stack.handle(event)

    def step(self, dt: float) -> None:
        """Run one frame: input, time, drawing.

        The frame is always drawn, so tests and tools that step frames by hand see the state
        they stepped to; the loop (``turn``) draws only when the picture changed.
        """
        self.advance(dt)
        if self.running:
            self.draw()

    def advance(self, dt: float) -> bool:
        """Handle the waiting input and move time on by ``dt``; return whether to draw."""
        had_input = self._handle_input()
        if not self.running:
            return False
        return self._move_time(dt) or had_input

    def _handle_input(self) -> bool:
        """Hand every waiting event on; return whether there was any (it changes the picture)."""
        events = pygame.event.get()
        for event in events:
            self.handle(event)
            if not self.running:
                break
        return bool(events)

    def _move_time(self, dt: float) -> bool:
        """Move the messages and the top screen on by ``dt``; return whether to draw.

        The picture changed when a screen opened or closed, a message came or went, something
        asked for a frame (``request_frame``), or the top screen animates, reached one of its
        timers, or started or stopped timing (``Scene.frame_due_in``).
        """
        dt = min(max(dt, 0.0), MAX_DT)
        top = self.stack.top
        due = self.next_frame_in()
        timing = top is not None and top.frame_due_in() is not None
        self.toasts = [(text, left - dt) for text, left in self.toasts if left - dt > 0]
        for message in self.saver.errors():
            self.toast(message, TOAST_SECONDS * 2)
        self._coach()
        if top is not None:
            top.update(dt)
        top = self.stack.top
        return (
            self._frame_wanted
            or self.stack.scenes != self._drawn_scenes
            or (due is not None and due <= dt + TIME_SLACK_S)
            or self.next_frame_in() == 0
            or timing != (top is not None and top.frame_due_in() is not None)
        )

    def next_frame_in(self) -> float | None:
        """Return how soon the picture changes by itself, in seconds (None: only by input).

        ``0`` while the top screen animates or a frame was asked for; else the nearest of the
        top screen's timers and the messages' ends.
        """
        if self._frame_wanted:
            return 0.0
        waits = [left for _, left in self.toasts]
        top = self.stack.top
        due = None if top is None else top.frame_due_in()
        if due is not None:
            waits.append(max(due, 0.0))
        return min(waits, default=None)

    def _coach(self) -> None:
        """Move the coach's background reviews on; once every hand of the person's finished
        match is reviewed, count its points lost per decision in the statistics."""
        sessions = [getattr(scene, "session", None) for scene in self.stack.scenes]
        session = next((s for s in sessions if isinstance(s, TableSession)), None)
        page_open = any(scene.owns_reviews for scene in self.stack.scenes)
        self.coach.tick(session, page_open)
        if session is None:
            return
        if (
            session.person_plays
            and session.phase != "match_over"
            and len(session.reviews) != session.reviews_saved
        ):
            session.reviews_saved = len(session.reviews)
            text = reviews_text(session.controller, session.reviews)
            self.saver.submit(self.dirs.reviews_file, text)
        if not session.match_counted or session.review_counted:
            return
        found = self.coach.match_review(session)
        if found is not None:
            session.review_counted = True
            level = match_difficulty(session.bot_names.values())
            self.change_stats(self.stats.with_match_review(found.decisions, found.loss, level))

    def draw(self) -> None:
        """Draw the visible screens and the messages, then show the frame.

        A resize that landed while the frame was drawn is looked for just before it is shown:
        the frame is then drawn again at the new size (up to ``RESIZE_REDRAWS`` times while
        the window keeps changing), so no frame of an old size is shown in a resized window.
        The frame drawn right after a resize scales the cards from a size already drawn
        rather than drawing them anew (``CardArtCache.quick``), so it is ready at once; the
        next frame draws them at their exact size.
        """
        self._paint()
        for _ in range(RESIZE_REDRAWS):
            pygame.event.pump()
            if display_surface().get_size() == self.layout.size:
                break
            self._resized()
            self._paint()
        pygame.display.flip()
        self.frames_drawn += 1
        self._frame_wanted = False
        self._drawn_scenes = list(self.stack.scenes)
        if self.art.quick:
            self.art.quick = False
            self.request_frame()

    def _paint(self) -> None:
        from game.table.hud import draw_toasts

        for scene in self.stack.visible():
            scene.draw(self.screen)
        draw_toasts(self.screen, self.layout, [text for text, _ in self.toasts])

    def turn(self) -> bool:
        """Run one turn of the loop; return whether a frame was drawn.

        While the picture changes, turns come at the display's pace. While it does not, the
        turn first sleeps until input arrives, the next timer comes due or ``IDLE_POLL_S``
        passes, then moves time on (polling the bots) and draws only if something changed.
        The time asleep is moved on before the input is handled, so a move the input starts
        begins at its first frame.
        """
        due = self.next_frame_in()
        still = due is None or due > 0
        if still:
            self._sleep_until_input(IDLE_POLL_S if due is None else min(due, IDLE_POLL_S))
        dt = self.clock.tick(FPS) / 1000
        changed = False
        if still and dt > 1 / FPS and pygame.event.peek():
            changed = self._move_time(dt - 1 / FPS)
            dt = 1 / FPS
        if (self.advance(dt) or changed) and self.running:
            self.draw()
            return True
        return False

    def _sleep_until_input(self, seconds: float) -> None:
        """Sleep up to ``seconds``, waking within ``INPUT_POLL_S`` when input arrives."""
        deadline = time.perf_counter() + seconds
        while not pygame.event.peek():
            left = deadline - time.perf_counter()
            if left <= 0:
                return
            time.sleep(min(INPUT_POLL_S, left))

    def run(self, first: Scene) -> None:
        """Show ``first`` and run the loop until the player quits."""
        self.stack.push(first)
        self.run_until(lambda: False)

    def run_until(self, done: Callable[[], bool]) -> None:
        """Run the loop until the player quits, the last screen closes or ``done()`` holds."""
        while self.running and self.stack.top is not None and not done():
            self.turn()

    def close(self) -> None:
        """Save what is pending, stop the bots and close the window."""
        while self.stack.top is not None:
            self.stack.pop()
        self.save_settings()
        self.saver.close()
        self.bots.close()
        self.reviews.close()
        pygame.quit()


def _keep_window_at_least(size: tuple[int, int]) -> None:
    """Stop the person from shrinking the window below ``size`` (where the system allows)."""
    with warnings.catch_warnings(), contextlib.suppress(AttributeError, pygame.error):
        warnings.simplefilter("ignore", DeprecationWarning)  # only the window is looked up
        pygame.Window.from_display_module().minimum_size = size
