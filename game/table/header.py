"""The words of the table's top bar: the hand, its pass or whose turn it is, hearts broken.

The bar says what the table shows at that moment, not where the match already is: while a
bot's card travels to the trick the bar names the next seat, and while a finished trick is
held or swept it says who takes it.
"""

from __future__ import annotations

from collections.abc import Callable

from core.cards import SUIT_SYMBOLS
from core.observation import TrickView
from game.table.match.port import HUMAN_SEAT
from game.table.table_view import Shown
from game.table.wording import with_verb

DIRECTION_WORDS = {"left": "to the left", "right": "to the right", "across": "across", "hold": ""}


def pass_words(direction: str) -> str:
    """Return the words for a hand's pass ("pass to the left", "no passing")."""
    return "no passing" if direction == "hold" else f"pass {DIRECTION_WORDS[direction]}"


def trick_taker(shown: Shown) -> int | None:
    """Return the seat taking the trick shown complete or being swept, or None."""
    if shown.leaving:
        return shown.leaving[0][2]
    if len(shown.trick) == 4:
        return TrickView(shown.trick[0][0], tuple(card for _, card in shown.trick)).winner()
    return None


def seat_to_play(shown: Shown, first_leader: int | None) -> tuple[int, bool] | None:
    """Return the seat whose card the shown table waits for, and whether it leads; None while
    a finished trick is shown or the hand has no card left.

    ``first_leader`` is the seat that leads the hand's first trick (the 2♣ holder).
    """
    if trick_taker(shown) is not None:
        return None
    if shown.trick:
        return (shown.trick[-1][0] + 1) % 4, False
    if not shown.hand and not any(shown.counts[seat] for seat in range(4) if seat != HUMAN_SEAT):
        return None  # the hand is played out (the face-up seat's cards are ``shown.hand``)
    leader = shown.last_winner if shown.last_winner is not None else first_leader
    return None if leader is None else (leader, True)


def turn_words(
    shown: Shown, first_leader: int | None, seat_name: Callable[[int], str], person_plays: bool
) -> str:
    """Return whose turn the shown table waits for ("Your lead", "West (normal) to play"), who
    takes the trick shown ("You take the trick"), or ""."""
    taker = trick_taker(shown)
    if taker is not None:
        return f"{with_verb(seat_name(taker), 'takes')} the trick"
    turn = seat_to_play(shown, first_leader)
    if turn is None:
        return ""
    seat, leads = turn
    if seat == HUMAN_SEAT and person_plays:
        return "Your lead" if leads else "Your turn"
    return f"{seat_name(seat)} {'leads' if leads else 'to play'}"


def header_text(shown: Shown, passing: bool, turn: str, practice: str | None = None) -> str:
    """Return the top bar's words: the hand, then its pass (or whose turn), then hearts broken;
    a hand tried again starts with ``practice`` ("Practice · the cards as they were")."""
    words = [] if practice is None else [practice]
    words.append(f"Hand {shown.hand_number}")
    if passing:
        words.append(pass_words(shown.direction))
    elif turn:
        words.append(turn)
    if shown.hearts_broken:
        words.append(f"{SUIT_SYMBOLS[3]} broken")
    return " · ".join(words)
