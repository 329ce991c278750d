"""One finished hand as the review page tells it: the seat's pass, then every trick in order.

Read from the match record alone (``ai.review.seat_decisions`` replays the hand), so the page
shows the cards as they were: the seat's hand before each of its decisions, the four cards of
each trick in the order played, who led and who won. For hindsight (every hand face up, which
the review itself never reads) each trick also keeps all four hands as they were before it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ai.review import seat_decisions
from core.actions import PassAction, PlayAction
from core.cards import cards_of, mask_of
from core.controller import Controller
from core.observation import TrickView
from core.rules import pass_receiver


@dataclass(frozen=True)
class PassStory:
    """The seat's pass: the direction, the hand dealt, the three cards passed and received."""

    direction: str
    dealt: tuple[int, ...]
    passed: tuple[int, ...]
    received: tuple[int, ...]


@dataclass(frozen=True)
class TrickStory:
    """One trick: its number (1–13), the cards in play order by seat, and the seat's part.

    ``hand`` is the seat's cards just before it played ``chosen``; ``hands`` holds every
    seat's cards before the trick's lead, by seat (for hindsight).
    """

    number: int
    plays: tuple[tuple[int, int], ...]
    winner: int
    hand: tuple[int, ...]
    chosen: int
    hands: tuple[tuple[int, ...], ...] = ()

    @property
    def leader(self) -> int:
        """Return the seat that led the trick."""
        return self.plays[0][0]


@dataclass(frozen=True)
class HandStory:
    """The hand number, the seat, its pass (None in a hand without passing) and the tricks.

    For replays, which show every hand: ``direction`` of the passes, ``deal`` every seat's
    cards as dealt and ``passes`` the three cards each seat passed (empty when none), by seat.
    """

    hand: int
    seat: int
    passing: PassStory | None
    tricks: tuple[TrickStory, ...]
    direction: str = "hold"
    deal: tuple[tuple[int, ...], ...] = ()
    passes: tuple[tuple[int, ...], ...] = ()


def hand_story(controller: Controller, seat: int, hand: int) -> HandStory:
    """Return hand number ``hand`` of the controller's match as seen by ``seat``.

    Raises ai.review.ReviewError for a seat or hand the match does not hold.
    """
    decisions = seat_decisions(controller, seat, hand)
    match = controller.match
    assert match is not None  # seat_decisions checked it
    record = match.hands[hand - (match.earlier.count + 1)]
    plays = [action for action in record.actions if isinstance(action, PlayAction)]
    passing = None
    received: tuple[int, ...] = ()
    before: dict[int, tuple[int, ...]] = {}
    for decision in decisions:
        observation = decision.observation
        if decision.kind == "play" and decision.trick is not None:
            before[decision.trick] = tuple(cards_of(observation.hand))
            received = observation.received or received
    for decision in decisions:
        if decision.kind == "pass":
            observation = decision.observation
            passing = PassStory(
                observation.direction,
                tuple(cards_of(observation.hand)),
                decision.chosen,
                received,
            )
    held = list(record.deal)
    passes = [action for action in record.actions if isinstance(action, PassAction)]
    passed = {action.seat: tuple(action.cards) for action in passes}
    for action in passes:
        held[action.seat] &= ~mask_of(action.cards)
    for action in passes:
        held[pass_receiver(action.seat, record.direction)] |= sum(
            1 << card for card in action.cards
        )
    tricks = []
    for start in range(0, len(plays) - len(plays) % 4, 4):
        four = plays[start : start + 4]
        number = start // 4 + 1
        cards = tuple(play.card for play in four)
        winner = TrickView(four[0].seat, cards).winner()
        chosen = next(play.card for play in four if play.seat == seat)
        tricks.append(
            TrickStory(
                number,
                tuple((play.seat, play.card) for play in four),
                winner if winner is not None else four[0].seat,
                before.get(number, ()),
                chosen,
                tuple(tuple(cards_of(mask)) for mask in held),
            )
        )
        for play in four:
            held[play.seat] &= ~(1 << play.card)
    return HandStory(
        hand,
        seat,
        passing,
        tuple(tricks),
        record.direction,
        tuple(tuple(cards_of(mask)) for mask in record.deal),
        tuple(passed.get(other, ()) for other in range(4)),
    )


def trick_caption(trick: TrickStory, seat: int, seat_name: Callable[[int], str]) -> str:
    """Return who led a trick and who won it, the reviewed seat called "you"."""

    def who(other: int) -> str:
        return "you" if other == seat else seat_name(other)

    led = "You led" if trick.leader == seat else f"{seat_name(trick.leader)} led"
    return f"Trick {trick.number}: {led}, {who(trick.winner)} won it"
