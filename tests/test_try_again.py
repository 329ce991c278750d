"""Try again: a reviewed decision set up as it was, from the seat's own view."""

from __future__ import annotations

import pytest
from test_review import played_hand

from ai.review import Decision, ReviewError, seat_decisions
from core.actions import PlayAction
from core.cards import mask_of
from core.controller import Controller
from core.kernel import trick_points
from core.rules import RuleSet
from game.table.try_again import DEALT_AGAIN, REAL_CARDS, position_at

RULES = (
    RuleSet(),
    RuleSet(jack_of_diamonds=True),
    RuleSet.from_dict({"pass_cycle": ["across"]}),
    RuleSet.from_dict({"pass_cycle": ["hold"]}),
)


@pytest.mark.parametrize("real_cards", [True, False])
def test_try_again_reproduces_the_position_exactly(real_cards: bool) -> None:
    # Every decision of seat 0 in hands under several rules and pass directions: the match
    # set up again stands at the same decision, seen by the seat exactly as it saw it (its
    # hand, the trick so far, the points taken, every trick before, its pass and what it
    # received, the match totals), with the same seats.
    checked = dealt_apart = 0
    for seed in range(8):
        controller = played_hand(seed, "normal", RULES[seed % 4])
        decisions = seat_decisions(controller, 0, 1)
        for index, decision in enumerate(decisions):
            again = position_at(controller, 0, 1, index, real_cards=real_cards, seed=seed)
            assert again.label == (REAL_CARDS if real_cards else DEALT_AGAIN)
            assert again.decision == decision
            observation = again.controller.observation(0)
            assert observation == decision.observation, (seed, index)
            assert again.controller.seats_to_act in ([0], [0, 1, 2, 3]) or (
                decision.kind == "pass" and 0 in again.controller.seats_to_act
            )
            assert again.controller.seats == controller.seats
            assert again.controller.hand_points == _points_before(controller, decision)
            match = again.controller.match
            assert (
                match is not None
                and match.hands[-1].deal[0]
                == (
                    controller.match.hands[0].deal[0]  # type: ignore[union-attr]
                )
            )
            if not real_cards and match.hands[-1].deal != controller.match.hands[0].deal:  # type: ignore[union-attr]
                dealt_apart += 1
            checked += 1
    assert checked > 80
    if real_cards:
        return
    # The other hands are dealt again (not the real ones), and the same seed deals the same.
    assert dealt_apart > checked // 2
    controller = played_hand(3, "normal")
    first = position_at(controller, 0, 1, 5, seed=7).controller.match
    second = position_at(controller, 0, 1, 5, seed=7).controller.match
    assert first is not None and second is not None
    assert first.hands[-1].deal == second.hands[-1].deal


def _points_before(controller: Controller, decision: Decision) -> list[int]:
    """The points each seat took in the tricks finished before the decision, from the
    original match's tricks."""
    done = [trick for trick in decision.observation.tricks if len(trick.cards) == 4]
    points = [0, 0, 0, 0]
    for trick in controller.tricks[: len(done)]:
        points[trick.winner] += trick_points(mask_of(trick.cards), controller.rules.flags)
    return points


def test_try_again_refuses_a_decision_the_hand_does_not_hold() -> None:
    controller = played_hand(1, "normal")
    with pytest.raises(ReviewError, match="14 decisions"):
        position_at(controller, 0, 1, 14)
    with pytest.raises(ReviewError):
        position_at(controller, 0, 2, 0)


def test_the_person_plays_on_from_the_position() -> None:
    controller = played_hand(2, "normal")
    again = position_at(controller, 0, 1, 6, seed=1).controller
    assert again.seats_to_act == [0]
    card = again.legal_cards(0)[0]
    assert again.play_card(0, card).ok
    match = again.match
    assert match is not None and match.hands[-1].actions[-1] == PlayAction(0, card)


def test_the_coach_compares_the_try_with_the_original_line() -> None:
    from ai.autoplay import play_bots
    from ai.registry import make_bot
    from game.table.try_again import compare

    controller = played_hand(5, "normal")
    match = controller.match
    assert match is not None
    # Played again with the real cards and the very same moves: the same hand, the same points.
    again = position_at(controller, 0, 1, 4, real_cards=True).controller
    assert compare(controller, 1, 0, again) is None, "nothing to compare before the hand ends"
    done = len(again.match.hands[-1].actions)  # type: ignore[union-attr]
    for action in match.hands[0].actions[done:]:
        if isinstance(action, PlayAction):
            assert again.play_card(action.seat, action.card).ok
    same = compare(controller, 1, 0, again)
    assert same is not None and same.gained == 0 and same.tried == same.original
    assert same.text().endswith("the same against the table.")
    # Played on differently (the first legal card for the person, the same bots): the points
    # compared are the two hands' real scores.
    tried = position_at(controller, 0, 1, 4, seed=3).controller
    bots = {seat: make_bot("normal", 5 * 4 + seat) for seat in (1, 2, 3)}
    bots[0] = make_bot("first")
    play_bots(tried, bots)
    result = compare(controller, 1, 0, tried)
    assert result is not None
    assert result.original == tuple(controller.hand_scores[0].points)
    assert result.tried == tuple(tried.hand_scores[-1].points)
    own, others = result.tried[0], sum(result.tried[1:]) / 3
    first_own, first_others = result.original[0], sum(result.original[1:]) / 3
    assert result.gained == round((first_own - first_others) - (own - others), 2)
    assert ("better" in result.text()) == (result.gained > 0)
