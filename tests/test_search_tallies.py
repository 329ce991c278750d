"""The search's tallies tell what really happened in its runs, and split its cost exactly."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from search_kernels import IMPLEMENTATIONS
from test_search_twin import legal_cards, random_goal, random_state, table_of

from ai import search_py
from ai.knowledge import read_knowledge
from ai.outcomes import PARTS, Outcome
from ai.sampler import DealSampler
from ai.search_py import Goal
from core.cards import HEARTS_MASK, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, count
from core.hand import HandState


def truth(hand: HandState, seat: int, goal: Goal, trick_number: int) -> list[int]:
    """Tally a finished hand for ``seat`` from the rules engine, as the search should."""
    expected = [0] * search_py.TALLY_SIZE
    taken = hand.taken[seat]
    score = hand.score((0, 0, 0, 0))
    expected[search_py.TALLY_HEARTS] = count(taken & HEARTS_MASK)
    expected[search_py.TALLY_QUEEN] = taken >> QUEEN_OF_SPADES & 1
    if hand.rules.jack_of_diamonds:
        expected[search_py.TALLY_JACK] = taken >> JACK_OF_DIAMONDS & 1
    shooter = score.moon_shooter
    if shooter is not None:
        expected[search_py.TALLY_SHOT if shooter == seat else search_py.TALLY_CONCEDED] = 1
    elif hand.rules.no_tricks_bonus:
        for other, won in enumerate(hand.tricks_won()):
            if won == 0:
                key = search_py.TALLY_BONUS if other == seat else search_py.TALLY_OTHERS_BONUS
                expected[key] += 1
    expected[search_py.TALLY_TRICK] = int(hand.tricks[trick_number].winner == seat)
    return expected


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_rollout_s_tallies_are_what_the_rules_engine_says_happened(kernel: ModuleType) -> None:
    rng = random.Random(23)
    seen = [0] * search_py.TALLY_SIZE
    for _ in range(400):
        hand = random_state(rng)
        seat = hand.turn
        assert seat is not None
        table = table_of(hand)
        card = rng.choice(legal_cards(hand))
        seed = rng.getrandbits(64)
        goal = Goal(seat, (0, 0, 0, 0), 100, 0, (0, 0, 0, 0))
        _, tallies = kernel.evaluate_detail([hand.hands], table, [card], 1, seed, 0, 0, goal)
        trick_number = table.trick_index
        for next_card in [card, *kernel.rollout_cards(hand.hands, table, card, seed)]:
            hand.play(hand.turn, next_card)
        # A rollout stops once nothing can change the score: finish the hand any legal way.
        while hand.phase == "play":
            hand.play(hand.turn, legal_cards(hand)[0])
        expected = truth(hand, seat, goal, trick_number)
        assert tallies == expected, (table, card)
        seen = [a + (b > 0) for a, b in zip(seen, tallies, strict=True)]
    # Every tally but the match's (no match weight here) was met.
    for index in range(search_py.TALLY_MATCH_WON):
        assert seen[index] > 0, index


def searches(rng: random.Random, number: int) -> list[tuple[object, ...]]:
    """Random evaluations: rollouts, rollouts ending exactly, exact searches, looking ahead."""
    found: list[tuple[object, ...]] = []
    while len(found) < number:
        hand = random_state(rng)
        seat = hand.turn
        assert seat is not None
        sampler = DealSampler(read_knowledge(hand.observation(seat, (0, 0, 0, 0))))
        found.append(
            (
                [sampler.sample(rng) for _ in range(3)],
                table_of(hand),
                legal_cards(hand),
                rng.randint(1, 3),
                rng.getrandbits(64),
                rng.randrange(1000),
                rng.choice((0, 3, 4)),
                random_goal(rng)._replace(seat=seat, end_score=rng.choice((30, 100))),
                rng.choice((0, 0, 3, 5)),
                rng.random() < 0.2,
            )
        )
    return found


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_the_parts_add_up_to_each_candidate_s_cost_exactly(kernel: ModuleType) -> None:
    rng = random.Random(37)
    nonzero = dict.fromkeys(PARTS, 0)
    for arguments in searches(rng, 120):
        deals, table, candidates = arguments[0], arguments[1], arguments[2]
        assert isinstance(deals, list) and isinstance(candidates, list)
        goal = arguments[7]
        assert isinstance(goal, Goal) and isinstance(table, search_py.Table)
        costs, tallies = kernel.evaluate_detail(*arguments)
        width = len(candidates)
        exact_cards = arguments[6]
        assert isinstance(exact_cards, int)
        # One run per deal in an exact search (the mover holds few enough cards), else the
        # rollouts.
        exact = 0 < count(deals[0][goal.seat]) <= exact_cards
        rollouts = arguments[3]
        assert isinstance(rollouts, int)
        runs = len(deals) * (1 if exact else rollouts)
        for slot in range(width):
            mine = tuple(tallies[slot * search_py.TALLY_SIZE : (slot + 1) * search_py.TALLY_SIZE])
            outcome = Outcome(runs, mine, table.flags, goal.match_weight)
            parts = outcome.parts_units()
            assert sum(parts.values()) == sum(costs[slot::width]), (arguments[1:], slot)
            for name, units in parts.items():
                nonzero[name] += units != 0
    assert all(nonzero.values()), nonzero
