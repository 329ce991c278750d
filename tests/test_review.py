"""The review of a seat's decisions: it tells good play from bad, repeats, sees no hidden card."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from ai.autoplay import play_bots
from ai.bot import Bot
from ai.hard import HardBot, pass_candidates
from ai.registry import make_bot
from ai.review import (
    INACCURACY_POINTS,
    MISTAKE_POINTS,
    ReviewError,
    analyse,
    classify,
    decision_seed,
    review_decision,
    review_hands,
    review_record,
    seat_decisions,
)
from core.actions import Action, PassAction, PlayAction
from core.cards import QUEEN_OF_SPADES, SUIT_MASKS, TWO_OF_CLUBS, card_text, cards_of, mask_of
from core.controller import Controller
from core.errors import RecordError
from core.match import HandRecord, MatchState, deal_for
from core.record import dumps_record
from core.rules import RuleSet, pass_receiver

SAMPLES = 30


def played_hand(seed: int, seat_bot: str, rules: RuleSet | None = None) -> Controller:
    """Return a match whose first hand is over: seat 0 played by ``seat_bot``, the rest normal."""
    controller = Controller()
    assert controller.new_match(rules=rules, seed=seed, seats=["human"] + ["bot:normal"] * 3).ok
    bots: dict[int, Bot] = {seat: make_bot("normal", seed * 4 + seat) for seat in (1, 2, 3)}
    bots[0] = HardBot(seed=seed, max_samples=40) if seat_bot == "hard" else make_bot(seat_bot, seed)
    play_bots(controller, bots)
    assert controller.phase in ("hand_over", "match_over")
    return controller


def test_the_classes_follow_the_thresholds() -> None:
    assert (INACCURACY_POINTS, MISTAKE_POINTS) == (0.5, 1.5)
    assert classify(0.0) == classify(0.49) == "fine"
    assert classify(0.5) == classify(1.49) == "inaccuracy"
    assert classify(1.5) == classify(12.0) == "mistake"


def test_a_random_seat_loses_far_more_per_decision_than_the_hard_bot() -> None:
    lost = {"random": 0.0, "hard": 0.0}
    decisions = {"random": 0, "hard": 0}
    for seed in (11, 12, 13, 14):
        for player in lost:
            review = review_hands(played_hand(seed, player), 0, [1], samples=SAMPLES, seed=5)
            assert len(review.decisions) == 14  # the pass and 13 plays
            lost[player] += review.total_loss
            decisions[player] += len(review.decisions)
    per_random = lost["random"] / decisions["random"]
    per_hard = lost["hard"] / decisions["hard"]
    assert per_random > 1.0, per_random
    assert per_random > 4 * per_hard, (per_random, per_hard)


def test_every_decision_is_reviewed_with_a_loss_of_zero_or_more() -> None:
    controller = played_hand(21, "random")
    review = review_hands(controller, 0, [1], samples=SAMPLES)
    assert controller.match is not None
    actions = [a for a in controller.match.hands[0].actions if a.seat == 0]
    assert [d.kind for d in review.decisions] == ["pass"] + ["play"] * 13
    assert [d.trick for d in review.decisions] == [None, *range(1, 14)]
    for decision, action in zip(review.decisions, actions, strict=True):
        chosen = action.cards if isinstance(action, PassAction) else (action.card,)
        assert decision.chosen == chosen
        assert decision.loss >= 0
        # A loss is graded by its size only when it is clear of the search's noise.
        assert decision.grade == (classify(decision.loss) if decision.clear else "fine")
        assert decision.forced or decision.margin is not None
        if decision.forced:
            assert (decision.loss, decision.best, decision.samples) == (0.0, chosen, 0)
        else:
            assert 1 <= decision.samples <= SAMPLES  # an exact endgame needs fewer deals
            assert decision.chosen_cost is not None and decision.best_cost is not None
            assert decision.best_cost <= decision.chosen_cost
            assert decision.loss == pytest.approx(
                decision.chosen_cost - decision.best_cost, abs=0.011
            )
        if decision.best == chosen:
            assert decision.loss == 0
    assert review.total_loss == round(sum(d.loss for d in review.decisions), 2)
    # the last card of a hand is always forced
    assert review.decisions[-1].forced


def test_reviewing_is_deterministic_and_depends_on_the_seed() -> None:
    controller = played_hand(22, "random")
    first = review_hands(controller, 0, [1], samples=SAMPLES, seed=3).to_dict()
    again = review_hands(played_hand(22, "random"), 0, [1], samples=SAMPLES, seed=3).to_dict()
    assert first == again
    other = review_hands(controller, 0, [1], samples=SAMPLES, seed=4).to_dict()
    assert [d["loss"] for d in other["decisions"]] != [d["loss"] for d in first["decisions"]]


def test_a_record_text_is_reviewed_as_its_match() -> None:
    controller = played_hand(32, "random")
    text = dumps_record(controller)
    progress: list[tuple[int, int]] = []
    review = review_record(text, 0, [1], SAMPLES, 6, progress=lambda *step: progress.append(step))
    assert review == review_hands(controller, 0, [1], samples=SAMPLES, seed=6)
    assert progress == [(done, 14) for done in range(1, 15)]
    with pytest.raises(RecordError):
        review_record("{}", 0, [1], SAMPLES)


def test_a_decision_is_reviewed_alike_alone_or_with_the_others() -> None:
    controller = played_hand(23, "random")
    decisions = seat_decisions(controller, 0, 1)
    together = review_hands(controller, 0, [1], samples=SAMPLES, seed=9).decisions
    for decision, reviewed in zip(decisions, together, strict=True):
        assert review_decision(decision, SAMPLES, 9) == reviewed


def test_the_chosen_pass_is_valued_on_the_same_deals_as_the_candidates() -> None:
    controller = played_hand(24, "random")
    decision = seat_decisions(controller, 0, 1)[0]
    hand = decision.observation.hand
    odd = tuple(cards_of(hand)[:3])  # the three lowest clubs or so: no candidate of the bot
    assert odd not in pass_candidates(hand)
    seed = decision_seed(7, decision)
    plain = analyse(decision.observation, SAMPLES, seed)
    extended = analyse(decision.observation, SAMPLES, seed, include=[odd])
    assert extended.candidates == (*plain.candidates, odd)
    assert extended.costs[:-1] == plain.costs  # the same deals for every candidate
    reviewed = review_decision(replace(decision, chosen=odd), SAMPLES, 7)
    assert reviewed.kind == "pass" and reviewed.chosen == odd
    assert reviewed.chosen_cost == round(extended.costs[-1], 2)
    assert reviewed.best_cost == round(min(extended.costs), 2)
    assert reviewed.loss == round(extended.costs[-1] - min(extended.costs), 2)
    best = extended.candidates[extended.best]
    assert reviewed.best == (odd if best == odd else best)


def test_the_hard_bots_choices_come_from_its_values() -> None:
    controller = played_hand(25, "random")
    for decision in seat_decisions(controller, 0, 1)[:6]:
        bot, twin = HardBot(seed=4, max_samples=SAMPLES), HardBot(seed=4, max_samples=SAMPLES)
        observation = decision.observation
        if decision.kind == "pass":
            choice: Sequence[int] = bot.choose_pass(observation)
            values = twin.pass_values(observation)
        else:
            choice = (bot.choose_play(observation),)
            if len(cards_of(observation.legal_mask())) == 1:
                continue
            values = twin.play_values(observation)
        assert values.candidates[values.best()] == tuple(choice)
        means = [round(values.mean(slot), 3) for slot in range(len(values.candidates))]
        assert list(bot.last_decision["values"].values()) == means


# -- the review never reads a hidden card ------------------------------------------------------


def _match_with(controller: Controller, deal: Sequence[int], actions: list[Action]) -> Controller:
    """Return the first hand of ``controller``'s match with another deal and actions."""
    match = controller.match
    assert match is not None
    record = match.hands[0]
    hand = HandRecord((deal[0], deal[1], deal[2], deal[3]), record.direction, list(actions))
    return Controller.from_match(MatchState(match.rules, match.seed, match.seats, [hand]))


