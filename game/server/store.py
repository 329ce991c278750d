"""The server's storage: tables in SQLite (WAL), each match as a game record (``core.record``).

A small interface (``create``, ``save``, ``load_open``, ``load``, ``command_seq``,
``created_by``) so the hub never writes SQL. ``save`` commits the table's match, its event
counter and the id of the command that changed it in one transaction: the hub broadcasts only
after it returns, so every move a client saw acknowledged survives a kill of the server. The
match is stored whole, as a record, when a hand begins and when the match ends; the moves of
the hand in between are rows of their own (each as a record's action), replayed through the
controller when it is loaded.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from pathlib import Path

from core.actions import PassAction, action_from_dict
from core.errors import HeartsError
from core.record import dumps_record, loads_record
from game.server.table import SeatState, Table, parse_rules

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    code TEXT UNIQUE NOT NULL,
    host_hash TEXT NOT NULL,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    seq INTEGER NOT NULL DEFAULT 0,
    record TEXT,
    finished INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS commands (
    table_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    command_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat, command_id)
);
CREATE INDEX IF NOT EXISTS commands_by_id ON commands (command_id, seat);
"""

#: How often the WAL is copied into the database, in seconds.
CHECKPOINT_EVERY_S = 1.0
#: ``seat`` of a command that no seat sent (create, the host's start).
NO_SEAT = -1


class StoreError(RuntimeError):
    """The database could not be opened or written; the message says why."""


