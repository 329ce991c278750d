"""The hub's answer to each client command: ``HANDLERS`` maps a frame's type to its handler.

A handler takes the hub, the connection and the parsed command; it changes the hub's tables
only through the table (its controller) and ``Hub.publish``, and raises ``ProtocolError`` with
a reason code for a command it refuses (the hub turns it into an error frame).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Protocol

from core import events as ev
from core.record import record_to_dict
from game.server.bots import ServerBots
from game.server.connection import CLOSE_REFUSED, CLOSE_REPLACED, Conn
from game.server.credentials import new_code, new_token, token_hash, token_matches
from game.server.protocol import (
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    Command,
    ProtocolError,
    error_frame,
    frame,
)
from game.server.store import NO_SEAT, Store
from game.server.table import Table, TableError, TableStarted, parse_rules, parse_table_seats
from game.server.view import Snapshot, seat_frame
from game.version import VERSION


class Hub(Protocol):
    """What a command's handler uses of the hub (``game.server.hub.Hub``): its tables, who
    sits and watches where, the store, the bots, and publishing a table's events."""

    store: Store
    bots: ServerBots
    grace_s: float
    max_tables: int
    rate: tuple[float, float]
    tables: dict[str, Table]
    by_id: dict[int, Table]
    seated: dict[tuple[int, int], Conn]
    watchers: dict[int, set[Conn]]

    def add_table(self, table: Table) -> None: ...

    def find_table(self, code: str) -> Table: ...

    def bind(self, conn: Conn, table: Table, seat: int) -> None: ...

    def unbind(self, conn: Conn) -> None: ...

    def disconnected(self, conn: Conn) -> None: ...

    def cancel_grace(self, table: Table, seat: int) -> None: ...

    def ask_bots(self, table: Table) -> None: ...

    def publish(
        self,
        table: Table,
        events: Sequence[ev.Event],
        command: tuple[int, str | None] | None = None,
    ) -> None: ...


log = logging.getLogger("mdhearts.serve")


def refuse(hub: Hub, conn: Conn, message: str, command_id: str | None = None) -> None:
    versions = list(PROTOCOL_VERSIONS)
    conn.send(frame("refusal", id=command_id, versions=versions, message=message))
    conn.close(*CLOSE_REFUSED)


def on_hello(hub: Hub, conn: Conn, command: Command) -> None:
    if conn.greeted:
        raise ProtocolError("hello was said already", "already_greeted")
    common = [v for v in command.fields["versions"] if v in PROTOCOL_VERSIONS]
    if not common:
        refuse(hub, conn, "no protocol version in common", command.id)
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
            rate={"per_second": hub.rate[0], "burst": hub.rate[1]},
            grace=hub.grace_s,
        )
    )


def on_create(hub: Hub, conn: Conn, command: Command) -> None:
    proposed = command.fields.get("host_token")
    if proposed is not None:
        made = created_before(hub, command.id or "", proposed)
        if made is not None:  # a retry: the table exists, with this host token
            log.info("table %s: its create came again and was answered again", made)
            conn.send(
                frame("created", id=command.id, code=made, host_token=proposed, duplicate=True)
            )
            return
    if len(hub.tables) >= hub.max_tables:
        raise ProtocolError("the server holds as many tables as it may", "too_many_tables")
    try:
        rules = parse_rules(command.fields.get("rules"))
        seats = parse_table_seats(command.fields["seats"])
    except TableError as error:
        raise ProtocolError(str(error), error.reason) from None
    code = new_code()
    while code in hub.tables or hub.store.code_taken(code):
        code = new_code()
    host_token = new_token() if proposed is None else proposed
    table = Table(0, code, token_hash(host_token), rules, seats)
    table.id = hub.store.create(code, table.host_hash, table, (NO_SEAT, command.id or ""))
    hub.add_table(table)
    log.info("table %s created: seats %s", code, ", ".join(s.kind for s in seats))
    conn.send(frame("created", id=command.id, code=code, host_token=host_token))


def created_before(hub: Hub, command_id: str, host_token: str) -> str | None:
    """Return the code of the table a ``create`` with this id and host token made, if any."""
    # Every candidate is compared (in constant time), not only up to the first that matches.
    made = [
        code
        for code, stored in hub.store.created_by(command_id)
        if token_matches(host_token, stored)
    ]
    return made[0] if made else None


def on_join(hub: Hub, conn: Conn, command: Command) -> None:
    table = hub.find_table(command.fields["code"])
    proposed = command.fields.get("token")
    if proposed is not None:
        held = seat_of(table, proposed)
        if held is not None:  # a retry (or the seat's holder): the seat is theirs, nothing new
            take_seat_back(hub, conn, table, held)
            log.info("table %s: seat %d's join came again and was answered again", table.code, held)
            conn.send(
                frame(
                    "joined",
                    id=command.id,
                    code=table.code,
                    seat=held,
                    token=proposed,
                    duplicate=True,
                )
            )
            send_snapshot(conn, table, held)
            return
    if table.started:
        raise ProtocolError("the match has begun: every seat is played", "table_full")
    wanted = command.fields.get("seat")
    free = [n for n, s in enumerate(table.seats) if s.is_person and not s.taken]
    if wanted is not None and wanted not in free:
        raise ProtocolError(f"seat {wanted} is not free (free: {free})", "seat_taken")
    if not free:
        raise ProtocolError("every seat is taken", "table_full")
    seat = free[0] if wanted is None else wanted
    hub.disconnected(conn)  # a seat this connection held elsewhere is now away
    token = new_token() if proposed is None else proposed
    state = table.seats[seat]
    state.token_hash, state.name = token_hash(token), command.fields["name"]
    state.connected, state.away_since, state.standin = True, None, False
    hub.publish(table, [table.seat_event(seat)])
    hub.bind(conn, table, seat)
    log.info("table %s: seat %d taken (%s)", table.code, seat, conn.peer)
    conn.send(frame("joined", id=command.id, code=table.code, seat=seat, token=token))
    send_snapshot(conn, table, seat)


