"""``mdhearts --self-test``: check that this installation or build can show and play the game.

Headless, in a temporary folder: the real table is drawn and must not be blank, a whole hand is
played with the bots answering from the bot worker process, and a game record is saved and
loaded back. Exit status 0 when all of it works, 1 with the reason otherwise.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

#: Frames the scripted hand may take before the test gives up (minutes at 60 fps).
MAX_FRAMES = 30_000


class SelfTestError(RuntimeError):
    """A check of the self-test failed; the message says which and why."""


def say(text: str) -> None:
    """Print a line if there is a console (a windowed build has none)."""
    stream = sys.stdout
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.write(text + "\n")
            stream.flush()


def distinct_colours(surface: object) -> int:
    """Return how many different colours a coarse grid of the surface's pixels has."""
    import pygame

    assert isinstance(surface, pygame.Surface)
    width, height = surface.get_size()
    seen = set()
    for y in range(0, height, max(1, height // 60)):
        for x in range(0, width, max(1, width // 100)):
            seen.add(tuple(surface.get_at((x, y))))
    return len(seen)


def check_frame(surface: object, moment: str, hand_shown: bool = True) -> None:
    """Fail unless the frame shows a real picture: many colours, and the person's hand."""
    import pygame

    assert isinstance(surface, pygame.Surface)
    colours = distinct_colours(surface)
    if colours < 20:
        raise SelfTestError(f"the frame at {moment} looks blank ({colours} colours)")
    if not hand_shown:
        return
    width, height = surface.get_size()
    bottom = [surface.get_at((x, height - height // 10)) for x in range(0, width, 4)]
    if not any(c.r > 230 and c.g > 230 and c.b > 220 for c in bottom):
        raise SelfTestError(f"no card faces are drawn at {moment}")


def run_checks(home: Path, report: Callable[[str], None], opponents: str = "normal") -> None:
    """Run every check with user files under ``home``; raise SelfTestError on a failure.

    ``opponents`` is the difficulty of the three bots that play the hand.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from ai import search
    from core import kernel
    from core.files import UserDirs
    from core.native import pure_python_from_env
    from core.record import dumps_record
    from game.table.app import App
    from game.table.bot_requests import WorkerBots
    from game.table.store.saves import load_game
    from game.tools.scripted import ScriptedTable

    if not (kernel.COMPILED and search.COMPILED) and not pure_python_from_env()[0]:
        raise SelfTestError("the compiled rules kernel or search module is missing")
    report("compiled rules kernel and search loaded")
    dirs = UserDirs(home / "config", home / "data", home / "state", home / "log")
    started = time.perf_counter()
    app = App(dirs, size=(1280, 720))
    try:
        app.change_settings(app.settings.with_changes(speed="fast", opponents=(opponents,) * 3))
        if not isinstance(app.bots, WorkerBots):
            raise SelfTestError("the table is not using the bot worker")
        table = ScriptedTable(app, seed=2026, paced=True)
        app.step(0.0)
        check_frame(app.screen, "the first frame", hand_shown=False)
        report(f"first frame drawn ({time.perf_counter() - started:.2f} s after the table opened)")
        if not table.at_passing():
            raise SelfTestError("the first hand never reached the pass")
        check_frame(app.screen, "the pass")
        report(f"table drawn at 1280x720 ({time.perf_counter() - started:.1f} s)")
        worker = app.bots.worker
        if not table.at_summary(max_frames=MAX_FRAMES):
            raise SelfTestError("the hand did not finish")
        check_frame(app.screen, "the hand summary", hand_shown=False)
        if worker.pid is None:
            raise SelfTestError("the bot worker process never started")
        if worker.restarts or worker.broken:
            raise SelfTestError("the bot worker process failed and had to be replaced")
        report(f"a whole hand played with the bot worker (process {worker.pid})")
        controller = table.session.controller
        app.books.save_match(table.session)
        if not app.saver.flush(10.0):
            raise SelfTestError("the game could not be saved in time")
        errors = app.saver.errors()
        if errors:
            raise SelfTestError(errors[0])
        loaded, message = load_game(dirs.save_file)
        if loaded is None or dumps_record(loaded) != dumps_record(controller):
            raise SelfTestError(f"the saved game did not load back the same: {message}")
        report(f"game record saved and loaded ({dirs.save_file.stat().st_size} bytes)")
    finally:
        app.close()


def main(argv: Sequence[str] = ()) -> int:
    """Run the self-test in a temporary folder and return the exit status.

    ``--opponents easy|normal|hard`` chooses the bots of the test hand (default normal).
    """
    args = list(argv)
    opponents = "normal"
    if args[:1] == ["--opponents"] and len(args) == 2 and args[1] in ("easy", "normal", "hard"):
        opponents = args[1]
    elif args:
        say("usage: mdhearts --self-test [--opponents easy|normal|hard]")
        return 2
    with tempfile.TemporaryDirectory(prefix="mdhearts-self-test-") as folder:
        try:
            run_checks(Path(folder), lambda line: say(f"ok: {line}"), opponents)
        except SelfTestError as error:
            say(f"self-test failed: {error}")
            return 1
        except Exception as error:  # anything else is a broken installation, said plainly
            say(f"self-test failed: {type(error).__name__}: {error}")
            say(traceback.format_exc())
            return 1
    say("self-test passed")
    return 0
