"""Command line of the benchmarks: ``python -m bench <name> [options]`` from the repo root."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from game.streams import silence_stdout


@dataclass(frozen=True)
class Bench:
    """A benchmark command: its name, the module that runs it, and a one-line help."""

    name: str
    module: str
    help: str


#: Every benchmark command; add a row (and a module with add_arguments and run) for a new one.
BENCHES = (
    Bench(
        "rules",
        "bench.rules",
        "legal-move checks and random playouts: Cython kernel, pure-Python twin, OpenSpiel",
    ),
    Bench(
        "strength",
        "bench.strength",
        "strength targets: named tournaments on duplicate deals, met or not met",
    ),
    Bench(
        "paired",
        "bench.paired",
        "two strength runs on the same deals compared deal by deal: each bot's change in Diff",
    ),
    Bench(
        "search",
        "bench.search",
        "hard bot search: rollouts, sampled deals, exact endgames (Cython vs twin), decisions",
    ),
    Bench(
        "inference",
        "bench.inference",
        "probability the hard bot's sampled deals put on the true holder of hidden cards",
    ),
    Bench(
        "policy",
        "bench.policy",
        "a learned model of play fitted to the hard bot's plays: held-out accuracy and log-loss",
    ),
    Bench(
        "passes",
        "bench.passes",
        "hard bot passes: how much worse its best candidate is than the best of all 286 sets",
    ),
    Bench(
        "moons",
        "bench.moons",
        "how often the hard bot's search foresees a moon, by what the table shows, against how "
        "often one is shot",
    ),
    Bench(
        "reliability",
        "bench.reliability",
        "bot-only hands with every invariant checked; normal-only tournament throughput",
    ),
    Bench(
        "serve",
        "bench.serve",
        "K tables of 4 scripted clients against mdhearts serve: latency p50/p99, CPU a hand, "
        "memory a table, largest K under 50 ms p99 at human pace",
    ),
    Bench(
        "frames",
        "bench.frames",
        "table frame time (p50/p99) through one hand of hard bots; first frame after launch; "
        "idle CPU of the loop",
    ),
)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, run the chosen benchmark and return its exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bench", description="Run a benchmark and print its results."
    )
    commands = parser.add_subparsers(dest="bench", required=True, metavar="BENCH")
    for bench in BENCHES:
        module = importlib.import_module(bench.module)
        command = commands.add_parser(bench.name, help=bench.help, description=bench.help)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        print(stopped_message(args), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error
        silence_stdout()
        return 0


#: The exit status of a run stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
EXIT_INTERRUPTED = 130


def stopped_message(args: argparse.Namespace) -> str:
    """Return the one line said when Ctrl-C stops a benchmark, naming its journal if any."""
    message = f"python -m bench {args.bench}: stopped"
    journal = getattr(args, "journal", None)
    if journal is not None:
        message += (
            f"; the finished deals are kept in the journal folder {journal}: "
            "run the same command again to go on"
        )
    return message


if __name__ == "__main__":
    sys.exit(main())
