"""Running a search's deals in batches against the clock: how big each batch is, and whether
drawing the next batch overlaps valuing this one (``run_batches``).

A hard-bot search (``ai.hard``) draws numbered deals, values them in the compiled kernel and
gathers the values, batch after batch, until its budget or deal count runs out. The result
depends only on the deals valued, never on the batches' sizes or the threads.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from ai.bot import Budget
from ai.cores import available_cores

#: Deals per batch aim at this many seconds, so the budget is checked often.
BATCH_SECONDS = 0.01
#: The most deals in a batch, per search thread.
BATCH_DEALS = 256
#: Deals in a batch before the time per deal is measured.
FIRST_BATCH = 2
#: Near the deadline a batch takes at most this share of the time left, so that a batch slower
#: than the last one's pace (a busy machine, a thread stopped by the system) overshoots little.
DEADLINE_SHARE = 0.5

#: A batch of deals as a search draws it, and what valuing it returns (``run_batches``).
DrawnT = TypeVar("DrawnT")
ValuedT = TypeVar("ValuedT")


def run_batches(
    budget: Budget,
    threads: int,
    limit: int | None,
    least: int,
    draw: Callable[[int, int], DrawnT],
    evaluate: Callable[[DrawnT], ValuedT],
    gather: Callable[[DrawnT, ValuedT], None],
    drop: Callable[[DrawnT], None] | None = None,
    barrier: Callable[[int], int] | None = None,
) -> int:
    """Value deals ``0``, ``1``, .. in batches until done or out of time; return how many.

    ``draw(first, size)`` draws a batch on the calling thread, ``evaluate`` values it, and
    ``gather`` adds its values to the search's on the calling thread, in deal order. On one
    thread, or on as many threads as the process has cores, the three take turns on the
    calling thread. Otherwise (a core is left for the drawing), ``evaluate`` runs on a
    helper thread (the kernel runs without Python's lock) and the batches overlap: while
    the helper values batch ``k``, batch ``k + 1`` waits in its queue (so the helper never
    waits for the calling thread) and the calling thread gathers batch ``k - 1`` and draws
    batch ``k + 2``. The helper checks the budget before each batch: a batch it finds out
    of time for, and any after it, is never valued but handed back to ``drop`` (if given),
    so the result depends on the deals valued alone.

    With a ``barrier`` (the first barrier after a deal number: the checks of a race,
    ``ai.racing.next_check``), no batch spans a barrier, and a batch ending at one is
    gathered before the next is valued (it may be drawn meanwhile), so ``evaluate`` sees
    what ``gather`` made of every deal before the barrier.

    Stops at ``limit`` deals (None: none), but not for the budget before ``least`` deals;
    batch sizes follow the measured time per deal (``BatchSizes``). ``threads`` is the
    number of threads the kernel searches on.
    """
    overlap = 1 < threads < available_cores()

    def fenced(first: int, size: int) -> int:
        return size if barrier is None else min(size, barrier(first) - first)

    sizes = BatchSizes(threads, budget.deadline, limit, least, overlap)
    done = 0
    drawn = 0
    if not overlap:
        # Draw, value and gather in turn on the calling thread: on one thread, a second
        # would take a core from the table or from another game of a tournament's pool; with
        # a thread for every core, drawing meanwhile would stop a kernel thread mid-batch
        # (measured slower: ``docs/performance.md``).
        while not (limit is not None and done >= limit) and not (
            done >= least and budget.expired()
        ):
            size = fenced(done, sizes.now(done))
            start = time.perf_counter()
            batch = draw(done, size)
            middle = time.perf_counter()
            values = evaluate(batch)
            sizes.drawn(size, middle - start)
            sizes.valued(size, time.perf_counter() - middle)
            done += size
            gather(batch, values)
        return done
    halted = False  # set on the helper once out of time: no later batch is valued

    def valued(first: int, batch: DrawnT) -> tuple[ValuedT, float] | None:
        nonlocal halted
        if halted or (first >= least and budget.expired()):
            halted = True
            return None
        start = time.perf_counter()
        values = evaluate(batch)
        return values, time.perf_counter() - start

    queued: collections.deque[tuple[int, int, DrawnT, Future[tuple[ValuedT, float] | None]]]
    queued = collections.deque()
    # A batch drawn after one that ends at a barrier, waiting for that one's gathering.
    held: tuple[int, int, DrawnT] | None = None
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="mdh-batch") as helper:

        def submit(first: int, size: int, batch: DrawnT) -> None:
            sizes.started(size)
            queued.append((first, size, batch, helper.submit(valued, first, batch)))

        def queue(size: int) -> None:
            nonlocal drawn, held
            first = drawn
            size = fenced(first, size)
            start = time.perf_counter()
            batch = draw(first, size)
            sizes.drawn(size, time.perf_counter() - start)
            drawn += size
            last = queued[-1] if queued else None
            if last is not None and barrier is not None and barrier(last[0]) == first:
                held = first, size, batch
            else:
                submit(first, size, batch)

        try:
            while True:
                if not queued and held is None:
                    if (limit is not None and done >= limit) or (
                        done >= least and budget.expired()
                    ):
                        break
                    queue(sizes.now(drawn))
                if len(queued) == 1 and held is None:
                    size = sizes.ahead(drawn)
                    if size > 0:
                        queue(size)
                if not queued and held is not None:
                    submit(*held)
                    held = None
                first, size, batch, future = queued.popleft()
                outcome = future.result()
                if outcome is None:
                    drawn = first
                    if drop is not None:
                        drop(batch)  # the first batch dropped: any later one is too
                    break
                values, seconds = outcome
                sizes.valued(size, seconds)
                done += size
                gather(batch, values)
                if held is not None and not queued:
                    submit(*held)
                    held = None
        finally:
            halted = True  # a batch still queued (after an error) is not valued
    return done


class BatchSizes:
    """How many deals a search's next batch takes (``run_batches``).

    A batch aims at ``BATCH_SECONDS`` at the pace of the last one drawn and valued (at most
    ``BATCH_DEALS`` per thread), within ``limit`` deals; with a deadline, it must end in time,
    taking at most ``DEADLINE_SHARE`` of the time left once it can start (but the deals up to
    ``least`` are drawn whatever the time).
    """

    def __init__(
        self,
        threads: int,
        deadline: float | None,
        limit: int | None,
        least: int,
        overlap: bool = True,
    ):
        self.threads = threads
        #: Whether drawing a batch overlaps valuing the one before (else they take turns).
        self.overlap = overlap
        self.deadline = deadline
        self.limit = limit
        self.least = least
        #: Seconds per deal of the last batch valued and of the last drawn (None: none yet).
        self.value_seconds: float | None = None
        self.draw_seconds = 0.0
        #: When the batch being valued is expected to end (``time.perf_counter``).
        self.busy_until = 0.0

    def drawn(self, size: int, seconds: float) -> None:
        """Record that drawing ``size`` deals took ``seconds``."""
        self.draw_seconds = seconds / size

    def started(self, size: int) -> None:
        """Record that a batch of ``size`` deals is queued, to be valued after those before."""
        start = max(time.perf_counter(), self.busy_until)
        self.busy_until = start + size * (self.value_seconds or 0.0)

    def valued(self, size: int, seconds: float) -> None:
        """Record that valuing ``size`` deals took ``seconds``."""
        self.value_seconds = max(seconds / size, 1e-6)

    def now(self, drawn: int) -> int:
        """Return the size of a batch drawn now and valued right after (at least 1 deal)."""
        size = self._aim(drawn)
        if self.deadline is not None and self.value_seconds is not None:
            left = self.deadline - time.perf_counter()
            fit = int(DEADLINE_SHARE * left / (self.draw_seconds + self.value_seconds))
            size = min(size, max(1, fit, self.least - drawn))
        return size

    def ahead(self, drawn: int) -> int:
        """Return the size of a batch drawn now, while those queued are valued, to be valued
        after them (0: none, wait for them first)."""
        size = self._aim(drawn)
        if self.deadline is None or self.value_seconds is None or size <= 0:
            return max(0, size)
        now = time.perf_counter()
        per_deal = self.value_seconds
        # It starts once drawn and once the batches queued end, and must end in time.
        after_running = (self.deadline - max(now, self.busy_until)) / per_deal
        after_drawing = (self.deadline - now) / (self.draw_seconds + per_deal)
        fit = int(DEADLINE_SHARE * min(after_running, after_drawing))
        return max(0, min(size, max(fit, self.least - drawn)))

    def _aim(self, drawn: int) -> int:
        size = FIRST_BATCH
        if self.value_seconds is not None:
            pace = self.draw_seconds + self.value_seconds
            if self.overlap:
                pace = max(self.draw_seconds, self.value_seconds)
            size = max(1, min(BATCH_DEALS * self.threads, int(BATCH_SECONDS / pace)))
        if self.limit is not None:
            size = min(size, self.limit - drawn)
        return size
