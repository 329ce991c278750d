"""The bot worker process: whole hands through it, stale results dropped, deaths survived.

The test bots below are registered by name in this process and, through the worker's entry point
``worker_with_test_bots``, inside the worker.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from ai.autoplay import play_bots
from ai.basic import FirstLegalBot
from ai.bot import Budget
from ai.registry import BOTS, BotFactory
from ai.think import ThinkConfig, is_legal
from ai.worker import (
    BotWorker,
    WorkerRequest,
    WorkerResult,
    WorkerRunner,
    answer,
    worker_main,
)
from core.controller import Controller
from core.observation import Observation
from game.terminal.bots import RunnerBot


class HangingBot(FirstLegalBot):
    """Ignores its budget and never answers a play."""

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        while True:
            time.sleep(0.01)


class PatientBot(FirstLegalBot):
    """Thinks until its budget runs out or is cancelled; remembers which it was each time."""

    def __init__(self) -> None:
        super().__init__()
        self.cancelled: list[bool] = []

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        assert budget is not None
        while not budget.expired():
            time.sleep(0.002)
        self.cancelled.append(budget.cancelled())
        self.last_decision = {"cancelled": self.cancelled}
        return super().choose_play(observation)


class BrokenBot(FirstLegalBot):
    """Fails on every play."""

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        raise RuntimeError("broken")


def hanging(seed: int | None) -> HangingBot:
    """Factory of a hanging bot."""
    return HangingBot()


def patient(seed: int | None) -> PatientBot:
    """Factory of a patient bot."""
    return PatientBot()


def broken(seed: int | None) -> BrokenBot:
    """Factory of a broken bot."""
    return BrokenBot()


def dies_at_start(requests: Any, results: Any, floor: Any) -> None:
    """A worker entry point that leaves at once, as a worker that cannot start would."""


HANGING, PATIENT, BROKEN, VANISHING = "test_hanging", "test_patient", "test_broken", "test_gone"
#: The test bots the worker process registers (``VANISHING`` is registered only in this one).
TEST_BOTS: dict[str, BotFactory] = {HANGING: hanging, PATIENT: patient, BROKEN: broken}


def worker_with_test_bots(requests: Any, results: Any, floor: Any) -> None:
    """The worker's entry point with the test bots registered in the worker process."""
    BOTS.update(TEST_BOTS)
    worker_main(requests, results, floor)


@pytest.fixture(scope="module", autouse=True)
def test_bots() -> Iterator[None]:
    """Register the test bots in this process for the module's tests, then remove them."""
    added = {**TEST_BOTS, VANISHING: patient}
    BOTS.update(added)
    yield
    for name in added:
        BOTS.pop(name, None)


@pytest.fixture(scope="module")
def worker(test_bots: None) -> Iterator[BotWorker]:
    with BotWorker(grace_ms=500) as shared:
        shared.process_target = worker_with_test_bots  # type: ignore[method-assign]
        yield shared


def playing_observation(seed: int = 3) -> Observation:
    controller = Controller()
    controller.new_match(seed=seed, rules={"pass_cycle": ["hold"]})
    return controller.observation(controller.seats_to_act[0])


def wait_for(worker: BotWorker, request_id: int) -> tuple[WorkerResult, list[WorkerResult]]:
    """Poll until the request's result arrives; return it and every result seen."""
    seen: list[WorkerResult] = []
    while True:
        seen += worker.poll()
        for result in seen:
            if result.id == request_id:
                return result, seen
        time.sleep(0.005)


def test_a_whole_hand_through_the_worker(worker: BotWorker) -> None:
    reported = []
    runner = WorkerRunner(ThinkConfig(limit_ms=5000), reported.append, worker)
    controller = Controller()
    controller.new_match(seed=4, seats=["bot"] * 4)
    bots = {seat: RunnerBot(runner, name) for seat, name in enumerate(["first", "easy"] * 2)}
    events = play_bots(controller, bots)
    runner.close()  # not its worker: it stays up
    assert worker.pid is not None
    assert controller.phase == "hand_over" and events[-1].kind == "hand_scored"
    assert len(reported) == 4 + 52
    assert not any(decision.fallback_used for decision in reported)


