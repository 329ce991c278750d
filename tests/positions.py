"""Build hands and positions for tests from card strings."""

from __future__ import annotations

import random

from core.cards import mask_of, parse_cards
from core.controller import Controller
from core.hand import HandState, Trick
from core.rules import RuleSet


def masks(*hands: str) -> list[int]:
    """Return masks for hands written as card strings, e.g. ``masks("2C 3C", "AH")``."""
    return [mask_of(parse_cards(hand)) for hand in hands]


def position(
    hands: list[str],
    *,
    leader: int,
    trick: str = "",
    first_trick: bool = False,
    hearts_broken: bool = False,
    rules: RuleSet | None = None,
) -> HandState:
    """Return a hand in the play phase with the given holdings and current trick.

    When ``first_trick`` is false, a completed dummy trick stands before the current one.
    """
    tricks = [] if first_trick else [Trick(leader, [4, 5, 6, 7], leader)]
    tricks.append(Trick(leader, parse_cards(trick)))
    return HandState(
        rules=rules or RuleSet(),
        direction="hold",
        dealt=(0, 0, 0, 0),
        hands=masks(*hands),
        pass_choices=[None] * 4,
        passes_exchanged=True,
        tricks=tricks,
        hearts_broken=hearts_broken,
        taken=[0, 0, 0, 0],
    )


def play_randomly(controller: Controller, rng: random.Random, steps: int) -> None:
    """Take up to ``steps`` random legal actions (passes, plays, next hand)."""
    for _ in range(steps):
        phase = controller.phase
        if phase == "match_over":
            return
        if phase == "hand_over":
            assert controller.next_hand().ok
        elif phase == "pass":
            seat = rng.choice(controller.seats_to_act)
            result = controller.submit_pass(seat, rng.sample(controller.hand(seat), 3))
            assert result.ok, result.error
        else:
            seat = controller.seats_to_act[0]
            result = controller.play_card(seat, rng.choice(controller.legal_cards(seat)))
            assert result.ok, result.error
