"""Idle CPU of the table: the real loop (``App.run_until``) while nothing on screen moves.

Two moments are measured at each window size, with the real bot worker process: the title menu
once its cards are prepared, and the table of a new match waiting for the person to choose the
cards to pass once the bots have passed and nothing is left to show. The share is the table
process's CPU time (every thread, ``time.process_time``) per wall-clock second over a few
seconds of the loop; the X server and the bot worker are not counted. Part of
``python -m bench frames``.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.table.app import App

#: The target from the issue: the loop takes at most this share of one core while idle.
TARGET_IDLE_SHARE = 0.05
#: The longest wait for a moment to be reached (the title's cards, the bots' passes).
MAX_SETUP_S = 60.0


@dataclass(frozen=True)
class IdleCpu:
    """The table's CPU over some seconds of one idle moment."""

    size: tuple[int, int]
    moment: str
    seconds: float
    cpu_seconds: float
    frames: int

    @property
    def share(self) -> float:
        """Return the CPU time per wall-clock second (1.0 is one core kept busy)."""
        return self.cpu_seconds / self.seconds if self.seconds > 0 else 0.0

    @property
    def met(self) -> bool:
        """Return whether the idle target is met."""
        return self.share <= TARGET_IDLE_SHARE


def loop_until(app: App, done: Callable[[], bool], seconds: float) -> None:
    """Run the real loop until ``done()`` holds; RuntimeError after ``seconds``."""
    deadline = time.perf_counter() + seconds
    app.run_until(lambda: done() or time.perf_counter() >= deadline)
    if not done():
        raise RuntimeError(f"the table did not settle within {seconds:g} s")


def measure(app: App, size: tuple[int, int], moment: str, seconds: float) -> IdleCpu:
    """Run the real loop for ``seconds`` and return the CPU it took and the frames it drew."""
    frames = app.frames_drawn
    cpu = time.process_time()
    start = time.perf_counter()
    app.run_until(lambda: time.perf_counter() - start >= seconds)
    wall = time.perf_counter() - start
    return IdleCpu(size, moment, wall, time.process_time() - cpu, app.frames_drawn - frames)


def run_idle(size: tuple[int, int], seconds: float) -> list[IdleCpu]:
    """Open the game at ``size`` and measure the idle title menu and the idle table."""
    from core.files import UserDirs
    from game.table.app import App
    from game.table.scenes.table import TableScene
    from game.table.scenes.title import TitleScene

    with tempfile.TemporaryDirectory(prefix="mdh-idle-") as folder:
        home = Path(folder)
        dirs = UserDirs(home / "config", home / "data", home / "state", home / "log")
        app = App(dirs=dirs, size=size, environ=dict(os.environ))
        try:
            title = TitleScene(app)
            app.push(title)
            loop_until(app, lambda: title.frame_due_in() is None, MAX_SETUP_S)
            results = [measure(app, size, "title menu", seconds)]
            app.start_match()
            table = app.top_scene()
            if not isinstance(table, TableScene):
                raise RuntimeError("the table did not open")

            def waiting() -> bool:
                session = table.session
                return (
                    session.view().person_must_pass
                    and session.view().seats_to_act == (0,)
                    and table.frame_due_in() is None
                )

            loop_until(app, waiting, MAX_SETUP_S)
            results.append(measure(app, size, "table waiting for the person's pass", seconds))
            return results
        finally:
            app.close()


def idle_rows(results: list[IdleCpu]) -> list[list[str]]:
    """Return one table row per measured moment."""
    return [
        [
            f"{result.size[0]}×{result.size[1]}",
            result.moment,
            f"{result.seconds:.1f}",
            f"{100 * result.share:.1f} %",
            f"{result.frames}",
        ]
        for result in results
    ]


IDLE_HEADER = ["size", "moment", "seconds", "CPU (% of one core)", "frames drawn"]


def target_rows(results: list[IdleCpu]) -> list[list[str]]:
    """Return the idle target's rows for the targets table."""
    return [
        [
            f"idle CPU ≤ {100 * TARGET_IDLE_SHARE:g} % of a core, {result.moment}, "
            f"{result.size[0]}×{result.size[1]}",
            f"{100 * result.share:.1f} %",
            "met" if result.met else "not met",
        ]
        for result in results
    ]