def test_other_passes_redealt_consistently_leave_the_review_unchanged() -> None:
    # Seat 0 passes left to seat 1 and gets seat 3's pass; what seats 1 and 2 passed it never
    # sees. Give them other passes, from other deals that end in the same hands after the
    # exchange, so every play is the same: seat 0 saw the same at every decision.
    controller = played_hand(26, "normal")
    match = controller.match
    assert match is not None and match.hands[0].direction == "left"
    actions = match.hands[0].actions
    played = [
        mask_of(a.card for a in actions if isinstance(a, PlayAction) and a.seat == s)
        for s in range(4)
    ]
    passes = {a.seat: a.cards for a in actions if isinstance(a, PassAction)}
    new_passes = dict(passes)
    for giver in (1, 2):
        receiver = pass_receiver(giver, "left")
        kept = played[receiver] & ~mask_of(passes[giver]) & ~mask_of(passes.get(receiver, ()))
        new_passes[giver] = tuple(cards_of(kept)[:3])
    deal = [
        (played[s] & ~mask_of(new_passes[(s + 3) % 4])) | mask_of(new_passes[s]) for s in range(4)
    ]
    assert deal[0] == match.hands[0].deal[0]
    assert deal != list(match.hands[0].deal)
    redealt_actions = [
        PassAction(a.seat, new_passes[a.seat]) if isinstance(a, PassAction) else a for a in actions
    ]
    redealt = _match_with(controller, deal, redealt_actions)
    assert redealt.phase == "hand_over"
    before = review_hands(controller, 0, [1], samples=SAMPLES, seed=2).to_dict()
    after = review_hands(redealt, 0, [1], samples=SAMPLES, seed=2).to_dict()
    assert after == before


