"""The compiled search kernel and its pure-Python twin agree, and both follow the rules."""

from __future__ import annotations

import dataclasses
import functools
import os
import random
from collections import Counter
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from positions import play_randomly
from search_kernels import IMPLEMENTATIONS, compiled, needs_compiled

from ai import hard, search, search_py
from ai.knowledge import read_knowledge
from ai.sampler import DealSampler
from ai.search_py import Goal, Table, deal_plan
from core.cards import (
    FULL_DECK,
    HEARTS_MASK,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    cards_of,
    count,
    mask_of,
    parse_cards,
)
from core.controller import Controller
from core.hand import HandState
from core.kernel_py import legal_mask, trick_points
from core.rules import FLAG_QUEEN_BREAKS_HEARTS, RuleSet
from core.scoring import score_hand

POSITIONS = 2000
RULE_SETS = (
    RuleSet(),
    RuleSet(first_lead="any_club", moon="subtract"),
    RuleSet(jack_of_diamonds=True, no_tricks_bonus=True),
    RuleSet(must_break_hearts=False, queen_breaks_hearts=False, no_points_first_trick=False),
)


def random_state(rng: random.Random, plays: int | None = None) -> HandState:
    """Deal at random under random rules and make ``plays`` random legal plays (< 52)."""
    deck = list(range(52))
    rng.shuffle(deck)
    dealt = [sum(1 << card for card in deck[seat::4]) for seat in range(4)]
    hand = HandState.new(rng.choice(RULE_SETS), "hold", dealt)
    for _ in range(rng.randrange(52) if plays is None else plays):
        seat = hand.turn
        assert seat is not None
        hand.play(seat, rng.choice(cards_of(hand.legal_mask(seat))))
    return hand


def table_of(hand: HandState) -> Table:
    """The public part of the position, converted as the hard bot converts it."""
    turn = hand.turn
    assert turn is not None
    observation = hand.observation(turn, (0, 0, 0, 0))
    return hard.table_of(observation, read_knowledge(observation))


def legal_cards(hand: HandState) -> list[int]:
    seat = hand.turn
    assert seat is not None
    return cards_of(hand.legal_mask(seat))


def add_moon_points(hand: HandState) -> tuple[int, ...]:
    """Return the finished hand's points with the moon added to the others (the kernels' way)."""
    rules = dataclasses.replace(hand.rules, moon="add")
    return score_hand(rules, hand.taken, hand.tricks_won(), (0, 0, 0, 0)).points


def test_compiled_search_is_loaded_when_required() -> None:
    if os.environ.get("MDH_REQUIRE_COMPILED") != "1":
        pytest.skip("MDH_REQUIRE_COMPILED is not set")
    assert search.COMPILED


@needs_compiled
def test_rollouts_agree_on_many_positions() -> None:
    rng = random.Random(20261122)
    compared = 0
    for _ in range(POSITIONS):
        hand = random_state(rng)
        table = table_of(hand)
        legal = legal_cards(hand)
        for card in rng.sample(legal, min(3, len(legal))):
            seed = rng.getrandbits(64)
            expected = search_py.rollout(hand.hands, table, card, seed)
            assert compiled.rollout(hand.hands, table, card, seed) == expected, (table, card)
            compared += 1
    assert compared > 2 * POSITIONS


def test_rollouts_play_legal_cards_to_a_complete_hand() -> None:
    rng = random.Random(5)
    moons = 0
    for _ in range(300):
        hand = random_state(rng)
        table = table_of(hand)
        card = rng.choice(legal_cards(hand))
        seed = rng.getrandbits(64)
        played = [card, *search_py.rollout_cards(hand.hands, table, card, seed)]
        if compiled is not None:
            assert compiled.rollout_cards(hand.hands, table, card, seed) == played[1:]
        points, shooter = search.rollout(hand.hands, table, card, seed)
        for next_card in played:
            assert hand.can_play(hand.turn, next_card), (table, played)
            hand.play(hand.turn, next_card)
        # A rollout may stop once nothing can change the score: finishing the hand any legal
        # way must then give the same points.
        while hand.phase == "play":
            hand.play(hand.turn, legal_cards(hand)[0])
        assert add_moon_points(hand) == points
        taken = sum(trick_points(mask, hand.rules.flags) for mask in hand.taken)
        jack = -10 if hand.rules.jack_of_diamonds else 0
        assert taken == 26 + jack
        if shooter >= 0 and not hand.rules.jack_of_diamonds:
            moons += 1
            assert sorted(points) == [0, 26, 26, 26]
    assert moons > 0


