"""Small JSON files of the player (settings, statistics): read with checks, written atomically.

Reading never raises for bad content: a file that is not a JSON object (bad UTF-8, cut short,
too large, a list, NaN, ...) is renamed to ``<name>.corrupt-YYYYmmdd-HHMMSS`` so nothing is
lost, and the caller gets a message that says what was wrong and where the file went.
"""

from __future__ import annotations

import json
import os
import stat
from datetime import datetime
from pathlib import Path
from typing import Any

from core.record import write_atomically

#: Largest settings or statistics file that is read; larger ones are set aside unread.
DEFAULT_MAX_BYTES = 1 << 20
CORRUPT_SUFFIX = ".corrupt-"


class FileContentError(ValueError):
    """A file exists but its content cannot be used (not a regular file, too large, ...)."""


def read_limited(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """Return the bytes of the regular file at ``path``, which may hold at most ``max_bytes``.

    Raise FileNotFoundError when there is no file, another OSError when it cannot be read, and
    FileContentError when it is not a regular file or is too large (it is then not read).
    """
    target = Path(path)
    info = target.stat()
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise FileContentError(kind)
    if info.st_size > max_bytes:
        raise FileContentError(f"larger than {_size_text(max_bytes)}")
    with target.open("rb") as stream:
        raw = stream.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise FileContentError(f"larger than {_size_text(max_bytes)}")
    return raw


def parse_json_object(raw: bytes) -> dict[str, Any]:
    """Parse UTF-8 JSON text that must be one object; raise FileContentError saying why not."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileContentError(f"not UTF-8 text: invalid byte at offset {error.start}") from None
    if not text.strip():
        raise FileContentError("empty")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise FileContentError(f"not JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise FileContentError("not JSON: nested too deeply") from None
    except ValueError as error:
        raise FileContentError(f"not JSON: {error}") from None
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
        data = parse_json_object(read_limited(target, max_bytes))
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


def set_aside(path: str | os.PathLike[str], *, now: datetime | None = None) -> Path:
    """Rename a file to ``<name>.corrupt-YYYYmmdd-HHMMSS`` (``-2``, ``-3``... if taken).

    Return the new path; raise OSError when the file cannot be renamed.
    """
    target = Path(path)
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = f"{target.name}{CORRUPT_SUFFIX}{stamp}"
    candidate = target.with_name(base)
    number = 1
    while os.path.lexists(candidate):
        number += 1
        candidate = target.with_name(f"{base}-{number}")
    target.rename(candidate)
    return candidate


def json_text(data: dict[str, Any]) -> str:
    """Return data as the indented, key-sorted JSON of the game's files (ValueError if not JSON)."""
    return json.dumps(data, indent=2, sort_keys=True, allow_nan=False) + "\n"


def write_json_atomically(path: str | os.PathLike[str], data: dict[str, Any]) -> None:
    """Write ``data`` as indented, key-sorted JSON through a temporary file and a rename.

    Raise OSError when the file cannot be written (an existing file is then left unchanged)
    and ValueError when ``data`` is not plain JSON data.
    """
    write_atomically(path, json_text(data))


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


def short_repr(value: object, limit: int = 40) -> str:
    """Return the repr of a value cut to ``limit`` characters, for messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def reason_of(error: OSError) -> str:
    """Return the short reason of an OSError, e.g. ``Permission denied``."""
    return error.strerror or str(error)


def _size_text(size: int) -> str:
    return f"{size // 1024} KiB" if size >= 1024 else f"{size} bytes"


def _no_constant(name: str) -> float:
    """Refuse the non-standard constants NaN, Infinity and -Infinity."""
    raise ValueError(f"{name} is not allowed")
