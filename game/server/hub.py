"""The hub: every table and connection of the server, changed only on the event loop.

A client frame goes ``receive`` → a handler → the table (its controller) → ``publish``, which
commits the table to the store before any client hears of the change, then sends each client
the frame ``game.server.view.seat_frame`` builds for its seat. Bots are asked through
``ServerBots`` (a worker process) and their moves come back through ``apply_bot_moves``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from core import events as ev
from core.record import record_to_dict
from game.server.bots import BotMove, ServerBots
from game.server.connection import CLOSE_REFUSED, CLOSE_REPLACED, Conn
from game.server.credentials import new_code, new_token, normal_code, token_hash, token_matches
from game.server.protocol import (
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    Command,
    ProtocolError,
    error_frame,
    frame,
    parse_frame,
)
from game.server.store import NO_SEAT, Store, StoreError
from game.server.table import (
    Table,
    TableError,
    TableStarted,
    parse_rules,
    parse_table_seats,
)
from game.server.view import Published, Snapshot, seat_frame
from game.version import VERSION

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
        self._handlers: dict[str, Callable[[Conn, Command], None]] = {
            "hello": self._on_hello,
            "create": self._on_create,
            "join": self._on_join,
            "rejoin": self._on_rejoin,
            "watch": self._on_watch,
            "start": self._on_start,
            "pass": self._on_move,
            "play": self._on_move,
            "snapshot": self._on_snapshot,
            "record": self._on_record,
            "ping": self._on_ping,
        }

    # -- the life of the hub ------------------------------------------------------------------

    def resume(self) -> int:
        """Load every table whose match is not over; its people count as away until they
        rejoin (their grace time starts now). Return how many were resumed."""
        tables, problems = self.store.load_open()
        for problem in problems:
            log.warning(problem)
        for table in tables:
            self._add(table)
            for seat, state in enumerate(table.seats):
                if state.taken:
                    self._start_grace(table, seat)
            self._ask_bots(table)
        return len(tables)

    def _add(self, table: Table) -> None:
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
                self._refuse(conn, str(error), error.command_id)
            else:
                conn.send(error_frame(str(error), error.reason, error.command_id))
            return
        if not conn.greeted and command.type != "hello":
            conn.send(error_frame("say hello first", "hello_first", command.id))
            return
        try:
            self._handlers[command.type](conn, command)
        except ProtocolError as error:
            conn.send(error_frame(str(error), error.reason, command.id))
        except StoreError as error:
            log.error("%s", error)
            conn.send(error_frame("the server could not store it; try again", "busy", command.id))

    def _refuse(self, conn: Conn, message: str, command_id: str | None = None) -> None:
        versions = list(PROTOCOL_VERSIONS)
        conn.send(frame("refusal", id=command_id, versions=versions, message=message))
        conn.close(*CLOSE_REFUSED)

    def _on_hello(self, conn: Conn, command: Command) -> None:
        if conn.greeted:
            raise ProtocolError("hello was said already", "already_greeted")
        common = [v for v in command.fields["versions"] if v in PROTOCOL_VERSIONS]
        if not common:
            self._refuse(conn, "no protocol version in common", command.id)
            return
        conn.greeted = True
        conn.send(
            frame(
                "welcome",
                id=command.id,
                version=PROTOCOL_VERSION,
                versions=list(PROTOCOL_VERSIONS),
                server=f"mdhearts {VERSION}",
                max_frame=MAX_FRAME_BYTES,
                rate={"per_second": self.rate[0], "burst": self.rate[1]},
                grace=self.grace_s,
            )
        )

    def _table(self, code: str) -> Table:
        key = normal_code(code)
        table = self.tables.get(key)
        if table is None:
            # A finished table is not loaded at start; its record is still given.
            table = self.store.load(key)
            if table is None:
                raise ProtocolError(f"no table has the code {code!r}", "no_such_table")
            self._add(table)
        return table

    def _on_create(self, conn: Conn, command: Command) -> None:
        if len(self.tables) >= self.max_tables:
            raise ProtocolError("the server holds as many tables as it may", "too_many_tables")
        try:
            rules = parse_rules(command.fields.get("rules"))
            seats = parse_table_seats(command.fields["seats"])
        except TableError as error:
            raise ProtocolError(str(error), error.reason) from None
        code = new_code()
        while code in self.tables or self.store.code_taken(code):
            code = new_code()
        host_token = new_token()
        table = Table(0, code, token_hash(host_token), rules, seats)
        table.id = self.store.create(code, table.host_hash, table, (NO_SEAT, command.id or ""))
        self._add(table)
        log.info("table %s created: seats %s", code, ", ".join(s.kind for s in seats))
        conn.send(frame("created", id=command.id, code=code, host_token=host_token))

    def _on_join(self, conn: Conn, command: Command) -> None:
        table = self._table(command.fields["code"])
        if table.started:
            raise ProtocolError("the match has begun: every seat is played", "table_full")
        wanted = command.fields.get("seat")
        free = [n for n, s in enumerate(table.seats) if s.is_person and not s.taken]
        if wanted is not None and wanted not in free:
            raise ProtocolError(f"seat {wanted} is not free (free: {free})", "seat_taken")
        if not free:
            raise ProtocolError("every seat is taken", "table_full")
        seat = free[0] if wanted is None else wanted
        self.disconnected(conn)  # a seat this connection held elsewhere is now away
        token = new_token()
        state = table.seats[seat]
        state.token_hash, state.name = token_hash(token), command.fields["name"]
        state.connected, state.away_since, state.standin = True, None, False
        self.publish(table, [table.seat_event(seat)])
        self._bind(conn, table, seat)
        log.info("table %s: seat %d taken (%s)", table.code, seat, conn.peer)
        conn.send(frame("joined", id=command.id, code=table.code, seat=seat, token=token))
        self._send_snapshot(conn, table, seat)

    def _on_rejoin(self, conn: Conn, command: Command) -> None:
        table = self._table(command.fields["code"])
        token = command.fields["token"]
        matches = [token_matches(token, state.token_hash) for state in table.seats]
        if not any(matches):
            raise ProtocolError("this token is not one of this table's seats", "bad_token")
        seat = matches.index(True)
        older = self.seated.get((table.id, seat))
        if older is not None and older is not conn:
            older.send(frame("replaced", message=CLOSE_REPLACED[1]))
            self._unbind(older)
            older.close(*CLOSE_REPLACED)
            log.info("table %s: seat %d taken over by a newer connection", table.code, seat)
        if (conn.table_id, conn.seat) != (table.id, seat):
            self.disconnected(conn)  # a seat this connection held elsewhere is now away
        state = table.seats[seat]
        was_away = state.away_since is not None
        state.connected, state.away_since, state.standin = True, None, False
        self._cancel_grace(table, seat)
        self.bots.forget(table.id, seat)
        if was_away:
            self.publish(table, [table.seat_event(seat)])
            log.info("table %s: seat %d is back (%s)", table.code, seat, conn.peer)
        self._bind(conn, table, seat)
        conn.send(frame("joined", id=command.id, code=table.code, seat=seat))
        self._send_snapshot(conn, table, seat)

    def _on_watch(self, conn: Conn, command: Command) -> None:
        table = self._table(command.fields["code"])
        self.disconnected(conn)  # a seat this connection held is now away
        conn.table_id, conn.seat = table.id, None
        self.watchers.setdefault(table.id, set()).add(conn)
        conn.send(frame("watching", id=command.id, code=table.code))
        self._send_snapshot(conn, table, None)

    def _on_start(self, conn: Conn, command: Command) -> None:
        table = self._table(command.fields["code"])
        if not token_matches(command.fields["host_token"], table.host_hash):
            raise ProtocolError("only the table's host may start it", "not_host")
        done = self.store.command_seq(table.id, NO_SEAT, command.id or "")
        if done is not None:
            conn.send(frame("ack", id=command.id, seq=done, duplicate=True))
            return
        if table.started:
            raise ProtocolError("the match has begun already", "already_started")
        result = table.start()
        if not result.ok:
            raise ProtocolError(result.error or "the match cannot begin", "bad_rules")
        changed = [table.seat_event(n) for n, s in enumerate(table.seats) if not s.is_person]
        self.publish(table, [TableStarted(), *changed, *result.events], (NO_SEAT, command.id))
        log.info("table %s started", table.code)
        conn.send(frame("ack", id=command.id, seq=table.seq))
        self._ask_bots(table)

    def _on_move(self, conn: Conn, command: Command) -> None:
        table, seat = self._seated(conn)
        if not table.started:
            raise ProtocolError("the match has not begun", "not_started")
        done = self.store.command_seq(table.id, seat, command.id or "")
        if done is not None:
            conn.send(frame("ack", id=command.id, seq=done, duplicate=True))
            return
        choice = command.fields["cards"] if command.type == "pass" else command.fields["card"]
        result = table.move(seat, choice)
        if not result.ok:
            details = {k: v for k, v in result.details.items() if isinstance(v, (int, str))}
            error = error_frame(result.error or "refused", result.reason or "bad_input", command.id)
            conn.send({**error, "details": details} if details else error)
            return
        self.publish(table, result.events, (seat, command.id))
        conn.send(frame("ack", id=command.id, seq=table.seq))
        self._ask_bots(table)

    def _on_snapshot(self, conn: Conn, command: Command) -> None:
        table = self.by_id.get(conn.table_id) if conn.table_id is not None else None
        if table is None:
            raise ProtocolError("join, rejoin or watch a table first", "not_seated")
        self._send_snapshot(conn, table, conn.seat, command.id)

    def _on_record(self, conn: Conn, command: Command) -> None:
        table = self.by_id.get(conn.table_id) if conn.table_id is not None else None
        if table is None:
            raise ProtocolError("join, rejoin or watch a table first", "not_seated")
        if not table.finished or table.controller is None:
            raise ProtocolError("the record is given once the match is over", "match_not_over")
        conn.send(frame("record", id=command.id, record=record_to_dict(table.controller)))

    def _on_ping(self, conn: Conn, command: Command) -> None:
        conn.send(frame("pong", id=command.id))

    def _seated(self, conn: Conn) -> tuple[Table, int]:
        table = self.by_id.get(conn.table_id) if conn.table_id is not None else None
        if table is None or conn.seat is None:
            raise ProtocolError("join or rejoin a seat first", "not_seated")
        return table, conn.seat

    # -- connections --------------------------------------------------------------------------

    def _bind(self, conn: Conn, table: Table, seat: int) -> None:
        conn.table_id, conn.seat = table.id, seat
        self.seated[(table.id, seat)] = conn

    def _unbind(self, conn: Conn) -> None:
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
        self._unbind(conn)
        table = self.by_id.get(table_id) if table_id is not None else None
        if table is not None and table.finished:
            self._unload_if_idle(table)
            return
        if table is None or seat is None or not owned:
            return
        state = table.seats[seat]
        state.connected = False
        state.away_since = time.monotonic()
        self._start_grace(table, seat)
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
            self._cancel_grace(table, seat)
        self.tables.pop(table.code, None)
        self.by_id.pop(table.id, None)
        self.watchers.pop(table.id, None)
        self.store.forget(table.id)

    def _start_grace(self, table: Table, seat: int) -> None:
        self._cancel_grace(table, seat)
        loop = asyncio.get_running_loop()
        handle = loop.call_later(self.grace_s, self._grace_over, table.id, seat)
        self._timers[(table.id, seat)] = handle

    def _cancel_grace(self, table: Table, seat: int) -> None:
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
        self._ask_bots(table)

    # -- frames out ---------------------------------------------------------------------------

    def _send_snapshot(
        self, conn: Conn, table: Table, seat: int | None, command_id: str | None = None
    ) -> None:
        data = seat_frame(table, seat, Snapshot())
        if data is not None:
            conn.send({**data, "id": command_id} if command_id else data)

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
            _log_event(table, item.event)
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

    def _ask_bots(self, table: Table) -> None:
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
            self._ask_bots(table)


def _log_event(table: Table, event: ev.Event) -> None:
    """Log a table event worth knowing (never a card of a hand, never a token)."""
    if isinstance(event, ev.HandScored):
        log.info("table %s: a hand was scored, totals %s", table.code, _numbers(event.totals))
    elif isinstance(event, ev.MatchOver):
        log.info("table %s: match over, seat %d won", table.code, event.winner)


def _numbers(values: Sequence[int]) -> str:
    return " ".join(map(str, values))
