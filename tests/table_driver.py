"""Driving the real table headless: build an App, post mouse and key events, step frames."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pygame

from core.files import UserDirs
from core.record import dumps_record
from game.table.app import App
from game.table.bot_requests import AsyncBots, InlineBots
from game.table.scene import Scene
from game.table.scenes.menu import MenuScene
from game.table.scenes.summary import HandSummary
from game.table.scenes.table import TableScene
from game.table.scenes.title import TitleScene

FRAME = 1 / 60
#: A generous bound on a frame's time: a sanity check that nothing in a frame waits.
SLOW_FRAME_S = 0.25


def make_dirs(root: Path) -> UserDirs:
    """Return user folders under ``root`` (created when first written to)."""
    return UserDirs(root / "config", root / "data", root / "state", root / "log")


#: Builds a Driver on the test's folders (the ``drivers`` fixture).
MakeDriver = Callable[..., "Driver"]


def open_title(driver: Driver) -> TitleScene:
    """Show the title menu and draw it once."""
    title = TitleScene(driver.app)
    driver.app.push(title)
    driver.step()
    return title


class StuckError(AssertionError):
    """The table did not reach the awaited state within the allowed frames."""


class Driver:
    """One App under test, with helpers to post input and run frames."""

    def __init__(
        self,
        dirs: UserDirs,
        size: tuple[int, int] = (1280, 720),
        bots: AsyncBots | None = None,
        inline: bool = True,
        environ: dict[str, str] | None = None,
        notices: list[str] | None = None,
    ) -> None:
        if bots is None and inline:
            bots = InlineBots()
        self.app = App(dirs=dirs, size=size, bots=bots, environ=environ, notices=notices)
        self.closed = False
        #: Where the posted pointer is (motions carry their movement from here).
        self.pointer: tuple[int, int] | None = None
        self.step_times: list[float] = []
        #: Called after every frame run by ``step``.
        self.after_step: list[Callable[[], None]] = []

    # -- frames ---------------------------------------------------------------------------

    def step(self, frames: int = 1, dt: float = FRAME) -> None:
        """Run ``frames`` frames of ``dt`` seconds each, timing every one."""
        for _ in range(frames):
            start = time.perf_counter()
            self.app.step(dt)
            self.step_times.append(time.perf_counter() - start)
            for check in self.after_step:
                check()

    def pump(self) -> None:
        """Hand the posted events to the App without running a frame."""
        for event in pygame.event.get():
            self.app.handle(event)

    def run_until(self, done: Callable[[], bool], max_frames: int = 5000, dt: float = FRAME) -> int:
        """Step until ``done()`` holds; return the frames run, or raise StuckError."""
        for frame in range(max_frames):
            if done():
                return frame
            self.step(1, dt)
        if done():
            return max_frames
        raise StuckError(f"not reached after {max_frames} frames; stack: {self.describe()}")

    def describe(self) -> str:
        """Describe the scene stack and the table's state, for failure messages."""
        names = [type(scene).__name__ for scene in self.app.scenes()]
        table = self.table_or_none()
        if table is None:
            return f"{names}"
        session = table.session
        return (
            f"{names} phase={session.phase} to_act={session.view().seats_to_act} "
            f"idle={table.view.idle} message={table.message}"
        )

    @property
    def max_step_s(self) -> float:
        """Return the longest frame seen so far, in seconds."""
        return max(self.step_times, default=0.0)

    # -- input ----------------------------------------------------------------------------

    def move(self, pos: tuple[int, int]) -> None:
        """Post a mouse motion to ``pos``, moved from the last place posted (a pointer first
        posted comes from a pixel beside it): the pointer really moves, as a person moves it."""
        last = self.pointer if self.pointer is not None and self.pointer != pos else None
        rel = (pos[0] - last[0], pos[1] - last[1]) if last is not None else (1, 0)
        self.pointer = pos
        motion = pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=(0, 0, 0))
        pygame.event.post(motion)

    def rest_pointer(self, pos: tuple[int, int]) -> None:
        """Post the motion SDL sends when a window opens under a resting pointer: its place,
        no movement."""
        self.pointer = pos
        motion = pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        pygame.event.post(motion)

    def click(self, pos: tuple[float, float], frames: int = 1) -> None:
        """Move the mouse to ``pos``, press and release the left button, run ``frames`` frames."""
        point = (round(pos[0]), round(pos[1]))
        self.move(point)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=point, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=point, button=1))
        self.step(frames)

    def key(self, key: int, mod: int = 0, frames: int = 1) -> None:
        """Post a key press (down and up) and run ``frames`` frames."""
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=""))
        self.step(frames)

    # -- what is on screen ----------------------------------------------------------------

    @property
    def top(self) -> Scene | None:
        """Return the scene getting the input."""
        return self.app.top_scene()

    def table_or_none(self) -> TableScene | None:
        """Return the table scene in the stack, if any."""
        for scene in self.app.scenes():
            if isinstance(scene, TableScene):
                return scene
        return None

    @property
    def table(self) -> TableScene:
        """Return the table scene (it must be in the stack)."""
        table = self.table_or_none()
        assert table is not None, f"no table in {self.describe()}"
        return table

    def record(self) -> str:
        """Return the table's controller record."""
        return dumps_record(self.table.session.controller)

    def card_pos(self, card: int) -> tuple[int, int]:
        """Return a point on the visible part of one of the person's cards."""
        table = self.table
        width = self.app.layout.card_size[0]
        drawn = sorted(table.pointer.hand_cards(), key=lambda d: d.centre[0])
        for index, item in enumerate(drawn):
            if item.card != card:
                continue
            left = item.centre[0] - width / 2
            right = left + width
            if index + 1 < len(drawn):
                right = min(right, drawn[index + 1].centre[0] - width / 2)
            pos = (round((left + right) / 2), round(item.centre[1]))
            found = table.pointer.card_at(pos)
            assert found == card, f"a click at {pos} would hit {found}, not {card}"
            return pos
        raise AssertionError(f"card {card} is not drawn in the hand")

    def click_card(self, card: int, frames: int = 1) -> None:
        """Click one of the person's cards."""
        self.click(self.card_pos(card), frames)

    def ready_for_person(self) -> bool:
        """Return whether the table waits for the person (shown and nothing pending)."""
        table = self.table_or_none()
        on_top = self.top is table
        if table is None or not on_top:
            return False
        seat = table.session.view()
        return table.ready_for_person() and (seat.person_must_pass or seat.person_must_play)

    def summary_shown(self) -> bool:
        """Return whether a hand summary is on top."""
        return isinstance(self.top, HandSummary)

    def menu_index(self, label: str) -> int:
        """Return the index of a menu item on the top menu by its label."""
        menu = self.top
        assert isinstance(menu, MenuScene), self.describe()
        return [item.text() for item in menu.items].index(label)

    def menu_item_pos(self, label: str) -> tuple[int, int]:
        """Return the centre of a menu item on the top menu."""
        menu = self.top
        assert isinstance(menu, MenuScene), self.describe()
        rect = menu._geometry()[1][self.menu_index(label)]
        return rect.center

    def close(self) -> None:
        """Close the App once."""
        if not self.closed:
            self.closed = True
            self.app.close()
