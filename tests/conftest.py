"""Shared test setup: headless SDL, and telemetry and game files kept out of the user's folders."""

import atexit
import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _set_scratch_folder(variable: str, prefix: str) -> bool:
    """Point ``variable`` at a fresh folder removed when this process ends, unless it is set
    (as in the workers of a parallel run, which share the folders of the run that started them).
    Return whether a folder was made."""
    if variable in os.environ:
        return False
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ[variable] = folder
    return True


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


_made_scratch = _set_scratch_folder("MDH_TELEMETRY_DIR", "mdh-telemetry-")
_made_scratch |= _set_scratch_folder("MDH_HOME", "mdh-home-")
if _made_scratch:
    # SIGTERM (a `timeout`, a stopped CI job) would end the run without its exit handlers and
    # leave the folders behind; ending it as Ctrl-C does stops the workers, then removes them.
    signal.signal(signal.SIGTERM, _interrupt)


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
