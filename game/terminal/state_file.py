"""The state file that keeps the match between commands: where it is, loading, saving, locking."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from core.controller import Controller
from core.errors import RecordError
from core.files import (
    FileContentError,
    LockBusyError,
    locked,
    read_regular_file,
    set_aside,
    user_dirs,
    write_target,
)
from core.record import MAX_RECORD_BYTES, load_record, loads_record, looks_like_record, save_record
from game.terminal.errors import EXIT_USAGE, CliError, reason
from game.terminal.seats import check_seats_supported

STATE_ENV = "MDH_CLI_STATE"
STATE_FILE_NAME = "cli-match.json"
NO_MATCH = "no match: start one with `mdhearts cli new`"


def checked_path(text: str, what: str) -> Path:
    """Return a path given on the command line, refusing ones no file system accepts."""
    if not text.strip() or "\x00" in text:
        raise CliError(f"{what}: not a usable file path: {text!r:.80}", EXIT_USAGE)
    return Path(text)


def default_state_path() -> Path:
    """Return the state file: ``$MDH_CLI_STATE`` if set, else one in the user data folder
    (under ``$MDH_HOME`` when set), whose folder is made here when missing."""
    value = os.environ.get(STATE_ENV)
    if value is None:
        dirs, _ = user_dirs()
        try:
            dirs.data.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CliError(f"cannot make the folder {dirs.data}: {reason(error)}") from None
        return dirs.cli_state_file
    if not value.strip():
        raise CliError(f"{STATE_ENV} is set but empty: unset it or give a file path", EXIT_USAGE)
    return checked_path(value, STATE_ENV)


def load_state(path: Path, *, allow_engines: bool = False) -> Controller:
    """Load the match from the state file, or raise CliError saying why not.

    A match whose seats name engine programs is refused unless ``allow_engines`` says the
    person agreed (``--allow-engines``): the file may have been written by anyone.
    """
    try:
        exists = path.exists()
    except (OSError, ValueError) as error:
        raise CliError(f"cannot read the state file {path}: {reason(error)}") from None
    if not exists:
        raise CliError(NO_MATCH)
    try:
        controller = load_record(path)
    except (OSError, ValueError) as error:
        raise CliError(
            f"the state file is not a usable match: {error}\n"
            "start a new match with `mdhearts cli new`"
        ) from None
    check_seats_supported(controller.seats, allow_engines=allow_engines)
    return controller


def make_room_for_new_match(path: Path) -> Path | None:
    """Make sure a new match may replace what is at ``path``; return where an old one went.

    Nothing there, an empty file or a usable match: nothing to keep (None). A match file that
    cannot be used (damaged, or from a newer version) is first renamed to
    ``<name>.corrupt-<time>``, which is returned. Anything else — a file that is not a match
    file, a folder, a pipe — is refused with CliError and left as it is.
    """
    try:
        raw = read_regular_file(path, MAX_RECORD_BYTES)
    except FileNotFoundError:
        return None
    except FileContentError as error:
        raise CliError(f"{path} is {error}: a new match may not replace it") from None
    except (OSError, ValueError) as error:
        raise CliError(f"cannot read {path}: {reason(error)}; nothing was changed") from None
    if not raw.strip():
        return None
    try:
        loads_record(raw)
        return None
    except RecordError:
        pass
    if not looks_like_record(raw):
        raise CliError(
            f"{path} is not an MDHearts match file, and a new match may not replace it: give "
            "another file with --state, or remove this one"
        )
    try:
        return set_aside(write_target(path))
    except OSError as error:
        raise CliError(
            f"the state file {path} cannot be used nor moved aside ({reason(error)}); "
            "nothing was changed"
        ) from None


def save_state(controller: Controller, path: Path) -> None:
    """Save the match to ``path`` atomically, or raise CliError (the old file is then kept)."""
    try:
        save_record(controller, path)
    except (OSError, ValueError) as error:
        raise CliError(f"cannot write {path}: {reason(error)}") from None


@contextlib.contextmanager
def state_lock(state: Path) -> Iterator[None]:
    """Hold the state file's lock while a command reads, changes and writes it.

    Commands run at once on one file take turns; one that waits too long is refused.
    """
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(locked(state))
        except LockBusyError:
            raise CliError(f"another mdhearts command is using {state}; try again") from None
        except OSError as error:
            raise CliError(f"cannot use the state file {state}: {reason(error)}") from None
        yield
