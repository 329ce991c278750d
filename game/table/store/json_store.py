"""The player's JSON files (settings, statistics, reviews): read with checks, written atomically.

Reading never raises for bad content: a file that is not a JSON object (bad UTF-8, cut short,
too large, a list, NaN, ...) is renamed to ``<name>.corrupt-YYYYmmdd-HHMMSS`` so nothing is
lost, and the caller gets a message that says what was wrong and where the file went. A file
that cannot be read at all (no permission, an input/output error) is renamed to
``<name>.unreadable-YYYYmmdd-HHMMSS`` the same way, so the next write does not replace it.

One rule keeps what this version does not understand (``load_json_file``): when a file is of a
newer version than ours, or holds a field the reader could not use (unknown, or invalid here),
its original is copied beside it (``<name>.v4-backup``, ``<name>.backup``) before this version
ever rewrites it, and one message says so.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from core.files import (
    FileContentError,
    StrictJsonError,
    decode_utf8,
    keep_copy,
    parse_strict_json,
    read_regular_file,
    set_aside,
    write_atomically,
)
from core.text import os_reason

#: A file that could not be read is renamed ``<name>.unreadable-YYYYmmdd-HHMMSS``.
UNREADABLE_SUFFIX = ".unreadable-"

T = TypeVar("T")

#: Largest settings or statistics file that is read; larger ones are set aside unread.
DEFAULT_MAX_BYTES = 1 << 20


def parse_json_object(raw: bytes) -> dict[str, Any]:
    """Parse UTF-8 JSON text that must be one object; raise FileContentError saying why not."""
    try:
        text = decode_utf8(raw)
        if not text.strip():
            raise FileContentError("empty")
        data = parse_strict_json(text)
    except StrictJsonError as error:
        prefix = "" if str(error).startswith("not UTF-8") else "not JSON: "
        raise FileContentError(f"{prefix}{error}") from None
    if not isinstance(data, dict):
        raise FileContentError(f"not a JSON object but {kind_of(data)}")
    return data


def read_json_object(
    path: str | os.PathLike[str],
    max_bytes: int = DEFAULT_MAX_BYTES,
    *,
    fallback: str = "defaults are used",
) -> tuple[dict[str, Any] | None, str | None]:
    """Read a file holding one JSON object; never raise for what the file holds.

    Return ``(None, None)`` when there is no file and ``(data, None)`` for a JSON object.
    Otherwise return ``(None, message)``: a file with bad content, or one that cannot be read
    (no permission...), is set aside first so that nothing replaces it. ``fallback`` ends the
    message and says what the program does instead.
    """
    data, _, message = _read_object(Path(path), max_bytes, fallback)
    return data, message


def _read_object(
    target: Path, max_bytes: int, fallback: str
) -> tuple[dict[str, Any] | None, bytes, str | None]:
    """Return what ``read_json_object`` does and the file's bytes (empty when none was used)."""
    try:
        raw = read_owned_file(target, max_bytes, fallback)
    except FileNotFoundError:
        return None, b"", None
    except FileContentError as error:
        return None, b"", str(error)
    try:
        return parse_json_object(raw), raw, None
    except FileContentError as error:
        return None, b"", report_unreadable(target, str(error), fallback)


def read_owned_file(path: str | os.PathLike[str], max_bytes: int, fallback: str = "") -> bytes:
    """Return the bytes of one of the player's files (at most ``max_bytes``).

    Raise FileNotFoundError when there is none. Raise FileContentError with the message to
    show when it is not a regular file, too large, or cannot be read (no permission...): the
    file is then set aside, so the next write of that name cannot replace it.
    """
    target = Path(path)
    try:
        return read_regular_file(target, max_bytes)
    except FileNotFoundError:
        raise
    except FileContentError as error:
        raise FileContentError(report_unreadable(target, str(error), fallback)) from None
    except OSError as error:
        message = report_unreadable(target, reason_of(error), fallback, unreadable=True)
        raise FileContentError(message) from None


def report_unreadable(
    path: str | os.PathLike[str], problem: str, fallback: str, *, unreadable: bool = False
) -> str:
    """Set aside a file with unusable content (or, ``unreadable``, one that could not be read
    at all) and return a message saying so and why."""
    target = Path(path)
    state = "could not be read" if unreadable else "was unreadable"
    try:
        moved = set_aside(target, suffix=UNREADABLE_SUFFIX) if unreadable else set_aside(target)
    except OSError as error:
        return (
            f"{target.name} {state} ({problem}) and could not be moved aside "
            f"({reason_of(error)}); {fallback}"
        )
    return f"{target.name} {state} ({problem}) and was moved to {moved.name}; {fallback}"


def load_json_file(
    path: str | os.PathLike[str],
    build: Callable[[dict[str, Any]], tuple[T, list[str]]],
    default: T,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    fallback: str = "defaults are used",
    version: int | None = None,
) -> tuple[T, list[str]]:
    """Read one of the player's JSON files and ``build`` its value; never raise for its content.

    ``build`` returns the value and one warning per field it could not use. No file gives
    ``default`` quietly; an unusable one is set aside and gives ``default`` with a message.
    The rule for every file we own: when the file is of a newer version than ``version`` (its
    ``version`` field) or ``build`` warned, the original is copied beside it before anything
    rewrites it (``keep_copy``), and one more message says where; an identical copy already
    kept is not made or announced again.
    """
    target = Path(path)
    data, raw, message = _read_object(target, max_bytes, fallback)
    if message is not None:
        return default, [message]
    if data is None:
        return default, []
    value, warnings = build(data)
    found = data.get("version")
    newer = (
        version is not None
        and isinstance(found, int)
        and not isinstance(found, bool)
        and found > version
    )
    if newer or warnings:
        warnings.append(_keep_original(target, raw, found if newer else None))
    return value, [warning for warning in warnings if warning]


def _keep_original(target: Path, raw: bytes, newer: int | None) -> str:
    """Keep a copy of a file this version will rewrite without all it holds; return what to
    say (nothing when the same copy was kept before)."""
    what = (
        f"is from a newer version of MDHearts (version {newer})"
        if newer is not None
        else "holds what this version does not use"
    )
    try:
        copy = keep_copy(target, raw, newer)
    except OSError as error:
        return (
            f"{target.name} {what}, and a copy could not be kept ({reason_of(error)}); "
            "it is rewritten without what this version does not know"
        )
    if copy is None:
        return ""
    return f"{target.name} {what}; the original is kept as {copy.name}"


def json_text(data: dict[str, Any]) -> str:
    """Return data as the indented, key-sorted JSON of the game's files (ValueError if not JSON)."""
    return json.dumps(data, indent=2, sort_keys=True, allow_nan=False) + "\n"


def write_json_atomically(path: str | os.PathLike[str], data: dict[str, Any]) -> None:
    """Write ``data`` as indented, key-sorted JSON through a temporary file and a rename.

    Raise OSError when the file cannot be written (an existing file is then left unchanged)
    and ValueError when ``data`` is not plain JSON data.
    """
    write_atomically(path, json_text(data), make_folders=True)


def kind_of(value: object) -> str:
    """Describe a JSON value's type in words, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, list):
        return f"a list of {len(value)}" if value else "an empty list"
    names = {dict: "an object", str: "a string", int: "a number", float: "a number"}
    return names.get(type(value), type(value).__name__)


def reason_of(error: OSError) -> str:
    """Return the short reason of an OSError, e.g. ``Permission denied``."""
    return os_reason(error)
