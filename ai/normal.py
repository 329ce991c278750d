"""The normal bot: a heuristic planner for passing and play, with styles and moon handling.

Passing scores each card for danger (the Q♠, high spades, high hearts), for emptying short
suits, and for the pass direction; a hand strong enough for the moon passes low cards instead.

Playing prices every legal card: it plays out the rest of the trick against what the bot knows
of the followers (voids, which unseen cards each may hold) to estimate the chance of taking the
trick and the points it would then hold, and adds what the card's leaving the hand is worth
later (getting rid of the Q♠ or an unguarded A♠/K♠, keeping low exit cards). The moon states of
``ai.moon`` switch it into shooting or defending, and the match totals into hunting the leader.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ai.bot import Budget
from ai.knowledge import Knowledge, read_knowledge
from ai.moon import MoonState, higher_unseen, moon_states, moon_strength
from ai.normal_params import STYLES, NormalParams
from core.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    HEARTS_MASK,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASKS,
    card_text,
    cards_of,
    count,
    has_card,
    make_card,
    rank_of,
    suit_of,
)
from core.kernel import trick_points
from core.observation import Observation

ACE_OF_SPADES = make_card(12, SPADES)
KING_OF_SPADES = make_card(11, SPADES)
QUEEN_BIT = 1 << QUEEN_OF_SPADES


@dataclass(frozen=True)
class TrickOutlook:
    """What playing one card does to the current trick, in expectation."""

    take_chance: float
    points_if_taken: float


class NormalBot:
    """A heuristic planner; see the module docstring. Deterministic for a given seed."""

    def __init__(
        self,
        seed: int | None = None,
        params: NormalParams | None = None,
        style: str = "standard",
    ) -> None:
        self.params = params or STYLES[style]
        self._rng = random.Random(seed)
        self.last_decision: dict[str, Any] = {}

    # -- passing -------------------------------------------------------------------------------

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Pass the three cards with the highest pass scores (or low cards to shoot the moon)."""
        hand = observation.hand
        unseen = read_knowledge(observation).unseen
        if moon_strength(hand, unseen) >= self.params.moon_pass:
            keep_order = sorted(cards_of(hand), key=lambda c: (suit_of(c) == HEARTS, rank_of(c)))
            chosen = keep_order[:3]
            self.last_decision = {"moon_pass": True, "chosen": [card_text(c) for c in chosen]}
            return chosen[0], chosen[1], chosen[2]
        remaining = hand
        chosen = []
        values: dict[str, float] = {}
        for _ in range(3):
            scores = {
                card: self.pass_score(card, remaining, observation.direction)
                for card in cards_of(remaining)
            }
            best = max(scores, key=lambda card: (scores[card], card))
            values[card_text(best)] = round(scores[best], 2)
            chosen.append(best)
            remaining &= ~(1 << best)
        self.last_decision = {"moon_pass": False, "values": values}
        return chosen[0], chosen[1], chosen[2]

    def pass_score(self, card: int, hand: int, direction: str) -> float:
        """Return how much the bot wants to pass ``card`` out of ``hand``."""
        p = self.params
        rank = rank_of(card)
        suit = suit_of(card)
        length = count(hand & SUIT_MASKS[suit])
        if card == QUEEN_OF_SPADES:
            if length - 1 < p.queen_guard:
                return p.pass_queen + (p.pass_queen_right if direction == "right" else 0.0)
            return rank * p.pass_rank
        if card in (ACE_OF_SPADES, KING_OF_SPADES):
            if not has_card(hand, QUEEN_OF_SPADES) and length < p.high_spade_guard:
                return p.pass_high_spade + rank
            return rank * p.pass_rank
        if suit == HEARTS:
            return p.pass_heart + rank * p.pass_heart_rank
        score = rank * p.pass_rank
        if suit in (CLUBS, DIAMONDS) and length <= p.void_length:
            score += p.pass_void * (p.void_length + 1 - length)
        return score

    # -- playing -------------------------------------------------------------------------------

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Play the legal card with the lowest expected cost."""
        legal = cards_of(observation.legal_mask())
        if len(legal) == 1:
            self.last_decision = {"forced": True, "chosen": card_text(legal[0])}
            return legal[0]
        knowledge = read_knowledge(observation)
        states = moon_states(knowledge, observation.hand, self.params)
        costs = {card: self.card_cost(card, observation, knowledge, states) for card in legal}
        lowest = min(costs.values())
        best = [card for card in legal if costs[card] <= lowest + 1e-9]
        choice = best[0] if len(best) == 1 else self._rng.choice(best)
        self.last_decision = {
            "values": {card_text(card): round(-cost, 3) for card, cost in costs.items()},
            "moon": [state.value for state in states],
            "chosen": card_text(choice),
        }
        return choice

    def card_cost(
        self,
        card: int,
        observation: Observation,
        knowledge: Knowledge,
        states: tuple[MoonState, ...],
    ) -> float:
        """Return the expected cost (in points, lower is better) of playing ``card`` now."""
        p = self.params
        me = observation.seat
        trick = observation.current_trick
        cards_in_trick = list(trick.cards) if trick else []
        leader = trick.leader if trick else me
        winner = self._current_winner(card, cards_in_trick, leader)
        outlook = self.trick_outlook(card, cards_in_trick, winner == me, observation, knowledge)
        card_points = trick_points(1 << card, observation.rules.flags)
        rank = rank_of(card)
        suit = suit_of(card)
        queen_out = has_card(knowledge.unseen, QUEEN_OF_SPADES)

        if states[me] in (MoonState.COMMITTED, MoonState.CONSIDERING) and (
            states[me] == MoonState.COMMITTED or knowledge.points_taken[me] == 0
        ):
            return self._moon_cost(card, outlook, card_points, knowledge)

        cost = outlook.take_chance * outlook.points_if_taken * p.point_cost * p.caution
        if outlook.take_chance < 0.5:
            # The card most likely goes to someone else's trick: shedding it is a gain.
            cost -= card_points * p.point_cost * (1 - outlook.take_chance)
        if queen_out and card in (ACE_OF_SPADES, KING_OF_SPADES):
            cost -= p.high_spade_risk * (1 - outlook.take_chance)
        # Losing a high card is good (it would win later); losing a low exit card is not.
        cost -= (rank - 6) * p.discard_rank * 0.1 * (1 - outlook.take_chance)

        if not cards_in_trick:
            cost += self._lead_terms(card, observation, knowledge, queen_out)

        threat = next(
            (seat for seat in range(4) if seat != me and states[seat] == MoonState.COMMITTED),
            None,
        )
        if threat is not None:
            # Stop a shooter: taking a trick with points ourselves is worth a lot.
            cost -= outlook.take_chance * min(outlook.points_if_taken, 3.0) * 4.0
            if winner == threat and card_points:
                cost += card_points * 3.0
            if suit == HEARTS and cards_in_trick and winner != threat:
                cost -= 2.0
        elif card_points and winner != me:
            cost -= self._hunt_value(winner, observation) * card_points
        return cost

    def _moon_cost(
        self, card: int, outlook: TrickOutlook, card_points: int, knowledge: Knowledge
    ) -> float:
        """Shooting the moon: win every trick with points, keep point cards, shed nothing."""
        cost = -outlook.take_chance * (2.0 + outlook.points_if_taken)
        if outlook.take_chance < 0.5:
            cost += card_points * 2.0 - rank_of(card) * 0.05
        if higher_unseen(card, knowledge.unseen) == 0:
            cost -= 0.5
        return cost

    def _lead_terms(
        self, card: int, observation: Observation, knowledge: Knowledge, queen_out: bool
    ) -> float:
        """Extra cost terms of leading ``card``."""
        p = self.params
        hand = observation.hand
        suit = suit_of(card)
        cost = 0.0
        if (
            suit == SPADES
            and queen_out
            and card < QUEEN_OF_SPADES
            and not hand & ((1 << ACE_OF_SPADES) | (1 << KING_OF_SPADES) | QUEEN_BIT)
        ):
            cost -= p.flush_queen
        length = count(hand & SUIT_MASKS[suit])
        cost -= p.short_suit_lead * (4 - min(length, 4))
        if suit == HEARTS and count(knowledge.unseen & HEARTS_MASK) == 0:
            cost -= 0.5
        return cost

    @staticmethod
    def _current_winner(card: int, cards_in_trick: list[int], leader: int) -> int:
        """Return the seat winning the trick once ``card`` is added to it."""
        cards = [*cards_in_trick, card]
        led = suit_of(cards[0])
        best = max(range(len(cards)), key=lambda i: cards[i] if suit_of(cards[i]) == led else -1)
        return (leader + best) % 4

    def _hunt_value(self, receiver: int, observation: Observation) -> float:
        """Return how good it is (per point) that ``receiver`` takes points, for the match."""
        p = self.params
        scores = observation.scores
        me = observation.seat
        end = observation.rules.end_score
        value = 0.0
        lowest = min(scores)
        if scores[receiver] == lowest and scores[me] > lowest:
            value += p.hunt_leader * 0.2
        if scores[receiver] >= end - p.near_end and scores[me] != lowest:
            value -= p.hunt_leader * 0.2
        return value

    def trick_outlook(
        self,
        card: int,
        cards_in_trick: list[int],
        winning_now: bool,
        observation: Observation,
        knowledge: Knowledge,
    ) -> TrickOutlook:
        """Estimate the chance of taking the trick with ``card`` and the points it would hold.

        ``winning_now`` says whether ``card`` beats the cards already in the trick.
        """
        if not winning_now:
            return TrickOutlook(0.0, 0.0)
        flags = observation.rules.flags
        cards = [*cards_in_trick, card]
        led = cards[0] // 13
        leader = (observation.seat - len(cards_in_trick)) % 4
        points_now = float(trick_points(sum(1 << c for c in cards), flags))
        followers = [(leader + position) % 4 for position in range(len(cards), 4)]
        free = knowledge.free
        free_count = max(1, count(free))
        suit_free = free & SUIT_MASKS[led]
        above = count(suit_free & ~((2 << card) - 1)) if suit_of(card) == led else 0
        below = count(suit_free) - above
        take = 1.0
        dumps = 0.0
        for follower in followers:
            known = knowledge.known[follower]
            if knowledge.is_void(follower, led):
                share = 0.0
            else:
                share = knowledge.remaining[follower] / free_count
            known_above = count(known & SUIT_MASKS[led] & ~((2 << card) - 1))
            known_below = count(known & SUIT_MASKS[led]) - known_above
            hold_above = 1.0 if known_above else 1 - (1 - share) ** above
            hold_below = 1.0 if known_below else 1 - (1 - share) ** below
            beat = hold_above * (1 - hold_below) + hold_above * hold_below * 0.15
            take *= 1 - min(1.0, beat)
            void = 1.0 if knowledge.is_void(follower, led) else (1 - share) ** (above + below)
            if known & SUIT_MASKS[led]:
                void = 0.0
            queen = 1.0 if has_card(known, QUEEN_OF_SPADES) else 0.0
            if not queen and has_card(free, QUEEN_OF_SPADES):
                queen = knowledge.remaining[follower] / free_count
            hearts = count((free | known) & HEARTS_MASK)
            heart = 1 - (1 - knowledge.remaining[follower] / free_count) ** hearts
            dumps += void * (13.0 * queen + (1 - queen) * heart)
            if led == SPADES and card > QUEEN_OF_SPADES and not void:
                # A follower holding the Q♠ drops it under our A♠/K♠.
                dumps += 13.0 * queen * (1 - void)
        return TrickOutlook(take, points_now + dumps)