def _swap_unseen_cards(deal: Sequence[int], one: int, two: int, unplayed: int) -> list[int]:
    """Return the deal with an unplayed card of seat ``one`` and one of the same suit of seat
    ``two`` swapped (never the 2♣ or the Q♠, whose places the rules look at)."""
    for suit_mask in SUIT_MASKS:
        usable = unplayed & suit_mask & ~(1 << TWO_OF_CLUBS | 1 << QUEEN_OF_SPADES)
        mine, theirs = deal[one] & usable, deal[two] & usable
        if mine and theirs:
            a, b = cards_of(mine)[0], cards_of(theirs)[0]
            swapped = list(deal)
            swapped[one] ^= 1 << a | 1 << b
            swapped[two] ^= 1 << a | 1 << b
            return swapped
    raise AssertionError("no two cards to swap")


@pytest.mark.parametrize("tricks_played", [3, 7])
def test_hidden_hands_redealt_consistently_leave_the_review_unchanged(tricks_played: int) -> None:
    # A hand without passing, stopped after some tricks: two unplayed cards of one suit change
    # hands between seats 2 and 3. Every play so far stays legal and seat 0's view of every
    # decision is the same, but the hidden hands are not.
    rules = RuleSet(pass_cycle=("hold",))
    controller = played_hand(27, "random", rules)
    match = controller.match
    assert match is not None
    actions = match.hands[0].actions[: 4 * tricks_played + 1]
    unplayed = ~mask_of(a.card for a in actions if isinstance(a, PlayAction))
    deal = _swap_unseen_cards(match.hands[0].deal, 2, 3, unplayed)
    original = _match_with(controller, match.hands[0].deal, actions)
    redealt = _match_with(controller, deal, actions)
    assert original.hand(2) != redealt.hand(2)
    assert [original.observation(0)] == [redealt.observation(0)]
    before = review_hands(original, 0, [1], samples=SAMPLES, seed=8)
    after = review_hands(redealt, 0, [1], samples=SAMPLES, seed=8)
    assert len(before.decisions) >= tricks_played
    assert after == before


# -- what cannot be reviewed -------------------------------------------------------------------


def test_seats_hands_and_sample_counts_out_of_range_are_refused() -> None:
    controller = played_hand(29, "random")
    with pytest.raises(ReviewError, match="seat 4 is not a seat"):
        seat_decisions(controller, 4, 1)
    with pytest.raises(ReviewError, match="hand 2 is not in the record: it holds hand 1 only"):
        seat_decisions(controller, 0, 2)
    for samples in (0, -1, 10_001, True):
        with pytest.raises(ReviewError, match="samples must be a whole number from 1 to 10000"):
            review_hands(controller, 0, [1], samples=samples)


def test_an_unfinished_hand_gives_the_decisions_made_so_far() -> None:
    controller = played_hand(30, "random")
    assert controller.next_hand().ok
    assert seat_decisions(controller, 0, 2) == []
    rng = random.Random(1)
    for _ in range(6):
        seat = controller.seats_to_act[0]
        if controller.phase == "pass":
            assert controller.submit_pass(seat, rng.sample(controller.hand(seat), 3)).ok
        else:
            assert controller.play_card(seat, controller.legal_cards(seat)[0]).ok
    decisions = seat_decisions(controller, 0, 2)
    assert [d.kind for d in decisions][:1] == ["pass"]
    assert all(card_text(d.chosen[0]) for d in decisions)


def test_a_later_hand_is_reviewed_with_the_match_totals_before_it() -> None:
    controller = played_hand(31, "normal")
    totals = controller.totals
    assert controller.next_hand().ok
    play_bots(controller, {seat: make_bot("normal", seat) for seat in range(4)})
    decisions = seat_decisions(controller, 1, 2)
    assert decisions[0].observation.scores == totals
    assert deal_for(31, 1)[1] == decisions[0].observation.hand


def test_a_cancelled_review_stops_within_its_search() -> None:
    from ai.review import ReviewCancelled, review_decisions

    decisions = seat_decisions(played_hand(3, "random"), 0, 1)
    asked = 0

    def never() -> bool:
        nonlocal asked
        asked += 1
        return False

    # The search asks between its batches of deals, not only once the decision is done.
    review_decision(decisions[0], 2000, cancelled=never)
    assert asked > 3, asked
    with pytest.raises(ReviewCancelled):
        review_decisions(decisions, 10_000, cancelled=lambda: True)
