"""The running table: the window, the screens' loop (``ScreenLoop``) and what screens share.

Nothing in a frame waits: bots think in the worker process and saves are written by a
background thread. The person's statistics and files are the books' (``MatchBooks``).
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any

from ai.telemetry import telemetry_from_env
from ai.think import ThinkConfig, think_config_from_env
from core.environment import environment
from core.files import UserDirs, user_dirs
from game.paths import asset_path
from game.table.bot_requests import AsyncBots, WorkerBots
from game.table.coach import Coach
from game.table.match.books import MatchBooks
from game.table.match.local import LocalMatches
from game.table.review_requests import AsyncReviews, InlineReviews, WorkerReviews
from game.table.session import TableSession
from game.table.store.json_store import json_text
from game.table.store.saves import BackgroundSaver
from game.table.store.settings import MIN_WINDOW, Settings, fit_window, load_settings

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Per-monitor DPI awareness on Windows, so the window is drawn at the real pixel size.
os.environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")

import pygame

from game.table.card_art import CardArt, CardArtCache, CardStyle
from game.table.layout import Layout, compute_layout
from game.table.loop import (
    TOAST_SECONDS,
    ScreenLoop,
    desktop_size,
    display_surface,
    fit_desktop,
    keep_window_at_least,
)
from game.table.screen_stack import scene_named
from game.table.sounds import SoundBoard

TITLE = "MDHearts"


class App(ScreenLoop):
    """The running table: window, screens, settings, sounds, bots, and the person's books.

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
        env = dict(environment(environ))
        warnings: list[str] = list(notices or [])
        if dirs is None:
            dirs, warnings = user_dirs(env)
        self.dirs = dirs
        self.settings, found = load_settings(dirs.settings_file)
        warnings += found
        self.saver = BackgroundSaver()
        self.books = MatchBooks(dirs, self.saver, lambda: self.settings.replays_kept)
        warnings += self.books.problems
        self.think, found = think_config_from_env(env, ThinkConfig())
        warnings += found
        telemetry, found = telemetry_from_env(env, None)
        warnings += found
        super().__init__([(text, TOAST_SECONDS * 2) for text in warnings])
        report = None if telemetry is None else telemetry.record
        self.bots: AsyncBots = bots if bots is not None else WorkerBots(self.think, report)
        if reviews is None:
            reviews = WorkerReviews() if isinstance(self.bots, WorkerBots) else InlineReviews()
        self.reviews: AsyncReviews = reviews
        self.coach = Coach(reviews)
        #: Where the table gets its matches (played here, for now).
        self.matches = LocalMatches(self.books, self.bots, self.think, lambda: self.settings)
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(TITLE)
        with contextlib.suppress(pygame.error, FileNotFoundError):
            pygame.display.set_icon(pygame.image.load(str(asset_path("icon.png"))))
        # The saved size is the person's last window, maybe on a larger screen: it opens whole.
        self.windowed_size = size or fit_window(
            fit_desktop(self.settings.window_size, desktop_size())
        )
        self.fullscreen = False
        self.screen = self._open_window(self.settings.fullscreen and size is None)
        self.layout: Layout = compute_layout(*self.screen.get_size())
        self.art = CardArtCache()
        self.sounds = SoundBoard(self.settings.sound)
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
        keep_window_at_least(MIN_WINDOW)
        return screen

    def toggle_fullscreen(self) -> None:
        """Switch between a window and desktop fullscreen; the game goes on untouched."""
        if not self.fullscreen:
            self.windowed_size = self.screen.get_size()
        self.screen = self._open_window(not self.fullscreen)
        self.settings = self.settings.with_changes(fullscreen=self.fullscreen)
        self.save_settings()
        self.resized()

    def resized(self) -> None:
        """Follow the window's new size: a new layout, cards scaled quickly for one frame."""
        self.screen = display_surface()
        self.art.quick = True
        self.layout = compute_layout(*self.screen.get_size())
        if not self.fullscreen:
            self.windowed_size = self.screen.get_size()
        super().resized()

    def draw(self) -> None:
        """Draw and show a frame (``ScreenLoop.draw``). The frame drawn right after a resize
        scales the cards from a size already drawn rather than drawing them anew
        (``CardArtCache.quick``), so it is ready at once; the next frame draws them exactly."""
        super().draw()
        if self.art.quick:
            self.art.quick = False
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

    def push_scene(self, name: str, *args: Any, **kwargs: Any) -> None:
        """Show the screen registered as ``name`` (made with these arguments) on top."""
        self.push(scene_named(name, self, *args, **kwargs))

    def replace_scene(self, name: str, *args: Any, **kwargs: Any) -> None:
        """Close every screen and show the one registered as ``name``."""
        self.show_only(scene_named(name, self, *args, **kwargs))

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

    def start_match(self, watch: bool = False) -> None:
        """Start a new match with the settings' opponents and rules and show the table; a
        match the person plays replaces the saved one (once the table left has saved its)."""
        self.reviews.cancel()
        match = self.matches.new(watch=watch)
        self.replace_scene("table", match)
        if not watch:
            self.books.save_match(match)
            self.saver.discard(self.dirs.reviews_file)

    # -- once a frame ---------------------------------------------------------------------

    def tick_services(self) -> None:
        """Show the saver's errors; move the coach's background reviews on and keep the books
        of the match at the table (``MatchBooks.follow_reviews``)."""
        for message in self.saver.errors():
            self.toast(message, TOAST_SECONDS * 2)
        scenes = self.scenes()
        sessions = [getattr(scene, "session", None) for scene in scenes]
        real = (s for s in sessions if isinstance(s, TableSession) and not s.practice)
        session = next(real, None)
        self.coach.tick(session, any(scene.owns_reviews for scene in scenes))
        if session is not None:
            self.books.follow_reviews(session, self.coach)

    def close(self) -> None:
        """Save what is pending, stop the bots and close the window."""
        self.close_all()
        self.save_settings()
        self.saver.close()
        self.bots.close()
        self.reviews.close()
        pygame.quit()
