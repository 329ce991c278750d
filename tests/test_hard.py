"""The hard bot: legal, reproducible, sensible in clear-cut positions, and within its budget."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from positions import masks, play_randomly

from ai import hard, inference, search_py
from ai.bot import Bot, Budget
from ai.easy import EasyBot
from ai.hard import HardBot, moon_shifts, pass_candidates, ranked_passes
from ai.tournament import play_hand
from core.cards import (
    HEARTS,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASKS,
    card_text,
    cards_of,
    count,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from core.controller import Controller
from core.hand import HandState
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet, pass_receiver

# Clubs are split so that seat 1's A♣ wins the first trick (2C AC 5C 9C) and seat 1 leads next.
CLUBS = ("2C 3C 4C", "AC KC QC", "5C 6C 7C 8C", "9C TC JC")
FIRST_TRICK = "2C AC 5C 9C"


def scripted(hands: tuple[str, str, str, str], plays: str) -> Observation:
    """Return the observation of the seat to move after these plays from this deal."""
    state = HandState.new(RuleSet(), "hold", masks(*hands))
    for card in parse_cards(plays):
        assert state.turn is not None
        state.play(state.turn, card)
    assert state.turn is not None
    return state.observation(state.turn, (0, 0, 0, 0))


def decide(observation: Observation, samples: int = 200) -> str:
    return card_text(HardBot(seed=1, max_samples=samples).choose_play(observation))


SPADES_DEAL = (
    f"{CLUBS[0]} 2D 3D 4D 5D 4S 5S 2H 3H 4H 5H",
    f"{CLUBS[1]} 6D 7D 8D KS 6S 7S 6H 7H 8H 9H",
    f"{CLUBS[2]} 9D TD JD QS 8S 9S TH JH QH",
    f"{CLUBS[3]} QD KD AD AS 3S 2S TS JS KH AH",
)


def legal_texts(observation: Observation) -> frozenset[str]:
    """Return the observing seat's legal cards as text."""
    return frozenset(card_text(card) for card in cards_of(observation.legal_mask()))


# Seat 1 wins the first trick with the A♠ swapped in for its K♠.
ACE_DEAL = (
    SPADES_DEAL[0],
    SPADES_DEAL[1].replace("KS", "AS"),
    SPADES_DEAL[2],
    SPADES_DEAL[3].replace("AS", "KS"),
)

# Seat 1 wins tricks 1 (A♣) and 3 (K♣); on trick 2 seat 3, void in diamonds, breaks hearts on
# seat 2's A♦. Seat 1 then leads with the A♥ as its only heart: leading it takes every heart
# the others must follow with, while a low spade or diamond cannot win.
HEARTS_DEAL = (
    "2C 3C 4C 2D 4D 5D 6D 9D TS JS TH JH QH",
    "AC KC 8C 3D 7D 8D 2S 3S 4S 5S 6S 7S AH",
    "5C 6C 7C 9C TD JD QD KD AD QS KS AS KH",
    "TC JC QC 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H",
)
HEARTS_PLAYS = "2C AC 5C TC 3D AD 2H 4D 6C JC 3C KC"


