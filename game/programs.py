"""What every command-line program shares: exit codes, a parser that raises, and a main that
never raises (the one owner of these for ``mdhearts`` and its commands).

A program's ``main`` returns ``guarded(PROG, body)``: bad usage is said in a line with the
usage and gives ``EXIT_USAGE``, ``--help`` and ``--version`` their status, Ctrl-C
``EXIT_INTERRUPTED``, and a bug one line instead of a traceback with ``EXIT_INTERNAL``.

>>> guarded("demo", lambda: Parser(prog="demo").parse_args(["--what"]) and 0)
2
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from game.streams import tell

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 70, 130


class UsageError(Exception):
    """Arguments or input a program cannot use; ``usage`` is the usage line to show ("")."""

    def __init__(self, message: str, usage: str = "") -> None:
        super().__init__(message)
        self.usage = usage


class Parser(argparse.ArgumentParser):
    """An argument parser that raises UsageError instead of printing and exiting.

    With ``usage_on_error=False`` the error is said in one line, without the usage.
    """

    def __init__(self, *args: Any, usage_on_error: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.usage_on_error = usage_on_error

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.format_usage() if self.usage_on_error else "")


def exit_status(stop: SystemExit) -> int:
    """Return the status a ``SystemExit`` carries (``--help``, ``--version``): 0 when none."""
    return stop.code if isinstance(stop.code, int) else EXIT_OK


def guarded(prog: str, body: Callable[[], int]) -> int:
    """Run a program's body and return its exit status; never raises (see the module)."""
    try:
        return body()
    except UsageError as error:
        tell(f"{error.usage}{prog}: error: {error}\n")
        return EXIT_USAGE
    except SystemExit as stop:
        return exit_status(stop)
    except KeyboardInterrupt:
        tell("\ninterrupted\n")
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug: report it briefly instead of a traceback
        tell(f"{prog}: internal error: {type(error).__name__}: {error}\n")
        return EXIT_INTERNAL
