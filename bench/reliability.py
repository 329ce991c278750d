"""Reliability benchmark: many bot-only hands with every invariant checked after every action.

Also measures the throughput of a normal-only tournament on all cores (hands per second).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from ai.autoplay import BotError, play_bots
from ai.bot import Bot
from ai.registry import make_bot
from ai.tournament import run_tournament
from bench import machine_info
from core.cards import FULL_DECK, mask_of
from core.controller import Controller
from core.record import dumps_record, loads_record

DEFAULT_LINEUP = "normal,easy,random,first"


class InvariantError(AssertionError):
    """A rule of the game was broken during a bot-only match."""


def check_position(controller: Controller) -> None:
    """Raise InvariantError unless every card is in exactly one place."""
    held = [mask_of(controller.hand(seat)) for seat in range(4)]
    played = mask_of(card for trick in controller.tricks for card in trick.cards)
    union = played
    for mask in held:
        if union & mask:
            raise InvariantError("a card is in two places")
        union |= mask
    if union != FULL_DECK:
        raise InvariantError("a card is missing")


def check_hand_end(controller: Controller) -> None:
    """Raise InvariantError unless the finished hand scored as the rules say."""
    score = controller.hand_scores[-1]
    if score.moon_shooter is None:
        if sum(score.taken_points) != 26 or sum(score.points) != 26:
            raise InvariantError(f"points do not add up to 26: {score.points}")
    elif sorted(score.points) != [0, 26, 26, 26]:
        raise InvariantError(f"a moon scored {score.points}")
    totals = [sum(s.points[seat] for s in controller.hand_scores) for seat in range(4)]
    if tuple(totals) != controller.totals:
        raise InvariantError("totals are not the sum of the hands")


def play_checked_hand(controller: Controller, bots: Sequence[Bot]) -> int:
    """Let the bots play the current hand, every card checked after every move; return the moves.

    A move the rules refuse raises InvariantError, as a broken invariant does.
    """
    moves = 0

    def checked(seat: int, elapsed_ms: float) -> None:
        nonlocal moves
        moves += 1
        check_position(controller)

    try:
        play_bots(controller, dict(enumerate(bots)), checked)
    except BotError as error:
        raise InvariantError(str(error)) from None
    return moves


def play_checked_hands(lineup: list[str], hands: int, seed: int) -> tuple[int, int]:
    """Play bot-only matches until ``hands`` hands are done; return (hands, actions)."""
    rng = random.Random(seed)
    done = actions = 0
    while done < hands:
        bots = [make_bot(name, rng.randrange(2**32)) for name in lineup]
        controller = Controller()
        controller.new_match(seed=rng.randrange(2**62), seats=["bot"] * 4)
        while controller.phase != "match_over" and done < hands:
            if controller.phase == "hand_over":
                if not controller.next_hand().ok:
                    raise InvariantError("the next hand could not be dealt")
                continue
            actions += play_checked_hand(controller, bots)
            if controller.phase in ("hand_over", "match_over"):
                check_hand_end(controller)
                done += 1
                if done % 50 == 0 and dumps_record(loads_record(dumps_record(controller))) != (
                    dumps_record(controller)
                ):
                    raise InvariantError("the record does not round-trip")
    return done, actions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options."""
    parser.add_argument("--hands", type=int, default=10_000, help="bot-only hands to check")
    parser.add_argument("--lineup", default=DEFAULT_LINEUP, help="four bots, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--throughput-deals", type=int, default=250, help="deals of the normal-only tournament"
    )


def run(args: argparse.Namespace) -> int:
    """Run the checks and the throughput measurement; print the results."""
    info = machine_info()
    for key, value in info.items():
        print(f"{key}: {value}")
    lineup = [name.strip() for name in args.lineup.split(",")]
    start = time.perf_counter()
    try:
        hands, actions = play_checked_hands(lineup, args.hands, args.seed)
    except InvariantError as error:
        print(f"FAILED: {error}")
        return 1
    elapsed = time.perf_counter() - start
    print(
        f"{hands} hands ({actions} actions) by {args.lineup}: every invariant held, "
        f"no error, {elapsed:.1f} s"
    )
    start = time.perf_counter()
    run_tournament(["normal"] * 4, args.throughput_deals, args.seed)
    elapsed = time.perf_counter() - start
    total = 4 * args.throughput_deals
    print(
        f"normal-only tournament: {total} hands in {elapsed:.1f} s = "
        f"{total / elapsed:.0f} hands/s on all cores"
    )
    return 0