def puzzles() -> list[tuple[str, Observation, frozenset[str]]]:
    """Return positions whose right move follows from reasoning, with every acceptable card."""
    ace_lead = scripted(ACE_DEAL, FIRST_TRICK)
    assert ace_lead.seat == 1
    hearts_lead = scripted(HEARTS_DEAL, HEARTS_PLAYS)
    assert hearts_lead.seat == 1 and hearts_lead.hearts_broken
    return [
        # K♠ and Q♠ are on the trick: anything under the K♠ ducks the queen, the A♠ takes it.
        (
            "ducks under a trick holding the queen",
            scripted(SPADES_DEAL, f"{FIRST_TRICK} KS QS"),
            frozenset({"2S", "3S", "TS", "JS"}),
        ),
        # The A♠ is led: the Q♠ can go to its leader at no risk.
        (
            "gives the queen away under the ace",
            scripted(ACE_DEAL, f"{FIRST_TRICK} AS"),
            frozenset({"QS"}),
        ),
        # Leading the A♠ invites the Q♠ onto it.
        ("does not lead the ace of spades", ace_lead, legal_texts(ace_lead) - {"AS"}),
        # Void in diamonds with an unguarded Q♠: throw it away now.
        (
            "discards an unguarded queen when void",
            scripted(
                (
                    f"{CLUBS[0]} 2D 3D 4D 5D 3S 4S 2H 3H 4H AH",
                    f"{CLUBS[1]} 6D 7D 8D 9D 5S 6S 7S 8S 5H 6H",
                    f"{CLUBS[2]} QS 2S 7H 8H 9H TH JH QH KH",
                    f"{CLUBS[3]} TD JD QD KD AD 9S TS JS KS AS",
                ),
                f"{FIRST_TRICK} 6D",
            ),
            frozenset({"QS"}),
        ),
        ("does not lead the ace of hearts", hearts_lead, legal_texts(hearts_lead) - {"AH"}),
    ]


PUZZLES = puzzles()


@pytest.mark.parametrize(
    ("observation", "right"),
    [(observation, right) for _, observation, right in PUZZLES],
    ids=[name for name, _, _ in PUZZLES],
)
def test_finds_the_reasoned_card(observation: Observation, right: frozenset[str]) -> None:
    assert decide(observation) in right


def naive_players() -> dict[str, Callable[[Observation], int]]:
    """Return players that pick a legal card blindly: highest or lowest, by index or by rank."""

    def legal(observation: Observation) -> list[int]:
        return cards_of(observation.legal_mask())

    def by_rank(card: int) -> tuple[int, int]:
        return rank_of(card), card

    return {
        "highest": lambda view: max(legal(view)),
        "lowest": lambda view: min(legal(view)),
        "highest rank": lambda view: max(legal(view), key=by_rank),
        "lowest rank": lambda view: min(legal(view), key=by_rank),
    }


def test_the_puzzles_have_a_choice_and_defeat_naive_players() -> None:
    for name, observation, right in PUZZLES:
        assert right < legal_texts(observation), f"{name}: every legal card is accepted"
        assert right, name
    for player, choose in naive_players().items():
        failed = [name for name, view, right in PUZZLES if card_text(choose(view)) not in right]
        assert failed, f"a {player}-card player solves every puzzle"


def random_controllers(seeds: range) -> list[Controller]:
    found = []
    for seed in seeds:
        controller = Controller()
        controller.new_match(seed=seed, seats=["bot"] * 4)
        play_randomly(controller, random.Random(seed), seed * 3 % 56)
        if controller.phase in ("pass", "play"):
            found.append(controller)
    return found


def test_plays_and_passes_legally_from_random_positions() -> None:
    bot = HardBot(seed=4, max_samples=12)
    played = passed = 0
    for controller in random_controllers(range(30)):
        seat = controller.seats_to_act[0]
        observation = controller.observation(seat)
        if controller.phase == "pass":
            cards = bot.choose_pass(observation)
            assert len(set(cards)) == 3 and mask_of(cards) & ~observation.hand == 0
            passed += 1
        else:
            assert bot.choose_play(observation) in controller.legal_cards(seat)
            assert bot.last_decision["chosen"] in bot.last_decision["values"] or (
                len(controller.legal_cards(seat)) == 1
            )
            played += 1
    assert played > 10 and passed > 0


def test_is_reproducible_with_a_seed_and_a_sample_count() -> None:
    for controller in random_controllers(range(6)):
        observation = controller.observation(controller.seats_to_act[0])
        choose = "choose_pass" if controller.phase == "pass" else "choose_play"
        first, second = HardBot(seed=9, max_samples=40), HardBot(seed=9, max_samples=40)
        assert getattr(first, choose)(observation) == getattr(second, choose)(observation)
        assert first.last_decision == second.last_decision
        assert first.last_decision["samples"] in (0, 40)


