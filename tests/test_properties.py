"""Properties of random legal games: conservation, scoring, undo/redo, replay, refusals."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import play_randomly

from core.cards import FULL_DECK, mask_of
from core.controller import Controller
from core.events import HandScored, TrickWon
from core.rules import RuleSet

RULE_VARIANTS = [
    RuleSet(),
    RuleSet(moon="subtract", queen_breaks_hearts=False),
    RuleSet(jack_of_diamonds=True, no_tricks_bonus=True, first_lead="any_club"),
    RuleSet(no_points_first_trick=False, must_break_hearts=False, moon="auto", end_score=50),
]

seeds = st.integers(min_value=0, max_value=2**32)
variants = st.sampled_from(RULE_VARIANTS)


def fingerprint(controller: Controller) -> tuple[object, ...]:
    """Everything observable about a controller's state."""
    return (
        controller.phase,
        controller.hand_number,
        tuple(tuple(controller.hand(seat)) for seat in range(4)),
        tuple(controller.pass_choice(seat) for seat in range(4)),
        tuple((t.leader, tuple(t.cards), t.winner) for t in controller.tricks),
        controller.hearts_broken,
        controller.totals,
        tuple(tuple(controller.legal_cards(seat)) for seat in range(4)),
        tuple(controller.observation(seat) for seat in range(4)),
    )


@settings(max_examples=60, deadline=None)
@given(seed=seeds, rules=variants)
def test_a_random_hand_plays_every_card_once_and_scores_correctly(
    seed: int, rules: RuleSet
) -> None:
    rng = random.Random(seed)
    controller = Controller()
    controller.new_match(rules, seed=seed, seats=["bot"] * 4)
    while controller.phase in ("pass", "play"):
        play_randomly(controller, rng, 1)
    tricks = controller.tricks
    assert len(tricks) == 13 and all(len(trick.cards) == 4 for trick in tricks)
    played = [card for trick in tricks for card in trick.cards]
    assert len(played) == 52 and mask_of(played) == FULL_DECK
    score = controller.hand_scores[-1]
    jack = -10 if rules.jack_of_diamonds else 0
    assert sum(score.taken_points) == 26 + jack
    if score.moon_shooter is None:
        bonus = sum(
            -5
            for seat in range(4)
            if rules.no_tricks_bonus and not any(trick.winner == seat for trick in tricks)
        )
        assert sum(score.points) == 26 + jack + bonus
    else:
        shooter = score.moon_shooter
        assert score.taken_points[shooter] in (26, 26 + jack)
        others = [score.points[s] - score.taken_points[s] for s in range(4) if s != shooter]
        own = score.points[shooter] - score.taken_points[shooter]
        if rules.moon == "subtract":
            assert (own, others) == (-52, [0, 0, 0])
        else:
            assert (own, others) in ((-26, [26, 26, 26]), (-52, [0, 0, 0]))
    assert controller.totals == score.points


@settings(max_examples=40, deadline=None)
@given(seed=seeds, rules=variants, steps=st.integers(1, 120), back=st.integers(1, 60))
def test_undo_then_redo_returns_to_the_identical_state(
    seed: int, rules: RuleSet, steps: int, back: int
) -> None:
    rng = random.Random(seed)
    controller = Controller()
    controller.new_match(rules, seed=seed, seats=["bot"] * 4)
    play_randomly(controller, rng, steps)
    after = fingerprint(controller)
    undone = 0
    while undone < back and controller.undo().ok:
        undone += 1
    for _ in range(undone):
        assert controller.redo().ok
    assert not controller.redo().ok
    assert fingerprint(controller) == after


@settings(max_examples=40, deadline=None)
@given(seed=seeds, rules=variants, steps=st.integers(0, 200))
def test_replaying_the_action_list_reproduces_the_match(
    seed: int, rules: RuleSet, steps: int
) -> None:
    rng = random.Random(seed)
    controller = Controller()
    controller.new_match(rules, seed=seed, seats=["bot"] * 4)
    play_randomly(controller, rng, steps)
    assert controller.match is not None
    replayed = Controller.from_match(copy.deepcopy(controller.match))
    assert fingerprint(replayed) == fingerprint(controller)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, steps=st.integers(0, 150), card=st.integers(0, 51), seat=st.integers(0, 3))
def test_refused_commands_leave_the_state_untouched(
    seed: int, steps: int, card: int, seat: int
) -> None:
    rng = random.Random(seed)
    controller = Controller()
    controller.new_match(seed=seed, seats=["bot"] * 4)
    play_randomly(controller, rng, steps)
    before = fingerprint(controller)
    legal = controller.phase == "play" and card in controller.legal_cards(seat)
    if not legal:
        result = controller.play_card(seat, card)
        assert not result.ok and result.error and not result.events
    result = controller.submit_pass(seat, [card, card, card])
    assert not result.ok
    for bad in ("XX", "", None, 52, -1, True):
        assert not controller.play_card(seat, bad).ok  # type: ignore[arg-type]
    if controller.phase not in ("hand_over", "match_over"):
        assert not controller.next_hand().ok
    assert fingerprint(controller) == before


def test_events_report_tricks_and_the_score() -> None:
    rng = random.Random(5)
    controller = Controller()
    controller.new_match(seed=5, seats=["bot"] * 4)
    events = []
    while controller.phase in ("pass", "play"):
        if controller.phase == "pass":
            for seat in controller.seats_to_act:
                events += controller.submit_pass(seat, rng.sample(controller.hand(seat), 3)).events
        else:
            seat = controller.seats_to_act[0]
            events += controller.play_card(seat, rng.choice(controller.legal_cards(seat))).events
    tricks = [event for event in events if isinstance(event, TrickWon)]
    assert [event.trick_number for event in tricks] == list(range(1, 14))
    scored = [event for event in events if isinstance(event, HandScored)]
    assert len(scored) == 1 and scored[0].totals == controller.totals


def test_observation_shows_only_the_seats_own_cards() -> None:
    controller = Controller()
    controller.new_match(seed=11)
    for seat in range(4):
        observation = controller.observation(seat)
        assert observation.hand == mask_of(controller.hand(seat))
        assert observation.passed is None and observation.received is None
        assert observation.tricks == ()
