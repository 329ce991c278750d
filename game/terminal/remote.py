"""``mdhearts cli --server URL ...``: the terminal harness at a table of ``mdhearts serve``.

One command at a time (``create``, ``start``, ``join``, ``status``, ``pass``, ``play``,
``record``; ``--json`` prints one JSON object) or ``--interactive``. A seat is named by the
table's code and its seat token (``--code``/``--token``, or ``$MDH_CODE``/``$MDH_SEAT_TOKEN``,
which keeps the token out of the process list). The status and events are worded by the
local harness's own ``render`` (the snapshot has the keys of its status), and a refusal carries
the server's reason code. A dropped connection is opened again with backoff and the command
sent again with the same id, so it is never applied twice (``docs/network.md``): ``create``
and ``join`` send a token made here, so that the server knows their resend as a retry.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from core import events as ev
from core.cards import card_label, card_text, parse_card
from core.errors import HeartsError
from game.server.credentials import new_token
from game.streams import write
from game.terminal.errors import EXIT_OK, EXIT_USAGE, PROG, CliError
from game.terminal.render import describe_event, status_text

CODE_ENV, TOKEN_ENV, SERVER_ENV = "MDH_CODE", "MDH_SEAT_TOKEN", "MDH_SERVER"
#: Waits between attempts to reconnect, in seconds (then the command gives up).
BACKOFF_S = (0.2, 0.5, 1.0, 2.0, 4.0, 8.0)
#: Longest wait for the server's answer to one command.
ANSWER_TIMEOUT_S = 30.0


def wants_server(argv: Sequence[str]) -> bool:
    """Return whether the command line (``--server``) or ``$MDH_SERVER`` names a server."""
    given = any(arg == "--server" or arg.startswith("--server=") for arg in argv)
    return given or bool(os.environ.get(SERVER_ENV))


class RemoteError(CliError):
    """A command the server refused, or a server that cannot be reached."""


class RemoteSeat:
    """A connection to the server that comes back by itself, and what it was told."""

    def __init__(self, url: str, code: str | None = None, token: str | None = None) -> None:
        self.url = url
        self.code = code
        self.token = token
        self.watch = False
        self.ws: ClientConnection | None = None
        self.events: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.seq = 0
        self._ids = (f"{secrets.token_hex(4)}-{n}" for n in itertools.count(1))

    def new_id(self) -> str:
        """Return a command id not used before."""
        return next(self._ids)

    def open(self) -> None:
        """Connect (retrying with backoff), say hello, and take the seat back if there is one."""
        for attempt, wait in enumerate((0.0, *BACKOFF_S)):
            time.sleep(wait)
            try:
                # Entered as a context (websockets deprecates a bare connect); ``close`` ends it.
                self.ws = connect(self.url, open_timeout=10, max_size=2**22).__enter__()
                break
            except (OSError, InvalidHandshake, TimeoutError) as error:
                if attempt == len(BACKOFF_S):
                    raise RemoteError(f"cannot reach {self.url}: {error}") from None
            except InvalidURI as error:
                raise RemoteError(f"bad server address: {error}", EXIT_USAGE) from None
        welcome = self._exchange({"type": "hello", "versions": [1], "client": PROG})
        if welcome["type"] == "refusal":
            raise RemoteError(f"the server speaks protocol {welcome['versions']}, not 1")
        if self.code and self.token:
            self._exchange(
                {"type": "rejoin", "id": self.new_id(), "code": self.code, "token": self.token},
                check=True,
            )
        elif self.code and self.watch:
            self._exchange({"type": "watch", "id": self.new_id(), "code": self.code}, check=True)

    def close(self) -> None:
        """Close the connection."""
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a command and return its answer; after a drop, reconnect and send it again
        with the same id (the server applies it once)."""
        frame = {"type": kind, "id": self.new_id(), **fields}
        for _ in range(3):
            try:
                if self.ws is None:
                    self.open()  # a drop during its hello is retried too
                return self._exchange(frame, check=True)
            except (ConnectionClosed, OSError):
                self.close_quietly()
        raise RemoteError(f"the connection to {self.url} keeps dropping")

    def _exchange(self, frame: dict[str, Any], check: bool = False) -> dict[str, Any]:
        assert self.ws is not None
        self.ws.send(json.dumps({"v": 1, **frame}))
        while True:
            answer = self.receive(ANSWER_TIMEOUT_S)
            if answer is None:
                raise RemoteError("the server did not answer in time")
            if answer.get("id") == frame.get("id") or answer["type"] in ("welcome", "refusal"):
                if check and answer["type"] == "error":
                    raise RemoteError(answer["message"], reason=answer["reason"])
                return answer

    def receive(self, timeout: float | None) -> dict[str, Any] | None:
        """Return the next frame (events and snapshots are also kept), or None on timeout."""
        assert self.ws is not None
        try:
            data = json.loads(self.ws.recv(timeout))
        except TimeoutError:
            return None
        if data["type"] == "snapshot":
            self.state, self.seq = data["state"], data["seq"]
        elif data["type"] == "event":
            self.events.append(data["event"])
            self.seq = data["seq"]
        elif data["type"] == "replaced":
            raise RemoteError("another connection took this seat with its token")
        return dict(data)

    def wait_frame(self, timeout: float) -> dict[str, Any] | None:
        """Return the next frame, or None on timeout; a dropped connection is opened again
        (with backoff) and None returned, so the caller asks for a snapshot."""
        try:
            if self.ws is None:
                self.open()
            return self.receive(timeout)
        except (ConnectionClosed, OSError):
            self.close_quietly()
            return None

    def close_quietly(self) -> None:
        """Forget a connection that is gone."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
        self.ws = None

    def snapshot(self) -> dict[str, Any]:
        """Return the seat's view of the table now."""
        return dict(self.request("snapshot")["state"])


