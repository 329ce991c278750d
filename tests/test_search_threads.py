"""The search on several threads: the same result for every number of threads, compiled or
twin; the threads setting and its checks."""

from __future__ import annotations

import multiprocessing
import random
from typing import Any

import pytest
from search_kernels import compiled, needs_compiled
from test_fair_play import twin_observations
from test_hard import random_controllers
from test_search_twin import random_evaluation

from ai import cores, hard, search_py
from ai.hard import HardBot
from ai.think import think_config_from_env

THREAD_COUNTS = (1, 2, 3, 5)


def random_arguments(rng: random.Random) -> tuple[Any, ...]:
    """Return the arguments of one evaluation of a random position (as the twin test's),
    with up to 9 deals so that some threads get none, one or several."""
    return random_evaluation(rng, 0.3, most_deals=9)


@needs_compiled
def test_every_number_of_threads_gives_the_twins_result() -> None:
    # Rollouts, rollouts ending in an exact search, exact searches and looking ahead, under
    # every rule set: the cost of every deal and the tallies, on 1 to 5 threads.
    rng = random.Random(71)
    for number in range(60):
        arguments = random_arguments(rng)
        expected = search_py.evaluate_detail(*arguments)
        totals = [sum(expected[0][slot :: len(arguments[2])]) for slot in range(len(arguments[2]))]
        if number < 5:  # the twin takes the setting and runs on one thread
            assert search_py.evaluate_detail(*arguments, threads=3) == expected
        for threads in THREAD_COUNTS:
            assert compiled.evaluate_detail(*arguments, threads=threads) == expected, threads
            assert compiled.evaluate(*arguments, threads=threads) == totals, threads


@pytest.mark.parametrize("threads", [0, -1, search_py.MAX_THREADS + 1])
def test_an_impossible_number_of_threads_is_refused(threads: int) -> None:
    arguments = random_arguments(random.Random(3))
    kernels = [search_py] if compiled is None else [search_py, compiled]
    for kernel in kernels:
        with pytest.raises(ValueError, match="threads must be from 1 to 256"):
            kernel.evaluate_detail(*arguments, threads=threads)
    with pytest.raises(ValueError, match="threads must be from 1 to 256"):
        HardBot(threads=threads)
    with pytest.raises(ValueError, match="threads must be a whole number"):
        HardBot(threads=2.0)  # type: ignore[arg-type]


def test_the_kernels_allow_as_many_threads() -> None:
    if compiled is not None:
        assert compiled.MAX_THREADS == search_py.MAX_THREADS


def _decisions(threads: int) -> list[dict[str, Any]]:
    decisions = []
    for controller in random_controllers(range(20, 26)):
        observation = controller.observation(controller.seats_to_act[0])
        bot = HardBot(seed=5, max_samples=30, threads=threads)
        if controller.phase == "pass":
            bot.choose_pass(observation)
        else:
            bot.choose_play(observation)
        decisions.append(bot.last_decision)
    return decisions


def test_the_hard_bot_decides_the_same_on_any_number_of_threads() -> None:
    expected = _decisions(1)
    assert any(decision["samples"] == 30 for decision in expected)
    for threads in (2, 3):
        assert _decisions(threads) == expected


def test_the_values_deal_by_deal_are_the_same_on_any_number_of_threads() -> None:
    controller = random_controllers(range(40, 60))[0]
    observation = controller.observation(controller.seats_to_act[0])
    kind = "pass_values" if controller.phase == "pass" else "play_values"
    values = [
        getattr(HardBot(seed=8, max_samples=50, threads=threads), kind)(observation)
        for threads in (1, 4)
    ]
    assert values[0].samples == 50 and values[0] == values[1]


def test_the_bot_hands_its_threads_to_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    def recording(*arguments: Any) -> tuple[list[int], list[int]]:
        seen.append(arguments[10])
        return search_py.evaluate_detail(*arguments)

    monkeypatch.setattr(hard, "evaluate_detail", recording)
    for controller in random_controllers(range(0, 12)):
        observation = controller.observation(controller.seats_to_act[0])
        bot = HardBot(seed=1, max_samples=4, threads=3)
        if controller.phase == "pass":
            bot.choose_pass(observation)
        else:
            bot.choose_play(observation)
    assert seen and set(seen) == {3}


def test_decisions_on_two_threads_do_not_depend_on_hidden_cards() -> None:
    checked = 0
    for original, again in twin_observations("hard on two threads"):
        first = HardBot(seed=99, max_samples=12, threads=2)
        second = HardBot(seed=99, max_samples=12, threads=2)
        assert first.choose_play(original) == second.choose_play(again)
        assert first.last_decision == second.last_decision
        checked += 1
        if checked == 20:
            break
    assert checked == 20


def test_the_threads_default_to_the_cores_minus_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cores.THREADS_ENV, raising=False)
    for available, expected in ((1, 1), (2, 1), (8, 7), (1000, search_py.MAX_THREADS)):
        monkeypatch.setattr(cores, "available_cores", lambda available=available: available)
        assert cores.default_threads() == expected
        assert cores.threads_from_env({}) == (expected, [])
        assert HardBot().threads == expected
    assert cores.available_cores() >= 1


def test_the_environment_sets_the_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores, "available_cores", lambda: 4)
    assert cores.threads_from_env({cores.THREADS_ENV: " 2 "}) == (2, [])
    assert cores.threads_from_env({cores.THREADS_ENV: ""}) == (3, [])
    monkeypatch.setenv(cores.THREADS_ENV, "5")
    assert HardBot().threads == 5
    assert HardBot(threads=1).threads == 1


@pytest.mark.parametrize("text", ["0", "-2", "257", "two", "1.5", "2 3"])
def test_a_bad_threads_variable_is_ignored_with_a_clear_warning(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    monkeypatch.setattr(cores, "available_cores", lambda: 4)
    threads, warnings = cores.threads_from_env({cores.THREADS_ENV: text})
    assert threads == 3
    assert warnings == [
        f"ignoring MDH_SEARCH_THREADS={text!r}: must be a whole number from 1 to 256"
    ]
    assert think_config_from_env({cores.THREADS_ENV: text})[1] == warnings
    monkeypatch.setenv(cores.THREADS_ENV, text)
    assert HardBot().threads == 3


def _evaluate_in_child(queue: Any) -> None:
    arguments = random_arguments(random.Random(5))
    assert compiled is not None
    queue.put(compiled.evaluate(*arguments, threads=3))


@needs_compiled
@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this system"
)
def test_a_forked_process_searches_on_threads_of_its_own() -> None:
    # The parent's pool has threads that a forked child does not: the child makes its own.
    arguments = random_arguments(random.Random(5))
    assert compiled is not None
    expected = compiled.evaluate(*arguments, threads=3)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_evaluate_in_child, args=(queue,))
    child.start()
    try:
        assert queue.get(timeout=60) == expected
    finally:
        child.join(timeout=10)
        if child.is_alive():
            child.kill()
    assert child.exitcode == 0