def test_policy_card_is_legal_and_agrees() -> None:
    rng = random.Random(11)
    for _ in range(500):
        hand = random_state(rng)
        seat = hand.turn
        assert seat is not None
        table = table_of(hand)
        for hands in (hand.hands, [hand.hands[s] if s == seat else 0 for s in range(4)]):
            card = search_py.policy_card(hands, table)
            assert hand.can_play(seat, card)
            if compiled is not None:
                assert compiled.policy_card(hands, table) == card


def moon_position(
    hands: tuple[str, str, str, str], trick: str = "", queen_taken_by: int = 0
) -> tuple[list[int], Table]:
    """Return hands and table five tricks into a hand, no heart taken yet: seat 0 leads the
    open ``trick`` (its cards are still in ``hands``), and ``queen_taken_by`` took the Q♠."""
    taken_text = ["AC KC QD JD 2S 3S 4S", "5S 6S 7S 8S", "9S TS JS KS", "AS 2D 3D 4D"]
    taken_text[queen_taken_by] += " QS"
    masks = [mask_of(parse_cards(text)) for text in (*hands, *taken_text)]
    assert sum(count(mask) for mask in masks) == 52 and mask_of(range(52)) == sum(masks)
    played = parse_cards(trick)
    held = [masks[seat] & ~mask_of(played) for seat in range(4)]
    taken = (masks[4], masks[5], masks[6], masks[7])
    return held, Table(taken, tuple(played), 0, 5, True, RuleSet().flags)


STRONG = (
    "AH KH QH JH AD KD 2C 3C",
    "2H 3H 4H 4C 5C 6C 7C 8C",
    "5H 6H 7H 5D 6D 7D 8D 9C",
    "8H 9H TH 9D TD TC JC QC",
)


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_strong_hand_holding_every_point_runs_for_the_moon(kernel: ModuleType) -> None:
    # Seat 0 took the Q♠ and only 2C and 3C can be beaten: it runs, leading its highest card.
    hands, table = moon_position(STRONG)
    assert kernel.policy_card(hands, table) == parse_cards("AH")[0]
    # With the A♦ elsewhere the K♦ and 5♦ can be beaten too: it leads low as usual.
    weaker = ("AH KH QH JH 5D KD 2C 3C", STRONG[1], "5H 6H 7H AD 6D 7D 8D 9C", STRONG[3])
    hands, table = moon_position(weaker)
    assert kernel.policy_card(hands, table) == parse_cards("2C")[0]
    # Another seat took the Q♠: no moon is on.
    hands, table = moon_position(STRONG, queen_taken_by=1)
    assert kernel.policy_card(hands, table) == parse_cards("2C")[0]
    # The other hands unknown: the hand's strength cannot be judged.
    hands, table = moon_position(STRONG)
    assert kernel.policy_card([hands[0], 0, 0, 0], table) == parse_cards("2C")[0]


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_defender_void_gives_the_runner_no_points_or_its_smallest(kernel: ModuleType) -> None:
    # Seat 0 runs and leads the A♦; seat 1 has no diamond: it throws a plain card.
    hands, table = moon_position(STRONG, trick="AD")
    assert kernel.policy_card(hands, table) == parse_cards("8C")[0]
    # Holding only hearts, it gives the lowest and keeps the high ones that may stop the moon.
    only_hearts = (
        STRONG[0],
        "2H 3H 4H 5H 6H 7H 8H 9H",
        "TH 4C 5C 6C 7C 8C 5D 6D",
        "9C TC JC QC 7D 8D 9D TD",
    )
    hands, table = moon_position(only_hearts, trick="AD")
    assert kernel.policy_card(hands, table) == parse_cards("2H")[0]
    # Nobody running (seat 2 took the Q♠ with a weak hand): the highest heart goes.
    hands, table = moon_position(only_hearts, trick="AD", queen_taken_by=2)
    assert kernel.policy_card(hands, table) == parse_cards("9H")[0]


def endgames(rng: random.Random, number: int, cards_left: tuple[int, ...]) -> list[HandState]:
    """Return random positions where each seat holds about ``cards_left`` cards."""
    return [
        random_state(rng, 52 - 4 * rng.choice(cards_left) + rng.randrange(4)) for _ in range(number)
    ]


