"""The server's bot worker keeps a bounded number of bots and forgets a finished table's."""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from types import SimpleNamespace

from ai.basic import FirstLegalBot
from ai.worker import WorkerRequest
from core.controller import Controller
from core.rules import RuleSet
from game.server.bot_worker import BotCache, CountBots, ForgetSeed, serve_cached_requests
from game.server.bots import ServerBots


def _observations(seed: int) -> list[object]:
    controller = Controller()
    controller.new_match(RuleSet(), seed, ["human"] * 4)
    return [controller.observation(seat) for seat in controller.seats_to_act]


def test_the_cache_keeps_the_most_recently_used_bots_and_forgets_a_seed() -> None:
    cache = BotCache(3)
    for seed in range(3):
        cache[(0, "random", seed, ())] = FirstLegalBot()
    assert (0, "random", 0, ()) in cache
    cache[(0, "random", 0, ())]  # used again: seed 1 is now the oldest
    cache[(0, "random", 3, ())] = FirstLegalBot()
    assert len(cache) == 3
    assert {key[2] for key in cache} == {0, 2, 3}
    cache[(1, "random", 3, ())] = FirstLegalBot()
    cache.forget_seed(3)
    assert {key[2] for key in cache} == {0}


def test_the_worker_loop_never_keeps_more_bots_than_its_cache_holds() -> None:
    requests: queue.Queue[object] = queue.Queue()
    results: queue.Queue[tuple[str, int, object]] = queue.Queue()
    cache = BotCache(8)
    floor = SimpleNamespace(value=0)
    number = 0
    for table in range(1, 11):
        for observation in _observations(table):
            number += 1
            requests.put(WorkerRequest(number, "random", table, observation, 100.0))  # type: ignore[arg-type]
    requests.put(CountBots())
    requests.put(ForgetSeed(10))
    requests.put(CountBots())
    requests.put(None)
    thread = threading.Thread(target=serve_cached_requests, args=(requests, results, floor, cache))
    thread.start()
    thread.join(60)
    counts = []
    while not results.empty():
        kind, _, value = results.get()
        if kind == "bots":
            counts.append(value)
    assert counts == [8, 4], counts


def _settle(bots: ServerBots, wanted: int) -> int:
    """Poll until ``wanted`` decisions came back; return how many did."""
    got = 0
    give_up = time.monotonic() + 60
    while got < wanted and time.monotonic() < give_up:
        got += len(bots.poll())
        time.sleep(0.01)
    return got


def _counts(bots: ServerBots) -> list[int | None]:
    """Return how many bots each worker of the pool keeps."""
    for worker in bots.workers:
        worker.count_bots()
    give_up = time.monotonic() + 30
    while any(w.bot_count is None for w in bots.workers) and time.monotonic() < give_up:
        bots.poll()
        time.sleep(0.01)
    return [worker.bot_count for worker in bots.workers]


def test_a_finished_tables_bots_leave_the_worker() -> None:
    bots = ServerBots(100.0)
    try:
        tables = range(1, 13)
        for table in tables:
            for seat, observation in enumerate(_observations(table)):
                bots.ask(table, seat, observation, "random")  # type: ignore[arg-type]
        assert _settle(bots, 4 * len(tables)) == 4 * len(tables)
        assert _counts(bots) == [4 * len(tables)]
        for table in tables:
            bots.forget_table(table)
        assert _counts(bots) == [0], "the worker keeps the bots of tables that are over"
    finally:
        bots.close()


def test_a_pool_of_workers_shares_the_tables_and_ends_with_close() -> None:
    bots = ServerBots(100.0, workers=3)
    try:
        bots.start()
        pids = [worker.pid for worker in bots.workers]
        assert len(set(pids)) == 3 and None not in pids
        tables = range(1, 10)
        for table in tables:
            for seat, observation in enumerate(_observations(table)):
                bots.ask(table, seat, observation, "random")  # type: ignore[arg-type]
        assert _settle(bots, 4 * len(tables)) == 4 * len(tables)
        assert _counts(bots) == [12, 12, 12], "each worker thinks for a third of the tables"
        bots.forget_table(4)  # its bots are in worker 4 % 3 == 1
        assert _counts(bots) == [12, 8, 12]
    finally:
        bots.close()
    give_up = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in pids) and time.monotonic() < give_up:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids), "a worker outlived close"