def test_the_twin_kernel_makes_the_same_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    observations = [
        controller.observation(controller.seats_to_act[0])
        for controller in random_controllers(range(10, 16))
        if controller.phase == "play"
    ]
    assert observations
    decisions = []
    for observation in observations:
        bot = HardBot(seed=2, max_samples=6)
        bot.choose_play(observation)
        decisions.append(bot.last_decision)
    assert any("evidence" in decision for decision in decisions)
    for name in ("evaluate_detail", "policy_card"):
        monkeypatch.setattr(hard, name, getattr(search_py, name))
    for name in ("sample_deals", "play_evidence", "pass_evidence", "runner_evidence"):
        monkeypatch.setattr(inference, name, getattr(search_py, name))
    for observation, expected in zip(observations, decisions, strict=True):
        bot = HardBot(seed=2, max_samples=6)
        bot.choose_play(observation)
        assert bot.last_decision == expected


@pytest.fixture
def leaf_and_look_ahead(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """The leaf size and look-ahead flag of every evaluation the hard bot asks for, in order."""
    searches: list[tuple[int, bool]] = []

    def recording(*arguments: Any) -> tuple[list[int], list[int]]:
        searches.append((arguments[8], arguments[9]))
        return search_py.evaluate_detail(*arguments)

    monkeypatch.setattr(hard, "evaluate_detail", recording)
    return searches


def test_more_time_buys_a_deeper_ending_and_every_budget_looks_ahead_in_the_rollouts(
    leaf_and_look_ahead: list[tuple[int, bool]],
) -> None:
    observation = scripted(SPADES_DEAL, f"{FIRST_TRICK} KS QS")
    deep = (hard.DEEP_LEAF_CARDS, True)
    for think_ms, expected in ((None, (hard.LEAF_CARDS, True)), (100, (3, True)), (1000, deep)):
        leaf_and_look_ahead.clear()
        HardBot(seed=4, max_samples=2).choose_play(observation, Budget.for_ms(think_ms))
        assert leaf_and_look_ahead and set(leaf_and_look_ahead) == {expected}
    assert hard.DEEP_LEAF_CARDS > hard.LEAF_CARDS


def test_more_time_ends_a_pass_s_rollouts_in_an_exact_search(
    leaf_and_look_ahead: list[tuple[int, bool]],
) -> None:
    observation = HandState.new(RuleSet(), "left", deal_for(3, 0)).observation(0, (0, 0, 0, 0))
    deep = (hard.PASS_LEAF_CARDS, False)
    for think_ms, expected in ((None, (0, False)), (100, (0, False)), (1000, deep)):
        leaf_and_look_ahead.clear()
        HardBot(seed=4, max_samples=1).choose_pass(observation, Budget.for_ms(think_ms))
        assert leaf_and_look_ahead and set(leaf_and_look_ahead) == {expected}
    assert hard.PASS_LEAF_CARDS > 0


def test_answers_at_once_with_an_expired_or_cancelled_budget() -> None:
    observation = scripted(SPADES_DEAL, f"{FIRST_TRICK} KS QS")
    bot = HardBot(seed=3)
    expired = Budget(deadline=time.perf_counter() - 1)
    assert card_text(bot.choose_play(observation, expired)) in {"AS", "2S", "3S", "TS", "JS"}
    assert bot.last_decision["samples"] == 0
    cancelled = Budget.for_ms(60_000, cancelled=lambda: True)
    assert bot.choose_play(observation, cancelled) in cards_of(observation.legal_mask())
    assert bot.last_decision["samples"] == 0
    hand = HandState.new(RuleSet(), "left", deal_for(3, 0))
    pass_view = hand.observation(0, (0, 0, 0, 0))
    assert bot.choose_pass(pass_view, expired) == pass_candidates(pass_view.hand)[0]
    assert bot.last_decision["samples"] == 0


def test_a_forced_card_needs_no_search() -> None:
    observation = scripted(SPADES_DEAL, "")
    bot = HardBot(seed=3, max_samples=10_000)
    assert card_text(bot.choose_play(observation)) == "2C"
    assert bot.last_decision["samples"] == 0 and bot.last_decision["chosen"] == "2C"


class NaiveBot:
    """A bot playing by one of ``naive_players`` and passing its first three cards."""

    def __init__(self, choose: Callable[[Observation], int]) -> None:
        self._choose = choose
        self.last_decision: dict[str, Any] = {}

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Pass the three lowest-index cards."""
        first, second, third = cards_of(observation.hand)[:3]
        return first, second, third

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Play the naive choice."""
        return self._choose(observation)


def naive_bot(choose: Callable[[Observation], int], index: int) -> Bot:
    """Return a naive bot for hand ``index`` (it plays every hand alike)."""
    return NaiveBot(choose)


def mean_diff_among_easy_bots(make: Callable[[int], Bot], hands: int = 12) -> float:
    """Return the mean Diff (own points minus the others' mean) of ``make(index)`` playing
    hand ``index`` in seat ``index % 4`` of a fixed set of deals against three easy bots."""
    rules = RuleSet()
    diffs = []
    for index in range(hands):
        bots: list[Bot] = [EasyBot(index * 4 + seat) for seat in range(4)]
        seat = index % 4
        bots[seat] = make(index)
        outcome = play_hand(rules, rules.direction_of_hand(index), deal_for(21, index), bots)
        points = outcome.score.points
        assert sum(outcome.score.taken_points) == 26
        diffs.append(points[seat] - (sum(points) - points[seat]) / 3)
    return sum(diffs) / len(diffs)


#: The hard bot's mean Diff must stay under this on ``mean_diff_among_easy_bots``.
STRONG_DIFF = -5.0


def test_beats_easy_bots_on_fixed_deals() -> None:
    bots: list[HardBot] = []

    def make(index: int) -> Bot:
        bots.append(HardBot(seed=index, max_samples=16))
        return bots[-1]

    hard_diff = mean_diff_among_easy_bots(make)
    easy_diff = mean_diff_among_easy_bots(lambda index: EasyBot(1000 + index))
    assert hard_diff < STRONG_DIFF, hard_diff
    assert hard_diff < easy_diff - 2, (hard_diff, easy_diff)
    for bot in bots:
        assert set(bot.last_decision) == {"samples", "playouts", "values", "chosen", "exact"}


def test_naive_players_fall_short_of_the_strength_bar() -> None:
    for player, choose in naive_players().items():
        diff = mean_diff_among_easy_bots(functools.partial(naive_bot, choose))
        assert diff >= STRONG_DIFF, f"a {player}-card player reaches {diff:.2f}"


def test_pass_candidates_are_distinct_sets_from_the_hand() -> None:
    hand = mask_of(parse_cards("QS 2S 3S AH KH 2H 4C 5C 7D 8D 9D TD JD"))
    candidates = pass_candidates(hand)
    assert len(candidates) >= hard.PASS_CANDIDATES
    assert len({frozenset(cards) for cards in candidates}) == len(candidates)
    for cards in candidates:
        assert len(set(cards)) == 3 and mask_of(cards) & ~hand == 0
    # The unguarded Q♠ and the top hearts look most dangerous.
    assert set(candidates[0]) == {parse_card("QS"), parse_card("AH"), parse_card("KH")}


def test_pass_candidates_include_keeping_a_stopper_and_passing_for_the_moon() -> None:
    # Every one of the ten most dangerous sets gives away the A♥; others keep it.
    hand = mask_of(parse_cards("AH 2H 3H 2S 3S 4S 5S 6S 7S 2C 3C 4C 9D"))
    candidates = pass_candidates(hand)
    ace = parse_card("AH")
    assert all(ace in cards for cards in candidates[: hard.PASS_CANDIDATES])
    assert any(ace not in cards for cards in candidates)
    # A hand made to shoot the moon also tries passing its three lowest cards.
    strong = mask_of(parse_cards("AS KS QS AH KH QH JH TH AD KD 2C 3C 4D"))
    low = tuple(sorted(parse_cards("2C 3C 4D")))
    assert low in pass_candidates(strong)
    # A weak hand does not: its three lowest cards are no candidate.
    assert tuple(sorted(parse_cards("2C 2S 2H"))) not in pass_candidates(hand)


def test_pass_candidates_include_keeping_the_high_hearts() -> None:
    # By danger, every one of the most dangerous sets passes two or three of the high hearts;
    # the second ranking, where hearts weigh little, passes the top clubs and keeps them.
    hand = mask_of(parse_cards("AH KH QH JH AC KC QC 2D 3D 4D 2S 3S 4S"))
    clubs = tuple(sorted(parse_cards("AC KC QC")))
    by_danger = ranked_passes(hand, hard.HEART_DANGER)[: hard.PASS_CANDIDATES]
    assert clubs not in by_danger
    assert all(count(mask_of(cards) & SUIT_MASKS[HEARTS]) >= 2 for cards in by_danger)
    candidates = pass_candidates(hand)
    assert candidates[: hard.PASS_CANDIDATES] == by_danger
    assert clubs in candidates
    assert len(candidates) <= 2 * hard.PASS_CANDIDATES + 3


def test_moon_shifts_follow_the_moon_rule() -> None:
    def view(moon: str, scores: tuple[int, int, int, int]) -> Observation:
        return Observation(0, RuleSet(moon=moon), "hold", 0, None, None, (), scores)

    assert moon_shifts(view("add", (90, 95, 10, 20))) == (0, 0, 0, 0)
    assert moon_shifts(view("subtract", (0, 0, 0, 0))) == (-26, -26, -26, -26)
    # Adding 26 would end the match with seat 2 ahead unless seat 2 or 3 shoots.
    assert moon_shifts(view("auto", (90, 95, 10, 20))) == (-26, -26, 0, 0)
    assert moon_shifts(view("auto", (0, 0, 0, 0))) == (0, 0, 0, 0)


def test_other_players_are_expected_to_pass_their_most_dangerous_cards() -> None:
    from ai.passing import expected_pass

    hand = mask_of(parse_cards("QS 3S 2C 5C 9C 3D 4D 7D 2H 3H 4H 6H 8H"))
    assert set(expected_pass(hand)) == set(parse_cards("QS 8H 6H"))
    bare = mask_of(parse_cards("AS KS 2S 2C 3C 4C 4D 5D 6D 7D 2H 3H 9H"))
    assert set(expected_pass(bare)) == set(parse_cards("AS KS 9H"))
    guarded = mask_of(parse_cards("AS KS 2S 3S 4S 5S 2C 3C 4D 5D 6D 7H 9H"))
    assert set(expected_pass(guarded)) == set(parse_cards("AS 7H 9H"))


def test_the_expected_pass_is_the_three_cards_of_highest_danger() -> None:
    """The pass is read off an order of the deck made once per guard of the high spades; it
    must be the three cards ``pass_danger`` ranks first (ties: the higher card) of any hand."""
    from ai.passing import expected_pass, pass_danger

    rng = random.Random(8)
    spades = [card for card in range(52) if suit_of(card) == SPADES]
    for _ in range(5000):
        cards = set(rng.sample(range(52), 13))
        if rng.random() < 0.5:  # enough spades that high ones are sometimes guarded
            cards = set(rng.sample(sorted(cards), 7)) | set(rng.sample(spades, 6))
        hand = mask_of(cards)
        ranked = sorted(cards, key=lambda card: (-pass_danger(card, hand), -card))
        assert expected_pass(hand) == tuple(sorted(ranked[:3]))


def test_the_exchange_moves_each_pass_to_its_receiver() -> None:
    from ai.passing import exchange, expected_pass

    rng = random.Random(4)
    for direction in ("left", "right", "across"):
        deck = list(range(52))
        rng.shuffle(deck)
        dealt = [mask_of(deck[13 * seat : 13 * seat + 13]) for seat in range(4)]
        passes = {seat: expected_pass(dealt[seat]) for seat in range(4)}
        after = exchange(dealt, passes, direction)
        assert sum(after) == (1 << 52) - 1 and all(count(h) == 13 for h in after)
        for giver, cards in passes.items():
            receiver = pass_receiver(giver, direction)
            assert mask_of(cards) & after[receiver] == mask_of(cards)
            assert mask_of(cards) & after[giver] == 0


def test_pass_simulations_hand_us_what_a_passer_gets_rid_of(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Dealt at random, the Q♠ would reach us in 3 of 39 unseen cards (8%); passers shed it.
    hand = HandState.new(RuleSet(), "left", deal_for(5, 0))
    seat = next(s for s in range(4) if not hand.hands[s] >> QUEEN_OF_SPADES & 1)
    observation = hand.observation(seat, (0, 0, 0, 0))
    seen: list[list[int]] = []

    def capture(deals: list[list[int]], *args: object) -> tuple[list[int], list[int]]:
        seen.extend(deals)
        return [0] * len(deals), [0] * search_py.TALLY_SIZE

    monkeypatch.setattr(hard, "evaluate_detail", capture)
    HardBot(seed=3, max_samples=300).choose_pass(observation)
    ours = [deal[seat] for deal in seen]
    share = sum(1 for mask in ours if mask >> QUEEN_OF_SPADES & 1) / len(ours)
    assert share > 0.15


@pytest.mark.parametrize("direction", ["left", "right", "across"])
def test_every_pass_set_meets_the_same_deals_after_the_full_exchange(
    monkeypatch: pytest.MonkeyPatch, direction: str
) -> None:
    hand = HandState.new(RuleSet(), direction, deal_for(6, 0))
    seat = 1
    observation = hand.observation(seat, (0, 0, 0, 0))
    calls: list[list[list[int]]] = []

    def capture(deals: list[list[int]], *args: object) -> tuple[list[int], list[int]]:
        calls.append([list(deal) for deal in deals])
        return [0] * len(deals), [0] * search_py.TALLY_SIZE

    monkeypatch.setattr(hard, "evaluate_detail", capture)
    candidates = pass_candidates(observation.hand)
    HardBot(seed=3, max_samples=40).pass_values(observation)
    assert len(calls) % len(candidates) == 0
    receiver = pass_receiver(seat, direction)
    others = [other for other in range(4) if other not in (seat, receiver)]
    for batch in range(len(calls) // len(candidates)):
        per_set = calls[batch * len(candidates) : (batch + 1) * len(candidates)]
        for passed, deals in zip(candidates, per_set, strict=True):
            cards = mask_of(passed)
            for deal, first in zip(deals, per_set[0], strict=True):
                assert sum(deal) == (1 << 52) - 1 and all(count(h) == 13 for h in deal)
                assert deal[seat] & observation.hand == observation.hand & ~cards
                assert deal[receiver] & cards == cards
                # The others' hands and what reaches us do not depend on our pass.
                assert [deal[other] for other in others] == [first[other] for other in others]
                assert deal[seat] & ~observation.hand == first[seat] & ~observation.hand


def test_ties_go_to_the_lowest_card_as_documented(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/bots.md and the module say it: of cards of equal cost, the lowest is played."""
    tied = hard.SearchValues(((5,), (9,), (30,)), (12, 12, 12), samples=4, runs=4, exact=False)
    assert tied.best() == 0
    later = hard.SearchValues(((5,), (9,), (30,)), (20, 12, 12), samples=4, runs=4, exact=False)
    assert later.best() == 1
    seen = next(
        view
        for controller in random_controllers(range(40))
        if controller.phase == "play"
        for view in [controller.observation(controller.seats_to_act[0])]
        if len(cards_of(view.legal_mask())) >= 3
    )
    legal = cards_of(seen.legal_mask())

    def all_equal(
        self: HardBot, obs: Observation, cards: Any, budget: Any, least: int, race: bool = False
    ) -> Any:
        return hard.SearchValues(tuple((c,) for c in cards), (7,) * len(cards), 8, 8, False)

    monkeypatch.setattr(HardBot, "_play_values", all_equal)
    bot = HardBot(seed=1, max_samples=8)
    assert bot.choose_play(seen) == min(legal)
    assert bot.last_decision["chosen"] == card_text(min(legal))
