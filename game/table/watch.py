"""Watching bots play: every seat's hand may be shown face up, since no person plays.

The table's view knows only how many cards a bot holds (nothing on screen may hint at a
hidden card while a person plays). When the person only watches, the cards each bot holds
are read from the seat's view (which holds every hand then), as the table shows them: a card
already played in the match but not yet shown travelling to the trick is still in its hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.table.match.port import SeatView
from game.table.table_view import DrawnCard, Shown

#: Seconds a hand's summary stays up while watching before the next hand is dealt.
WATCH_PAUSE_S = 4.0
#: Seconds a watched match's result stays up before the next watched match starts.
WATCH_MATCH_PAUSE_S = 8.0
#: What watching offers, said in the table's message bar (clear of every seat's cards) as a
#: watched match opens, and for how long.
WATCH_HINT = "Watching the bots: press F or “Show hands” to see every hand face up"
WATCH_HINT_S = 5.0


@dataclass
class Countdown:
    """Seconds left before a watched screen goes on by itself (``None``: it waits for input)."""

    left: float | None

    def tick(self, dt: float) -> bool:
        """Move time on; return True once, when the countdown reaches zero."""
        if self.left is None:
            return False
        self.left -= dt
        if self.left > 0:
            return False
        self.left = None
        return True

    def label(self, text: str) -> str:
        """Return ``text`` with the whole seconds left, as a button shows it: "Next hand (3)"."""
        return text if self.left is None else f"{text} ({math.ceil(self.left)})"

    def frame_due_in(self) -> float | None:
        """Return the time until the shown number of seconds changes (see ``Scene``)."""
        if self.left is None:
            return None
        return max(0.0, self.left - (math.ceil(self.left) - 1))


def watched_hands(seat_view: SeatView, shown: Shown) -> dict[int, list[int]]:
    """Return each bot seat's cards as the table shows them now (seats between states left
    out); none unless the view holds every hand (the person watches)."""
    hands = {seat: shown_hand(seat_view, shown, seat) for seat in (1, 2, 3)}
    return {seat: cards for seat, cards in hands.items() if cards is not None}


def face_of(drawn: DrawnCard, hands: dict[int, list[int]]) -> int | None:
    """Return the card a bot's face-down card shows when ``hands`` are shown face up."""
    if drawn.card is not None or drawn.key[0] != "back":
        return None
    seat, index = drawn.key[1], drawn.key[2]
    cards = hands.get(seat) if isinstance(seat, int) else None
    if cards is None or not isinstance(index, int) or index >= len(cards):
        return None
    return cards[index]


def shown_hand(seat_view: SeatView, shown: Shown, seat: int) -> list[int] | None:
    """Return the cards ``seat`` holds as the table shows it now, in the order drawn.

    None while the table shows a count the match does not have (cards passed and not yet
    received): those cards are drawn face down.
    """
    hands = seat_view.open_hands
    if hands is None or seat_view.phase not in ("pass", "play"):
        return None
    held = set(hands[seat])
    count = shown.counts[seat]
    if len(held) < count:
        on_table = {card for _, card in shown.trick}
        on_table |= {card for _, card, _ in shown.leaving}
        on_table |= {card for _, card in shown.last_trick}
        recent = [*seat_view.last_trick, *seat_view.trick]
        held |= {card for who, card in recent if who == seat} - on_table
    return sorted(held) if len(held) == count else None
