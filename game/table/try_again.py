"""Try a reviewed decision again: the hand set up as it was at that moment, from the person's view.

``position_at`` returns a new match (a ``Controller``) standing at one of a seat's decisions of
a recorded hand, with the same seats (the same bots), match totals, hand, pass, tricks and
points so far: the seat's observation there is the one it had (``Decision.observation``).

- *With the cards as they were* (``real_cards``): the hand's real deal, replayed up to the
  decision.
- Otherwise the other hands are dealt again, among the deals consistent with what the seat
  could see (``ai.sampler``, seeded): each other seat holds the cards it played in the tricks
  so far and none of a suit it showed out of; the seat's own pass went where it went and the
  cards it received came from their passer; the other passes, which the seat never saw, are
  made up to fit. At the pass itself nothing of the others is seen, so the others' passes are
  left for the bots to make again.

Plain data in, a controller out: no drawing, no waiting.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ai.knowledge import read_knowledge
from ai.review import Decision, ReviewError, seat_decisions
from ai.sampler import DealSampler
from core.actions import Action, PassAction, PlayAction
from core.cards import cards_of, mask_of
from core.controller import Controller
from core.match import EarlierHands, HandRecord, MatchState
from core.rules import pass_receiver, pass_sender
from core.seats import Seat

#: The label of a position set up with the real deal.
REAL_CARDS = "with the cards as they were"
#: The label of a position whose other hands are dealt again.
DEALT_AGAIN = "the other hands dealt again to fit what you saw"
#: Deals drawn before giving up on one that replays the hand's plays legally.
MOST_DRAWS = 200


@dataclass(frozen=True)
class TryAgain:
    """A decision set up again: the match standing at it, the decision as it was, and the
    words saying which cards the others hold."""

    controller: Controller
    decision: Decision
    label: str

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Return who plays each seat (as in the record)."""
        return self.controller.seats


def position_at(
    record: Controller,
    seat: int,
    hand: int,
    index: int,
    real_cards: bool = False,
    seed: int = 0,
) -> TryAgain:
    """Return a match standing at ``seat``'s decision number ``index`` (0 first, in the order
    made) of hand number ``hand`` of ``record`` (see the module notes).

    Raises ReviewError for a seat, hand or decision the record does not hold, or when no
    deal drawn replays the hand (a record that does not come from a legal game).
    """
    decisions = seat_decisions(record, seat, hand)
    if not 0 <= index < len(decisions):
        raise ReviewError(f"hand {hand} holds {len(decisions)} decisions of seat {seat}")
    decision = decisions[index]
    match = record.match
    assert match is not None  # seat_decisions checked it
    hand_record = match.hands[hand - (match.earlier.count + 1)]
    before = _actions_before(hand_record.actions, seat, index)
    start = _start_of(record, hand)
    if real_cards:
        controller = _replayed(start, hand_record.deal, hand_record.direction, before)
        assert controller is not None, "a recorded hand replays"
        return TryAgain(controller, decision, REAL_CARDS)
    rng = random.Random(f"mdhearts-try-again/{seed}/{hand}/{seat}/{index}")
    observation = decision.observation
    plays = [action for action in before if isinstance(action, PlayAction)]
    sampler = DealSampler(read_knowledge(observation))
    for _ in range(MOST_DRAWS):
        now = list(sampler.sample(rng))
        now[seat] = observation.hand
        if observation.must_pass:
            deal = (now[0], now[1], now[2], now[3])
            controller = _replayed(start, deal, hand_record.direction, [])
        else:
            deal, passes = _before_the_pass(now, plays, decision, rng)
            controller = _replayed(start, deal, hand_record.direction, [*passes, *plays])
        if controller is not None and controller.observation(seat) == observation:
            return TryAgain(controller, decision, DEALT_AGAIN)
    raise ReviewError(f"no deal fits what seat {seat} saw in hand {hand}")


def _actions_before(actions: list[Action], seat: int, index: int) -> list[Action]:
    """Return the hand's actions made before the seat's decision number ``index``."""
    made = 0
    for position, action in enumerate(actions):
        if action.seat == seat:
            if made == index:
                return actions[:position]
            made += 1
    return list(actions)


def _start_of(record: Controller, hand: int) -> MatchState:
    """Return the match as it stood before hand number ``hand`` was dealt: its rules, seats
    and totals, and that hand's deal to come."""
    match = record.match
    assert match is not None
    index = hand - (match.earlier.count + 1)
    totals = list(match.earlier.totals)
    for score in record.hand_scores[:index]:
        totals = [total + points for total, points in zip(totals, score.points, strict=True)]
    earlier = EarlierHands(hand - 1, (totals[0], totals[1], totals[2], totals[3]))
    return MatchState(match.rules, match.seed, match.seats, [], earlier)


def _replayed(
    start: MatchState, deal: tuple[int, int, int, int], direction: str, actions: list[Action]
) -> Controller | None:
    """Return a match dealt ``deal`` with ``actions`` applied, or None when one is illegal."""
    state = MatchState(
        start.rules, start.seed, start.seats, [HandRecord(deal, direction)], start.earlier
    )
    controller = Controller.from_match(state)
    for action in actions:
        if isinstance(action, PassAction):
            result = controller.submit_pass(action.seat, action.cards)
        else:
            result = controller.play_card(action.seat, action.card)
        if not result.ok:
            return None
    return controller


