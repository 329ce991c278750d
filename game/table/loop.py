"""The main loop over a stack of screens: input to the top one, time on, frames drawn.

While something moves the loop runs at the display's pace (``Clock.tick``); while nothing does,
it draws nothing and sleeps until input arrives or a timer comes due, waking a few times a
second so the top screen can poll what it waits for (the bots' answers). The stack is the
loop's own: screens open, close and look around through its methods.
"""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Callable

import pygame

from game.table.layout import Layout
from game.table.screen_stack import SceneStack, Screen

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


#: The share of the desktop a window may take at most when it opens (room for its frame).
DESKTOP_SHARE = 0.9


def fit_desktop(size: tuple[int, int], desktop: tuple[int, int] | None) -> tuple[int, int]:
    """Return ``size`` shrunk, where it must be, to open whole on a desktop of ``desktop``
    pixels (``None``: unknown).

    >>> fit_desktop((1280, 720), (1024, 1280))
    (921, 720)
    >>> fit_desktop((1280, 720), (1920, 1080))
    (1280, 720)
    """
    if desktop is None or desktop[0] <= 0 or desktop[1] <= 0:
        return size
    width = min(size[0], int(desktop[0] * DESKTOP_SHARE))
    height = min(size[1], int(desktop[1] * DESKTOP_SHARE))
    return width, height


def desktop_size() -> tuple[int, int] | None:
    """Return the size of the first desktop in pixels, or None where the system cannot say."""
    with contextlib.suppress(pygame.error, IndexError, AttributeError):
        width, height = pygame.display.get_desktop_sizes()[0]
        return int(width), int(height)
    return None


def keep_window_at_least(size: tuple[int, int]) -> None:
    """Stop the person from shrinking the window below ``size`` (where the system allows)."""
    with warnings.catch_warnings(), contextlib.suppress(AttributeError, pygame.error):
        warnings.simplefilter("ignore", DeprecationWarning)  # only the window is looked up
        pygame.Window.from_display_module().minimum_size = size


class ScreenLoop:
    """The screens in play, the notices over them, and the loop that runs them.

    A subclass opens the window (``screen``, ``layout``) and may look after its own work once a
    frame (``tick_services``) and after a resize (``resized``).
    """

    screen: pygame.Surface
    layout: Layout

    def __init__(self, toasts: list[tuple[str, float]]) -> None:
        self.toasts = toasts
        self._stack = SceneStack()
        self.clock = pygame.time.Clock()
        self.running = True
        self.frame_times: list[float] = []
        #: Frames shown so far (``display.flip`` calls).
        self.frames_drawn = 0
        self._frame_wanted = True
        self._drawn_scenes: list[Screen] = []

    # -- the screens ----------------------------------------------------------------------

    def top_scene(self) -> Screen | None:
        """Return the screen getting the input."""
        return self._stack.top

    def scenes(self) -> tuple[Screen, ...]:
        """Return the screens open, bottom first."""
        return tuple(self._stack.scenes)

    def visible_scenes(self) -> list[Screen]:
        """Return the screens drawn, bottom first (the top one and those under overlays)."""
        return self._stack.visible()

    def push(self, scene: Screen) -> None:
        """Show a screen made here (not by name) on top."""
        self._stack.push(scene)

    def show_only(self, scene: Screen) -> None:
        """Close every screen and show ``scene``."""
        self._stack.replace(scene)

    def close_scene(self, scene: Screen) -> None:
        """Close a screen wherever it is; closing the top one resumes the one below."""
        self._stack.remove(scene)

    def scene_below(self, scene: Screen) -> Screen | None:
        """Return the screen just under ``scene``, if any."""
        return self._stack.below(scene)

    def toast(self, text: str, seconds: float = TOAST_SECONDS) -> None:
        """Show a short message at the top of the window."""
        kept = [(t, s) for t, s in self.toasts if t != text][-2:]
        self.toasts = [*kept, (text, seconds)]
        self.request_frame()

    def request_frame(self) -> None:
        """Have the loop draw the next frame: the picture changed without input or a timer."""
        self._frame_wanted = True

    # -- what a subclass adds -------------------------------------------------------------

    def tick_services(self) -> None:
        """Look after the subclass's own work once a frame, before the top screen's update."""

    def toggle_fullscreen(self) -> None:
        """Switch between a window and fullscreen (a subclass with a window does)."""

    def resized(self) -> None:
        """Follow a new window size: the subclass lays out again, then the screens follow."""
        for scene in self._stack.scenes:
            scene.resize()
        self.request_frame()

    # -- the loop -------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """Handle the keys that work everywhere, then offer the event to the screens from the
        top down until one consumes it (``SceneStack.handle``)."""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            if display_surface().get_size() != self.layout.size:
                self.resized()
            return
        if event.type == pygame.KEYDOWN and (
            event.key == pygame.K_F11
            or (event.key == pygame.K_RETURN and event.mod & pygame.KMOD_ALT)
        ):
            self.toggle_fullscreen()
            return
        self._stack.handle(event)

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
        top = self._stack.top
        due = self.next_frame_in()
        timing = top is not None and top.frame_due_in() is not None
        self.toasts = [(text, left - dt) for text, left in self.toasts if left - dt > 0]
        self.tick_services()
        if top is not None:
            top.update(dt)
        top = self._stack.top
        return (
            self._frame_wanted
            or self._stack.scenes != self._drawn_scenes
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
        top = self._stack.top
        due = None if top is None else top.frame_due_in()
        if due is not None:
            waits.append(max(due, 0.0))
        return min(waits, default=None)

    def draw(self) -> None:
        """Draw the visible screens and the messages, then show the frame.

        A resize that landed while the frame was drawn is looked for just before it is shown:
        the frame is then drawn again at the new size (up to ``RESIZE_REDRAWS`` times while
        the window keeps changing), so no frame of an old size is shown in a resized window.
        """
        self.paint()
        for _ in range(RESIZE_REDRAWS):
            pygame.event.pump()
            if display_surface().get_size() == self.layout.size:
                break
            self.resized()
            self.paint()
        pygame.display.flip()
        self.frames_drawn += 1
        self._frame_wanted = False
        self._drawn_scenes = list(self._stack.scenes)

    def paint(self) -> None:
        """Draw the visible screens and the notices over them."""
        from game.table.hud import draw_toasts

        for scene in self._stack.visible():
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

    def run(self, first: Screen) -> None:
        """Show ``first`` on top (moved there if it is open already: it goes on, not entered
        again) and run the loop until the player quits."""
        if first in self._stack.scenes:
            self._stack.scenes.remove(first)
            self._stack.scenes.append(first)
        else:
            self._stack.push(first)
        self.run_until(lambda: False)

    def run_until(self, done: Callable[[], bool]) -> None:
        """Run the loop until the player quits, the last screen closes or ``done()`` holds."""
        while self.running and self._stack.top is not None and not done():
            self.turn()

    def close_all(self) -> None:
        """Close every screen, top first."""
        while self._stack.top is not None:
            self._stack.pop()
