"""Settings: round trips, lenient loading field by field, corrupt files set aside, atomic saves."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from core.files import set_aside, user_dirs
from core.rules import RuleSet
from game.table.store import json_store
from game.table.store.json_store import read_json_object, write_json_atomically
from game.table.store.settings import (
    CARD_BACKS,
    DIFFICULTIES,
    SPEEDS,
    Settings,
    SettingsError,
    load_settings,
    save_settings,
)

#: Settings that differ from the defaults in every field.
CUSTOM = Settings(
    player_name="Ada",
    opponents=("easy", "hard", "normal"),
    rules=RuleSet(moon="auto", jack_of_diamonds=True, end_score=50),
    speed="fast",
    click_to_continue=True,
    auto_play_forced=True,
    end_hand_early=True,
    sound=False,
    fullscreen=True,
    four_colour=True,
    large_print=True,
    card_back="red",
    window_size=(1920, 1080),
)

BAD_VALUES = [
    ("player_name", ""),
    ("player_name", "   "),
    ("player_name", "x" * 17),
    ("player_name", "tab\there"),
    ("player_name", 5),
    ("player_name", None),
    ("opponents", ["easy", "hard"]),
    ("opponents", ["easy", "hard", "insane"]),
    ("opponents", "easy"),
    ("rules", {"moon": "sideways"}),
    ("rules", {"no_such_rule": 1}),
    ("rules", {"end_score": 1.5}),
    ("rules", {"pass_cycle": [["left"]]}),
    ("rules", []),
    ("speed", "warp"),
    ("speed", 1),
    ("click_to_continue", 1),
    ("auto_play_forced", "true"),
    ("end_hand_early", None),
    ("sound", 0),
    ("fullscreen", "yes"),
    ("four_colour", []),
    ("large_print", 1.0),
    ("card_back", "purple"),
    ("card_back", None),
    ("window_size", [100, 100]),
    ("window_size", [1920]),
    ("window_size", [1920, "1080"]),
    ("window_size", [True, 720]),
    ("window_size", [8000, 1000]),
    ("window_size", [1920.0, 1080]),
    ("window_size", "1920x1080"),
]


def test_the_defaults_are_the_documented_ones() -> None:
    settings = Settings()
    assert settings.player_name == "You"
    assert settings.opponents == ("normal", "normal", "normal")
    assert settings.rules == RuleSet()
    assert settings.speed == "normal" and settings.card_back == "blue"
    assert settings.window_size == (1280, 720)
    assert settings.sound is True and settings.fullscreen is False
    assert SPEEDS == ("slow", "normal", "fast", "instant")
    assert DIFFICULTIES == ("easy", "normal", "hard")
    assert CARD_BACKS == ("blue", "red", "green")


@pytest.mark.parametrize("settings", [Settings(), CUSTOM])
def test_a_dict_round_trip_gives_equal_settings(settings: Settings) -> None:
    data = json.loads(json.dumps(settings.to_dict()))
    assert Settings.from_dict(data) == (settings, [])


def test_saving_and_loading_gives_equal_settings(tmp_path: Path) -> None:
    path = tmp_path / "config" / "settings.json"
    save_settings(CUSTOM, path)
    assert load_settings(path) == (CUSTOM, [])
    assert sorted(os.listdir(path.parent)) == ["settings.json"]
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n") and '\n  "card_back": "red",' in text
    assert list(json.loads(text)) == sorted(CUSTOM.to_dict())


def test_a_missing_file_gives_the_defaults_silently(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "settings.json") == (Settings(), [])


def test_the_user_settings_file_works_under_mdh_home() -> None:
    path = user_dirs()[0].settings_file
    save_settings(CUSTOM, path)
    try:
        assert load_settings(path) == (CUSTOM, [])
    finally:
        path.unlink()


@pytest.mark.parametrize(("name", "bad"), BAD_VALUES)
def test_a_bad_field_takes_its_default_and_the_others_survive(name: str, bad: Any) -> None:
    data = CUSTOM.to_dict()
    data[name] = bad
    settings, warnings = Settings.from_dict(data)
    assert len(warnings) == 1
    assert f"setting {name!r}" in warnings[0] and "using the default" in warnings[0]
    assert getattr(settings, name) == getattr(Settings(), name)
    for other in CUSTOM.to_dict():
        if other != name:
            assert getattr(settings, other) == getattr(CUSTOM, other), other


def test_several_bad_fields_give_one_warning_each(tmp_path: Path) -> None:
    data = CUSTOM.to_dict()
    data.update(speed="warp", card_back="gold", volume=3, window_size=[1, 2])
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    original = path.read_bytes()
    settings, warnings = load_settings(path)
    assert len(warnings) == 5
    assert warnings[-1] == (
        "settings.json holds what this version does not use; the original is kept as "
        "settings.json.backup"
    )
    assert (tmp_path / "settings.json.backup").read_bytes() == original
    assert any("'speed'" in warning and "warp" in warning for warning in warnings)
    assert any("'card_back'" in warning and "gold" in warning for warning in warnings)
    assert any("unknown setting 'volume'" in warning for warning in warnings)
    assert any("'window_size'" in warning and "[1, 2]" in warning for warning in warnings)
    assert settings == CUSTOM.with_changes(
        speed="normal", card_back="blue", window_size=(1280, 720)
    )
    assert path.exists(), "a file with bad fields is kept, not set aside"


def test_missing_fields_take_their_defaults_without_warnings() -> None:
    settings, warnings = Settings.from_dict({"speed": "slow"})
    assert warnings == []
    assert settings == Settings(speed="slow")


def test_the_player_name_is_stripped() -> None:
    settings, warnings = Settings.from_dict({"player_name": "  Ada  "})
    assert (settings.player_name, warnings) == ("Ada", [])
    assert Settings(player_name=" Bo ").player_name == "Bo"


@pytest.mark.parametrize("data", [[], "settings", None, 3])
def test_data_that_is_not_an_object_gives_the_defaults(data: object) -> None:
    settings, warnings = Settings.from_dict(data)
    assert settings == Settings()
    assert len(warnings) == 1 and "JSON object" in warnings[0]


def test_invalid_values_are_refused_when_built_or_changed() -> None:
    with pytest.raises(SettingsError, match="speed"):
        Settings(speed="warp")
    with pytest.raises(SettingsError, match="window_size"):
        Settings(window_size=(10, 10))
    with pytest.raises(SettingsError, match="opponents"):
        CUSTOM.with_changes(opponents=("easy", "easy", "brutal"))
    changed = CUSTOM.with_changes(speed="instant", opponents=["hard", "hard", "hard"])
    assert changed.speed == "instant" and changed.opponents == ("hard", "hard", "hard")
    assert changed.player_name == "Ada" and CUSTOM.speed == "fast"


BIG = 1 << 20
CORRUPT_CONTENTS = {
    "garbage bytes": b"\x00\x13\x37 not json at all \x7f",
    "truncated JSON": b'{"speed": "fast", "sound": fal',
    "a JSON array": b'["speed", "fast"]',
    "a JSON string": b'"fast"',
    "invalid UTF-8": b'{"player_name": "\xff\xfe"}',
    "NaN": b'{"window_size": [NaN, 720]}',
    "empty": b"",
    "deep nesting": b"[" * 100_000,
    "huge": b'{"player_name": "' + b"x" * BIG + b'"}',
}


@pytest.mark.parametrize("content", CORRUPT_CONTENTS.values(), ids=list(CORRUPT_CONTENTS))
def test_a_corrupt_file_is_set_aside_and_the_defaults_used(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    settings, messages = load_settings(path)
    assert settings == Settings()
    assert len(messages) == 1
    assert not path.exists()
    moved = list(tmp_path.glob("settings.json.corrupt-*"))
    assert len(moved) == 1
    assert moved[0].read_bytes() == content, "nothing of the corrupt file is lost"
    message = messages[0]
    assert message.startswith("settings.json was unreadable (")
    assert f"was moved to {moved[0].name}; defaults are used" in message
    assert load_settings(path) == (Settings(), []), "the next start is clean"


def test_the_messages_say_what_was_wrong(tmp_path: Path) -> None:
    expected = {
        "truncated JSON": "not JSON: Expecting value at line 1",
        "a JSON array": "not a JSON object but a list of 2",
        "invalid UTF-8": "not UTF-8 text: invalid byte at offset 17",
        "NaN": "not JSON: NaN is not allowed",
        "huge": "larger than 1024 KiB",
        "empty": "(empty)",
    }
    for case, words in expected.items():
        path = tmp_path / case / "settings.json"
        path.parent.mkdir()
        path.write_bytes(CORRUPT_CONTENTS[case])
        _, messages = load_settings(path)
        assert words in messages[0], (case, messages)


def test_a_folder_in_place_of_the_file_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.mkdir()
    data, message = read_json_object(path)
    assert data is None and message is not None and "a folder" in message
    assert not path.exists() and len(list(tmp_path.glob("settings.json.corrupt-*"))) == 1


def test_a_file_that_cannot_be_read_is_set_aside_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    save_settings(CUSTOM, path)
    original = path.read_bytes()

    def refuse(*args: object) -> bytes:
        raise PermissionError(13, "Permission denied")

    with monkeypatch.context() as patch:
        patch.setattr(json_store, "read_regular_file", refuse)
        settings, messages = load_settings(path)
    assert settings == Settings()
    [moved] = tmp_path.glob("settings.json.unreadable-*")
    assert messages == [
        f"settings.json could not be read (Permission denied) and was moved to {moved.name}; "
        "defaults are used"
    ]
    save_settings(settings, path)  # the table saves its settings when it closes
    assert moved.read_bytes() == original, "the file that could not be read is not lost"


def test_a_setting_this_version_does_not_know_is_kept_in_a_copy_said_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "settings.json"
    data = {**CUSTOM.to_dict(), "theme": "night"}  # written by a newer version
    path.write_text(json.dumps(data), encoding="utf-8")
    original = path.read_bytes()
    settings, warnings = load_settings(path)
    assert settings == CUSTOM
    assert warnings == [
        "unknown setting 'theme' was ignored",
        "settings.json holds what this version does not use; the original is kept as "
        "settings.json.backup",
    ]
    assert load_settings(path)[1] == ["unknown setting 'theme' was ignored"], "said once"
    save_settings(settings, path)
    assert "theme" not in json.loads(path.read_text(encoding="utf-8"))
    assert (tmp_path / "settings.json.backup").read_bytes() == original
    assert load_settings(path) == (CUSTOM, [])
    # Another original later gets a copy of its own; the first copy is never replaced.
    path.write_text(json.dumps({**data, "theme": "day"}), encoding="utf-8")
    assert load_settings(path)[1][-1].endswith("kept as settings.json.backup-2")
    assert (tmp_path / "settings.json.backup").read_bytes() == original


def test_set_aside_adds_a_number_when_the_name_is_taken(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    when = datetime(2026, 11, 22, 15, 30, 0)
    names = []
    for number in range(3):
        path.write_text(str(number), encoding="utf-8")
        names.append(set_aside(path, now=when).name)
    assert names == [
        "settings.json.corrupt-20261122-153000",
        "settings.json.corrupt-20261122-153000-2",
        "settings.json.corrupt-20261122-153000-3",
    ]
    assert [(tmp_path / name).read_text(encoding="utf-8") for name in names] == ["0", "1", "2"]
    assert not path.exists()


def test_a_file_that_cannot_be_set_aside_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b"[]")

    def refuse(self: Path, target: object) -> Path:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "rename", refuse)
    settings, messages = load_settings(path)
    assert settings == Settings()
    assert "could not be moved aside (Permission denied); defaults are used" in messages[0]


def test_a_failed_save_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    save_settings(CUSTOM, path)
    before = path.read_bytes()

    def refuse(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        save_settings(Settings(), path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["settings.json"]


def test_write_json_atomically_refuses_non_json_data(tmp_path: Path) -> None:
    path = tmp_path / "data.json"
    with pytest.raises(ValueError):
        write_json_atomically(path, {"x": float("nan")})
    assert os.listdir(tmp_path) == []
