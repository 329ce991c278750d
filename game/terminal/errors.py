"""The harness's exit codes and the error of a command that cannot be done."""

from __future__ import annotations

from core import events as ev
from core.controller import Result
from core.text import os_reason
from game.programs import EXIT_FAILED as EXIT_FAILED
from game.programs import EXIT_INTERNAL as EXIT_INTERNAL
from game.programs import EXIT_OK as EXIT_OK
from game.programs import EXIT_USAGE as EXIT_USAGE

PROG = "mdhearts cli"


class CliError(Exception):
    """A command that cannot be done; ``code`` is the exit status to return.

    ``reason`` is a code a program can react to (e.g. ``engine_not_allowed``), or "".
    """

    def __init__(
        self, message: str, code: int = EXIT_FAILED, usage: str = "", *, reason: str = ""
    ) -> None:
        super().__init__(message)
        self.code = code
        self.usage = usage
        self.reason = reason


def checked(result: Result) -> list[ev.Event]:
    """Return the events of a command the controller did, or raise CliError saying why not."""
    if not result.ok:
        raise CliError(result.error or "the command was refused")
    return list(result.events)


#: Why an operating-system call failed, in a few words (``core.text.os_reason``).
reason = os_reason
