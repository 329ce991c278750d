"""Protocol v1 of ``mdhearts serve``: what a client frame may hold, checked before anything acts.

Every frame is a JSON object ``{"v": 1, "type": NAME, ...}`` in a WebSocket text frame.
``parse_frame`` turns the text of a client frame into a ``Command`` or raises ``ProtocolError``
with a reason code (one of ``PROTOCOL_REASONS``) and the command's id when it had a readable
one. The messages are described one by one in ``docs/network.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.files import StrictJsonError, parse_strict_json
from core.text import short_repr
from game.server.credentials import TOKEN_FORM, is_token

#: The protocol versions this server speaks; a hello must name one of them.
PROTOCOL_VERSIONS = (1,)
PROTOCOL_VERSION = 1
#: Largest frame a client may send, in bytes (websockets closes the connection with 1009).
MAX_FRAME_BYTES = 16 * 1024
#: Deepest nesting of lists and objects in a client frame.
MAX_NESTING = 6
#: A command id: what a client chooses so that a retried command is applied once.
_COMMAND_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
#: Longest player name.
MAX_NAME = 32

#: Why the server refused a frame (besides the controller's ``core.errors.REFUSAL_REASONS``).
PROTOCOL_REASONS = (
    "bad_json",  # the text is not JSON
    "not_an_object",  # JSON, but not an object
    "binary_frame",  # a binary frame: the protocol uses text frames only
    "bad_version",  # "v" missing or not a version the server speaks
    "unknown_type",  # "type" missing or not a message the server knows
    "bad_field",  # a field missing or of the wrong type or form
    "hello_first",  # a command before the hello
    "already_greeted",  # a second hello
    "no_such_table",  # no table has this code
    "bad_token",  # the token is not the one of any seat of this table (or of its host)
    "table_full",  # every seat is taken, or the match has started
    "seat_taken",  # the seat asked for is someone else's
    "not_seated",  # the command needs a seat: join or rejoin first
    "not_host",  # only the table's host may start it
    "already_started",  # the table's match has begun
    "not_started",  # the table's match has not begun
    "match_not_over",  # a record is given once the match is over
    "bad_rules",  # the rules of a new table are not valid
    "bad_seats",  # the seats of a new table are not open / bot:NAME
    "too_many_tables",  # the server holds as many tables as it may
    "busy",  # the server could not store the command; nothing was applied
)


class ProtocolError(ValueError):
    """A client frame the server cannot take: ``reason`` is a code, ``command_id`` its id."""

    def __init__(self, message: str, reason: str, command_id: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.command_id = command_id


@dataclass(frozen=True)
class Command:
    """A client frame that passed its checks: its type, its id and its fields."""

    type: str
    id: str | None
    fields: dict[str, Any] = field(default_factory=dict)


def _text(limit: int) -> Callable[[object], bool]:
    def check(value: object) -> bool:
        return isinstance(value, str) and 0 < len(value) <= limit and value.isprintable()

    return check


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _versions(value: object) -> bool:
    return isinstance(value, list) and 0 < len(value) <= 16 and all(map(_whole, value))


def _seats(value: object) -> bool:
    return isinstance(value, list) and len(value) == 4 and all(map(_text(40), value))


def _cards(value: object) -> bool:
    return isinstance(value, list) and len(value) == 3 and all(map(_text(3), value))


def _seat_number(value: object) -> bool:
    return _whole(value) and 0 <= value < 4  # type: ignore[operator]


def _rules(value: object) -> bool:
    return isinstance(value, dict)


#: Each message type: its fields with their checks and whether each is required.
FIELDS: dict[str, dict[str, tuple[Callable[[object], bool], bool, str]]] = {
    "hello": {
        "versions": (_versions, True, "a list of protocol versions, e.g. [1]"),
        "client": (_text(64), False, "a short text naming the client"),
    },
    "create": {
        "seats": (_seats, True, 'four seats, each "open" or "bot:NAME"'),
        "rules": (_rules, False, "an object of rule options"),
        "host_token": (is_token, False, f"a host token of your own: {TOKEN_FORM}"),
    },
    "join": {
        "code": (_text(16), True, "the table's invite code"),
        "name": (_text(MAX_NAME), True, f"a name of 1 to {MAX_NAME} characters"),
        "seat": (_seat_number, False, "a seat number 0 to 3"),
        "token": (is_token, False, f"a seat token of your own: {TOKEN_FORM}"),
    },
    "rejoin": {
        "code": (_text(16), True, "the table's invite code"),
        "token": (_text(128), True, "the seat token given by join"),
    },
    "watch": {"code": (_text(16), True, "the table's invite code")},
    "start": {
        "code": (_text(16), True, "the table's invite code"),
        "host_token": (_text(128), True, "the host token given by create"),
    },
    "pass": {"cards": (_cards, True, 'three cards, e.g. ["QS", "AH", "KH"]')},
    "play": {"card": (_text(3), True, 'a card, e.g. "QS"')},
    "snapshot": {},
    "record": {},
    "ping": {},
}
#: Message types that act and so must carry an id (a retry with the same id is not applied twice).
NEEDS_ID = frozenset({"create", "join", "rejoin", "watch", "start", "pass", "play"})


def parse_frame(text: str) -> Command:
    """Return the command a client text frame holds; raise ProtocolError saying what is wrong."""
    try:
        data = parse_strict_json(text, max_depth=MAX_NESTING)
    except (StrictJsonError, RecursionError) as error:
        raise ProtocolError(f"the frame is not valid JSON: {error}", "bad_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("a frame is a JSON object", "not_an_object")
    raw_id = data.get("id")
    command_id = raw_id if isinstance(raw_id, str) and _COMMAND_ID.fullmatch(raw_id) else None
    version = data.get("v")
    if not _whole(version) or version not in PROTOCOL_VERSIONS:
        raise ProtocolError(
            f"frame version {short_repr(version)} is not spoken here "
            f"(versions: {', '.join(map(str, PROTOCOL_VERSIONS))})",
            "bad_version",
            command_id,
        )
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError(f"unknown message type {short_repr(kind)}", "unknown_type", command_id)
    if "id" in data and command_id is None:
        raise ProtocolError("id must be 1 to 64 letters, digits or _.:-", "bad_field", None)
    if kind in NEEDS_ID and command_id is None:
        raise ProtocolError(f"a {kind} command needs an id", "bad_field", None)
    fields: dict[str, Any] = {}
    for name, (check, required, wanted) in FIELDS[kind].items():
        if name not in data:
            if required:
                raise ProtocolError(
                    f"{kind}: {name} is missing ({wanted})", "bad_field", command_id
                )
            continue
        if not check(data[name]):
            raise ProtocolError(
                f"{kind}: {name} must be {wanted}, got {short_repr(data[name])}",
                "bad_field",
                command_id,
            )
        fields[name] = data[name]
    return Command(kind, command_id, fields)


def frame(kind: str, **fields: Any) -> dict[str, Any]:
    """Return a server frame of this type (the version and type first)."""
    return {"v": PROTOCOL_VERSION, "type": kind, **fields}


def error_frame(message: str, reason: str, command_id: str | None = None) -> dict[str, Any]:
    """Return the error frame of a refused frame or command."""
    return frame("error", id=command_id, reason=reason, message=message)
