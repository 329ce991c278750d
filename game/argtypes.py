"""Value types for the commands' argparse options, shared by every command that needs them."""

from __future__ import annotations

import argparse
import stat
from collections.abc import Callable
from pathlib import Path

from core.files import not_regular_text, write_target


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """Return an argparse type accepting whole numbers from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, got {text!r:.40}"
            )
        return value

    return parse


def _usable(text: str) -> Path:
    if not text.strip() or "\x00" in text:
        raise argparse.ArgumentTypeError(f"not a usable path: {text!r:.60}")
    return Path(text)


def output_file(text: str) -> Path:
    """An argparse type for a file written when the work is done, checked before it starts.

    It is refused at once when the write would fail for what the path is: a folder, a device,
    a named pipe, or a file in a folder that does not exist (as ``core.files`` refuses them).
    """
    path = _usable(text)
    target = write_target(path)
    try:
        mode: int | None = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise argparse.ArgumentTypeError(f"cannot write {text!r:.60}: {error.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise argparse.ArgumentTypeError(
            f"cannot write {text!r:.60}: it is {not_regular_text(mode)}"
        )
    if not target.parent.is_dir():
        raise argparse.ArgumentTypeError(
            f"cannot write {text!r:.60}: the folder {str(target.parent)!r:.60} does not exist"
        )
    return path


def output_folder(text: str) -> Path:
    """An argparse type for a folder to write files into: refused at once if it is no folder.

    A folder that does not exist yet is fine (the command makes it); a file, a device or a
    named pipe of that name is not.
    """
    path = _usable(text)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return path
    except OSError as error:
        raise argparse.ArgumentTypeError(f"cannot use {text!r:.60}: {error.strerror}") from None
    if not stat.S_ISDIR(mode):
        what = "a file" if stat.S_ISREG(mode) else not_regular_text(mode)
        raise argparse.ArgumentTypeError(f"{text!r:.60} is not a folder: it is {what}")
    return path
