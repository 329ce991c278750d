"""Seat kinds for the transports: who is a person, a built-in bot or an external engine.

Every transport (table, CLI) calls ``play_bots`` after a command, so bots answer at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.autoplay import BotError, play_bots
from ai.bot import Bot
from ai.registry import make_bot

__all__ = [
    "BotError",
    "bot_name",
    "is_bot_seat",
    "is_engine_seat",
    "is_human_seat",
    "make_bots",
    "play_bots",
]


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
