"""The one-shot commands of ``mdhearts cli``: each loads the match, acts, and saves it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core import events as ev
from core.controller import Controller
from core.errors import HeartsError
from core.match import validate_seed
from core.record import load_record
from game.terminal.arguments import rules_from_args, seats_from_text
from game.terminal.errors import EXIT_USAGE, CliError, checked
from game.terminal.seats import acting_seat, autoplay, check_seats_supported, viewing_seat
from game.terminal.state_file import (
    checked_path,
    load_state,
    make_room_for_new_match,
    save_state,
)
from game.terminal.undo import redo_to_human, undo_to_human


@dataclass
class Outcome:
    """What a command did: the match after it, its events, and anything extra to report."""

    controller: Controller
    events: list[ev.Event] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    seat: int | None = None
    show_status: bool = True


def _load(args: argparse.Namespace, state: Path) -> Controller:
    """Load the state file's match; its engine seats only with the person's consent."""
    return load_state(state, allow_engines=args.players.allow_engines)


def cmd_new(args: argparse.Namespace, state: Path) -> Outcome:
    """Start a match, let the bots move, and save it as the state file."""
    rules = rules_from_args(args)
    seats = seats_from_text(args.seats)
    # Engine seats typed in this command line are the person's own choice.
    args.players.allow_engines = True
    try:
        seed = None if args.seed is None else validate_seed(args.seed)
    except HeartsError as error:
        raise CliError(f"--seed: {error}", EXIT_USAGE) from None
    kept = make_room_for_new_match(state)
    controller = Controller()
    happened = checked(controller.new_match(rules, seed, seats))
    happened += autoplay(controller, args.players)
    save_state(controller, state)
    if kept is None:
        return Outcome(controller, happened)
    note = f"the old state file could not be used and was kept as {kept}\n"
    return Outcome(controller, happened, extra={"kept": str(kept)}, message=note)


def cmd_status(args: argparse.Namespace, state: Path) -> Outcome:
    """Show the match; nothing changes."""
    controller = load_state(state, allow_engines=True)  # shows the match, starts nothing
    return Outcome(controller, seat=viewing_seat(controller, args.seat))


def cmd_pass(args: argparse.Namespace, state: Path) -> Outcome:
    """Pass three cards for the human seat, then let the bots move."""
    controller = _load(args, state)
    seat = acting_seat(controller, args.seat)
    happened = checked(controller.submit_pass(seat, " ".join(args.cards)))
    happened += autoplay(controller, args.players)
    save_state(controller, state)
    return Outcome(controller, happened, seat=seat)


def cmd_play(args: argparse.Namespace, state: Path) -> Outcome:
    """Play one card for the human seat, then let the bots move."""
    controller = _load(args, state)
    seat = acting_seat(controller, args.seat)
    happened = checked(controller.play_card(seat, args.card))
    happened += autoplay(controller, args.players)
    save_state(controller, state)
    return Outcome(controller, happened, seat=seat)


def cmd_undo(args: argparse.Namespace, state: Path) -> Outcome:
    """Take back moves until a human's last move is undone; the bots do not move again."""
    controller = _load(args, state)
    happened = undo_to_human(controller)
    save_state(controller, state)
    return Outcome(controller, happened)


def cmd_redo(args: argparse.Namespace, state: Path) -> Outcome:
    """Apply again the human move last undone, then let the bots move."""
    controller = _load(args, state)
    happened = redo_to_human(controller, args.players)
    save_state(controller, state)
    return Outcome(controller, happened)


def cmd_next(args: argparse.Namespace, state: Path) -> Outcome:
    """Deal the next hand once the current one is over, then let the bots move."""
    controller = _load(args, state)
    happened = checked(controller.next_hand()) + autoplay(controller, args.players)
    save_state(controller, state)
    return Outcome(controller, happened)


def cmd_save(args: argparse.Namespace, state: Path) -> Outcome:
    """Write the match record to PATH; the state file is not changed."""
    controller = load_state(state, allow_engines=True)  # shows the match, starts nothing
    target = checked_path(args.path, "save")
    save_state(controller, target)
    return Outcome(
        controller,
        extra={"saved": str(target)},
        message=f"saved the match to {target}\n",
        show_status=False,
    )


def cmd_load(args: argparse.Namespace, state: Path) -> Outcome:
    """Check the record at PATH and make it the state file, then let the bots move."""
    source = checked_path(args.path, "load")
    try:
        controller = load_record(source)
    except (OSError, ValueError) as error:
        raise CliError(f"cannot load the match: {error}") from None
    check_seats_supported(controller.seats, allow_engines=args.players.allow_engines)
    happened = autoplay(controller, args.players)
    save_state(controller, state)
    return Outcome(
        controller,
        happened,
        extra={"loaded": str(source)},
        message=f"loaded the match from {source}\n",
    )


def cmd_sheet(args: argparse.Namespace, state: Path) -> Outcome:
    """Show the score sheet of the match."""
    controller = load_state(state, allow_engines=True)  # shows the match, starts nothing
    try:
        from core.scoresheet import score_sheet
    except ImportError:
        raise CliError("the score sheet is not available in this version") from None
    sheet = score_sheet(controller)
    text = sheet if sheet.endswith("\n") else sheet + "\n"
    return Outcome(controller, extra={"sheet": sheet}, message=text, show_status=False)


#: Each command's handler, by the name the parser gives it.
COMMANDS: dict[str, Callable[[argparse.Namespace, Path], Outcome]] = {
    "new": cmd_new,
    "status": cmd_status,
    "pass": cmd_pass,
    "play": cmd_play,
    "undo": cmd_undo,
    "redo": cmd_redo,
    "next": cmd_next,
    "save": cmd_save,
    "load": cmd_load,
    "sheet": cmd_sheet,
}
