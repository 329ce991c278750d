"""Small JSON files of the player (settings, statistics): read with checks, written atomically.

Reading never raises for bad content: a file that is not a JSON object (bad UTF-8, cut short,
too large, a list, NaN, ...) is renamed to ``<name>.corrupt-YYYYmmdd-HHMMSS`` so nothing is
lost, and the caller gets a message that says what was wrong and where the file went.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from core.files import (
    FileContentError,
    StrictJsonError,
    decode_utf8,
    parse_strict_json,
    read_regular_file,
    set_aside,
    write_atomically,
)
from core.text import os_reason

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
    Otherwise return ``(None, message)``: a file with bad content is set aside first, one that
    cannot be read (e.g. no permission) is left in place. ``fallback`` ends the message and
    says what the program does instead.
    """
    target = Path(path)
    try:
        data = parse_json_object(read_regular_file(target, max_bytes))
    except FileNotFoundError:
        return None, None
    except FileContentError as error:
        return None, report_unreadable(target, str(error), fallback)
    except OSError as error:
        return None, f"{target.name} could not be read ({reason_of(error)}); {fallback}"
    return data, None


def report_unreadable(path: str | os.PathLike[str], problem: str, fallback: str) -> str:
    """Set aside a file with unusable content and return a message saying so and why."""
    target = Path(path)
    try:
        moved = set_aside(target)
    except OSError as error:
        return (
            f"{target.name} was unreadable ({problem}) and could not be moved aside "
            f"({reason_of(error)}); {fallback}"
        )
    return f"{target.name} was unreadable ({problem}) and was moved to {moved.name}; {fallback}"


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