def event_from_data(data: dict[str, Any]) -> ev.Event | None:
    """Return the core event a server event frame holds (None for the server's own)."""
    kind = data["type"]
    if kind == ev.CardPlayed.kind:
        return ev.CardPlayed(data["seat"], parse_card(data["card"]))
    if kind == ev.HeartsBroken.kind:
        return ev.HeartsBroken(data["seat"], parse_card(data["card"]))
    if kind == ev.TrickWon.kind:
        return ev.TrickWon(
            data["seat"], data["trick_number"], _cards(data["cards"]), data["points"]
        )
    if kind == ev.HandStarted.kind:
        return ev.HandStarted(data["hand_number"], data["direction"])
    if kind == ev.PassSubmitted.kind:
        return ev.PassSubmitted(data["seat"])
    if kind == ev.PassesExchanged.kind:
        passes = tuple(_cards(p) if p is not None else () for p in data["passes"])
        return ev.PassesExchanged(data["direction"], passes)
    if kind == ev.HandScored.kind:
        return ev.HandScored(tuple(data["points"]), tuple(data["totals"]), data["moon_shooter"])
    if kind == ev.MatchOver.kind:
        return ev.MatchOver(data["winner"], tuple(data["totals"]))
    if kind == ev.MatchStarted.kind:
        return ev.MatchStarted(0, tuple(data["seats"]))
    return None


def _cards(texts: Sequence[str]) -> tuple[int, ...]:
    return tuple(parse_card(text) for text in texts)


def describe(data: dict[str, Any], viewer: int | None, symbols: bool) -> str:
    """Return one line saying what a server event means."""
    if data["type"] == "seat_changed":
        who = data["name"] or data["player"]
        if data["away"]:
            plays = f"; {data['bot_plays']} plays for them" if data["bot_plays"] else ""
            return f"seat {data['seat']} ({who}) is away{plays}"
        return f"seat {data['seat']}: {who}"
    if data["type"] == "table_started":
        return "the host started the table"
    event = event_from_data(data)
    return (
        data["type"].replace("_", " ") if event is None else describe_event(event, viewer, symbols)
    )


def status(state: dict[str, Any], symbols: bool) -> str:
    """Return the seat's status as the local harness words it."""
    if state["phase"] == "waiting":
        players = ", ".join(
            f"seat {p['seat']} {p['name'] or p['player']}" for p in state["players"]
        )
        return f"table {state['code']} is waiting for its host to start it: {players}\n"
    return status_text(state, symbols).replace(
        "(seed None deals these hands again)", "(`record` gives the match's record)"
    )


