"""``mdhearts cli``: play or script a match one command at a time, the match kept in a file.

A thin transport over ``core.controller.Controller``: each command loads the state file (a game
record), runs one controller command, lets the bot seats answer, saves the file atomically and
prints the status, as text or as one JSON object with ``--json``. A command that fails prints
why, exits non-zero and leaves the state file exactly as it was.

Exit codes: 0 done, 1 the command could not be done (illegal move, no match, unreadable file),
2 bad usage (unknown command or option, bad option value), 70 an internal error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from game.programs import exit_status, guarded
from game.streams import silence_stdout, tell, write
from game.terminal.arguments import build_parser
from game.terminal.commands import COMMANDS
from game.terminal.errors import EXIT_OK, EXIT_USAGE, PROG, CliError
from game.terminal.interactive import run_interactive
from game.terminal.remote import run as run_remote
from game.terminal.remote import wants_server
from game.terminal.render import render
from game.terminal.seats import bot_seats, one_shot_telemetry_name
from game.terminal.state_file import checked_path, default_state_path, state_lock


def _run(argv: list[str]) -> int:
    """Parse the arguments, run the session or the command, and print what it did."""
    if wants_server(argv):  # a table of `mdhearts serve`
        return run_remote(argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except CliError as error:
        tell(f"{error.usage}{PROG}: error: {error}\n")
        return error.code
    except SystemExit as stop:  # --help
        return exit_status(stop)
    as_json = getattr(args, "json", False)
    symbols = getattr(args, "symbols", False)
    allow_engines = getattr(args, "allow_engines", False)
    try:
        state_text = getattr(args, "state", None)
        state = default_state_path() if state_text is None else checked_path(state_text, "--state")
        if args.interactive:
            if args.command is not None:
                raise CliError("--interactive takes no command", EXIT_USAGE)
            with state_lock(state):
                return run_interactive(state, symbols=symbols, allow_engines=allow_engines)
        if args.command is None:
            raise CliError("give a command (see `mdhearts cli --help`)", EXIT_USAGE)
        args.players, warnings = bot_seats(telemetry_name=one_shot_telemetry_name())
        args.players.allow_engines = allow_engines
        for warning in warnings:
            tell(f"{PROG}: warning: {warning}\n")
        try:
            with state_lock(state):
                outcome = COMMANDS[args.command](args, state)
        finally:
            args.players.close()
    except CliError as error:
        tell(f"{PROG}: error: {error}\n")
        if as_json:
            failure = {"ok": False, "error": str(error)}
            if error.reason:
                failure["reason"] = error.reason
            report_output(json.dumps(failure) + "\n")
        return error.code
    # The command is done and saved: a reader that went away cannot undo it, so the exit
    # status stays 0 and a retrying script does not play the move twice.
    report_output(render(outcome, as_json, symbols))
    return EXIT_OK


def report_output(text: str) -> None:
    """Write a command's output; if standard output is gone, say so on standard error."""
    try:
        write(sys.stdout, text)
        sys.stdout.flush()
    except (OSError, ValueError):
        silence_stdout()
        tell(f"{PROG}: warning: the output could not be written\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mdhearts cli`` with these arguments and return the exit status; never raises."""
    return guarded(PROG, lambda: _run(list(sys.argv[1:] if argv is None else argv)))
