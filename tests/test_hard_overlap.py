"""The hard bot draws the next batch of deals while the kernel values one: deals drawn ahead and
dropped when the search stops change nothing (values, evidence, the bot's random numbers)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_hard import random_controllers

from ai import batches, inference
from ai.batches import BatchSizes
from ai.bot import Budget
from ai.hard import HardBot, SearchValues
from ai.inference import DealReader
from core.observation import Observation


class StopAfter:
    """A budget's cancel check that says stop from its ``calls``-th call on."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.seen = 0

    def __call__(self) -> bool:
        self.seen += 1
        return self.seen >= self.calls


class RecordingReader(DealReader):
    """A deal reader that remembers the highest deal number it drew."""

    highest = -1

    def draw(self, first: int, count: int) -> list[tuple[int, int, int, int]]:
        RecordingReader.highest = max(RecordingReader.highest, first + count - 1)
        return super().draw(first, count)


def _positions(phase: str, wanted: int) -> list[Observation]:
    found = []
    for controller in random_controllers(range(100, 200)):
        observation = controller.observation(controller.seats_to_act[0])
        if controller.phase != phase:
            continue
        if phase == "play" and (
            len(controller.legal_cards(observation.seat)) < 2 or len(observation.tricks) < 3
        ):
            continue  # a forced card, or too few plays to read
        found.append(observation)
        if len(found) == wanted:
            break
    assert len(found) == wanted
    return found


def _search(bot: HardBot, observation: Observation, budget: Budget | None) -> tuple[Any, Any]:
    """Return the bot's values of the observed decision, and its random numbers' state after."""
    search = bot.pass_values if observation.must_pass else bot.play_values
    return search(observation, budget), bot._rng.getstate()


def _stopped_early(observation: Observation, calls: int, threads: int) -> tuple[SearchValues, Any]:
    return _search(HardBot(seed=17, threads=threads), observation, Budget(None, StopAfter(calls)))


def _counted(observation: Observation, samples: int, threads: int) -> tuple[SearchValues, Any]:
    return _search(HardBot(seed=17, max_samples=samples, threads=threads), observation, None)


@pytest.fixture
def many_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the search overlap its batches on any machine (it needs a core for the drawing)."""
    monkeypatch.setattr(batches, "available_cores", lambda: 64)


@pytest.mark.parametrize("threads", [2, 3])
def test_deals_drawn_ahead_and_dropped_change_no_value_nor_the_evidence(
    monkeypatch: pytest.MonkeyPatch, many_cores: None, threads: int
) -> None:
    # Stopped after a few batches, the search has drawn deals past those it valued; it must
    # report what a search told to value exactly that many deals reports, evidence included.
    monkeypatch.setattr(inference, "DealReader", RecordingReader)  # what deal_reader builds
    dropped = weighed = 0
    for observation in _positions("play", 6):
        for calls in (3, 4):
            RecordingReader.highest = -1
            early, _ = _stopped_early(observation, calls, threads)
            assert early.samples > 0
            dropped += RecordingReader.highest >= early.samples
            weighed += early.evidence is not None
            assert _counted(observation, early.samples, threads)[0] == early
    assert dropped >= 6 and weighed >= 6  # the case under test happened, with evidence read


@pytest.mark.parametrize("threads", [2, 3])
def test_pass_deals_drawn_ahead_and_dropped_leave_the_bots_random_numbers_as_they_were(
    many_cores: None, threads: int
) -> None:
    # The pass search draws its deals from the bot's own random numbers: a batch drawn ahead
    # and dropped must leave them as a search of exactly the deals valued leaves them.
    for observation in _positions("pass", 3):
        for calls in (3, 4):
            early, state = _stopped_early(observation, calls, threads)
            assert early.samples > 0
            assert _counted(observation, early.samples, threads) == (early, state)


@pytest.mark.parametrize(("threads", "cores"), [(1, 64), (2, 2), (4, 3)])
def test_without_a_core_left_for_drawing_no_deal_is_drawn_ahead(
    monkeypatch: pytest.MonkeyPatch, threads: int, cores: int
) -> None:
    # One thread is one core, and a thread for every core leaves none to draw on: the search
    # draws, values and gathers in turn, as before.
    monkeypatch.setattr(inference, "DealReader", RecordingReader)  # what deal_reader builds
    monkeypatch.setattr(batches, "available_cores", lambda: cores)
    for observation in _positions("play", 3):
        for calls in (3, 4):
            RecordingReader.highest = -1
            early, _ = _stopped_early(observation, calls, threads)
            assert RecordingReader.highest == early.samples - 1
            assert _counted(observation, early.samples, threads)[0] == early


def test_a_batch_is_drawn_ahead_only_if_it_can_end_before_the_deadline() -> None:
    sizes = BatchSizes(2, time.perf_counter() - 1.0, None, 0)
    assert sizes.ahead(0) == 2  # nothing measured yet: a first small batch
    sizes.valued(10, 0.001)
    assert sizes.ahead(10) == 0 and sizes.now(10) == 1  # past the deadline: one deal at a time
    at_least = BatchSizes(2, time.perf_counter() - 1.0, None, 40)
    at_least.valued(10, 0.001)
    assert at_least.ahead(10) == 30 and at_least.now(10) == 30  # the deals asked for anyway
    roomy = BatchSizes(2, time.perf_counter() + 3600.0, 500, 0)
    roomy.valued(10, 0.001)
    assert roomy.ahead(10) == min(batches.BATCH_DEALS * 2, int(batches.BATCH_SECONDS / 1e-4))
    assert roomy.ahead(495) == 5  # never past the deals the search may value


@pytest.mark.parametrize("threads", [2, 3])
def test_a_race_over_batches_drawn_ahead_decides_as_a_search_of_exactly_its_deals(
    many_cores: None, threads: int
) -> None:
    # The bot's own play decisions race (``ai.racing``): the batch after a check point must be
    # valued for the candidates the check kept, although it was drawn before the check.
    raced = 0
    for observation in _positions("play", 6):
        for calls in (5, 8):
            bot = HardBot(seed=17, threads=threads)
            bot.choose_play(observation, Budget(None, StopAfter(calls)))
            counted = HardBot(seed=17, max_samples=bot.last_decision["samples"], threads=threads)
            counted.choose_play(observation)
            assert counted.last_decision == bot.last_decision
            deals = bot.last_decision.get("deals", {})
            raced += len(set(deals.values())) > 1  # a candidate dropped out at a check
    assert raced >= 3
