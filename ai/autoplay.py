"""The loop that lets bots move for their seats of a match until a person must act."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ai.bot import Bot
from core import events as ev
from core.controller import Controller


class BotError(RuntimeError):
    """A bot chose a move the rules refuse; a bug in that bot, never in the player's input."""


#: Called with the seat after a bot's move is made: events to report before the move's own.
Notes = Callable[[int], Sequence[ev.Event]]


def play_bots(
    controller: Controller, bots: Mapping[int, Bot], notes: Notes | None = None
) -> list[ev.Event]:
    """Let the bots move while any seat that must act is theirs; return what happened.

    Stops when a seat without a bot must act or the hand is over. Raises BotError if a bot
    picks a move the rules refuse (the moves before it stay applied). ``notes(seat)``, when
    given, adds what there is to say about the seat's decision (e.g. an engine's problem)
    before the events of its move.
    """
    happened: list[ev.Event] = []
    while True:
        waiting = [seat for seat in controller.seats_to_act if seat in bots]
        if not waiting:
            return happened
        seat = waiting[0]
        observation = controller.observation(seat)
        if controller.phase == "pass":
            result = controller.submit_pass(seat, bots[seat].choose_pass(observation))
        else:
            result = controller.play_card(seat, bots[seat].choose_play(observation))
        if notes is not None:
            happened.extend(notes(seat))
        if not result.ok:
            raise BotError(f"the bot at seat {seat} chose an illegal move: {result.error}")
        happened.extend(result.events)