class Store:
    """Tables in one SQLite database file."""

    def __init__(self, path: str | Path) -> None:
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            # WAL with synchronous=NORMAL: a committed transaction survives the server's
            # process being killed; only a power cut may lose the last ones.
            self._db.execute("PRAGMA synchronous=NORMAL")
            # Checkpoints (the WAL copied into the database, with a sync of the disk) are made
            # by a thread of their own, so that a commit on the loop never waits for the disk.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the database {path}: {error}") from None
        #: Per table, the hand and the count of its moves stored so far.
        self._written: dict[int, tuple[int, int]] = {}
        self._stop = threading.Event()
        self._checkpoints = threading.Thread(
            target=self._checkpoint, args=(str(path),), name="checkpoints", daemon=True
        )
        self._checkpoints.start()

    def _checkpoint(self, path: str) -> None:
        """Copy the WAL into the database every ``CHECKPOINT_EVERY_S`` (a thread's target)."""
        with contextlib.closing(sqlite3.connect(path, check_same_thread=False)) as db:
            while not self._stop.wait(CHECKPOINT_EVERY_S):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Stop the checkpoints, make the last one and close the database (everything is
        already committed)."""
        self._stop.set()
        self._checkpoints.join(CHECKPOINT_EVERY_S * 5)
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    def create(self, code: str, host_hash: str, table: Table, command: tuple[int, str]) -> int:
        """Store a new table and return its id."""
        now = time.time()
        try:
            with self._db:
                self._db.execute("BEGIN")
                cursor = self._db.execute(
                    "INSERT INTO tables (code, host_hash, rules, seats, created, updated)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (code, host_hash, json.dumps(table.rules.to_dict()), _seats(table), now, now),
                )
                table_id = int(cursor.lastrowid or 0)
                self._command(table_id, command, 0)
        except sqlite3.Error as error:
            raise StoreError(f"cannot store the new table: {error}") from None
        return table_id

    def save(self, table: Table, command: tuple[int, str] | None = None) -> None:
        """Commit the table (match, seats, counter) and the command that changed it.

        The match is written whole as a game record when a hand begins and when the match
        ends; in between, each move of the hand is added as a row (a record's action), so a
        move costs one small row instead of the whole record.
        """
        controller = table.controller
        record, moves, written = None, [], self._written.get(table.id)
        if controller is not None:
            match = controller.match
            assert match is not None
            actions = match.hands[-1].actions
            mark = (controller.hand_number, len(actions))
            if written is not None and written[0] == mark[0] and not table.finished:
                new = range(written[1], len(actions))  # only the moves not written yet
                moves = [(n, json.dumps(actions[n].to_dict())) for n in new]
            else:
                record = dumps_record(controller)
        try:
            with self._db:
                self._db.execute("BEGIN")
                self._db.execute(
                    "UPDATE tables SET seats = ?, seq = ?, finished = ?, updated = ? WHERE id = ?",
                    (_seats(table), table.seq, int(table.finished), time.time(), table.id),
                )
                if record is not None:
                    self._db.execute(
                        "UPDATE tables SET record = ? WHERE id = ?", (record, table.id)
                    )
                    self._db.execute("DELETE FROM moves WHERE table_id = ?", (table.id,))
                self._db.executemany(
                    "INSERT INTO moves (table_id, number, action) VALUES (?, ?, ?)",
                    [(table.id, number, action) for number, action in moves],
                )
                if command is not None:
                    self._command(table.id, command, table.seq)
        except sqlite3.Error as error:
            raise StoreError(f"cannot store table {table.code}: {error}") from None
        if controller is not None:
            self._written[table.id] = mark

    def forget(self, table_id: int) -> None:
        """Forget what is kept in memory about a table (it stays in the database)."""
        self._written.pop(table_id, None)

    def _command(self, table_id: int, command: tuple[int, str], seq: int) -> None:
        seat, command_id = command
        self._db.execute(
            "INSERT OR REPLACE INTO commands (table_id, seat, command_id, seq) VALUES (?, ?, ?, ?)",
            (table_id, seat, command_id, seq),
        )

    def command_seq(self, table_id: int, seat: int, command_id: str) -> int | None:
        """Return the counter after the command with this id was applied, or None if it was not."""
        try:
            row = self._db.execute(
                "SELECT seq FROM commands WHERE table_id = ? AND seat = ? AND command_id = ?",
                (table_id, seat, command_id),
            ).fetchone()
        except sqlite3.Error as error:
            raise StoreError(f"cannot read the commands: {error}") from None
        return None if row is None else int(row[0])

    def created_by(self, command_id: str) -> list[tuple[str, str]]:
        """Return the code and host token hash of each table a ``create`` with this id made.

        A create is stored as the host's command (``NO_SEAT``) at counter 0 (a start comes
        later, past 0). Ids are chosen by clients, so several tables may have one: the caller
        tells them apart by the host token (``credentials.token_matches``, in constant time).
        """
        try:
            rows = self._db.execute(
                "SELECT tables.code, tables.host_hash FROM commands"
                " JOIN tables ON tables.id = commands.table_id"
                " WHERE commands.command_id = ? AND commands.seat = ? AND commands.seq = 0",
                (command_id, NO_SEAT),
            ).fetchall()
        except sqlite3.Error as error:
            raise StoreError(f"cannot read the commands: {error}") from None
        return [(str(code), str(host_hash)) for code, host_hash in rows]

    def load_open(self) -> tuple[list[Table], list[str]]:
        """Return every table whose match is not over, and a problem line per unusable one."""
        rows = self._db.execute(
            "SELECT id, code, host_hash, rules, seats, seq, record FROM tables WHERE finished = 0"
        ).fetchall()
        tables, problems = [], []
        for row in rows:
            try:
                tables.append(self._table(row))
            except (HeartsError, ValueError, KeyError, TypeError) as error:
                problems.append(f"table {row[1]} cannot be resumed: {error}")
        return tables, problems

    def load(self, code: str) -> Table | None:
        """Return the table with this code (finished or not), or None."""
        try:
            row = self._db.execute(
                "SELECT id, code, host_hash, rules, seats, seq, record FROM tables WHERE code = ?",
                (code,),
            ).fetchone()
        except sqlite3.Error as error:
            raise StoreError(f"cannot read table {code}: {error}") from None
        if row is None:
            return None
        try:
            return self._table(row)
        except (HeartsError, ValueError, KeyError, TypeError):
            return None

    def code_taken(self, code: str) -> bool:
        """Return whether a table already has this code."""
        try:
            row = self._db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone()
        except sqlite3.Error as error:
            raise StoreError(f"cannot read the tables: {error}") from None
        return row is not None

    def _table(self, row: tuple[object, ...]) -> Table:
        """Return a stored table: its record, then the moves of the hand since."""
        table_id, code, host_hash, rules, seats, seq, record = row
        table = Table(
            int(str(table_id)),
            str(code),
            str(host_hash),
            parse_rules(json.loads(str(rules))),
            [SeatState.from_dict(seat) for seat in json.loads(str(seats))],
            seq=int(str(seq)),
        )
        if record is None:
            return table
        controller = loads_record(str(record))
        match = controller.match
        assert match is not None
        rows = self._db.execute(
            "SELECT number, action FROM moves WHERE table_id = ? ORDER BY number", (table.id,)
        ).fetchall()
        for number, text in rows:
            if number < len(match.hands[-1].actions):
                continue
            action = action_from_dict(json.loads(text))
            if isinstance(action, PassAction):
                result = controller.submit_pass(action.seat, action.cards)
            else:
                result = controller.play_card(action.seat, action.card)
            if not result.ok:
                raise HeartsError(f"move {number} of the hand does not apply: {result.error}")
        table.controller = controller
        self._written[table.id] = (controller.hand_number, len(match.hands[-1].actions))
        return table


def _seats(table: Table) -> str:
    return json.dumps([seat.to_dict() for seat in table.seats])
