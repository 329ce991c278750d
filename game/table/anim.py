"""Motion over time: easing, sprites that glide to their targets, and timed beats.

Everything advances by ``dt`` (seconds) handed in by the loop, never by reading a clock, so
animations run the same under test as on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

Point = tuple[float, float]

#: Seconds each animation takes at the "normal" speed; other speeds scale them.
DURATIONS = {
    "deal": 0.9,
    "deal_stagger": 0.025,
    "play": 0.28,
    "trick_hold": 0.8,
    "collect": 0.38,
    "pass": 0.55,
    "turn": 0.2,
    "resort": 0.25,
    "toast": 2.6,
}
SPEED_FACTORS = {"slow": 1.6, "normal": 1.0, "fast": 0.5, "instant": 0.0}


def duration(name: str, speed: str) -> float:
    """Return how long an animation lasts at a speed setting (0 at ``instant``)."""
    return DURATIONS[name] * SPEED_FACTORS.get(speed, 1.0)


def ease_out_cubic(t: float) -> float:
    """Fast start, gentle landing; ``t`` in [0, 1]."""
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


@dataclass
class Motion:
    """A point gliding from where it was to a target over a duration, after a delay."""

    start: Point
    target: Point
    duration: float = 0.0
    delay: float = 0.0
    elapsed: float = 0.0
    easing: Callable[[float], float] = ease_out_cubic

    @property
    def done(self) -> bool:
        """Return whether the point has arrived."""
        return self.elapsed >= self.delay + self.duration

    @property
    def waiting(self) -> bool:
        """Return whether the point still waits for its delay to pass (it has not moved yet)."""
        return self.elapsed < self.delay

    def position(self) -> Point:
        """Return the current position."""
        if self.duration <= 0 or self.done:
            return self.target if self.elapsed >= self.delay else self.start
        t = self.easing(max(0.0, self.elapsed - self.delay) / self.duration)
        return (
            self.start[0] + (self.target[0] - self.start[0]) * t,
            self.start[1] + (self.target[1] - self.start[1]) * t,
        )

    def retarget(self, target: Point, seconds: float, delay: float = 0.0) -> None:
        """Glide from the current position to a new target."""
        if target == self.target:
            return
        self.start = self.position()
        self.target = target
        self.duration = seconds
        self.delay = delay
        self.elapsed = 0.0

    def snap(self, target: Point) -> None:
        """Jump to a target at once."""
        self.start = self.target = target
        self.duration = self.delay = self.elapsed = 0.0

    def advance(self, dt: float) -> None:
        """Move time on by ``dt`` seconds."""
        self.elapsed += dt


@dataclass
class Beat:
    """A timed step of the show: ``start`` runs once when it begins, then it lasts ``seconds``.

    ``wait_for_click`` holds it (after its time) until ``release`` is called.
    """

    seconds: float
    start: Callable[[], None] | None = None
    wait_for_click: bool = False
    name: str = ""
    elapsed: float = 0.0
    started: bool = False
    released: bool = False

    @property
    def done(self) -> bool:
        """Return whether the beat is over."""
        return self.elapsed >= self.seconds and (self.released or not self.wait_for_click)


@dataclass
class Timeline:
    """Beats played one after another."""

    beats: list[Beat] = field(default_factory=list)

    @property
    def idle(self) -> bool:
        """Return whether no beat is waiting or running."""
        return not self.beats

    @property
    def current(self) -> Beat | None:
        """Return the running beat."""
        return self.beats[0] if self.beats else None

    def add(self, beat: Beat) -> None:
        """Queue a beat after the others."""
        self.beats.append(beat)

    def advance(self, dt: float) -> None:
        """Run beats for ``dt`` seconds; several short beats may pass in one call."""
        budget = dt
        while self.beats:
            beat = self.beats[0]
            if not beat.started:
                beat.started = True
                if beat.start is not None:
                    beat.start()
            used = min(budget, max(0.0, beat.seconds - beat.elapsed))
            beat.elapsed += used
            budget -= used
            if not beat.done:
                return
            self.beats.pop(0)

    def finish(self) -> None:
        """Run every queued beat to its end at once (clicks to continue are released)."""
        while self.beats:
            beat = self.beats[0]
            beat.released = True
            beat.elapsed = beat.seconds
            self.advance(0.0)

    def release(self) -> bool:
        """Release a beat waiting for a click; return whether one was waiting."""
        beat = self.current
        if beat is not None and beat.wait_for_click and beat.elapsed >= beat.seconds:
            beat.released = True
            return True
        return False

    def clear(self) -> None:
        """Drop every beat without running it."""
        self.beats.clear()
