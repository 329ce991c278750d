"""The hard bot's search on several threads: what this machine measures, and a model of more.

For each thread count: decisions per second at a fixed number of deals (the same decisions
whatever the count), and deals searched per decision with their time (p50 / p95) at think
budgets. The model predicts the speedup on ``n`` threads from a one-thread decision, two
ways. Amdahl's law, ``S(n) = 1 / ((1 - p) + p / n)``, with the parallel fraction ``p`` the
share of the decision's time during which the kernel's evaluation (``evaluate_detail``: its
hot loop runs on every thread) runs, or the fraction implied by the speedup measured at two
threads (``p = 2 (1 - 1 / S(2))``, which also pays for the hand-off and for a loaded machine).
And the overlap model: the calling thread draws the next batch while the kernel values one
(``ai.hard``), so a decision takes at least the calling thread's own time ``c`` (its CPU
time: drawing, weighing and gathering) however fast the kernel is,
``S(n) = 1 / max((1 - p) + p / n, c)``.
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
) -> tuple[float, float, float]:
    """Return decisions per second at ``deals`` deals on ``threads`` threads, the share of the
    time during which the kernel's evaluations ran, and the calling thread's CPU time as a
    share of the time."""
    spent = [0.0]
    bot = HardBot(seed=1, max_samples=deals, threads=threads)
    with _timed_kernel(spent):
        start = time.perf_counter()
        busy = time.thread_time()
        for observation in observations:
            _decide(bot, observation, None)
        busy = time.thread_time() - busy
        elapsed = time.perf_counter() - start
    return len(observations) / elapsed, spent[0] / elapsed, busy / elapsed


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
    caller_share = 0.0
    medians: dict[tuple[int, float], float] = {}
    for threads in thread_counts:
        rate, share, caller = fixed_rate(observations, threads, deals)
        rates[threads] = rate
        if threads == 1:
            kernel_share, caller_share = share, caller
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
    model = model_table(kernel_share, rates, medians, budgets_ms, caller_share)
    if model is not None:
        tables.append(model)
    return tables, p95s


def overlapped(parallel: float, caller: float, threads: int) -> float:
    """Return the speedup on ``threads`` threads when the kernel's ``parallel`` share divides
    and the calling thread's own ``caller`` share overlaps it (a decision never takes less).

    >>> overlapped(0.9, 0.3, 1), round(overlapped(0.9, 0.3, 2), 3), overlapped(0.9, 0.3, 8)
    (1.0, 1.818, 3.3333333333333335)
    """
    return 1.0 / max((1.0 - parallel) + parallel / threads, caller)


def model_table(
    kernel_share: float | None,
    rates: dict[int, float],
    medians: dict[tuple[int, float], float],
    budgets_ms: Sequence[float],
    caller_share: float = 0.0,
) -> ResultTable | None:
    """Return the models of the speedup on more threads (None without a 1-thread run): Amdahl's
    law with each parallel share, then the overlap model (``overlapped``)."""
    if kernel_share is None or 1 not in rates:
        return None
    fractions = [("kernel share", kernel_share)]
    if 2 in rates:
        fractions.append(("2-thread speedup", parallel_from_speedup(rates[2] / rates[1], 2)))
    header = ["threads"]
    for label, share in fractions:
        header.append(f"speedup, p = {share:.3f} ({label})")
    header.append(f"overlap model, p = {kernel_share:.3f}, c = {caller_share:.3f}")
    last_budget = budgets_ms[-1] if budgets_ms else None
    with_deals = last_budget is not None and (1, last_budget) in medians
    if with_deals:
        header.append(f"deals at {last_budget:g} ms (overlap model)")
    rows = []
    for threads in MODEL_THREADS:
        row = [str(threads)]
        for _, share in fractions:
            row.append(f"{amdahl(share, threads):.2f}×")
        speedup = overlapped(kernel_share, caller_share, threads)
        row.append(f"{speedup:.2f}×")
        if with_deals and last_budget is not None:
            row.append(f"{medians[(1, last_budget)] * speedup:,.0f}")
        rows.append(row)
    return (
        "Model: Amdahl's law S(n) = 1 / ((1 − p) + p / n), p the kernel's share of a one-thread "
        "decision measured here; the overlap model S(n) = 1 / max((1 − p) + p / n, c), c the "
        "calling thread's own share (an 8-core machine runs 7 threads by default)",
        header,
        rows,
    )
