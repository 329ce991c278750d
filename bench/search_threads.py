"""The hard bot's search on several threads: what this machine measures, and a model of more.

For each thread count: decisions per second at a fixed number of deals (the same decisions
whatever the count), and deals searched per decision with their time (p50 / p95) at think
budgets. The model is Amdahl's law, ``S(n) = 1 / ((1 - p) + p / n)``, with the parallel
fraction ``p`` taken two ways: the share of a one-thread decision spent in the kernel's
evaluation (``evaluate_detail``: its hot loop runs on every thread; drawing the deals, the
Python around it and handing work to threads do not), and the fraction implied by the
speedup measured at two threads (``p = 2 (1 - 1 / S(2))``), which also pays for the hand-off
and for a loaded machine.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ai import hard
from ai.bot import Budget
from ai.hard import HardBot
from core.observation import Observation

#: Deals per decision for the decisions-per-second figures.
FIXED_DEALS = 1_000
#: Thread counts the model predicts for (an 8-core machine runs 7 by default).
MODEL_THREADS = (1, 2, 4, 7, 8)

ResultTable = tuple[str, list[str], list[list[str]]]


def amdahl(parallel: float, threads: int) -> float:
    """Return the speedup on ``threads`` threads of work whose ``parallel`` share divides.

    >>> round(amdahl(0.9, 2), 3), amdahl(1.0, 8), amdahl(0.0, 8)
    (1.818, 8.0, 1.0)
    """
    return 1.0 / ((1.0 - parallel) + parallel / threads)


def parallel_from_speedup(speedup: float, threads: int) -> float:
    """Return the parallel share that Amdahl's law gives for a measured speedup (clamped to
    0..1).

    >>> round(parallel_from_speedup(amdahl(0.9, 2), 2), 6)
    0.9
    """
    share = (1.0 - 1.0 / speedup) / (1.0 - 1.0 / threads)
    return min(1.0, max(0.0, share))


def _decide(bot: HardBot, observation: Observation, budget: Budget | None) -> int:
    if observation.must_pass:
        bot.choose_pass(observation, budget)
    else:
        bot.choose_play(observation, budget)
    return int(bot.last_decision["samples"])


@contextmanager
def _timed_kernel(spent: list[float]) -> Iterator[None]:
    """Add the time spent in the hard bot's kernel evaluations to ``spent[0]`` meanwhile."""
    original: Callable[..., Any] = getattr(hard, "evaluate_detail")  # noqa: B009

    def timed(*arguments: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*arguments)
        finally:
            spent[0] += time.perf_counter() - start

    setattr(hard, "evaluate_detail", timed)  # noqa: B010
    try:
        yield
    finally:
        setattr(hard, "evaluate_detail", original)  # noqa: B010


def fixed_rate(
    observations: Sequence[Observation], threads: int, deals: int = FIXED_DEALS
) -> tuple[float, float]:
    """Return decisions per second at ``deals`` deals on ``threads`` threads, and the share
    of the time spent in the kernel's evaluations."""
    spent = [0.0]
    bot = HardBot(seed=1, max_samples=deals, threads=threads)
    with _timed_kernel(spent):
        start = time.perf_counter()
        for observation in observations:
            _decide(bot, observation, None)
        elapsed = time.perf_counter() - start
    return len(observations) / elapsed, spent[0] / elapsed


def budget_row(
    observations: Sequence[Observation], threads: int, budget_ms: float
) -> tuple[float, float, float]:
    """Return the median deals per decision, and the p50 and p95 ms, at ``budget_ms``."""
    bot = HardBot(seed=1, threads=threads)
    deals = []
    times = []
    for observation in observations:
        start = time.perf_counter()
        deals.append(_decide(bot, observation, Budget.for_ms(budget_ms)))
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * len(times)))]
    return statistics.median(deals), statistics.median(times), p95


def thread_tables(
    observations: Sequence[Observation],
    timed: Sequence[Observation],
    budgets_ms: Sequence[float],
    thread_counts: Sequence[int],
    deals: int = FIXED_DEALS,
) -> tuple[list[ResultTable], list[tuple[str, float, float]]]:
    """Measure the hard bot at each thread count; return the tables and, per thread count
    and budget, (label, budget, p95 ms) for the targets."""
    rows = []
    p95s = []
    rates: dict[int, float] = {}
    kernel_share = None
    medians: dict[tuple[int, float], float] = {}
    for threads in thread_counts:
        rate, share = fixed_rate(observations, threads, deals)
        rates[threads] = rate
        if threads == 1:
            kernel_share = share
        row = [str(threads), f"{rate:,.2f}", f"{rate / rates[thread_counts[0]]:.2f}×"]
        for budget in budgets_ms:
            median, p50, p95 = budget_row(timed, threads, budget)
            medians[(threads, budget)] = median
            p95s.append((f"{threads} thread{'s' if threads > 1 else ''}", budget, p95))
            row += [f"{median:,.0f}", f"{p50:.1f} / {p95:.1f}"]
        rows.append(row)
    header = ["threads", f"decisions/s at {deals:,} deals", "speedup"]
    for budget in budgets_ms:
        header += [f"deals at {budget:g} ms (median)", f"ms p50 / p95 at {budget:g} ms"]
    tables: list[ResultTable] = [
        (
            f"Hard bot on threads ({len(observations)} positions at fixed deals, "
            f"{len(timed)} at budgets; speedup against {thread_counts[0]} thread(s))",
            header,
            rows,
        )
    ]
    model = model_table(kernel_share, rates, medians, budgets_ms)
    if model is not None:
        tables.append(model)
    return tables, p95s


def model_table(
    kernel_share: float | None,
    rates: dict[int, float],
    medians: dict[tuple[int, float], float],
    budgets_ms: Sequence[float],
) -> ResultTable | None:
    """Return Amdahl's model of the speedup on more threads (None without a 1-thread run)."""
    if kernel_share is None or 1 not in rates:
        return None
    fractions = [("kernel share", kernel_share)]
    if 2 in rates:
        fractions.append(("2-thread speedup", parallel_from_speedup(rates[2] / rates[1], 2)))
    header = ["threads"]
    for label, share in fractions:
        header.append(f"speedup, p = {share:.3f} ({label})")
    last_budget = budgets_ms[-1] if budgets_ms else None
    if last_budget is not None and (1, last_budget) in medians:
        header.append(f"deals at {last_budget:g} ms ({fractions[-1][0]})")
    rows = []
    for threads in MODEL_THREADS:
        row = [str(threads)]
        for _, share in fractions:
            row.append(f"{amdahl(share, threads):.2f}×")
        if len(header) > len(fractions) + 1 and last_budget is not None:
            deals = medians[(1, last_budget)] * amdahl(fractions[-1][1], threads)
            row.append(f"{deals:,.0f}")
        rows.append(row)
    return (
        "Model: Amdahl's law S(n) = 1 / ((1 − p) + p / n), p the parallel share measured "
        "here (an 8-core machine runs 7 threads by default)",
        header,
        rows,
    )
