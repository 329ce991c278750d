"""The player's settings: a frozen ``Settings`` with checked fields, loaded leniently.

Loading keeps every valid field and replaces each invalid or unknown one by its default with
one warning, so a hand-edited file with one typo loses only that setting. A file that is not a
JSON object at all is set aside and the defaults are used.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.files import short_repr
from core.rules import RuleSet
from game.table.store.json_store import kind_of, load_json_file, write_json_atomically

SPEEDS = ("slow", "normal", "fast", "instant")
DIFFICULTIES = ("easy", "normal", "hard")
CARD_BACKS = ("blue", "red", "green")
MAX_NAME_LENGTH = 16
MIN_WINDOW = (640, 480)
MAX_WINDOW = (7680, 4320)
#: How many finished matches are kept to replay by default, and at most.
DEFAULT_REPLAYS_KEPT = 25
MAX_REPLAYS_KEPT = 1000


def fit_window(size: tuple[int, int]) -> tuple[int, int]:
    """Return a window size brought within the sizes a setting may hold."""
    width = min(max(size[0], MIN_WINDOW[0]), MAX_WINDOW[0])
    height = min(max(size[1], MIN_WINDOW[1]), MAX_WINDOW[1])
    return width, height


class SettingsError(ValueError):
    """A setting has an invalid value; the message says what a valid one is."""


def _check_name(value: object) -> str:
    if not isinstance(value, str):
        raise SettingsError(f"must be text, got {kind_of(value)}")
    name = value.strip()
    if not 1 <= len(name) <= MAX_NAME_LENGTH:
        raise SettingsError(f"must be 1 to {MAX_NAME_LENGTH} characters, got {short_repr(name)}")
    if not name.isprintable():
        raise SettingsError(f"must hold only printable characters, got {short_repr(name)}")
    return name


def _check_opponents(value: object) -> tuple[str, str, str]:
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise SettingsError(f"must be a list of three difficulties, got {kind_of(value)}")
    levels = tuple(_check_choice(level, DIFFICULTIES) for level in value)
    return levels[0], levels[1], levels[2]


def _check_rules(value: object) -> RuleSet:
    if isinstance(value, RuleSet):
        return value
    if not isinstance(value, dict):
        raise SettingsError(f"must be an object, got {kind_of(value)}")
    try:
        return RuleSet.from_dict(value)
    except (ValueError, TypeError) as error:
        raise SettingsError(f"is invalid: {error}") from None


def _check_choice(value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise SettingsError(f"must be one of {', '.join(choices)}, got {short_repr(value)}")
    return value


def _check_bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(f"must be true or false, got {short_repr(value)}")
    return value


def _check_window(value: object) -> tuple[int, int]:
    low, high = MIN_WINDOW, MAX_WINDOW
    expected = f"must be [width, height] from {low[0]}x{low[1]} to {high[0]}x{high[1]}"
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise SettingsError(f"{expected}, got {kind_of(value)}")
    width, height = value
    for number, least, most in ((width, low[0], high[0]), (height, low[1], high[1])):
        if isinstance(number, bool) or not isinstance(number, int) or not least <= number <= most:
            raise SettingsError(f"{expected}, got {short_repr(list(value))}")
    return width, height


def _check_kept(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(f"must be a whole number, got {short_repr(value)}")
    if not 0 <= value <= MAX_REPLAYS_KEPT:
        raise SettingsError(f"must be from 0 to {MAX_REPLAYS_KEPT}, got {value}")
    return value


_BOOL_FIELDS = (
    "click_to_continue",
    "auto_play_forced",
    "end_hand_early",
    "sound",
    "fullscreen",
    "four_colour",
    "large_print",
)

#: The check of every field: it returns the normalised value or raises SettingsError.
_CHECKS: dict[str, Callable[[object], object]] = {
    "player_name": _check_name,
    "opponents": _check_opponents,
    "rules": _check_rules,
    "speed": lambda value: _check_choice(value, SPEEDS),
    **dict.fromkeys(_BOOL_FIELDS, _check_bool),
    "card_back": lambda value: _check_choice(value, CARD_BACKS),
    "window_size": _check_window,
    "replays_kept": _check_kept,
}


@dataclass(frozen=True)
class Settings:
    """Everything the player can set; each field has a working default.

    Creating one with an invalid value raises SettingsError; names are stripped and lists
    become tuples.
    """

    #: Shown at the player's seat: 1 to 16 printable characters.
    player_name: str = "You"
    #: The difficulty of the bots at seats 1, 2 and 3.
    opponents: tuple[str, str, str] = ("normal", "normal", "normal")
    rules: RuleSet = field(default_factory=RuleSet)
    #: How fast cards move and bots play: one of ``SPEEDS``.
    speed: str = "normal"
    #: Wait for a click after each trick instead of a pause.
    click_to_continue: bool = False
    #: Play the player's card when only one is legal.
    auto_play_forced: bool = False
    #: End the hand as soon as no points remain to be taken.
    end_hand_early: bool = False
    sound: bool = True
    fullscreen: bool = False
    #: Four suit colours instead of two.
    four_colour: bool = False
    #: Larger card indices and text.
    large_print: bool = False
    card_back: str = "blue"
    #: Window width and height in pixels, when not fullscreen.
    window_size: tuple[int, int] = (1280, 720)
    #: How many finished matches are kept to replay (0: none are archived).
    replays_kept: int = DEFAULT_REPLAYS_KEPT

    def __post_init__(self) -> None:
        for name, check in _CHECKS.items():
            try:
                value = check(getattr(self, name))
            except SettingsError as error:
                raise SettingsError(f"{name} {error}") from None
            object.__setattr__(self, name, value)

    def to_dict(self) -> dict[str, Any]:
        """Return the settings as plain JSON-ready data."""
        data = {name: getattr(self, name) for name in _CHECKS}
        data["opponents"] = list(self.opponents)
        data["rules"] = self.rules.to_dict()
        data["window_size"] = list(self.window_size)
        return data

    @classmethod
    def from_dict(cls, data: object) -> tuple[Settings, list[str]]:
        """Build settings from JSON data; return them and one warning per field not used.

        Missing fields take their defaults silently; invalid ones take their defaults with a
        warning; unknown ones are dropped with a warning. Never raises for bad data.
        """
        if not isinstance(data, dict):
            return cls(), [
                f"the settings must be a JSON object, got {kind_of(data)}; defaults are used"
            ]
        warnings = [
            f"unknown setting {short_repr(key)} was ignored" for key in data if key not in _CHECKS
        ]
        values: dict[str, Any] = {}
        for name, check in _CHECKS.items():
            if name not in data:
                continue
            try:
                values[name] = check(data[name])
            except SettingsError as error:
                warnings.append(f"setting {name!r} {error}; using the default ({_default(name)})")
        return cls(**values), warnings

    def with_changes(self, **changes: Any) -> Settings:
        """Return a copy with some fields changed; raise SettingsError for an invalid value."""
        return dataclasses.replace(self, **changes)


def _default(name: str) -> str:
    """Describe the default of a field in words, for warnings."""
    if name == "rules":
        return "the standard rules"
    return json.dumps(Settings().to_dict()[name])


def load_settings(path: str | os.PathLike[str]) -> tuple[Settings, list[str]]:
    """Load settings from ``path``; return them and the warnings to show. Never raises.

    No file gives the defaults without a warning; a file that is not a JSON object is set
    aside and gives the defaults with one message. A file holding a setting this version does
    not use is first copied beside it (``load_json_file``), since the next save leaves it out.
    """
    return load_json_file(path, Settings.from_dict, Settings(), fallback="defaults are used")


def save_settings(settings: Settings, path: str | os.PathLike[str]) -> None:
    """Save settings to ``path`` atomically; raise OSError (leaving the old file) on failure."""
    write_json_atomically(path, settings.to_dict())
