"""The table program, plain ``mdhearts``: the window opens on the title menu; a crash is logged."""

from __future__ import annotations

import contextlib
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

import game.table.scenes  # noqa: F401  (each screen registers its name when imported)
from core.files import UserDirs, user_dirs
from core.native import pure_python_from_env
from game.table.app import App
from game.table.scene import scene_named


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


def main(argv: Sequence[str] | None = None) -> int:
    """Open the table and play until the player quits; a crash is logged, not lost."""
    dirs, notices = user_dirs()
    notices += pure_python_from_env()[1]
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
