"""A tournament's finished deals kept in a file, so that a long run can stop and go on later.

The journal is NDJSON: a header line (``format``, ``version`` and what names the tournament:
lineup, rules, seed, the code that played), then one line per finished deal. Each line is
appended and flushed to the disk as its deal ends, so killing the run loses at most the deals in
play; a last line cut short by a kill is dropped when the journal is read again. A run given the
journal plays only the deals it lacks. A journal written for another tournament or another
version of the code is refused and left as it is; two runs cannot use one journal at once.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from core.files import (
    FileContentError,
    StrictJsonError,
    locked,
    parse_strict_json,
    read_regular_file,
)

JOURNAL_FORMAT = "mdhearts-deal-journal"
JOURNAL_VERSION = 1
#: The largest journal read (500 deals of four rotations take a few megabytes).
MAX_JOURNAL_BYTES = 256 * 1024 * 1024
#: Nesting of a deal line: the object, its results, a list per slot, a tally.
MAX_LINE_DEPTH = 4


class JournalError(ValueError):
    """A journal cannot be used: not a journal, another tournament's, or damaged."""


class DealJournal:
    """The deals a tournament has finished (``deals``: index → the deal's JSON object), and a
    way to add more (``add``). Open one with ``open_journal``."""

    def __init__(self, stream: BinaryIO, deals: dict[int, dict[str, Any]]) -> None:
        self._stream = stream
        self.deals = deals

    def add(self, index: int, result: Mapping[str, Any]) -> None:
        """Append a finished deal and flush it to the disk."""
        line = json.dumps({"deal": index, "result": result}, separators=(",", ":")) + "\n"
        self._stream.write(line.encode("utf-8"))
        self._stream.flush()
        os.fsync(self._stream.fileno())
        self.deals[index] = dict(result)


@contextlib.contextmanager
def open_journal(path: str | os.PathLike[str], header: Mapping[str, Any]) -> Iterator[DealJournal]:
    """Yield the journal at ``path`` for the tournament ``header`` names, made if missing.

    Raises JournalError when the file is not such a journal or names another tournament,
    LockBusyError when another run holds it, and OSError when it cannot be read or written.
    """
    target = Path(path)
    wanted = {"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION, **header}
    with locked(target):
        deals, keep = _read(target, wanted)
        with open(target, "r+b" if keep else "wb") as stream:
            if keep:
                stream.truncate(keep)
                stream.seek(keep)
            else:
                stream.write((json.dumps(wanted, ensure_ascii=False) + "\n").encode("utf-8"))
                stream.flush()
            yield DealJournal(stream, deals)


def read_journal(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Return a journal's header and its finished deals (index → the deal's JSON object).

    Reads without locking or changing the file, so a run may go on writing it; a last line cut
    short is left out. Raises FileNotFoundError when there is no file, JournalError when it is
    not a journal or is damaged, and OSError when it cannot be read.
    """
    header, deals, _ = _read_whole(Path(path))
    if header is None:
        raise JournalError(f"{path}: not a deal journal (the file is empty)")
    return header, deals


def _read(target: Path, wanted: Mapping[str, Any]) -> tuple[dict[int, dict[str, Any]], int]:
    """Return the deals a journal holds and the length of its whole lines (0: no journal yet)."""
    try:
        header, deals, keep = _read_whole(target)
    except FileNotFoundError:
        return {}, 0
    if header is not None and header != dict(wanted):
        differs = sorted(key for key in {*header, *wanted} if header.get(key) != wanted.get(key))
        raise JournalError(
            f"{target}: a journal of another tournament or code (differs in "
            f"{', '.join(differs)}); use another file, this one was left as it is"
        )
    return deals, keep


def _read_whole(
    target: Path,
) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]], int]:
    """Return a journal's header (None for an empty file), its deals and the length of its
    whole lines; raise FileNotFoundError or JournalError."""
    try:
        raw = read_regular_file(target, MAX_JOURNAL_BYTES)
    except FileContentError as error:
        raise JournalError(f"{target}: {error}") from None
    if not raw:
        return None, {}, 0
    lines = raw.split(b"\n")
    # The last piece is empty when the file ends with a whole line; else a kill cut it short.
    whole = lines[:-1]
    if not whole:
        raise JournalError(f"{target}: not a deal journal (no whole first line)")
    header = _parse(target, whole[0], 1, None)
    if header.get("format") != JOURNAL_FORMAT:
        raise JournalError(f"{target}: not a deal journal; it was left as it is")
    deals: dict[int, dict[str, Any]] = {}
    for number, line in enumerate(whole[1:], start=2):
        entry = _parse(target, line, number, MAX_LINE_DEPTH)
        index = entry.get("deal")
        result = entry.get("result")
        if type(index) is not int or index < 0 or not isinstance(result, dict):
            raise JournalError(f"{target}: line {number} is not a finished deal")
        deals[index] = result
    return header, deals, len(raw) - len(lines[-1])


def _parse(target: Path, line: bytes, number: int, depth: int | None) -> dict[str, Any]:
    try:
        data = parse_strict_json(line.decode("utf-8"), max_depth=depth)
    except (UnicodeDecodeError, StrictJsonError) as error:
        raise JournalError(f"{target}: line {number} is damaged ({error})") from None
    if not isinstance(data, dict):
        raise JournalError(f"{target}: line {number} is not a JSON object")
    return data
