"""``mdhearts serve``: host tables over WebSocket until Ctrl+C or SIGTERM (``docs/network.md``).

Listens on 127.0.0.1 unless another address is asked for, logs one line per table event worth
knowing (never a token) to standard error, and stops cleanly with every table saved: each
accepted command was committed before anyone heard of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import ssl
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from ai.think import DEFAULT_LIMIT_MS
from core.files import user_dirs
from game.argtypes import whole_number
from game.programs import EXIT_FAILED, EXIT_OK, Parser, UsageError, guarded
from game.server.bots import DEFAULT_WORKERS, ServerBots
from game.server.collector import ShortCollections
from game.server.connection import CLOSE_FLOOD, CLOSE_SHUTDOWN, Conn
from game.server.hub import DEFAULT_GRACE_S, Hub, log
from game.server.protocol import MAX_FRAME_BYTES
from game.server.store import Store, StoreError
from game.server.timing import LoopTiming

PROG = "mdhearts serve"
DEFAULT_PORT = 7557
DB_NAME = "server.sqlite3"
#: Most bot worker processes a server may start.
MAX_BOT_WORKERS = 16
#: How often the loop looks for bot decisions while some are being made, and otherwise.
BOT_POLL_S = (0.005, 0.05)
#: How long a closing handshake may take before the connection is cut.
CLOSE_TIMEOUT_S = 2.0
#: The high-water mark of a connection's write buffer, in bytes.
WRITE_LIMIT = 64 * 1024


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of ``mdhearts serve``."""
    parser = Parser(
        prog=PROG,
        description="Host Hearts tables over WebSocket: people join with an invite code, "
        "spectators watch, bots fill the empty seats (docs/network.md).",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: 127.0.0.1, this computer only)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port (default: {DEFAULT_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--db",
        metavar="PATH",
        help=f"the SQLite database of the tables (default: {DB_NAME} in the data folder)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=DEFAULT_GRACE_S,
        metavar="S",
        help="seconds a dropped player keeps the seat before a bot plays for "
        f"them (default: {DEFAULT_GRACE_S:g})",
    )
    parser.add_argument(
        "--bot-limit-ms",
        type=float,
        default=DEFAULT_LIMIT_MS,
        metavar="MS",
        help=f"think limit of a bot's decision (default: {DEFAULT_LIMIT_MS:g})",
    )
    parser.add_argument(
        "--bot-workers",
        type=whole_number(1, MAX_BOT_WORKERS),
        default=DEFAULT_WORKERS,
        metavar="N",
        help=f"bot worker processes, each thinking for a share of the tables (default: "
        f"{DEFAULT_WORKERS}, at most {MAX_BOT_WORKERS})",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=20.0,
        metavar="N",
        help="frames a second a connection may send on average (default: 20)",
    )
    parser.add_argument(
        "--burst",
        type=float,
        default=40.0,
        metavar="N",
        help="frames a connection may send at once (default: 40)",
    )
    parser.add_argument(
        "--max-tables",
        type=int,
        default=10_000,
        metavar="N",
        help="most tables the server holds (default: 10000)",
    )
    parser.add_argument("--tls-cert", metavar="FILE", help="serve wss:// with this certificate")
    parser.add_argument("--tls-key", metavar="FILE", help="the certificate's private key")
    return parser


def _tls(args: argparse.Namespace) -> ssl.SSLContext | None:
    if args.tls_cert is None and args.tls_key is None:
        return None
    if args.tls_cert is None or args.tls_key is None:
        raise UsageError("--tls-cert and --tls-key go together")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(args.tls_cert, args.tls_key)
    except (OSError, ssl.SSLError) as error:
        raise UsageError(f"cannot use the certificate: {error}") from None
    return context


async def serve_tables(args: argparse.Namespace, db: Path) -> int:
    """Run the server until a stop signal; return the exit status."""
    try:
        store = Store(db)
    except StoreError as error:
        log.error("%s", error)
        return EXIT_FAILED
    tls = _tls(args)
    bots = ServerBots(args.bot_limit_ms, args.bot_workers)
    hub = Hub(
        store, bots, grace_s=args.grace, max_tables=args.max_tables, rate=(args.rate, args.burst)
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    connections: set[Conn] = set()
    timing = LoopTiming()

    async def handler(ws: ServerConnection) -> None:
        conn = Conn(ws, args.rate, args.burst)
        connections.add(conn)
        try:
            async for message in ws:
                if conn.closing:
                    continue  # read on, so that the closing handshake gets through
                if not conn.limit.allow():
                    log.info("closed a flooding connection (%s)", conn.peer)
                    conn.close(*CLOSE_FLOOD)
                    continue
                started = time.perf_counter()
                hub.receive(conn, message)
                timing.handled(started)
        except ConnectionClosed:
            pass
        finally:
            connections.discard(conn)
            conn.stop()
            hub.disconnected(conn)

    async def poll_bots() -> None:
        while True:
            hub.apply_bot_moves(bots.poll())
            await asyncio.sleep(BOT_POLL_S[0] if bots.busy else BOT_POLL_S[1])

    try:
        resumed = hub.resume()
        bots.start()
        async with serve(
            handler,
            args.host,
            args.port,
            ssl=tls,
            max_size=MAX_FRAME_BYTES,
            write_limit=WRITE_LIMIT,
            close_timeout=CLOSE_TIMEOUT_S,
            max_queue=16,
            compression=None,  # frames are small: deflating them costs more than it saves
        ) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            scheme = "wss" if tls else "ws"
            log.info(
                "listening on %s://%s:%d (database %s, %d tables resumed)",
                scheme,
                args.host,
                port,
                db,
                resumed,
            )
            poller = asyncio.create_task(poll_bots())
            lag = asyncio.create_task(timing.watch_lag())
            timing.watch_collections()
            collections = ShortCollections(loop)
            collections.start()
            await stop.wait()
            timing.close()
            garbage, sweep_ms = collections.sweep()
            log.info(
                "stopping; %s (%d of them walked every object); a last pass over every object "
                "found %d unreachable in %.0f ms",
                timing.summary(),
                collections.whole_passes,
                garbage,
                sweep_ms,
            )
            poller.cancel()
            lag.cancel()
            server.close(close_connections=False)
            for conn in list(connections):
                conn.close(*CLOSE_SHUTDOWN)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(server.wait_closed(), 3.0)
    except OSError as error:
        log.error("cannot listen on %s:%s: %s", args.host, args.port, error)
        return EXIT_FAILED
    finally:
        bots.close()
        store.close()
    open_tables = sum(1 for table in hub.tables.values() if not table.finished)
    log.info("stopped; every table is saved (%d not finished)", open_tables)
    return EXIT_OK


def _run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        raise UsageError("--port must be 0 to 65535")
    if args.grace < 0 or args.rate <= 0 or args.burst < 1 or args.max_tables < 1:
        raise UsageError("--grace, --rate, --burst and --max-tables are positive")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    # The library's own lines (each connection opened and closed) are not table events.
    logging.getLogger("websockets").setLevel(logging.WARNING)
    if args.db is not None:
        db = Path(args.db)
    else:
        dirs, _ = user_dirs()
        dirs.data.mkdir(parents=True, exist_ok=True)
        db = dirs.data / DB_NAME
    return asyncio.run(serve_tables(args, db))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mdhearts serve`` and return its exit status; never raises."""
    return guarded(PROG, lambda: _run(list(sys.argv[1:] if argv is None else argv)))