# -- the commands -----------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    # The shared options may come before or after the command: SUPPRESS keeps a value given
    # before it from being reset after it (``_defaults`` fills in the rest).
    common = argparse.ArgumentParser(add_help=False)
    hidden = argparse.SUPPRESS
    common.add_argument(
        "--server",
        default=hidden,
        metavar="URL",
        help=f"the server, e.g. ws://127.0.0.1:7557 (default: ${SERVER_ENV})",
    )
    common.add_argument("--code", default=hidden, help=f"the table's code (default: ${CODE_ENV})")
    common.add_argument(
        "--token",
        default=hidden,
        help=f"the seat token (better: ${TOKEN_ENV}, kept out of the process list)",
    )
    common.add_argument("--json", action="store_true", default=hidden, help="print JSON")
    common.add_argument("--symbols", action="store_true", default=hidden, help="suit symbols")
    parser = argparse.ArgumentParser(
        prog=PROG, parents=[common], description="Play at a table of mdhearts serve."
    )
    parser.add_argument("--interactive", action="store_true", help="play in the terminal")
    parser.add_argument("--name", default="player", help="your name when joining")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    create = commands.add_parser("create", parents=[common], help="make a table")
    create.add_argument("--seats", default="open,bot,bot,bot", help="four of open, bot:NAME")
    create.add_argument("--end-score", type=int, help="the match ends at N points")
    commands.add_parser("start", parents=[common], help="start the table (its host)").add_argument(
        "--host-token", required=True, help="the host token create gave"
    )
    join = commands.add_parser("join", parents=[common], help="take a seat at the table")
    join.add_argument("--name", default="player", help="your name at the table")
    join.add_argument("--seat", type=int, choices=range(4), help="the seat you want")
    commands.add_parser("status", parents=[common], help="show the table from your seat")
    passing = commands.add_parser("pass", parents=[common], help="pass three cards")
    passing.add_argument("cards", nargs=3, metavar="CARD")
    commands.add_parser("play", parents=[common], help="play a card").add_argument("card")
    commands.add_parser("record", parents=[common], help="the record of the finished match")
    return parser


def run(argv: Sequence[str], out: TextIO | None = None) -> int:
    """Run a ``--server`` command line; return the exit status."""
    stream = sys.stdout if out is None else out
    parser = _parser()
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    _defaults(args)
    if not args.server:
        return _fail(stream, args, CliError("give --server URL", EXIT_USAGE))
    seat = RemoteSeat(args.server, args.code, args.token)
    try:
        if args.interactive:
            return interactive(seat, args.name, args.symbols, sys.stdin, stream)
        data, text = _one_shot(seat, args)
    except CliError as error:
        return _fail(stream, args, error)
    finally:
        seat.close()
    write(stream, json.dumps({"ok": True, **data}) + "\n" if args.json else text)
    return EXIT_OK


def _defaults(args: argparse.Namespace) -> None:
    """Fill in the shared options not given: from the environment, else off."""
    for name, env in (("server", SERVER_ENV), ("code", CODE_ENV), ("token", TOKEN_ENV)):
        if getattr(args, name, None) is None:
            setattr(args, name, os.environ.get(env) or None)
    for name in ("json", "symbols"):
        setattr(args, name, getattr(args, name, False))


def _fail(stream: TextIO, args: argparse.Namespace, error: CliError) -> int:
    sys.stderr.write(f"{PROG}: error: {error}\n")
    if getattr(args, "json", False):
        failure = {"ok": False, "error": str(error)}
        if error.reason:
            failure["reason"] = error.reason
        write(stream, json.dumps(failure) + "\n")
    return error.code


def _needs_seat(seat: RemoteSeat) -> None:
    if not seat.code or not seat.token:
        raise CliError(f"give --code and --token (or ${CODE_ENV} and ${TOKEN_ENV})", EXIT_USAGE)


