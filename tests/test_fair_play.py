"""Bots decide from one seat's observation only: hidden cards never change a decision."""

from __future__ import annotations

import random

import pytest
from positions import play_randomly

from ai.knowledge import read_knowledge
from ai.registry import BOTS, make_bot
from ai.sampler import DealSampler
from core.actions import PassAction
from core.controller import Controller
from core.hand import HandState

#: Bots cheap enough to ask many times here (the searching ones have their own tests).
FAST_BOTS = sorted(set(BOTS) & {"first", "random", "easy", "normal"})


def reshuffled(controller: Controller, seat: int, rng: random.Random) -> HandState:
    """Return the current hand with the other seats' hidden cards dealt anew, consistently."""
    match = controller.match
    assert match is not None
    record = match.hands[-1]
    hand = HandState.new(match.rules, record.direction, record.deal)
    for action in record.actions:
        if isinstance(action, PassAction):
            hand.submit_pass(action.seat, action.cards)
        else:
            hand.play(action.seat, action.card)
    sampler = DealSampler(read_knowledge(controller.observation(seat)))
    hand.hands = list(sampler.sample(rng))
    return hand


@pytest.mark.parametrize("name", FAST_BOTS)
def test_decisions_do_not_depend_on_hidden_cards(name: str) -> None:
    rng = random.Random(name)
    checked = 0
    for seed in range(60):
        controller = Controller()
        controller.new_match(seed=seed, seats=["bot"] * 4)
        play_randomly(controller, random.Random(seed), 4 + seed % 48)
        if controller.phase != "play":
            continue
        seat = controller.seats_to_act[0]
        original = controller.observation(seat)
        other = reshuffled(controller, seat, rng)
        if other.hands == [sum(1 << c for c in controller.hand(s)) for s in range(4)]:
            continue
        again = other.observation(seat, original.scores)
        assert again == original
        first = make_bot(name, 99).choose_play(original)
        second = make_bot(name, 99).choose_play(again)
        assert first == second
        checked += 1
    assert checked >= 20