def test_submit_returns_at_once_and_poll_delivers(worker: BotWorker) -> None:
    observation = playing_observation()
    request_id = worker.submit(observation, "first")
    result, seen = wait_for(worker, request_id)
    assert [item.id for item in seen] == [request_id]
    assert is_legal(observation, result.decision.action) and not result.decision.fallback_used
    assert worker.poll() == []


def test_superseded_and_cancelled_results_are_dropped(worker: BotWorker) -> None:
    observation = playing_observation()
    old = worker.submit(observation, PATIENT, limit_ms=20_000)
    while not worker.started(old):
        assert worker.poll() == []
        time.sleep(0.005)
    new = worker.submit(observation, PATIENT, limit_ms=1)
    result, seen = wait_for(worker, new)
    assert [item.id for item in seen] == [new]  # the old one answered first and was dropped
    assert result.decision.facts == {"cancelled": [True, False]}  # the same bot answered both
    dropped = worker.submit(observation, "first")
    worker.cancel_all()
    last = worker.submit(observation, "first", supersede=False)
    result, seen = wait_for(worker, last)
    assert dropped not in [item.id for item in seen]


def test_cancellation_reaches_the_bot() -> None:
    class Floor:
        value = 0

    floor = Floor()
    request = WorkerRequest(5, PATIENT, None, playing_observation(), 2_000)
    floor.value = 6  # a later request superseded it before the bot looked
    thought = answer(request, {}, floor)
    assert thought.error is None and thought.facts == {"cancelled": [True]}


def test_a_killed_worker_is_replaced_and_the_fallback_played(worker: BotWorker) -> None:
    observation = playing_observation()
    restarts = worker.restarts
    request_id = worker.submit(observation, HANGING, limit_ms=None)
    while not worker.started(request_id):
        worker.poll()
        time.sleep(0.005)
    assert worker.pid is not None
    os.kill(worker.pid, getattr(signal, "SIGKILL", signal.SIGTERM))  # Windows: SIGTERM ends it
    result, _ = wait_for(worker, request_id)
    decision = result.decision
    assert decision.fallback == "the bot worker stopped" and not decision.timed_out
    assert is_legal(observation, decision.action)
    assert worker.restarts == restarts + 1
    again = worker.decide(observation, "first")
    assert not again.fallback_used and is_legal(observation, again.action)


def test_a_hung_bot_times_out_and_the_game_goes_on(worker: BotWorker) -> None:
    observation = playing_observation(seed=9)
    restarts = worker.restarts
    decision = worker.decide(observation, HANGING, limit_ms=20, fallback="first_legal")
    assert decision.timed_out and decision.fallback_used
    assert decision.action == FirstLegalBot().choose_play(observation)
    assert worker.restarts == restarts + 1
    assert not worker.decide(observation, "easy").fallback_used


def test_bot_errors_in_the_worker_use_the_fallback(worker: BotWorker) -> None:
    observation = playing_observation()
    failed = worker.decide(observation, BROKEN)
    assert failed.fallback is not None and "RuntimeError: broken" in failed.fallback
    missing = worker.decide(observation, VANISHING)  # known here, unknown to the worker
    assert missing.fallback is not None and "unknown bot 'test_gone'" in missing.fallback
    assert is_legal(observation, failed.action) and is_legal(observation, missing.action)
    with pytest.raises(ValueError, match="unknown bot"):
        worker.submit(observation, "nobody")
    with pytest.raises(ValueError, match="unknown fallback"):
        worker.submit(observation, "first", fallback="pray")


def test_a_worker_that_cannot_start_gives_up_but_the_game_goes_on() -> None:
    observation = playing_observation()
    with BotWorker() as doomed:
        doomed.process_target = dies_at_start  # type: ignore[method-assign]
        reasons = [doomed.decide(observation, "first").fallback for _ in range(4)]
        assert doomed.broken and doomed.pid is None
    assert reasons[:3] == ["the bot worker stopped"] * 3
    assert reasons[3] == "the bot worker cannot start"
