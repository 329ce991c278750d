"""The hard bot's search on several threads: what this machine measures, and a model of more.

For each thread count: decisions per second at a fixed number of deals (the same decisions
whatever the count), and deals searched per decision with their time (p50 / p95) at think
budgets. The models predict the speedup on ``n`` threads from a one-thread decision. Amdahl's
law, ``S(n) = 1 / ((1 - p) + p / n)``, with the parallel fraction ``p`` the share of the
decision's time during which the kernel's evaluation (``evaluate_detail``: its hot loop runs
on every thread) runs, or the fraction implied by the speedup measured at two threads
(``p = 2 (1 - 1 / S(2))``, which also pays for the hand-off and for a loaded machine).

And a model from one thread's CPU time per decision, which a busy machine disturbs less than
the clock: the calling thread's own work ``c`` (drawing and weighing the deals, gathering, the
Python around) and the kernel's ``k`` (CPU time in ``evaluate_detail``). On one thread they
take turns (``c + k``); from two threads on, the calling thread draws the next batch while the
kernel values one (``ai.hard``), so on enough free cores a decision takes ``max(c, k / n)``,
against ``c + k / n`` were they still run one after the other.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

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


class Rate(NamedTuple):
    """Decisions per second at a fixed number of deals, and where their time went."""

    decisions: float
    #: The share of the time during which a kernel evaluation ran.
    kernel_share: float
    #: CPU seconds per decision of the calling thread outside the kernel, and of the threads
    #: calling the kernel while they did (on one thread: all of the kernel's).
    caller_cpu: float
    kernel_cpu: float


@contextmanager
def _timed_kernel(spent: list[float]) -> Iterator[None]:
    """Add the time spent in the hard bot's kernel evaluations to ``spent[0]``, the CPU time
    of the thread calling it to ``spent[1]``, and to ``spent[2]`` too when that thread is
    this one, meanwhile."""
    original: Callable[..., Any] = getattr(hard, "evaluate_detail")  # noqa: B009
    caller = threading.get_ident()

    def timed(*arguments: Any) -> Any:
        start = time.perf_counter()
        busy = time.thread_time()
        try:
            return original(*arguments)
        finally:
            used = time.thread_time() - busy
            spent[1] += used
            if threading.get_ident() == caller:
                spent[2] += used
            spent[0] += time.perf_counter() - start

    setattr(hard, "evaluate_detail", timed)  # noqa: B010
    try:
        yield
    finally:
        setattr(hard, "evaluate_detail", original)  # noqa: B010


def fixed_rate(observations: Sequence[Observation], threads: int, deals: int = FIXED_DEALS) -> Rate:
    """Return decisions per second at ``deals`` deals on ``threads`` threads, and where their
    time went."""
    spent = [0.0, 0.0, 0.0]
    bot = HardBot(seed=1, max_samples=deals, threads=threads)
    with _timed_kernel(spent):
        start = time.perf_counter()
        busy = time.thread_time()
        for observation in observations:
            _decide(bot, observation, None)
        busy = time.thread_time() - busy
        elapsed = time.perf_counter() - start
    count = len(observations)
    return Rate(count / elapsed, spent[0] / elapsed, (busy - spent[2]) / count, spent[1] / count)


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
    one_thread: Rate | None = None
    medians: dict[tuple[int, float], float] = {}
    for threads in thread_counts:
        measured = fixed_rate(observations, threads, deals)
        rate = rates[threads] = measured.decisions
        if threads == 1:
            one_thread = measured
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
    model = model_table(one_thread, rates, medians, budgets_ms)
    if model is not None:
        tables.append(model)
    return tables, p95s


def overlapped(caller: float, kernel: float, threads: int) -> float:
    """Return the speedup on ``threads`` threads against one (where the calling thread's work
    ``caller`` and the kernel's ``kernel`` take turns) when from two threads on the calling
    thread's work overlaps the kernel's, which divides among the threads.

    >>> overlapped(0.3, 0.7, 1), overlapped(0.3, 0.7, 2), round(overlapped(0.3, 0.7, 8), 3)
    (1.0, 2.857142857142857, 3.333)
    """
    if threads == 1:
        return 1.0
    return (caller + kernel) / max(caller, kernel / threads)


def model_table(
    one_thread: Rate | None,
    rates: dict[int, float],
    medians: dict[tuple[int, float], float],
    budgets_ms: Sequence[float],
) -> ResultTable | None:
    """Return the models of the speedup on more threads (None without a 1-thread run):
    Amdahl's law with each parallel share, then the CPU-time model with and without the
    overlap (``overlapped``; ``amdahl`` with ``p = k / (c + k)``)."""
    if one_thread is None or 1 not in rates:
        return None
    fractions = [("kernel share", one_thread.kernel_share)]
    if 2 in rates:
        fractions.append(("2-thread speedup", parallel_from_speedup(rates[2] / rates[1], 2)))
    caller, kernel = one_thread.caller_cpu, one_thread.kernel_cpu
    header = ["threads"]
    for label, share in fractions:
        header.append(f"speedup, p = {share:.3f} ({label})")
    header.append(f"overlapped from 2, c = {caller * 1000:.1f} ms, k = {kernel * 1000:.1f} ms")
    header.append("one after the other (c + k / n)")
    last_budget = budgets_ms[-1] if budgets_ms else None
    with_deals = last_budget is not None and (1, last_budget) in medians
    if with_deals:
        header.append(f"deals at {last_budget:g} ms (overlapped)")
    rows = []
    for threads in MODEL_THREADS:
        row = [str(threads)]
        for _, share in fractions:
            row.append(f"{amdahl(share, threads):.2f}×")
        speedup = overlapped(caller, kernel, threads)
        row.append(f"{speedup:.2f}×")
        row.append(f"{amdahl(kernel / (caller + kernel), threads):.2f}×")
        if with_deals and last_budget is not None:
            row.append(f"{medians[(1, last_budget)] * speedup:,.0f}")
        rows.append(row)
    return (
        "Model: Amdahl's law S(n) = 1 / ((1 − p) + p / n), p measured here; and from one "
        "thread's CPU time per decision, c the calling thread's and k the kernel's: "
        "(c + k) / max(c, k / n) overlapped, (c + k) / (c + k / n) one after the other "
        "(an 8-core machine runs 7 threads by default)",
        header,
        rows,
    )