def _one_shot(seat: RemoteSeat, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """Run one command; return its JSON data and its text."""
    command = args.command or "status"
    if command == "create":
        rules = {} if args.end_score is None else {"end_score": args.end_score}
        seats = [part.strip() for part in args.seats.split(",")]
        # The host token is made here: the request sent again after a drop is a retry.
        answer = seat.request("create", seats=seats, rules=rules, host_token=new_token())
        data = {"code": answer["code"], "host_token": answer["host_token"]}
        return data, f"table {data['code']}; host token {data['host_token']}\n"
    if command == "start":
        if not seat.code:
            raise CliError("give --code", EXIT_USAGE)
        answer = seat.request("start", code=seat.code, host_token=args.host_token)
        return {"seq": answer["seq"]}, f"table {seat.code} started\n"
    if command == "join":
        if not seat.code:
            raise CliError("give --code", EXIT_USAGE)
        # The seat token is made here: the request sent again after a drop is a retry.
        fields = {"code": seat.code, "name": args.name, "token": new_token()}
        if args.seat is not None:
            fields["seat"] = args.seat
        answer = seat.request("join", **fields)
        seat.token = answer["token"]
        data = {"code": seat.code, "seat": answer["seat"], "token": answer["token"]}
        return data, f"seat {answer['seat']} at {seat.code}; token {answer['token']}\n"
    _needs_seat(seat)
    seat.open()
    seat.events.clear()
    if command == "pass":
        seat.request("pass", cards=list(args.cards))
    elif command == "play":
        seat.request("play", card=args.card)
    elif command == "record":
        answer = seat.request("record")
        return {"record": answer["record"]}, json.dumps(answer["record"]) + "\n"
    state = seat.snapshot()
    viewer = state["seat"]
    lines = "".join(describe(e, viewer, args.symbols) + "\n" for e in seat.events)
    return {"events": seat.events, **state}, lines + status(state, args.symbols)


# -- interactive ------------------------------------------------------------------------------


def interactive(seat: RemoteSeat, name: str, symbols: bool, stdin: TextIO, out: TextIO) -> int:
    """Play at the table until the match is over or the input ends."""
    say: Callable[[str], None] = lambda text: write(out, text)  # noqa: E731
    if seat.code and not seat.token:
        answer = seat.request("join", code=seat.code, name=name, token=new_token())
        seat.token = answer["token"]
        say(f"you sit in seat {answer['seat']}; your token (to come back): {seat.token}\n")
    _needs_seat(seat)
    seat.open()
    state = seat.snapshot()
    say(status(state, symbols))
    seat.events.clear()
    while state["phase"] != "match_over":
        for event in seat.events:
            say(describe(event, state["seat"], symbols) + "\n")
        seat.events.clear()
        if not state["your_turn"]:
            frame = seat.wait_frame(1.0)
            if frame is None and seat.ws is None:  # dropped: back with a snapshot
                say("the connection dropped; reconnecting\n")
                state = seat.snapshot()
            elif frame is not None and frame["type"] == "event":
                state = seat.snapshot()
                if state["your_turn"]:
                    say(status(state, symbols))
            continue
        prompt = "pass 3 cards" if state["phase"] == "pass" else "play a card"
        if state["phase"] == "play":
            menu = "  ".join(
                f"{n}:{card_label(parse_card(c)) if symbols else c}"
                for n, c in enumerate(state["legal"], 1)
            )
            say(f"legal: {menu}\n")
        say(f"{prompt} (q quits)> ")
        line = stdin.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            say("\nleft the table; come back with the same code and token\n")
            return EXIT_OK
        try:
            cards = _chosen(line, state)
            if state["phase"] == "play" and len(cards) != 1:
                raise ValueError("play one card: its number or its name, e.g. 1 or QS")
            if state["phase"] == "pass":
                seat.request("pass", cards=cards)
            else:
                seat.request("play", card=cards[0])
        except RemoteError as error:
            say(f"refused ({error.reason or 'error'}): {error}\n")
        except (HeartsError, ValueError, IndexError) as error:
            say(f"not a move: {error}\n")
        state = seat.snapshot()
    for event in seat.events:
        say(describe(event, state["seat"], symbols) + "\n")
    say(status(state, symbols))
    return EXIT_OK


def _chosen(line: str, state: dict[str, Any]) -> list[str]:
    """Return the cards a line names, by number in the menu or by text."""
    picks = []
    menu = state["legal"] if state["phase"] == "play" else state["hand"]
    for word in line.split():
        if word.isdigit():
            if not 1 <= int(word) <= len(menu):
                raise ValueError(f"{word} is not in the menu (1 to {len(menu)})")
            picks.append(menu[int(word) - 1])
        else:
            picks.append(card_text(parse_card(word.upper())))
    return picks
