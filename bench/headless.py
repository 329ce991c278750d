"""The table benchmarks' surroundings: SDL's dummy drivers and throw-away user folders."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


def headless() -> None:
    """Use SDL's dummy video and audio drivers unless the caller chose drivers."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@contextlib.contextmanager
def user_home() -> Iterator[Path]:
    """Yield a temporary folder to hold the game's settings, statistics and saves."""
    with tempfile.TemporaryDirectory(prefix="mdh-frames-") as home:
        yield Path(home)
