"""Shared test setup: headless SDL, and telemetry and game files kept out of the user's folders."""

import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("MDH_TELEMETRY_DIR", tempfile.mkdtemp(prefix="mdh-telemetry-"))
os.environ.setdefault("MDH_HOME", tempfile.mkdtemp(prefix="mdh-home-"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """Return the folder holding a table test's user folders."""
    return tmp_path / "home"


@pytest.fixture
def drivers(home: Path) -> Iterator[Callable[..., Any]]:
    """Build table Drivers on the test's folders; each is closed at the end, even on failure."""
    from table_driver import Driver, make_dirs

    made: list[Driver] = []

    def make(**kwargs: Any) -> Driver:
        driver = Driver(make_dirs(home), **kwargs)
        made.append(driver)
        return driver

    yield make
    for driver in reversed(made):
        driver.close()