def on_rejoin(hub: Hub, conn: Conn, command: Command) -> None:
    table = hub.find_table(command.fields["code"])
    seat = seat_of(table, command.fields["token"])
    if seat is None:
        raise ProtocolError("this token is not one of this table's seats", "bad_token")
    take_seat_back(hub, conn, table, seat)
    conn.send(frame("joined", id=command.id, code=table.code, seat=seat))
    send_snapshot(conn, table, seat)


def seat_of(table: Table, token: str) -> int | None:
    """Return the seat of the table whose token this is, or None."""
    # Every seat is compared (in constant time), not only up to the one that matches.
    matches = [token_matches(token, state.token_hash) for state in table.seats]
    return matches.index(True) if any(matches) else None


def take_seat_back(hub: Hub, conn: Conn, table: Table, seat: int) -> None:
    """Bind ``conn`` to a seat its token opened: an older connection on it is told and closed,
    and a person who was away is back (a bot that stood in for them stops)."""
    older = hub.seated.get((table.id, seat))
    if older is not None and older is not conn:
        older.send(frame("replaced", message=CLOSE_REPLACED[1]))
        hub.unbind(older)
        older.close(*CLOSE_REPLACED)
        log.info("table %s: seat %d taken over by a newer connection", table.code, seat)
    if (conn.table_id, conn.seat) != (table.id, seat):
        hub.disconnected(conn)  # a seat this connection held elsewhere is now away
    state = table.seats[seat]
    was_away = state.away_since is not None
    state.connected, state.away_since, state.standin = True, None, False
    hub.cancel_grace(table, seat)
    hub.bots.forget(table.id, seat)
    if was_away:
        hub.publish(table, [table.seat_event(seat)])
        log.info("table %s: seat %d is back (%s)", table.code, seat, conn.peer)
    hub.bind(conn, table, seat)


def on_watch(hub: Hub, conn: Conn, command: Command) -> None:
    table = hub.find_table(command.fields["code"])
    hub.disconnected(conn)  # a seat this connection held is now away
    conn.table_id, conn.seat = table.id, None
    hub.watchers.setdefault(table.id, set()).add(conn)
    conn.send(frame("watching", id=command.id, code=table.code))
    send_snapshot(conn, table, None)


def on_start(hub: Hub, conn: Conn, command: Command) -> None:
    table = hub.find_table(command.fields["code"])
    if not token_matches(command.fields["host_token"], table.host_hash):
        raise ProtocolError("only the table's host may start it", "not_host")
    done = hub.store.command_seq(table.id, NO_SEAT, command.id or "")
    if done is not None:
        conn.send(frame("ack", id=command.id, seq=done, duplicate=True))
        return
    if table.started:
        raise ProtocolError("the match has begun already", "already_started")
    result = table.start()
    if not result.ok:
        raise ProtocolError(result.error or "the match cannot begin", "bad_rules")
    changed = [table.seat_event(n) for n, s in enumerate(table.seats) if not s.is_person]
    hub.publish(table, [TableStarted(), *changed, *result.events], (NO_SEAT, command.id))
    log.info("table %s started", table.code)
    conn.send(frame("ack", id=command.id, seq=table.seq))
    hub.ask_bots(table)


def on_move(hub: Hub, conn: Conn, command: Command) -> None:
    table, seat = seated_at(hub, conn)
    if not table.started:
        raise ProtocolError("the match has not begun", "not_started")
    done = hub.store.command_seq(table.id, seat, command.id or "")
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
    hub.publish(table, result.events, (seat, command.id))
    conn.send(frame("ack", id=command.id, seq=table.seq))
    hub.ask_bots(table)


def on_snapshot(hub: Hub, conn: Conn, command: Command) -> None:
    table = hub.by_id.get(conn.table_id) if conn.table_id is not None else None
    if table is None:
        raise ProtocolError("join, rejoin or watch a table first", "not_seated")
    send_snapshot(conn, table, conn.seat, command.id)


def on_record(hub: Hub, conn: Conn, command: Command) -> None:
    table = hub.by_id.get(conn.table_id) if conn.table_id is not None else None
    if table is None:
        raise ProtocolError("join, rejoin or watch a table first", "not_seated")
    if not table.finished or table.controller is None:
        raise ProtocolError("the record is given once the match is over", "match_not_over")
    conn.send(frame("record", id=command.id, record=record_to_dict(table.controller)))


def on_ping(hub: Hub, conn: Conn, command: Command) -> None:
    conn.send(frame("pong", id=command.id))


def seated_at(hub: Hub, conn: Conn) -> tuple[Table, int]:
    table = hub.by_id.get(conn.table_id) if conn.table_id is not None else None
    if table is None or conn.seat is None:
        raise ProtocolError("join or rejoin a seat first", "not_seated")
    return table, conn.seat


def send_snapshot(
    conn: Conn, table: Table, seat: int | None, command_id: str | None = None
) -> None:
    data = seat_frame(table, seat, Snapshot())
    if data is not None:
        conn.send({**data, "id": command_id} if command_id else data)


#: The handler of each command type.
HANDLERS: dict[str, Callable[[Hub, Conn, Command], None]] = {
    "hello": on_hello,
    "create": on_create,
    "join": on_join,
    "rejoin": on_rejoin,
    "watch": on_watch,
    "start": on_start,
    "pass": on_move,
    "play": on_move,
    "snapshot": on_snapshot,
    "record": on_record,
    "ping": on_ping,
}
