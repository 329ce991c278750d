"""Finished matches kept to replay: one game record a match in the data folder's ``replays``.

Each file is a plain versioned game record (``core.record``), so ``mdhearts review`` and
``mdhearts cli --load`` read it too. Its name says when the match ended, in UTC, and its seed:
``match-20261123-163405-0123abcd.json``, so the names sort oldest first and the list needs no
index file. The person chooses how many are kept (``Settings.replays_kept``); when a match is
archived the oldest beyond that number are removed. Files whose names are not the archive's own
are never touched.

Listing reads each file's summary (seats, totals, hands) without replaying its actions, so the
list opens quickly; a replay is checked in full when opened. Nothing here raises for what a file
holds: an unreadable record is set aside, as a corrupt saved game is, with a message.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from core.controller import Controller
from core.errors import HeartsError
from core.files import (
    FileContentError,
    decode_utf8,
    read_regular_file,
)
from core.record import MAX_RECORD_BYTES, RECORD_FORMAT, dumps_record
from core.seats import Seat, parse_seats
from game.table.store.json_store import reason_of, report_unreadable
from game.table.store.saves import load_game

#: An archived match's file name: when it ended (UTC) and its seed's low 32 bits in hex.
REPLAY_NAME = re.compile(r"^match-(\d{8}-\d{6})-([0-9a-f]{8})\.json$")
_STAMP = "%Y%m%d-%H%M%S"
#: What the person is told instead of the replay, after a message about its file.
NOT_SHOWN = "it cannot be replayed"


@dataclass(frozen=True)
class ReplayEntry:
    """One archived match as the list shows it: when it ended, who sat where, the result."""

    path: Path
    ended: datetime
    seats: tuple[Seat, Seat, Seat, Seat]
    totals: tuple[int, int, int, int]
    hands: int

    @property
    def person_played(self) -> bool:
        """Return whether a person played seat 0 (else the bots were watched)."""
        return self.seats[0].is_human

    @property
    def winner(self) -> int:
        """Return the seat with the lowest total (the first of them on a tie)."""
        return min(range(4), key=lambda seat: self.totals[seat])

    def opponents(self) -> str:
        """Return the bots that played, e.g. ``hard, hard, normal`` (``engine`` for programs)."""
        first = 1 if self.person_played else 0
        return ", ".join(_seat_word(seat) for seat in self.seats[first:])

    def result(self) -> str:
        """Return the result from seat 0's side, e.g. ``won, 41 to 102``."""
        others = [total for seat, total in enumerate(self.totals) if seat != 0]
        verb = "won" if self.winner == 0 else "lost"
        if not self.person_played:
            verb = "South won" if self.winner == 0 else "South lost"
        return f"{verb}, {self.totals[0]} to {'/'.join(str(total) for total in others)}"


def _seat_word(seat: Seat) -> str:
    """Return the word for who played a seat: the bot's level, ``program`` or ``person``."""
    if seat.is_human:
        return "person"
    if seat.kind == "bot":
        return seat.bot or "bot"
    return "program"


def replay_name(controller: Controller, ended: datetime) -> str:
    """Return the file name of a match archived at ``ended`` (an aware datetime)."""
    seed = 0 if controller.match is None else controller.match.seed
    return f"match-{ended.astimezone(UTC).strftime(_STAMP)}-{seed & 0xFFFFFFFF:08x}.json"


def replay_text(controller: Controller) -> str:
    """Return the record of a finished match as it is archived."""
    return dumps_record(controller)


def archived_files(folder: Path) -> list[Path]:
    """Return the archive's own files in ``folder``, oldest first (none if it cannot be read)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [folder / name for name in sorted(names) if REPLAY_NAME.match(name)]


def surplus(folder: Path, kept: int) -> list[Path]:
    """Return the archived files to remove so that ``kept`` remain after one more is added."""
    files = archived_files(folder)
    return files[: max(0, len(files) - (kept - 1))] if kept > 0 else []


def read_entry(path: Path) -> ReplayEntry:
    """Return the summary of one archived match; raise FileContentError saying what is wrong
    with its content, OSError when it cannot be read."""
    found = REPLAY_NAME.match(path.name)
    if found is None:
        raise FileContentError("not an archived match's name")
    ended = datetime.strptime(found.group(1), _STAMP).replace(tzinfo=UTC)
    # Only a summary is read here, with the fast parser; opening the replay checks it in full.
    try:
        data = json.loads(decode_utf8(read_regular_file(path, MAX_RECORD_BYTES)))
    except (ValueError, RecursionError) as error:  # StrictJsonError is a ValueError
        raise FileContentError(f"not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise FileContentError("not a game record")
    try:
        seats = parse_seats(data["seats"])
        totals = tuple(data["totals"])
        hands = len(data["hands"]) + int(data.get("earlier", {}).get("hands", 0))
    except (HeartsError, KeyError, TypeError, ValueError, AttributeError):
        raise FileContentError("a game record without its seats, totals or hands") from None
    if len(totals) != 4 or not all(_is_whole(total) for total in totals):
        raise FileContentError("a game record whose totals are not four numbers")
    return ReplayEntry(path, ended, seats, (totals[0], totals[1], totals[2], totals[3]), hands)


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def list_replays(folder: Path) -> tuple[list[ReplayEntry], list[str]]:
    """Return the archived matches, newest first, and a message per file that was not listed.

    A file whose content is not a record's is set aside; one that cannot be read is left.
    """
    entries: list[ReplayEntry] = []
    messages: list[str] = []
    for path in reversed(archived_files(folder)):
        try:
            entries.append(read_entry(path))
        except FileNotFoundError:
            continue
        except FileContentError as error:
            messages.append(report_unreadable(path, str(error), "it is not listed"))
        except OSError as error:
            messages.append(f"{path.name} could not be read ({reason_of(error)})")
    return entries, messages


def load_replay(path: str | os.PathLike[str]) -> tuple[Controller | None, str | None]:
    """Load an archived match, checked in full; return ``(controller, None)`` or
    ``(None, message)``. A file that is not a valid record is set aside."""
    target = Path(path)
    controller, message = load_game(target, NOT_SHOWN)
    if controller is None:
        return None, message or f"{target.name} is gone; {NOT_SHOWN}"
    if controller.phase != "match_over":
        return None, f"{target.name} holds a match that is not over; {NOT_SHOWN}"
    return controller, None
