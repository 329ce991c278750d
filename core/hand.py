"""One hand of Hearts as plain data: the deal, the pass, thirteen tricks.

Transitions validate first and mutate after: ``verify_pass``/``verify_play`` raise
``IllegalActionError`` with a specific reason, ``can_*`` answer with a bool, and
``submit_pass``/``play`` verify, then apply and return the events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core import events as ev
from core.cards import (
    FULL_DECK,
    SUIT_MASKS,
    SUIT_NAMES,
    TWO_OF_CLUBS,
    card_text,
    count,
    has_card,
    mask_of,
    suit_of,
)
from core.errors import CardError, IllegalActionError
from core.kernel import legal_mask, trick_points, trick_winner_offset
from core.observation import Observation, TrickView
from core.rules import RuleSet, pass_receiver, pass_sender
from core.scoring import HandScore, score_hand

PASS_SIZE = 3


@dataclass
class Trick:
    """A trick: who led it and the cards in play order; ``winner`` is set once it is full."""

    leader: int
    cards: list[int] = field(default_factory=list)
    winner: int | None = None

    @property
    def complete(self) -> bool:
        """Return whether four cards have been played."""
        return len(self.cards) == 4

    @property
    def led_suit(self) -> int:
        """Return the suit led, or -1 before the first card."""
        return suit_of(self.cards[0]) if self.cards else -1

    def seat_of(self, position: int) -> int:
        """Return the seat that played the card at this position."""
        return (self.leader + position) % 4

    def copy(self) -> Trick:
        """Return an independent copy."""
        return Trick(self.leader, list(self.cards), self.winner)

    def to_dict(self, number: int, flags: int) -> dict[str, Any]:
        """Return the trick as JSON data: its ``number`` in the hand, the leader, the cards and
        the seat of each; once complete, the winner and its points under the rule ``flags``."""
        data: dict[str, Any] = {
            "number": number,
            "leader": self.leader,
            "cards": [card_text(card) for card in self.cards],
            "seats": [self.seat_of(position) for position in range(len(self.cards))],
        }
        if self.complete:
            data["winner"] = self.winner
            data["points"] = trick_points(mask_of(self.cards), flags)
        return data


def illegal_play(hand: int, led_suit: int, first_trick: bool, rules: RuleSet) -> IllegalActionError:
    """Return the error naming the rule a card of ``hand`` outside its legal mask breaks.

    The one owner of why a held card may not be played: ``led_suit`` is -1 for a lead.

    >>> from core.cards import mask_of, parse_card
    >>> str(illegal_play(mask_of([parse_card("2H"), parse_card("3S")]), 2, False, RuleSet()))
    'must follow suit: play a spade'
    """
    if led_suit >= 0:
        if hand & SUIT_MASKS[led_suit]:
            return IllegalActionError(
                f"must follow suit: play a {SUIT_NAMES[led_suit]}",
                "must_follow_suit",
                suit=led_suit,
            )
        return IllegalActionError("no points on the first trick", "no_points_first_trick")
    if first_trick:
        if rules.first_lead == "any_club":
            return IllegalActionError("the first trick must be led with a club", "first_lead_club")
        return IllegalActionError(
            "the first trick must be led with the 2C", "first_lead_two_of_clubs"
        )
    return IllegalActionError("hearts are not broken", "hearts_not_broken")


def validate_deal(hands: Sequence[int]) -> None:
    """Raise unless four masks of 13 cards each make up the whole deck."""
    if len(hands) != 4:
        raise CardError("a deal has four hands")
    union = 0
    for seat, hand in enumerate(hands):
        if count(hand) != 13 or hand & ~FULL_DECK:
            raise CardError(f"seat {seat} must be dealt 13 cards")
        if union & hand:
            raise CardError("a card is dealt to two seats")
        union |= hand
    if union != FULL_DECK:
        raise CardError("the deal does not use the whole deck")


@dataclass
class HandState:
    """The full state of one hand; the controller owns it, bots never see it."""

    rules: RuleSet
    direction: str
    dealt: tuple[int, int, int, int]
    hands: list[int]
    pass_choices: list[tuple[int, ...] | None]
    passes_exchanged: bool
    tricks: list[Trick]
    hearts_broken: bool
    taken: list[int]

    @classmethod
    def new(cls, rules: RuleSet, direction: str, dealt: Sequence[int]) -> HandState:
        """Start a hand from a deal of four 13-card masks."""
        validate_deal(dealt)
        hand = cls(
            rules=rules,
            direction=direction,
            dealt=(dealt[0], dealt[1], dealt[2], dealt[3]),
            hands=list(dealt),
            pass_choices=[None, None, None, None],
            passes_exchanged=direction == "hold",
            tricks=[],
            hearts_broken=False,
            taken=[0, 0, 0, 0],
        )
        if hand.passes_exchanged:
            hand._start_play()
        return hand

    # -- queries ------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """Return ``pass``, ``play`` or ``done``."""
        if not self.passes_exchanged:
            return "pass"
        if len(self.tricks) == 13 and self.tricks[-1].complete:
            return "done"
        return "play"

    @property
    def cards_played(self) -> int:
        """Return how many cards have been played this hand."""
        return sum(len(trick.cards) for trick in self.tricks)

    @property
    def current_trick(self) -> Trick | None:
        """Return the trick being played (possibly empty), or None when no trick is open."""
        if self.tricks and not self.tricks[-1].complete:
            return self.tricks[-1]
        return None

    @property
    def completed_tricks(self) -> list[Trick]:
        """Return the tricks already taken."""
        return [trick for trick in self.tricks if trick.complete]

    @property
    def turn(self) -> int | None:
        """Return the seat to play, or None outside the play phase."""
        trick = self.current_trick
        if self.phase != "play" or trick is None:
            return None
        return trick.seat_of(len(trick.cards))

    @property
    def seats_to_pass(self) -> list[int]:
        """Return the seats that still have to choose their pass."""
        if self.phase != "pass":
            return []
        return [seat for seat in range(4) if self.pass_choices[seat] is None]

    def legal_mask(self, seat: int) -> int:
        """Return the mask of cards ``seat`` may play now (0 when it is not its turn)."""
        trick = self.current_trick
        if trick is None or self.turn != seat:
            return 0
        first_trick = len(self.tricks) == 1
        return legal_mask(
            self.hands[seat], trick.led_suit, first_trick, self.hearts_broken, self.rules.flags
        )

    def tricks_won(self) -> list[int]:
        """Return how many tricks each seat has taken."""
        won = [0, 0, 0, 0]
        for trick in self.completed_tricks:
            assert trick.winner is not None
            won[trick.winner] += 1
        return won

    def taken_points(self) -> list[int]:
        """Return the points each seat has taken in tricks so far (before moon scoring)."""
        return [trick_points(mask, self.rules.flags) for mask in self.taken]

    def score(self, totals_before: Sequence[int]) -> HandScore:
        """Return the hand's score; only valid once the hand is done."""
        return score_hand(self.rules, self.taken, self.tricks_won(), totals_before)

    def observation(self, seat: int, scores: Sequence[int]) -> Observation:
        """Return what ``seat`` may know; ``scores`` are the match totals before this hand."""
        passed = received = None
        if self.direction != "hold":
            passed = self.pass_choices[seat]
            if self.passes_exchanged:
                received = self.pass_choices[pass_sender(seat, self.direction)]
        return Observation(
            seat=seat,
            rules=self.rules,
            direction=self.direction,
            hand=self.hands[seat],
            passed=passed,
            received=received,
            tricks=tuple(TrickView(trick.leader, tuple(trick.cards)) for trick in self.tricks),
            scores=(scores[0], scores[1], scores[2], scores[3]),
        )

    # -- passing ------------------------------------------------------------------------------

    def verify_pass(self, seat: int, cards: Sequence[int]) -> None:
        """Raise IllegalActionError unless ``seat`` may pass these cards now."""
        if self.phase != "pass":
            raise IllegalActionError("this is not the passing phase", "not_passing")
        if not 0 <= seat <= 3:
            raise IllegalActionError(f"there is no seat {seat}", "no_such_seat", seat=seat)
        if self.pass_choices[seat] is not None:
            raise IllegalActionError(f"seat {seat} has already passed", "already_passed", seat=seat)
        if len(cards) != PASS_SIZE or len(set(cards)) != PASS_SIZE:
            raise IllegalActionError(
                f"pass exactly {PASS_SIZE} different cards", "pass_three_cards"
            )
        for card in cards:
            if not has_card(self.hands[seat], card):
                raise IllegalActionError(
                    f"you do not hold {card_text(card)}", "card_not_held", card=card
                )

    def can_pass(self, seat: int, cards: Sequence[int]) -> bool:
        """Return whether ``seat`` may pass these cards now."""
        try:
            self.verify_pass(seat, cards)
        except IllegalActionError:
            return False
        return True

    def submit_pass(self, seat: int, cards: Sequence[int]) -> list[ev.Event]:
        """Record a seat's pass; when all four are in, exchange them."""
        self.verify_pass(seat, cards)
        self.pass_choices[seat] = tuple(sorted(cards))
        events: list[ev.Event] = [ev.PassSubmitted(seat)]
        if all(choice is not None for choice in self.pass_choices):
            events.append(self._exchange())
        return events

    def _exchange(self) -> ev.Event:
        choices = [choice or () for choice in self.pass_choices]
        for seat, cards in enumerate(choices):
            self.hands[seat] &= ~mask_of(cards)
        for seat, cards in enumerate(choices):
            self.hands[pass_receiver(seat, self.direction)] |= mask_of(cards)
        self.passes_exchanged = True
        self._start_play()
        return ev.PassesExchanged(self.direction, tuple(tuple(cards) for cards in choices))

    def _start_play(self) -> None:
        leader = next(seat for seat in range(4) if has_card(self.hands[seat], TWO_OF_CLUBS))
        self.tricks.append(Trick(leader))

    # -- playing ------------------------------------------------------------------------------

    def verify_play(self, seat: int, card: int) -> None:
        """Raise IllegalActionError with the rule broken unless ``seat`` may play ``card``."""
        if self.phase == "pass":
            raise IllegalActionError("pass three cards first", "must_pass_first")
        if self.phase == "done":
            raise IllegalActionError("the hand is over", "hand_over")
        turn = self.turn
        if seat != turn:
            raise IllegalActionError(
                f"it is seat {turn}'s turn, not seat {seat}'s", "not_your_turn", turn=turn
            )
        hand = self.hands[seat]
        if not has_card(hand, card):
            raise IllegalActionError(
                f"you do not hold {card_text(card)}", "card_not_held", card=card
            )
        if has_card(self.legal_mask(seat), card):
            return
        trick = self.current_trick
        assert trick is not None
        raise illegal_play(hand, trick.led_suit, len(self.tricks) == 1, self.rules)

    def can_play(self, seat: int, card: int) -> bool:
        """Return whether ``seat`` may play ``card`` now (the fast check for callers in loops)."""
        if not self.passes_exchanged or not self.tricks:
            return False
        trick = self.tricks[-1]
        played = len(trick.cards)
        if played == 4 or (trick.leader + played) % 4 != seat:
            return False
        led_suit = trick.cards[0] // 13 if played else -1
        legal = legal_mask(
            self.hands[seat], led_suit, len(self.tricks) == 1, self.hearts_broken, self.rules.flags
        )
        return (legal >> card) & 1 == 1

    def play(self, seat: int, card: int) -> list[ev.Event]:
        """Play a card for ``seat`` and return what happened."""
        self.verify_play(seat, card)
        trick = self.current_trick
        assert trick is not None
        self.hands[seat] &= ~(1 << card)
        trick.cards.append(card)
        events: list[ev.Event] = [ev.CardPlayed(seat, card)]
        if not self.hearts_broken and self.rules.breaks_hearts(card):
            self.hearts_broken = True
            events.append(ev.HeartsBroken(seat, card))
        if trick.complete:
            winner = trick.seat_of(trick_winner_offset(*trick.cards))
            trick.winner = winner
            cards_mask = mask_of(trick.cards)
            self.taken[winner] |= cards_mask
            events.append(
                ev.TrickWon(
                    winner,
                    len(self.tricks),
                    tuple(trick.cards),
                    trick_points(cards_mask, self.rules.flags),
                )
            )
            if len(self.tricks) < 13:
                self.tricks.append(Trick(winner))
        return events

    def copy(self) -> HandState:
        """Return an independent copy."""
        return HandState(
            rules=self.rules,
            direction=self.direction,
            dealt=self.dealt,
            hands=list(self.hands),
            pass_choices=list(self.pass_choices),
            passes_exchanged=self.passes_exchanged,
            tricks=[trick.copy() for trick in self.tricks],
            hearts_broken=self.hearts_broken,
            taken=list(self.taken),
        )
