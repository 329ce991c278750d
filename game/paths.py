"""Where the game keeps its files: the player's folders and the shipped assets.

Settings, statistics, the game in progress and logs live in the platform's user folders
(``platformdirs``), never next to the program: a frozen build's folder may be read-only or
temporary. ``MDH_HOME`` puts all of them under one folder instead (tests, portable installs).
Assets are found beside the source tree or, in a frozen build, in its bundle.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "mdhearts"
HOME_ENV = "MDH_HOME"


@dataclass(frozen=True)
class UserDirs:
    """The four user folders of the game; they are created when first written to."""

    config: Path
    data: Path
    state: Path
    log: Path

    @property
    def settings_file(self) -> Path:
        """Return the settings file."""
        return self.config / "settings.json"

    @property
    def statistics_file(self) -> Path:
        """Return the statistics file."""
        return self.data / "statistics.json"

    @property
    def save_file(self) -> Path:
        """Return the file holding the game in progress."""
        return self.state / "current-game.json"

    @property
    def crash_log(self) -> Path:
        """Return the file a crash's traceback is written to."""
        return self.log / "crash.log"


def default_user_dirs() -> UserDirs:
    """Return the platform's user folders for the game."""
    return UserDirs(
        Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_state_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
    )


def user_dirs(environ: Mapping[str, str] | None = None) -> tuple[UserDirs, list[str]]:
    """Return the user folders (under ``$MDH_HOME`` when set) and one warning per bad value."""
    env = os.environ if environ is None else environ
    value = env.get(HOME_ENV)
    if value is None:
        return default_user_dirs(), []
    if not value.strip() or "\x00" in value:
        warning = f"ignoring {HOME_ENV}={value!r:.40}: not a usable folder path"
        return default_user_dirs(), [warning]
    home = Path(value).expanduser()
    return UserDirs(home / "config", home / "data", home / "state", home / "log"), []


def assets_dir() -> Path:
    """Return the assets folder: in a frozen build's bundle, in an installed package, or the
    top-level ``assets/`` of the source tree (which an editable install also uses)."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle is not None:
        return Path(bundle) / "assets"
    here = Path(__file__).resolve().parent
    installed = here / "assets"
    return installed if installed.is_dir() else here.parent / "assets"


def asset_path(*parts: str) -> Path:
    """Return the path of a shipped asset, e.g. ``asset_path("fonts", "DejaVuSans.ttf")``."""
    return assets_dir().joinpath(*parts)
