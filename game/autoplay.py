"""Letting bot seats act: who is a bot, which bot plays it, and the loop that asks them to move.

Every transport (table, CLI) calls ``play_bots`` after a command, so bots answer at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ai.bot import Bot
from ai.registry import make_bot
from core import events as ev
from core.controller import Controller


class BotError(RuntimeError):
    """A bot chose a move the rules refuse; a bug in that bot, never in the player's input."""


def is_human_seat(kind: str) -> bool:
    """Return whether a seat kind is played by a person at this program."""
    return kind == "human"


def is_bot_seat(kind: str) -> bool:
    """Return whether a seat kind is played by a built-in bot (``bot`` or ``bot:LEVEL``)."""
    return kind == "bot" or kind.startswith("bot:")


def is_engine_seat(kind: str) -> bool:
    """Return whether a seat kind is played by an external engine program."""
    return kind.startswith("engine:")


def bot_name(kind: str) -> str:
    """Return the registry name of a bot seat kind: ``bot`` is the simplest bot."""
    return kind.partition(":")[2].strip() or "first"


def make_bots(seats: Sequence[str]) -> dict[int, Bot]:
    """Return a bot for every bot seat, keyed by seat number; ValueError for unknown bots."""
    return {seat: make_bot(bot_name(kind)) for seat, kind in enumerate(seats) if is_bot_seat(kind)}


def play_bots(controller: Controller, bots: Mapping[int, Bot]) -> list[ev.Event]:
    """Let the bots move while any seat that must act is theirs; return what happened.

    Stops when a seat without a bot must act or the hand is over. Raises BotError if a bot
    picks a move the rules refuse (the moves before it stay applied).
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
        if not result.ok:
            raise BotError(f"the bot at seat {seat} chose an illegal move: {result.error}")
        happened.extend(result.events)
