"""Racing: which candidates of a search still deserve deals (selective deepening).

Every candidate is valued on the same deals, so two candidates are compared deal by deal: the
luck of a deal cancels out of their difference. At fixed deal numbers (``check_points``:
``FIRST_CHECK`` deals, then each ``GROWTH`` times the last) ``contenders`` drops the
candidates whose mean difference from the current best is more than ``DROP_ERRORS`` standard
errors of that difference, keeping at least two unless the runner-up too is worse than the
best by more than ``ALONE_ERRORS``. The deals after a check go to the contenders only.

The checks fall on deal numbers, never on the batches the clock makes, so a search with a
seed and a sample count drops the same candidates whatever the time taken or the threads.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator, Sequence

#: The first check, in deals: enough for a difference's spread to be measured.
FIRST_CHECK = 64
#: Each later check comes after this many times as many deals as the one before.
GROWTH = 1.5
#: A candidate worse than the best by more than this many standard errors is dropped.
DROP_ERRORS = 3.0
#: The last two contenders part only when the worse one is behind by this many.
ALONE_ERRORS = 8.0
#: Fewest contenders kept unless one is best by ``ALONE_ERRORS``.
KEEP = 2


def next_check(done: int) -> int:
    """Return the first check point after ``done`` deals (``FIRST_CHECK``, then × ``GROWTH``)."""
    point = FIRST_CHECK
    while point <= done:
        point = max(point + 1, int(point * GROWTH))
    return point


def check_points(first: int, size: int) -> Iterator[tuple[int, int, bool]]:
    """Split the deals ``first``..``first + size`` at the check points among them.

    Yields ``(start, end, check)`` for consecutive runs of deal numbers; ``check`` says whether
    ``end`` is a check point, where the contenders are chosen again before the next deal.
    """
    start = first
    end = first + size
    while start < end:
        point = next_check(start)
        stop = min(point, end)
        yield start, stop, stop == point
        start = stop


def paired_difference(costs: Sequence[int], best: Sequence[int]) -> tuple[float, float]:
    """Return how much more ``costs`` are than ``best`` on average over the deals both were
    valued on (the first ones), and the standard error of that mean (infinite below two)."""
    differences = list(map(operator.sub, costs, best))
    number = len(differences)
    if number == 0:
        return 0.0, math.inf
    total = sum(differences)
    mean = total / number
    if number < 2:
        return mean, math.inf
    squares = sum(map(operator.mul, differences, differences))
    variance = max(0.0, (squares - total * mean) / (number - 1))
    return mean, math.sqrt(variance / number)


def contenders(
    by_deal: Sequence[Sequence[int]],
    alive: Sequence[int],
    drop: float = DROP_ERRORS,
    alone: float = ALONE_ERRORS,
    keep: int = KEEP,
) -> list[int]:
    """Return the slots of ``alive`` still worth deals, in their order.

    ``by_deal[slot]`` is a candidate's cost on each deal (lower is better), the slots of
    ``alive`` valued on the same deals. The best is the lowest total (ties: the earlier slot);
    a slot more than ``drop`` standard errors behind it is dropped, the closest ones kept so
    that at least ``keep`` remain, unless they too are more than ``alone`` behind.
    """
    if len(alive) <= 1:
        return list(alive)
    best = min(alive, key=lambda slot: sum(by_deal[slot]))
    gaps = {}
    for slot in alive:
        if slot != best:
            mean, error = paired_difference(by_deal[slot], by_deal[best])
            gaps[slot] = (mean / error if error > 0 else math.inf) if mean > 0 else 0.0
    kept = {best} | {slot for slot, gap in gaps.items() if gap <= drop}
    closest = sorted(gaps, key=lambda slot: (gaps[slot], slot))
    for slot in closest:
        if len(kept) >= keep:
            break
        if gaps[slot] <= alone:
            kept.add(slot)
    return [slot for slot in alive if slot in kept]