@needs_compiled
def test_exact_search_agrees_on_small_endgames() -> None:
    rng = random.Random(3)
    for hand in endgames(rng, 300, (1, 2, 3, 4)):
        table = table_of(hand)
        for card in legal_cards(hand):
            expected = search_py.exact(hand.hands, table, card)
            assert compiled.exact(hand.hands, table, card) == expected, (table, card)


@needs_compiled
def test_an_exact_search_reads_nothing_an_earlier_one_remembered() -> None:
    # The compiled kernel keeps its tables of positions from one search to the next: the same
    # cards under other rules (the J♦ counted or not) must be searched anew.
    rng = random.Random(12)
    flags = (RuleSet(jack_of_diamonds=True).flags, RuleSet().flags)
    checked = 0
    for hand in endgames(rng, 200, (3, 4)):
        if not any(cards >> JACK_OF_DIAMONDS & 1 for cards in hand.hands):
            continue
        table = table_of(hand)
        for first, second in (flags, flags[::-1]):
            compiled.exact(hand.hands, table._replace(flags=first), -1)
            expected = search_py.exact(hand.hands, table._replace(flags=second), -1)
            assert compiled.exact(hand.hands, table._replace(flags=second), -1) == expected
            checked += 1
    assert checked >= 10


@needs_compiled
def test_the_tables_of_positions_are_kept_for_the_next_search() -> None:
    hand = endgames(random.Random(5), 1, (4,))[0]
    table = table_of(hand)
    compiled.exact(hand.hands, table, -1)
    kept = list(compiled._memos)
    for _ in range(20):
        compiled.exact(hand.hands, table, -1)
    assert kept
    assert list(compiled._memos) == kept


Objective = Callable[[tuple[int, ...], int], int]


def against_the_others(points: tuple[int, ...], seat: int) -> int:
    """What the search minimises for a seat: its points against the others' (4·own − all)."""
    return 4 * points[seat] - sum(points)


def raw_points(points: tuple[int, ...], seat: int) -> int:
    """A seat's raw points (what the search minimised before Diff-true costs)."""
    return points[seat]


def max_n(hand: HandState, objective: Objective = against_the_others) -> tuple[int, ...]:
    """Max-n by the public rules engine: each seat minimises its objective, lowest card first."""
    if hand.phase == "done":
        return add_moon_points(hand)
    seat = hand.turn
    best: tuple[int, ...] | None = None
    for card in legal_cards(hand):
        child = hand.copy()
        child.play(seat, card)
        result = max_n(child, objective)
        if best is None or objective(result, seat) < objective(best, seat):
            best = result
    assert best is not None
    return best


def test_exact_search_is_max_n_on_points_against_the_others() -> None:
    rng = random.Random(8)
    for hand in endgames(rng, 60, (2, 3)):
        points, _shooter = search.exact(hand.hands, table_of(hand), -1)
        assert points == max_n(hand)


def test_exact_search_weighs_a_conceded_moon_like_the_queen() -> None:
    # A hand from rollouts, 10 cards from its end, where a seat must choose between letting a
    # moon through and taking points itself: raw points and points against the others differ.
    dealt = [
        "2C 3C 5C 6C 9C JC KC 3D 8D 6S 2H 3H QH",
        "QC 4D 7D 9D JD 3S 7S TS JS 4H 7H 9H TH",
        "4C 7C 5D 6D QD 4S 5S 8S 5H 6H 8H KH AH",
        "8C TC AC 2D TD KD AD 2S 9S QS KS AS JH",
    ]
    played = (
        "2C QC 4C TC 3S 4S 2S 6S 3D 4D 5D 2D 7C 8C 6C TH AC KC 9H AH TD 8D 9D 6D KD QH JD QD "
        "AS JC 7S 5S AD 9C 7D 8S KS 5C TS 5H"
    )
    hand = HandState.new(RuleSet(), "hold", [mask_of(parse_cards(text)) for text in dealt])
    for card in parse_cards(played):
        seat = hand.turn
        assert seat is not None
        hand.play(seat, card)
    assert max_n(hand, raw_points) != max_n(hand)
    points, _shooter = search.exact(hand.hands, table_of(hand), -1)
    assert points == max_n(hand)


