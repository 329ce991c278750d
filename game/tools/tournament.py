"""``mdhearts tournament``: run bots against each other on duplicate deals and report."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence

from ai.bot import close_bot
from ai.registry import BOTS, make_bot
from ai.tournament import BotSummary, engine_notes, markdown_table, run_tournament
from core.files import write_atomically
from game.argtypes import output_file
from game.programs import Parser, guarded

PROG = "mdhearts tournament"


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="Duplicate deals, each played once per rotation of the four seats.",
    )
    parser.add_argument(
        "--seats",
        default="easy,random,random,random",
        help=f"four comma-separated bots (known: {', '.join(sorted(BOTS))})",
    )
    parser.add_argument("--deals", type=int, default=500, help="duplicate deals (4 hands each)")
    parser.add_argument("--matches", type=int, default=0, help="full matches to play as well")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals")
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="processes (default: all cores; never more than the deals or matches to play)",
    )
    parser.add_argument(
        "--json", metavar="PATH", type=output_file, help="also write the results as JSON"
    )
    parser.add_argument(
        "--markdown", metavar="PATH", type=output_file, help="also write the markdown table"
    )
    return parser


def report(summaries: Sequence[BotSummary]) -> str:
    """Return the markdown table, then a note on every engine its fallback bot helped."""
    notes = engine_notes(summaries)
    table = markdown_table(summaries)
    return table if not notes else table + "\n" + "\n".join(notes) + "\n"


def main(argv: Sequence[str]) -> int:
    """Run a tournament from command-line arguments; return the exit code."""
    return guarded(PROG, lambda: _run(list(argv)))


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    lineup = [name.strip() for name in args.seats.split(",")]
    problems = []
    if len(lineup) != 4:
        problems.append(f"--seats needs four bots, got {len(lineup)}")
    for name in lineup:
        try:
            close_bot(make_bot(name, 0))
        except ValueError as error:
            problems.append(str(error))
    if not 1 <= args.deals <= 1_000_000:
        problems.append("--deals must be from 1 to 1000000")
    if not 0 <= args.matches <= 100_000:
        problems.append("--matches must be from 0 to 100000")
    if not 0 <= args.seed < 2**63:
        problems.append("--seed must be from 0 to 2**63 - 1")
    if not 0 <= args.workers <= 256:
        problems.append("--workers must be from 0 to 256")
    if problems:
        for problem in problems:
            sys.stderr.write(f"mdhearts tournament: {problem}\n")
        return 2
    try:
        summaries = run_tournament(
            lineup, args.deals, args.seed, matches=args.matches, workers=args.workers or None
        )
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: stopped\n")
        return 130
    table = report(summaries)
    sys.stdout.write(
        f"{args.deals} duplicate deals x 4 rotations, seed {args.seed}, lineup {args.seats}\n\n"
    )
    sys.stdout.write(table)
    try:
        if args.markdown:
            write_atomically(args.markdown, table)
        if args.json:
            data = {
                "lineup": lineup,
                "deals": args.deals,
                "matches": args.matches,
                "seed": args.seed,
                "bots": [dataclasses.asdict(summary) for summary in summaries],
            }
            write_atomically(args.json, json.dumps(data, indent=1) + "\n")
    except OSError as error:
        sys.stderr.write(f"mdhearts tournament: cannot write results: {error}\n")
        return 1
    return 0
