"""Undo and redo by the person's moves: back to before a human seat's last move, and again."""

from __future__ import annotations

from core import events as ev
from core.controller import Controller
from game.terminal.bots import BotSeats
from game.terminal.errors import CliError, checked
from game.terminal.seats import autoplay, human_seats


def can_undo(controller: Controller) -> bool:
    """Return whether ``undo`` has something to take back: a human move in this hand (not a
    pass whose cards were exchanged; ``Controller.undo_until`` owns that rule)."""
    return controller.can_undo_until(human_seats(controller))


def undo_to_human(controller: Controller) -> list[ev.Event]:
    """Undo until a human seat's move was taken back (with no human seat: the whole hand)."""
    humans = human_seats(controller)
    result = controller.undo_until(humans)
    exchanged = bool(result.details.get("exchanged"))
    if not result.ok and humans and controller.can_undo and not exchanged:
        raise CliError("nothing to undo: no human move in this hand yet")
    return checked(result)


def redo_to_human(controller: Controller, players: BotSeats) -> list[ev.Event]:
    """Redo what undo took back up to a human seat's next decision, then let the bots move."""
    if not controller.can_redo:
        raise CliError("nothing to redo")
    happened = checked(controller.redo_until(human_seats(controller)))
    return happened + autoplay(controller, players)