def plain_max_n(hand: HandState) -> tuple[int, ...]:
    """Max-n straight from the rules kernel, remembering a position only by everything in it."""
    flags = hand.rules.flags
    queen_breaks = flags & FLAG_QUEEN_BREAKS_HEARTS
    seen: dict[tuple[object, ...], tuple[int, ...]] = {}

    def search(
        hands: tuple[int, ...],
        taken: tuple[int, ...],
        tricks_won: tuple[int, ...],
        trick: tuple[int, ...],
        leader: int,
    ) -> tuple[int, ...]:
        if not any(hands) and not trick:
            rules = dataclasses.replace(hand.rules, moon="add")
            return score_hand(rules, taken, tricks_won, (0, 0, 0, 0)).points
        key = (hands, taken, tricks_won, leader)
        if not trick and key in seen:
            return seen[key]
        seat = (leader + len(trick)) % 4
        played = ~(hands[0] | hands[1] | hands[2] | hands[3]) & FULL_DECK
        for card in trick:
            played &= ~(1 << card)
        broken = bool(played & HEARTS_MASK) or bool(queen_breaks and played & (1 << 36))
        broken = broken or hand.hearts_broken
        first_trick = not played
        led = trick[0] // 13 if trick else -1
        best: tuple[int, ...] | None = None
        for card in cards_of(legal_mask(hands[seat], led, first_trick, broken, flags)):
            after = list(hands)
            after[seat] &= ~(1 << card)
            now = (*trick, card)
            if len(now) < 4:
                result = search(tuple(after), taken, tricks_won, now, leader)
            else:
                winner = max(
                    (position for position in range(4) if now[position] // 13 == now[0] // 13),
                    key=lambda position: now[position],
                )
                winner = (leader + winner) % 4
                won = list(taken)
                won[winner] |= mask_of(now)
                counts = list(tricks_won)
                counts[winner] += 1
                result = search(tuple(after), tuple(won), tuple(counts), (), winner)
            if best is None or 4 * result[seat] - sum(result) < 4 * best[seat] - sum(best):
                best = result
        assert best is not None
        if not trick:
            seen[key] = best
        return best

    trick = hand.tricks[-1] if hand.tricks else None
    if trick is not None and not trick.complete:
        open_cards, leader = tuple(trick.cards), trick.leader
    else:
        assert hand.turn is not None
        open_cards, leader = (), hand.turn
    return search(
        tuple(hand.hands), tuple(hand.taken), tuple(hand.tricks_won()), open_cards, leader
    )


@functools.cache
def endgames_with_max_n() -> list[tuple[HandState, tuple[int, ...]]]:
    """Positions with four or five cards each, and their max-n points by ``plain_max_n``."""
    positions = endgames(random.Random(34), 16, (4,))
    # Whether a seat has taken a trick yet counts under the no-tricks bonus (seed 56 is a
    # position where forgetting it gives a wrong result).
    for seed in range(57):
        rng = random.Random(seed)
        hand = random_state(rng, 32 + rng.randrange(8))
        if hand.rules.no_tricks_bonus and 0 in hand.tricks_won():
            positions.append(hand)
    return [(hand, plain_max_n(hand)) for hand in positions]


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_exact_search_remembers_positions_only_by_what_still_counts(kernel: ModuleType) -> None:
    # The same cards are left after other orders of play, with points taken by other seats;
    # the search looks such positions up instead of searching them again.
    for hand, expected in endgames_with_max_n():
        points, _shooter = kernel.exact(hand.hands, table_of(hand), -1)
        assert points == expected, hand.rules


def random_goal(rng: random.Random) -> Goal:
    scores = (rng.randrange(100), rng.randrange(100), rng.randrange(100), rng.randrange(100))
    shifts = (rng.choice((0, -26)), rng.choice((0, -26)), rng.choice((0, -26)), 0)
    return Goal(rng.randrange(4), scores, 100, rng.choice((0, 150)), shifts)


def random_evaluation(
    rng: random.Random, look_ahead_share: float, most_deals: int | None = None
) -> tuple[Any, ...]:
    """Return the arguments of an ``evaluate`` of sampled deals of a random position (three,
    or from 1 to ``most_deals``): random rollouts, seed, first deal, exact and leaf sizes, goal,
    and looking ahead in ``look_ahead_share`` of them."""
    hand = random_state(rng)
    seat = hand.turn
    assert seat is not None
    sampler = DealSampler(read_knowledge(hand.observation(seat, (0, 0, 0, 0))))
    count = 3 if most_deals is None else rng.randint(1, most_deals)
    deals = [sampler.sample(rng) for _ in range(count)]
    return (
        deals,
        table_of(hand),
        legal_cards(hand),
        rng.randint(1, 3),
        rng.getrandbits(64),
        rng.randrange(1000),
        rng.choice((0, 3, 4)),
        random_goal(rng)._replace(seat=seat),
        rng.choice((0, 0, 3, 5)),
        rng.random() < look_ahead_share,
    )


@needs_compiled
def test_batched_evaluation_agrees() -> None:
    rng = random.Random(13)
    for _ in range(150):
        arguments = random_evaluation(rng, look_ahead_share=0.5)
        assert compiled.evaluate(*arguments) == search_py.evaluate(*arguments)


@needs_compiled
def test_detailed_evaluation_agrees_and_sums_to_the_plain_one() -> None:
    # The cost of every deal and the tallies of every candidate, under every rule set, in
    # rollouts, rollouts ending in an exact search, exact searches and looking ahead.
    rng = random.Random(41)
    detailed = 0
    for _ in range(150):
        arguments = random_evaluation(rng, look_ahead_share=0.3)
        deals, legal = arguments[0], arguments[2]
        costs, tallies = search_py.evaluate_detail(*arguments)
        assert compiled.evaluate_detail(*arguments) == (costs, tallies), arguments[1:]
        assert len(costs) == len(deals) * len(legal)
        assert len(tallies) == len(legal) * search_py.TALLY_SIZE
        totals = compiled.evaluate(*arguments)
        assert [sum(costs[slot :: len(legal)]) for slot in range(len(legal))] == totals
        detailed += any(tallies)
    assert detailed > 120


@needs_compiled
def test_a_pass_s_rollouts_ending_in_an_exact_search_agree() -> None:
    # A pass is valued from the hand's start, before anyone leads (the candidate -1), on
    # whole deals, the rollouts ending in an exact search as with a deep budget.
    rng = random.Random(59)
    for _ in range(30):
        dealt = [random_state(rng, plays=0) for _ in range(3)]
        deals = [list(hand.hands) for hand in dealt]
        table = Table.opening(dealt[0].rules.flags)
        arguments = (
            deals,
            table,
            (-1,),
            hard.PASS_ROLLOUTS,
            rng.getrandbits(64),
            rng.randrange(1000),
            0,
            random_goal(rng),
            hard.PASS_LEAF_CARDS,
            False,
        )
        assert compiled.evaluate_detail(*arguments) == search_py.evaluate_detail(*arguments)


def policy_play_out(hand: HandState) -> tuple[int, ...]:
    """Play the hand to its end with the rollout policy (no random moves) by the rules
    engine; return its points, a moon counted as the points taken."""
    while (turn := hand.turn) is not None:
        hand.play(turn, search_py.policy_card(hand.hands, table_of(hand)))
    score = hand.score((0, 0, 0, 0))
    return score.points if score.moon_shooter is None else score.taken_points


def test_a_seat_that_looks_ahead_keeps_the_card_that_plays_out_best() -> None:
    rng = random.Random(29)
    chose_other_than_policy = 0
    for _ in range(150):
        hand = random_state(rng)
        seat = hand.turn
        assert seat is not None
        legal = legal_cards(hand)
        table = table_of(hand)
        card = search_py._look_ahead(search_py._position(hand.hands, table), table.flags)
        if len(legal) == 1:
            assert card == legal[0]
            continue
        # Each legal card played out by the policy; the moon does not count, only points taken.
        margins = []
        for option in legal:
            branch = hand.copy()
            branch.play(seat, option)
            margins.append(against_the_others(policy_play_out(branch), seat))
        assert card == legal[margins.index(min(margins))]
        chose_other_than_policy += card != search_py.policy_card(hand.hands, table)
    assert chose_other_than_policy > 10


def test_a_seat_looks_ahead_for_its_next_card_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # Looking ahead at every later turn would let the seat play each as if it saw every hand.
    looked: list[int] = []
    real = search_py._look_ahead

    def counted(pos: Any, flags: int) -> int:
        looked.append((pos.leader + len(pos.trick)) & 3)
        return real(pos, flags)

    monkeypatch.setattr(search_py, "_look_ahead", counted)
    rng = random.Random(31)
    for _ in range(40):
        hand = random_state(rng, plays=rng.randrange(4, 24))
        seat = hand.turn
        assert seat is not None
        legal = legal_cards(hand)
        looked.clear()
        goal = random_goal(rng)._replace(seat=seat)
        table = table_of(hand)
        search_py.evaluate_detail([list(hand.hands)], table, legal, 1, 7, 0, 0, goal, 0, True)
        assert looked and set(looked) == {seat}
        assert len(looked) <= len(legal), "a seat looked ahead twice in one rollout"


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_rollout_ends_in_an_exact_search_at_the_leaf(kernel: ModuleType) -> None:
    # Five cards each at a trick's start: a rollout plays the candidate and the rest of its
    # trick with the policy, then searches the last four cards exactly.
    rng = random.Random(17)
    checked = 0
    for _ in range(40):
        hand = random_state(rng, 32)
        seat = hand.turn
        assert seat is not None
        card = rng.choice(legal_cards(hand))
        seed = rng.getrandbits(64)
        goal = Goal(seat, (0, 0, 0, 0), 100, 0, (0, 0, 0, 0))
        (cost,) = kernel.evaluate([hand.hands], table_of(hand), [card], 1, seed, 0, 0, goal, 4)
        for next_card in [card, *kernel.rollout_cards(hand.hands, table_of(hand), card, seed)][:4]:
            hand.play(hand.turn, next_card)
        if hand.phase != "play":
            continue
        points, _ = kernel.exact(hand.hands, table_of(hand), -1)
        assert cost == 4 * points[seat] - sum(points)
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_cost_is_own_points_against_the_others_and_the_match(kernel: ModuleType) -> None:
    def cost(taken: tuple[int, ...], goal: Goal) -> int:
        table = Table((taken[0], taken[1], taken[2], taken[3]), (), 0, 13, True, 14)
        return kernel.evaluate([(0, 0, 0, 0)], table, (-1,), 1, 0, 0, 4, goal)[0]

    hearts = list(range(39, 52))
    queen = 1 << 36
    ten_hearts = sum(1 << card for card in hearts[:10])
    rest = sum(1 << card for card in hearts[10:]) | queen
    everything = ten_hearts | rest
    plain = Goal(0, (0, 0, 0, 0), 100, 150, (0, 0, 0, 0))
    # Seat 0 took 10, seat 1 took 16: 4 * 10 - 26.
    assert cost((ten_hearts, rest, 0, 0), plain) == 14
    # Seat 1 shoots the moon: seat 0 gets 26 of the 78 given away.
    assert cost((0, everything, 0, 0), plain) == 4 * 26 - 78
    assert cost((everything, 0, 0, 0), plain) == -78
    # Subtract scoring moves everyone by -26: the same difference.
    subtract = plain._replace(moon_shift=(-26, -26, -26, -26))
    assert cost((0, everything, 0, 0), subtract) == 26
    # Seat 0 reaches 100 while seat 2 has the lowest total: the match is lost.
    ending = plain._replace(scores=(90, 50, 60, 70))
    assert cost((ten_hearts, rest, 0, 0), ending) == 14 + 150
    # Seat 1 reaches 100 instead and seat 0 is lowest: the match is won.
    winning = plain._replace(scores=(10, 84, 60, 70))
    assert cost((ten_hearts, rest, 0, 0), winning) == 14 - 150


def controller_positions(seeds: range) -> list[tuple[Controller, int]]:
    found = []
    for seed in seeds:
        controller = Controller()
        controller.new_match(seed=seed, seats=["bot"] * 4)
        play_randomly(controller, random.Random(seed), 4 + seed * 3 % 60)
        if controller.phase == "play":
            found.extend((controller, seat) for seat in range(4))
    return found


def test_sampled_deals_agree_and_are_consistent() -> None:
    checked = 0
    for controller, seat in controller_positions(range(40)):
        observation = controller.observation(seat)
        knowledge = read_knowledge(observation)
        plan = deal_plan(DealSampler(knowledge))
        deals = search_py.sample_deals(plan, 20, seat * 1000 + checked, 7)
        if compiled is not None:
            assert compiled.sample_deals(plan, 20, seat * 1000 + checked, 7) == deals
        truth = [sum(1 << card for card in controller.hand(s)) for s in range(4)]
        for deal in deals:
            assert deal[seat] == observation.hand
            assert sum(count(hand) for hand in deal) == sum(count(hand) for hand in truth)
            assert (
                deal[0] | deal[1] | deal[2] | deal[3] == truth[0] | truth[1] | truth[2] | truth[3]
            )
            for other in range(4):
                assert count(deal[other]) == knowledge.remaining[other]
                assert deal[other] & knowledge.known[other] == knowledge.known[other]
                assert deal[other] & ~knowledge.possible(other) == 0
        checked += 1
    assert checked > 60


def test_sampled_deals_are_uniform_over_consistent_deals() -> None:
    for controller, seat in controller_positions(range(200)):
        sampler = DealSampler(read_knowledge(controller.observation(seat)))
        if 8 <= sampler.deal_count <= 40:
            break
    else:
        pytest.fail("no position with a small number of consistent deals")
    per_deal = 400
    plan = deal_plan(sampler)
    deals = search.sample_deals(plan, per_deal * sampler.deal_count, 99, 0)
    frequencies = Counter(deals)
    assert len(frequencies) == sampler.deal_count
    # Each deal's count is binomial with mean 400 and sd < 20: allow five sd either way.
    assert min(frequencies.values()) > per_deal - 100
    assert max(frequencies.values()) < per_deal + 100


def random_history(hand: HandState) -> search_py.History:
    """The plays so far of a random state, as the seat to move replays them."""
    seat = hand.turn
    assert seat is not None
    tricks = hand.observation(seat, (0, 0, 0, 0)).tricks
    cards = tuple(card for trick in tricks for card in trick.cards)
    return search_py.History(tricks[0].leader, cards, seat, hand.rules.flags)


@needs_compiled
def test_play_evidence_agrees_on_many_positions() -> None:
    rng = random.Random(29)
    checked = 0
    for _ in range(400):
        hand = random_state(rng)
        seat = hand.turn
        if seat is None or not hand.tricks or not hand.tricks[0].cards:
            continue
        sampler = DealSampler(read_knowledge(hand.observation(seat, (0, 0, 0, 0))))
        deals = [sampler.sample(rng) for _ in range(4)]
        table = [rng.randrange(-9000, 200) for _ in range(search_py.EVIDENCE_SIZE)]
        history = random_history(hand)
        assert compiled.play_evidence(deals, history, table) == search_py.play_evidence(
            deals, history, table
        )
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_play_evidence_weighs_each_other_play_by_kind_agreement_and_choices(
    kernel: ModuleType,
) -> None:
    # Deal the cards at random, play two tricks by the rollout policy but for one play, and
    # check the sum against the table entries those plays pick (random 40-bit numbers, so a
    # wrong entry cannot give the same sum by chance).
    rng = random.Random(5)
    for _ in range(40):
        hand = random_state(rng, 0)
        observer = rng.randrange(4)
        table = [rng.getrandbits(40) for _ in range(search_py.EVIDENCE_SIZE)]
        expected = 0
        stray = rng.randrange(8)
        for number in range(8):
            seat = hand.turn
            assert seat is not None
            legal = hand.legal_mask(seat)
            observation = hand.observation(seat, (0, 0, 0, 0))
            policy = search_py.policy_card(hand.hands, table_of(hand))
            card = policy
            if number == stray and legal.bit_count() > 1:
                card = rng.choice([c for c in cards_of(legal) if c != policy])
            current = observation.current_trick
            if seat != observer and legal.bit_count() > 1:
                if policy == QUEEN_OF_SPADES:
                    kind = search_py.QUEEN
                elif current is None or not current.cards:
                    kind = search_py.LEAD
                elif any(c // 13 == current.cards[0] // 13 for c in cards_of(legal)):
                    kind = search_py.FOLLOW
                else:
                    kind = search_py.DISCARD
                expected += table[(kind * 2 + (card == policy)) * 14 + legal.bit_count()]
            hand.play(seat, card)
        tricks = hand.observation(observer, (0, 0, 0, 0)).tricks
        history = search_py.History(
            tricks[0].leader,
            tuple(c for trick in tricks for c in trick.cards),
            observer,
            hand.rules.flags,
        )
        assert kernel.play_evidence([tuple(hand.hands)], history, table) == [expected]


def random_pass_record(rng: random.Random, observer: int) -> search_py.PassRecord:
    """Return a pass record with random masks and random 40-bit tables (any entry wrongly
    picked changes a sum)."""
    offset = rng.choice((1, 2, 3))
    passer_of = tuple((seat - offset) % 4 for seat in range(4))
    watched = rng.sample((QUEEN_OF_SPADES, QUEEN_OF_SPADES - 1, QUEEN_OF_SPADES + 1), 3)
    cards = tuple(watched[: rng.randrange(4)])
    return search_py.PassRecord(
        observer,
        (passer_of[0], passer_of[1], passer_of[2], passer_of[3]),
        (rng.getrandbits(52), rng.getrandbits(52), rng.getrandbits(52), rng.getrandbits(52)),
        (rng.getrandbits(52), rng.getrandbits(52), rng.getrandbits(52), rng.getrandbits(52)),
        sum(1 << card for card in rng.sample(range(52), rng.randrange(14))),
        cards,
        tuple(rng.randrange(2) for _ in range(len(cards) * search_py.GUARD_KEYS)),
        tuple(rng.getrandbits(40) - (1 << 39) for _ in range(len(cards) * 16)),
    )


@needs_compiled
def test_pass_evidence_agrees_on_many_positions() -> None:
    rng = random.Random(31)
    for _ in range(300):
        observer = rng.randrange(4)
        deck = list(range(52))
        rng.shuffle(deck)
        deals = [
            tuple(sum(1 << c for c in deck[s * 13 : s * 13 + rng.randrange(14)]) for s in range(4))
            for _ in range(5)
        ]
        record = random_pass_record(rng, observer)
        assert compiled.pass_evidence(deals, record) == search_py.pass_evidence(deals, record)


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_pass_evidence_weighs_each_watched_card_by_its_holder_and_their_guards(
    kernel: ModuleType,
) -> None:
    # Recompute every watched card's entry from its definition on random deals and records.
    rng = random.Random(13)
    for _ in range(200):
        observer = rng.randrange(4)
        record = random_pass_record(rng, observer)
        deck = list(range(52))
        rng.shuffle(deck)
        deal = tuple(sum(1 << c for c in deck[s * 13 : s * 13 + 13]) for s in range(4))
        hands = [(deal[s] | record.added[s]) & ~record.removed[s] for s in range(4)]

        expected = 0
        for index, card in enumerate(record.cards):
            holders = [s for s in range(4) if s != observer and hands[s] >> card & 1]
            if not holders:
                continue
            holder = holders[0]
            passer = record.passer_of[holder]
            passer_kept = 0
            if passer != observer:
                passer_kept = _kept(record, index, hands[passer] | 1 << card)
            slot = ((index * 4 + holder) * 2 + _kept(record, index, hands[holder])) * 2
            expected += record.log_weights[slot + passer_kept]
        assert kernel.pass_evidence([deal], record) == [expected]


def _kept(record: search_py.PassRecord, index: int, hand: int) -> int:
    key = (hand & record.guard_mask).bit_count() * 2 + (hand >> QUEEN_OF_SPADES & 1)
    return record.guarded[index * search_py.GUARD_KEYS + key]


@needs_compiled
def test_runner_evidence_agrees_on_many_positions() -> None:
    rng = random.Random(37)
    for _ in range(300):
        deck = list(range(52))
        rng.shuffle(deck)
        size = rng.randrange(14)
        deals = [
            tuple(sum(1 << c for c in deck[s * 13 : s * 13 + size]) for s in range(4))
            for _ in range(5)
        ]
        seat = rng.randrange(4)
        weights = [rng.randrange(-5000, 5000) for _ in range(rng.randrange(1, 15))]
        assert compiled.runner_evidence(deals, seat, weights) == search_py.runner_evidence(
            deals, seat, weights
        )


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_runner_evidence_counts_the_cards_another_hand_can_beat(kernel: ModuleType) -> None:
    def mask(*texts: str) -> int:
        return mask_of(parse_cards(" ".join(texts)))

    # Seat 1's A♠ and K♠ stand over the Q♠; its 2♣ falls to the 3♣ and its 5♥ to the 6♥.
    deal = (mask("QS", "3C"), mask("AS", "KS", "2C", "5H"), mask("6H", "4D"), mask("2S"))
    weights = [40, 30, 20, 10]
    assert kernel.runner_evidence([deal], 1, weights) == [20]  # two losers
    assert kernel.runner_evidence([deal], 1, weights[:2]) == [30]  # the last entry: 1 or more
    # Seat 3's 2♠ loses to the other spades: one loser.
    assert kernel.runner_evidence([deal], 3, weights) == [30]
    with pytest.raises(ValueError, match="at least one entry"):
        kernel.runner_evidence([deal], 1, [])
    with pytest.raises(ValueError, match=r"seat 0\.\.3"):
        kernel.runner_evidence([deal], 4, weights)
