"""A frame's time for preparing things ahead (card faces, sounds), spent a piece at a time.

A piece starts only when the time it is expected to take fits before the deadline, so
preparing never stretches a frame past its budget; a piece longer than the whole budget still
starts when it is the frame's first, so everything gets prepared, one long piece a frame.
"""

from __future__ import annotations

import time


class FrameBudget:
    """The time until ``deadline`` (a ``time.perf_counter()`` value) and the pieces done in it."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.pieces = 0

    @classmethod
    def of(cls, deadline: float | FrameBudget) -> FrameBudget:
        """Return the budget ending at ``deadline``.

        Callers handed the same deadline one after the other share one budget (and its first
        piece): ``App.warm_up`` gives one deadline to both sizes of card art and the sounds.
        """
        global _latest
        if isinstance(deadline, FrameBudget):
            return deadline
        if _latest is None or _latest.deadline != deadline:
            _latest = cls(deadline)
        return _latest

    def allows(self, estimate: float) -> bool:
        """Return whether a piece expected to take ``estimate`` seconds may start now.

        Nothing starts once the deadline has passed; before it, a piece starts when it is
        expected to end in time, or when it is the first piece of the budget.
        """
        now = time.perf_counter()
        if now >= self.deadline:
            return False
        return self.pieces == 0 or now + estimate <= self.deadline

    def done(self) -> None:
        """Count a piece as done."""
        self.pieces += 1


#: The budget made last from a bare deadline (``FrameBudget.of``).
_latest: FrameBudget | None = None
