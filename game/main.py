"""The ``mdhearts`` command: opens the table, or hands the arguments to the program named."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from game.programs import exit_status
from game.version import VERSION

#: A program's entry: its own arguments in, its exit status out.
Program = Callable[[list[str]], int]

USAGE = "mdhearts [-h] [--version] [--self-test ...] [COMMAND [ARGS ...]]"
DESCRIPTION = "With no command, the table opens in a window."
EPILOG = "Each command has its own help: mdhearts COMMAND --help."


# Each program is imported only when it runs, so the terminal and engine programs never load
# the table's libraries.


def run_table(args: list[str]) -> int:
    """Open the table (plain ``mdhearts``)."""
    from game.table.main import main

    return main()


def run_self_test(args: list[str]) -> int:
    """Run ``mdhearts --self-test``."""
    from game.tools.self_test import main

    return main(args)


def run_cli(args: list[str]) -> int:
    """Run ``mdhearts cli``."""
    from game.terminal.main import main

    return main(args)


def run_engine(args: list[str]) -> int:
    """Run ``mdhearts engine``."""
    from game.engine.main import main

    return main(args)


def run_serve(args: list[str]) -> int:
    """Run ``mdhearts serve``."""
    from game.server.main import main

    return main(args)


def run_tournament(args: list[str]) -> int:
    """Run ``mdhearts tournament``."""
    from game.tools.tournament import main

    return main(args)


def run_telemetry(args: list[str]) -> int:
    """Run ``mdhearts telemetry``."""
    from game.tools.telemetry import main

    return main(args)


def run_review(args: list[str]) -> int:
    """Run ``mdhearts review``."""
    from game.tools.review import main

    return main(args)


def run_screenshots(args: list[str]) -> int:
    """Run ``mdhearts screenshots``."""
    from game.tools.screenshots import main

    return main(args)


#: The commands: name, what it does, and the program that does it.
COMMANDS: dict[str, tuple[str, Program]] = {
    "cli": (
        "play or script a match from the terminal (mdhearts cli --interactive plays in the "
        "terminal)",
        run_cli,
    ),
    "engine": ("answer engine-protocol requests on stdin/stdout", run_engine),
    "serve": ("host tables over the network for friends, spectators and bots", run_serve),
    "tournament": ("judge bots on duplicate deals", run_tournament),
    "telemetry": ("export the bots' decision records (mdhearts telemetry export)", run_telemetry),
    "review": ("review a seat's decisions in a saved match, like a coach", run_review),
    "screenshots": ("save pictures of the table at window sizes", run_screenshots),
}


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of ``mdhearts``: its options and the names of its commands.

    A command's own arguments are not parsed here: they go whole to its program.
    """
    parser = argparse.ArgumentParser(
        prog="mdhearts", usage=USAGE, description=DESCRIPTION, epilog=EPILOG, allow_abbrev=False
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"mdhearts {VERSION}",
        help="print the program's version and exit",
    )
    parser.add_argument(
        "--self-test",
        nargs=argparse.REMAINDER,
        default=None,
        help="[--opponents easy|normal|hard] check headless that the table draws, the bots "
        "play a hand in the worker process, and a game record saves and loads; exit 0 if so",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, (summary, _) in COMMANDS.items():
        commands.add_parser(name, help=summary, add_help=False)
    commands.add_parser("help", help="show this help and exit", add_help=False)
    return parser


def choose(argv: list[str]) -> tuple[Program, list[str]]:
    """Return the program the arguments name and the arguments that are its own.

    Raises SystemExit for ``--help``, ``--version`` and bad usage (status 2), as argparse does.
    """
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if args.self_test is not None:
        return run_self_test, args.self_test
    if args.command is None:
        if unknown:
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        return run_table, []
    position = argv.index(args.command)
    if position:
        parser.error(f"unrecognized arguments: {' '.join(argv[:position])}")
    if args.command == "help":
        parser.print_help()
        parser.exit()
    _, program = COMMANDS[args.command]
    return program, argv[position + 1 :]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mdhearts`` with these arguments (default: the command line); return the status."""
    try:
        program, args = choose(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as stop:
        return exit_status(stop)
    if program is not run_table:  # the table shows the warnings on its window
        name = next((name for name, (_, run) in COMMANDS.items() if run is program), None)
        for warning in environment_warnings():
            sys.stderr.write(f"mdhearts{f' {name}' if name else ''}: warning: {warning}\n")
    return program(args)


def environment_warnings() -> list[str]:
    """Return a warning for each invalid variable read before any command starts."""
    from core.native import pure_python_from_env

    return pure_python_from_env()[1]


if __name__ == "__main__":
    import multiprocessing

    multiprocessing.freeze_support()
    sys.exit(main())
