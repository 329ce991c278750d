"""A decision's memo of the readers' work on the history's plays: a compiled reader given one
memo across many pools reads every deal as the twin (which computes every play) does, and a
memo given another history, model or evidence table starts again."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType

import pytest
from search_kernels import IMPLEMENTATIONS, compiled, needs_compiled
from test_learned_reader_twin import random_model
from test_reader_mixture import random_table
from test_search_twin import random_history, random_state

from ai import search_py
from ai.knowledge import read_knowledge
from ai.play_model import load_play_model
from ai.sampler import DealSampler
from ai.search_py import History, LearnedModel

Deal = tuple[int, ...]
SHIPPED = load_play_model()


def pools_of(
    rng: random.Random, plays: int | None = None, runner: bool = False
) -> tuple[list[list[Deal]], History] | None:
    """Three pools of 40 deals for a random position and its history (None: no other seat has
    played, or with ``runner`` no one seat holds every point taken)."""
    hand = random_state(rng, plays)
    seat = hand.turn
    if seat is None or not hand.tricks or not hand.tricks[0].cards:
        return None
    if runner and sum(1 for points in hand.taken_points() if points) != 1:
        return None
    sampler = DealSampler(read_knowledge(hand.observation(seat, (0, 0, 0, 0))))
    pools = [[sampler.sample(rng) for _ in range(40)] for _ in range(3)]
    return pools, random_history(hand)


def readings(
    kernel: ModuleType, history: History, table: tuple[int, ...], model: LearnedModel
) -> dict[str, Callable[[list[Deal], object], list[int]]]:
    """Each reader a memo serves, as a function of the deals and the memo."""
    return {
        "learned": lambda deals, memo: kernel.learned_evidence(deals, history, model, memo),
        "per seat": lambda deals, memo: kernel.mixed_evidence(
            deals, history, table, model, 0.5, False, memo
        ),
        "per play": lambda deals, memo: kernel.mixed_evidence(
            deals, history, table, model, 0.3, True, memo
        ),
    }


@needs_compiled
def test_one_memo_across_pools_reads_every_deal_as_the_twin() -> None:
    rng = random.Random(83)
    checked = runners = 0
    for attempt in range(400):
        # Every other position has one seat holding every point taken: the rollout policy
        # behind the evidence table reads from the other hands whether it runs for the moon.
        runner = attempt % 2 == 1
        case = pools_of(rng, rng.randrange(8, 30), runner=True) if runner else pools_of(rng)
        if case is None:
            continue
        pools, history = case
        # The shipped model: a random one's extreme weights make most plays' probabilities
        # depend on the number of choices alone, which hides a wrong key.
        table, model = random_table(rng), SHIPPED
        twin = readings(search_py, history, table, model)
        for name, read in readings(compiled, history, table, model).items():
            memo = compiled.PlayMemo()
            for deals in pools:
                assert read(deals, memo) == twin[name](deals, None), name
        checked += 1
        runners += runner
        if checked == 50:
            break
    assert checked == 50 and runners > 10


@needs_compiled
def test_a_memo_given_another_history_model_or_table_starts_again() -> None:
    rng = random.Random(89)
    checked = 0
    while checked < 12:
        first, second = pools_of(rng, 30), pools_of(rng, 30)
        if first is None or second is None:
            continue
        table, model = random_table(rng), random_model(rng)
        other_table, other_model = random_table(rng), random_model(rng)
        memo = compiled.PlayMemo()
        deals, history = first[0][0], first[1]
        for step_history, step_deals, step_table, step_model in (
            (history, deals, table, model),
            (history, deals, table, other_model),
            (history, deals, other_table, other_model),
            (second[1], second[0][0], other_table, other_model),
            (history, deals, table, model),
        ):
            got = compiled.mixed_evidence(
                step_deals, step_history, step_table, step_model, 0.5, False, memo
            )
            assert got == search_py.mixed_evidence(
                step_deals, step_history, step_table, step_model, 0.5
            )
            assert compiled.learned_evidence(step_deals, step_history, step_model, memo) == (
                search_py.learned_evidence(step_deals, step_history, step_model)
            )
        checked += 1


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_memo_changes_no_reading(kernel: ModuleType) -> None:
    rng = random.Random(97)
    case = None
    while case is None:
        case = pools_of(rng, 20)
    pools, history = case
    table, model = random_table(rng), random_model(rng)
    memo = kernel.PlayMemo()
    for deals in pools:
        assert kernel.mixed_evidence(deals, history, table, model, 0.5, False, memo) == (
            kernel.mixed_evidence(deals, history, table, model, 0.5)
        )
