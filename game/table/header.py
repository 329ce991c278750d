"""The words of the table's top bar: the hand, its pass or whose turn it is, hearts broken."""

from __future__ import annotations

from collections.abc import Callable

from core.cards import SUIT_SYMBOLS
from game.table.session import HUMAN_SEAT, TableSession
from game.table.table_view import Shown

DIRECTION_WORDS = {"left": "to the left", "right": "to the right", "across": "across", "hold": ""}


def pass_words(direction: str) -> str:
    """Return the words for a hand's pass ("pass to the left", "no passing")."""
    return "no passing" if direction == "hold" else f"pass {DIRECTION_WORDS[direction]}"


def turn_words(session: TableSession, seat_name: Callable[[int], str]) -> str:
    """Return whose turn it is in the play ("Your lead", "West (normal) to play"), or ""."""
    controller = session.controller
    if controller.phase != "play" or not controller.seats_to_act:
        return ""
    seat = controller.seats_to_act[0]
    trick = controller.current_trick
    leads = trick is None or not trick.cards
    if seat == HUMAN_SEAT and session.person_plays:
        return "Your lead" if leads else "Your turn"
    return f"{seat_name(seat)} {'leads' if leads else 'to play'}"


def header_text(shown: Shown, passing: bool, turn: str) -> str:
    """Return the top bar's words: the hand, then its pass (or whose turn), then hearts broken."""
    words = [f"Hand {shown.hand_number}"]
    if passing:
        words.append(pass_words(shown.direction))
    elif turn:
        words.append(turn)
    if shown.hearts_broken:
        words.append(f"{SUIT_SYMBOLS[3]} broken")
    return " · ".join(words)
