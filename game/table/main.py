"""The table program, plain ``mdhearts``: the window opens on the title menu; a crash is logged.

One table at a time uses a set of user folders: the first holds their lock for as long as it
runs (``core.files.lock_user_folder``), taken before anything in them is written. A second
table says so on stderr and in a small window for a few seconds, writes nothing and ends.
"""

from __future__ import annotations

import contextlib
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

import game.table.scenes  # noqa: F401  (each screen registers its name when imported)
from core.files import (
    ALREADY_RUNNING,
    HeldLock,
    LockBusyError,
    UserDirs,
    lock_user_folder,
    user_dirs,
)
from core.native import pure_python_from_env
from game.table.app import TITLE, App
from game.table.scene import scene_named
from game.table.store.json_store import reason_of

#: How long a second table shows that the first is running before it ends by itself.
ALREADY_RUNNING_SECONDS = 3.0
#: The status of a second table that ended because the first is running.
ALREADY_RUNNING_STATUS = 3


def write_crash_log(dirs: UserDirs) -> Path | None:
    """Write the current exception's traceback to the crash log; return its path."""
    try:
        dirs.crash_log.parent.mkdir(parents=True, exist_ok=True)
        with open(dirs.crash_log, "a", encoding="utf-8") as log:
            log.write(traceback.format_exc())
            log.write("\n")
        return dirs.crash_log
    except OSError:
        return None


def _tell(text: str) -> None:
    """Tell the player something even in a build without a console."""
    stream = sys.stderr
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.write(text + "\n")


def show_briefly(lines: Sequence[str], seconds: float = ALREADY_RUNNING_SECONDS) -> None:
    """Show ``lines`` in a small window for ``seconds`` (a key, a click or closing it ends
    sooner). Writes no file; without a display it shows nothing and returns at once."""
    import pygame

    from game.table import theme
    from game.table.fonts import render_text

    try:
        pygame.display.init()
        pygame.display.set_caption(TITLE)
        screen = pygame.display.set_mode((640, 200))
        screen.fill(theme.FELT)
        for number, line in enumerate(lines):
            text = render_text(line, 24 if number == 0 else 17, theme.TEXT, bold=number == 0)
            screen.blit(text, text.get_rect(center=(320, 70 + 50 * number)))
        pygame.display.flip()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(
                event.type in (pygame.QUIT, pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN)
                for event in pygame.event.get()
            ):
                break
            time.sleep(0.05)
    except pygame.error:
        pass
    finally:
        pygame.quit()


def hold_user_folder(dirs: UserDirs, notices: list[str]) -> HeldLock | None:
    """Take the lock of the user folders; None (and a notice) when it cannot be made, e.g. a
    read-only folder. Raises LockBusyError when another table holds it."""
    try:
        return lock_user_folder(dirs)
    except LockBusyError:
        raise
    except OSError as error:
        notices.append(
            f"the user folder could not be locked ({reason_of(error)}); another MDHearts "
            "using it at the same time would not be noticed"
        )
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """Open the table and play until the player quits; a crash is logged, not lost.

    Returns ``ALREADY_RUNNING_STATUS`` at once, having written nothing, when another table
    uses the same user folders.
    """
    dirs, notices = user_dirs()
    notices += pure_python_from_env()[1]
    try:
        held = hold_user_folder(dirs, notices)
    except LockBusyError:
        _tell(
            f"{ALREADY_RUNNING} (it holds {dirs.lock_file}); only one table at a time can use "
            "the same saved game and statistics."
        )
        show_briefly(
            [f"{ALREADY_RUNNING}.", "Only one table at a time can use your games and statistics."]
        )
        return ALREADY_RUNNING_STATUS
    app: App | None = None
    try:
        app = App(dirs, notices=notices)
        app.run(scene_named("title", app))
        return 0
    except Exception:
        where = write_crash_log(dirs)
        message = "MDHearts stopped because of an error."
        if where is not None:
            message += f" The details are in {where}."
        _tell(message)
        return 1
    finally:
        if app is not None:
            with contextlib.suppress(Exception):
                app.close()
        if held is not None:
            held.release()
