"""The hub: every table and connection of the server, changed only on the event loop.

A client frame goes ``receive`` → its handler (``game.server.commands``) → the table (its
controller) → ``publish``, which commits the table to the store before any client hears of the
change, then sends each client the frame ``game.server.view.seat_frame`` builds for its seat.
The hub also keeps who is where (seats, watchers) and the grace timers of people away. Bots
are asked through ``ServerBots`` (a worker process); their moves come back through
``apply_bot_moves``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

from core import events as ev
from game.server.bots import BotMove, ServerBots
from game.server.commands import HANDLERS, refuse
from game.server.connection import Conn, encode
from game.server.credentials import normal_code
from game.server.protocol import ProtocolError, error_frame, parse_frame
from game.server.store import Store, StoreError
from game.server.table import Table
from game.server.view import Published, seat_frame, shared_frame

log = logging.getLogger("mdhearts.serve")

#: What the hub needs to know of its settings.
DEFAULT_GRACE_S = 60.0


class Hub:
    """Tables by code and id, the connections at each, the grace timers of absent people."""

    def __init__(
        self,
        store: Store,
        bots: ServerBots,
        *,
        grace_s: float = DEFAULT_GRACE_S,
        max_tables: int = 10_000,
        rate: tuple[float, float] = (20.0, 40.0),
    ) -> None:
        self.store = store
        self.bots = bots
        self.grace_s = grace_s
        self.max_tables = max_tables
        self.rate = rate
        self.tables: dict[str, Table] = {}
        self.by_id: dict[int, Table] = {}
        self.seated: dict[tuple[int, int], Conn] = {}
        self.watchers: dict[int, set[Conn]] = {}
        self._timers: dict[tuple[int, int], asyncio.TimerHandle] = {}

    # -- the life of the hub ------------------------------------------------------------------

    def resume(self) -> int:
        """Load every table whose match is not over; its people count as away until they
        rejoin (their grace time starts now). Return how many were resumed."""
        tables, problems = self.store.load_open()
        for problem in problems:
            log.warning(problem)
        for table in tables:
            self.add_table(table)
            for seat, state in enumerate(table.seats):
                if state.taken:
                    self.start_grace(table, seat)
            self.ask_bots(table)
        return len(tables)

    def add_table(self, table: Table) -> None:
        self.tables[table.code] = table
        self.by_id[table.id] = table

    # -- frames in ----------------------------------------------------------------------------

    def receive(self, conn: Conn, text: str | bytes) -> None:
        """Handle one client frame: a command, or an error frame saying why not (never raises
        for bad input)."""
        if isinstance(text, bytes):
            conn.send(error_frame("frames are JSON text, not binary", "binary_frame"))
            return
        try:
            command = parse_frame(text)
        except ProtocolError as error:
            if error.reason == "bad_version" and not conn.greeted:
                refuse(self, conn, str(error), error.command_id)
            else:
                conn.send(error_frame(str(error), error.reason, error.command_id))
            return
        if not conn.greeted and command.type != "hello":
            conn.send(error_frame("say hello first", "hello_first", command.id))
            return
        try:
            HANDLERS[command.type](self, conn, command)
        except ProtocolError as error:
            conn.send(error_frame(str(error), error.reason, command.id))
        except StoreError as error:
            log.error("%s", error)
            conn.send(error_frame("the server could not store it; try again", "busy", command.id))

    def find_table(self, code: str) -> Table:
        key = normal_code(code)
        table = self.tables.get(key)
        if table is None:
            # A finished table is not loaded at start; its record is still given.
            table = self.store.load(key)
            if table is None:
                raise ProtocolError(f"no table has the code {code!r}", "no_such_table")
            self.add_table(table)
        return table

    # -- connections --------------------------------------------------------------------------

    def bind(self, conn: Conn, table: Table, seat: int) -> None:
        conn.table_id, conn.seat = table.id, seat
        self.seated[(table.id, seat)] = conn

    def unbind(self, conn: Conn) -> None:
        """Forget where ``conn`` sat or watched (nothing else changes)."""
        if conn.table_id is None:
            return
        if conn.seat is None:
            self.watchers.get(conn.table_id, set()).discard(conn)
        elif self.seated.get((conn.table_id, conn.seat)) is conn:
            del self.seated[(conn.table_id, conn.seat)]
        conn.table_id = conn.seat = None

    def disconnected(self, conn: Conn) -> None:
        """A connection ended or moved: a seated person is away from now on, for the grace
        time."""
        table_id, seat = conn.table_id, conn.seat
        owned = seat is not None and self.seated.get((table_id or 0, seat)) is conn
        self.unbind(conn)
        table = self.by_id.get(table_id) if table_id is not None else None
        if table is not None and table.finished:
            self._unload_if_idle(table)
            return
        if table is None or seat is None or not owned:
            return
        state = table.seats[seat]
        state.connected = False
        state.away_since = time.monotonic()
        self.start_grace(table, seat)
        log.info("table %s: seat %d is away", table.code, seat)
        try:
            self.publish(table, [table.seat_event(seat)])
        except StoreError as error:
            log.error("%s", error)

    def _unload_if_idle(self, table: Table) -> None:
        """Forget a finished table nobody is at any more (it is loaded again when asked)."""
        seated = any((table.id, seat) in self.seated for seat in range(4))
        if seated or self.watchers.get(table.id):
            return
        for seat in range(4):
            self.cancel_grace(table, seat)
        self.tables.pop(table.code, None)
        self.by_id.pop(table.id, None)
        self.watchers.pop(table.id, None)
        self.store.forget(table.id)

    def start_grace(self, table: Table, seat: int) -> None:
        self.cancel_grace(table, seat)
        loop = asyncio.get_running_loop()
        handle = loop.call_later(self.grace_s, self._grace_over, table.id, seat)
        self._timers[(table.id, seat)] = handle

    def cancel_grace(self, table: Table, seat: int) -> None:
        handle = self._timers.pop((table.id, seat), None)
        if handle is not None:
            handle.cancel()

    def _grace_over(self, table_id: int, seat: int) -> None:
        self._timers.pop((table_id, seat), None)
        table = self.by_id.get(table_id)
        if table is None or table.seats[seat].away_since is None:
            return
        table.seats[seat].standin = True
        try:
            self.publish(table, [table.seat_event(seat)])
        except StoreError as error:
            log.error("%s", error)
        log.info("table %s: seat %d away past the grace time, a bot plays", table.code, seat)
        self.ask_bots(table)

    # -- frames out ---------------------------------------------------------------------------
    def publish(
        self,
        table: Table,
        events: Sequence[ev.Event],
        command: tuple[int, str | None] | None = None,
    ) -> None:
        """Number the events, commit the table, then tell every client at the table."""
        items = []
        for event in events:
            table.seq += 1
            items.append(Published(table.seq, event))
        try:
            self.store.save(table, None if command is None else (command[0], command[1] or ""))
        except StoreError:
            self._restore(table)
            raise
        watchers = self.watchers.get(table.id, ())
        for item in items:
            _log_event(table, item.event)
            shared = shared_frame(item)
            if shared is not None:  # one text for everyone at the table
                text = encode(shared)
                for seat in range(4):
                    conn = self.seated.get((table.id, seat))
                    if conn is not None:
                        conn.send_text(text)
                for conn in list(watchers):
                    conn.send_text(text)
                continue
            for seat in range(4):
                conn = self.seated.get((table.id, seat))
                if conn is not None:
                    data = seat_frame(table, seat, item)
                    if data is not None:
                        conn.send(data)
            if watchers:
                public = seat_frame(table, None, item)
                if public is not None:
                    for conn in list(watchers):
                        conn.send(public)
        if table.finished:
            self.bots.forget_table(table.id)

    def _restore(self, table: Table) -> None:
        """Put the table back as it was last committed (a write failed: nothing applies)."""
        try:
            stored = self.store.load(table.code)
        except StoreError as error:
            stored = None
            log.error("%s", error)
        if stored is None:
            log.error("table %s could not be restored from the database", table.code)
            return
        table.controller, table.seq = stored.controller, stored.seq
        for seat, kept in zip(table.seats, stored.seats, strict=True):
            seat.kind, seat.name, seat.token_hash = kept.kind, kept.name, kept.token_hash
        self.bots.forget_table(table.id)

    # -- bots ---------------------------------------------------------------------------------

    def ask_bots(self, table: Table) -> None:
        controller = table.controller
        if controller is None or table.finished:
            return
        for seat in controller.seats_to_act:
            bot = table.bot_for(seat)
            if bot is not None and not self.bots.pending(table.id, seat):
                self.bots.ask(table.id, seat, controller.observation(seat), bot)

    def apply_bot_moves(self, moves: Sequence[BotMove]) -> None:
        """Play the bots' settled decisions that still apply, then ask for the next ones."""
        touched: dict[int, Table] = {}
        for move in moves:
            table = self.by_id.get(move.table_id)
            if table is None or table.controller is None or table.finished:
                continue
            touched[table.id] = table
            if table.bot_for(move.seat) is None:
                continue  # its person came back
            result = table.move(move.seat, move.decision.action)
            if not result.ok:
                log.warning("table %s: a bot's move did not apply: %s", table.code, result.error)
                continue
            try:
                self.publish(table, result.events)
            except StoreError as error:
                log.error("%s", error)
        # Asked once the whole batch is played: a seat whose answer is in it is not asked again.
        for table in touched.values():
            self.ask_bots(table)


def _log_event(table: Table, event: ev.Event) -> None:
    """Log a table event worth knowing (never a card of a hand, never a token)."""
    if isinstance(event, ev.HandScored):
        log.info("table %s: a hand was scored, totals %s", table.code, _numbers(event.totals))
    elif isinstance(event, ev.MatchOver):
        log.info("table %s: match over, seat %d won", table.code, event.winner)


def _numbers(values: Sequence[int]) -> str:
    return " ".join(map(str, values))
