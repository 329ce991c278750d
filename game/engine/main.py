"""``mdhearts engine``: the engine protocol served on standard input and output.

Each request line gets one reply line (``game.engine.protocol`` answers it); ``quit`` or the end
of input stops the server. ``--difficulty`` names the bot (any name in the bot registry) and
``--think-ms`` its time to think about each ``play`` or ``pass``, ``--seed`` (else
``MDH_ENGINE_SEED``, as an engine seat is started with) the seed of a bot that uses chance.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import BinaryIO, TextIO

from ai.bot import Bot
from ai.external import SEED_ENV, seed_from_env
from ai.registry import BOTS, make_bot
from core.match import MAX_SEED
from game.argtypes import whole_number
from game.engine.protocol import MAX_LINE_BYTES, Reply, encode_reply, handle_line
from game.programs import Parser, guarded

BOT_NAMES = tuple(sorted(BOTS))
DEFAULT_BOT = "first"
#: Longest think time accepted by ``--think-ms``: one hour.
MAX_THINK_MS = 3_600_000

PROG = "mdhearts engine"


def _skip_rest_of_line(stdin: BinaryIO) -> None:
    """Read and drop the rest of a line that is too long."""
    while True:
        chunk = stdin.readline(MAX_LINE_BYTES)
        if not chunk or chunk.endswith(b"\n"):
            return


def serve(stdin: BinaryIO, stdout: TextIO, bot: Bot, think_ms: float | None = None) -> int:
    """Answer requests from ``stdin`` until ``quit`` or end of input; return the exit code.

    The bot may think ``think_ms`` about each ``play`` or ``pass`` (None: as long as it likes).
    """
    while True:
        line = stdin.readline(MAX_LINE_BYTES + 1)
        if not line:
            return 0
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            _skip_rest_of_line(stdin)
            reply: Reply | None = Reply(
                {"error": f"line too long: the limit is {MAX_LINE_BYTES} bytes"}
            )
        else:
            reply = handle_line(line, bot, think_ms)
        if reply is None:
            continue
        stdout.write(encode_reply(reply.data) + "\n")
        stdout.flush()
        if reply.quit:
            return 0


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="Answer engine-protocol requests, one JSON object per line on stdin, "
        "one reply per line on stdout (see docs/protocol.md).",
    )
    parser.add_argument(
        "--difficulty",
        "--bot",
        dest="difficulty",
        metavar="NAME",
        default=DEFAULT_BOT,
        help=f"the bot that passes and plays: {', '.join(BOT_NAMES)} (default {DEFAULT_BOT})",
    )
    parser.add_argument(
        "--think-ms",
        type=whole_number(1, MAX_THINK_MS),
        default=None,
        metavar="N",
        help="milliseconds the bot may think about each play or pass (default: its own pace)",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0, MAX_SEED),
        default=None,
        metavar="N",
        help="seed of a bot that uses chance; the same seed and requests give the same answers "
        f"(default: {SEED_ENV} when set, as for an engine seat of a tournament)",
    )
    return parser


def main(argv: list[str]) -> int:
    """Run the engine on stdin/stdout and return the exit code (2 for bad options)."""
    return guarded(PROG, lambda: _run(argv))


def _run(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    seed = args.seed
    if seed is None:
        seed, warnings = seed_from_env()
        for warning in warnings:
            print(f"{PROG}: {warning}", file=sys.stderr)
    try:
        bot = make_bot(args.difficulty, seed)
    except ValueError as error:
        parser.error(f"--difficulty: {error}")
    try:
        return serve(sys.stdin.buffer, sys.stdout, bot, args.think_ms)
    except BrokenPipeError:
        # The reader went away: send what is left of stdout nowhere and stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