def _before_the_pass(
    now: list[int], plays: list[PlayAction], decision: Decision, rng: random.Random
) -> tuple[tuple[int, int, int, int], list[PassAction]]:
    """Return a deal and passes that lead to the hands ``now`` after ``plays``: the seat's own
    pass and the pass it received as they were, the two passes it never saw made up."""
    observation = decision.observation
    seat, direction = observation.seat, observation.direction
    after = list(now)  # each seat's hand after the pass
    for action in plays:
        after[action.seat] |= 1 << action.card
    if direction == "hold":
        return (after[0], after[1], after[2], after[3]), []
    passed = [0, 0, 0, 0]  # the cards each seat passed
    passed[seat] = mask_of(observation.passed or ())
    passed[pass_sender(seat, direction)] = mask_of(observation.received or ())
    for giver in range(4):
        if giver in (seat, pass_sender(seat, direction)):
            continue
        receiver = pass_receiver(giver, direction)
        passed[giver] = mask_of(rng.sample(cards_of(after[receiver]), 3))
    deal = [0, 0, 0, 0]
    for player in range(4):
        received = passed[pass_sender(player, direction)]
        deal[player] = (after[player] & ~received) | passed[player]
    passes = [PassAction(player, tuple(cards_of(passed[player]))) for player in range(4)]
    if observation.passed is not None:
        passes[seat] = PassAction(seat, tuple(observation.passed))
    return (deal[0], deal[1], deal[2], deal[3]), passes


@dataclass(frozen=True)
class Comparison:
    """How a hand tried again went against the original line, for one seat: each seat's
    points in the hand the first time and this time (moon and bonuses applied)."""

    seat: int
    original: tuple[int, ...]
    tried: tuple[int, ...]

    @staticmethod
    def _diff(points: tuple[int, ...], seat: int) -> float:
        others = [value for other, value in enumerate(points) if other != seat]
        return points[seat] - sum(others) / len(others)

    @property
    def gained(self) -> float:
        """Return the points of Diff (own points minus the others' average, as the review
        counts) this try saved against the original line: above 0 it went better."""
        return round(self._diff(self.original, self.seat) - self._diff(self.tried, self.seat), 2)

    def text(self) -> str:
        """Return the comparison in one sentence, e.g. ``You took 3 points this time, 16 the
        first time: 17.33 points better against the table.``"""
        mine, before = self.tried[self.seat], self.original[self.seat]
        took = f"You took {mine} point{'' if mine == 1 else 's'} this time, {before} the first time"
        if self.gained == 0:
            return f"{took}: the same against the table."
        better = "better" if self.gained > 0 else "worse"
        return f"{took}: {abs(self.gained):.2f} points {better} against the table."


def compare(record: Controller, hand: int, seat: int, tried: Controller) -> Comparison | None:
    """Return how the hand tried again (``tried``, set up by ``position_at`` from hand number
    ``hand`` of ``record``) went against the original line, or None until it is over."""
    if tried.phase not in ("hand_over", "match_over") or not tried.hand_scores:
        return None
    return compare_points(record, hand, seat, tuple(tried.hand_scores[-1].points))


def compare_points(record: Controller, hand: int, seat: int, tried: tuple[int, ...]) -> Comparison:
    """Return how a hand tried again that scored ``tried`` (each seat's points) went against
    hand number ``hand`` of ``record``."""
    match = record.match
    if match is None:
        raise ReviewError("there is no match to compare with")
    index = hand - (match.earlier.count + 1)
    if not 0 <= index < len(record.hand_scores):
        raise ReviewError(f"hand {hand} is not finished in the record")
    original = tuple(record.hand_scores[index].points)
    return Comparison(seat, original, tried)


#: The top bar's words for a practice hand, by the cards the others hold.
PRACTICE_WORDS = {
    REAL_CARDS: "Practice · the cards as they were",
    DEALT_AGAIN: "Practice · other hands dealt again",
}


@dataclass(frozen=True)
class Practice:
    """A hand tried again at the table: where it came from (hand ``hand`` of ``record``, seat
    ``seat``, decision ``decision``), the words of the top bar, and the coach's comparison
    once it is over. It is practice: nothing of it is saved, counted or kept."""

    record: Controller
    hand: int
    seat: int
    decision: Decision
    label: str

    @property
    def bar(self) -> str:
        """Return the top bar's words saying this is practice, and with which cards."""
        return PRACTICE_WORDS.get(self.label, "Practice")

    @property
    def moment(self) -> str:
        """Return where the try began: "hand 2, trick 5" or "hand 2, the pass"."""
        where = "the pass" if self.decision.kind == "pass" else f"trick {self.decision.trick}"
        return f"hand {self.hand}, {where}"

    def sentence(self, points: tuple[int, ...]) -> str:
        """Return the coach's comparison of the try, which scored ``points``, with the
        original line."""
        return compare_points(self.record, self.hand, self.seat, points).text()
