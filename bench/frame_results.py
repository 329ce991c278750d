"""What the frame-time benchmark measured, and its tables: the frames of each scene, the
hand's facts, the first frame after launch, and each target met or not."""

from __future__ import annotations

import cProfile
import io
import math
import os
import pstats
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bench.idle import IdleCpu, target_rows

if TYPE_CHECKING:
    from ai.think import Decision

#: The game's frame rate, at which the benchmark paces its frames too.
FPS = 60
#: Targets from the issue: p99 frame work time (one frame at 60 Hz), and the first frame.
TARGET_FRAME_MS = 1000 / FPS
TARGET_FIRST_FRAME_S = 1.0
#: Frames at the start of the table reported on their own as well (one second at 60 Hz).
WARM_FRAMES = 60

ResultTable = tuple[str, list[str], list[list[str]]]


@dataclass(frozen=True)
class Frame:
    """One frame: work time and CPU time of ``App.step`` in ms, and what was going on."""

    index: int
    ms: float
    cpu_ms: float
    thinking: bool
    label: str


@dataclass
class HandRun:
    """Everything measured at one window size."""

    size: tuple[int, int]
    title: list[Frame] = field(default_factory=list)
    setup_ms: float = 0.0
    hand: list[Frame] = field(default_factory=list)
    summary: list[Frame] = field(default_factory=list)
    wall_s: float = 0.0
    finished: bool = False
    decisions: list[Decision] = field(default_factory=list)
    cpu: CpuShare | None = None
    profiles: list[tuple[float, int, str, cProfile.Profile]] = field(default_factory=list)
    profile_total: pstats.Stats | None = None


@dataclass(frozen=True)
class CpuShare:
    """Cores kept busy during the hand: the whole machine, the table, and the bot worker."""

    machine: float
    table: float
    worker: float

    @property
    def others(self) -> float:
        """Return the cores used by other processes (and the kernel) meanwhile."""
        return max(0.0, self.machine - self.table - self.worker)


@dataclass(frozen=True)
class FirstFrame:
    """The first frame after launch, median of several fresh interpreters, in seconds."""

    size: tuple[int, int]
    runs: int
    wall: float
    total: float
    imports: float
    app: float
    first_step: float

    @property
    def interpreter(self) -> float:
        """Return the time before the child's first line ran (process and interpreter start)."""
        return self.wall - self.total


def percentile(values: Sequence[float], share: float) -> float:
    """Return the nearest-rank percentile (``share`` in 0..100) of ``values``."""
    ordered = sorted(values)
    rank = max(1, math.ceil(share / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def size_text(size: tuple[int, int]) -> str:
    """Return a window size as the tables write it: ``1920×1080``."""
    return f"{size[0]}×{size[1]}"


def _row(label: str, frames: Sequence[Frame]) -> list[str]:
    if not frames:
        return [label, "0", "-", "-", "-", "-", "-", "-", "-", "-"]
    times = [frame.ms for frame in frames]
    cpu = [frame.cpu_ms for frame in frames]
    over = sum(ms > TARGET_FRAME_MS for ms in times)
    return [
        label,
        f"{len(frames):,}",
        f"{percentile(times, 50):.2f}",
        f"{percentile(times, 95):.2f}",
        f"{percentile(times, 99):.2f}",
        f"{max(times):.2f}",
        f"{over:,} ({100 * over / len(frames):.1f}%)",
        f"{percentile(cpu, 50):.2f}",
        f"{percentile(cpu, 99):.2f}",
        f"{max(cpu):.2f}",
    ]


FRAME_HEADER = [
    "frames",
    "count",
    "p50 ms",
    "p95 ms",
    "p99 ms",
    "max ms",
    f"> {TARGET_FRAME_MS:.1f} ms",
    "CPU p50 ms",
    "CPU p99 ms",
    "CPU max ms",
]


def hand_tables(run: HandRun) -> list[ResultTable]:
    """Return the frame-time tables of one window size."""
    size = size_text(run.size)
    hand = run.hand
    thinking = [frame for frame in hand if frame.thinking]
    rows = [
        _row("whole hand, every frame", hand),
        _row(f"whole hand, first {WARM_FRAMES} frames (deal; card art drawn)", hand[:WARM_FRAMES]),
        _row(f"whole hand, after the first {WARM_FRAMES}", hand[WARM_FRAMES:]),
        _row("whole hand, while a hard bot thinks", thinking),
        _row("whole hand, while no bot thinks", [frame for frame in hand if not frame.thinking]),
        _row("title menu, before the match (cards and sounds prepared)", run.title),
        _row("title menu, after its first frame (the felt made)", run.title[1:]),
        _row("hand summary shown, after the hand", run.summary),
    ]
    bots = run.decisions
    think_s = sum(decision.elapsed_ms for decision in bots) / 1000
    slow = [frame for frame in hand if frame.ms > TARGET_FRAME_MS]
    waited = sum(frame.cpu_ms <= TARGET_FRAME_MS for frame in slow)
    facts = [
        ["table opened (session and scene, inside the click's frame)", f"{run.setup_ms:.1f} ms"],
        ["hand, from the click to the summary", f"{run.wall_s:.1f} s"],
        ["hand finished", "yes" if run.finished else "no (stopped at --max-seconds)"],
        [
            "frames with a hard bot thinking",
            f"{len(thinking):,} of {len(hand):,} ({100 * len(thinking) / max(1, len(hand)):.0f}%)",
        ],
        [
            "bot decisions (passes and plays), thinking time",
            f"{len(bots)}, {think_s:.1f} s",
        ],
        ["decisions that used their whole think time", f"{sum(d.timed_out for d in bots)}"],
        ["decisions answered by the fallback", f"{sum(d.fallback_used for d in bots)}"],
        [
            f"frames over {TARGET_FRAME_MS:.1f} ms with under {TARGET_FRAME_MS:.1f} ms of CPU "
            "(waiting for a core)",
            f"{waited} of {len(slow)}",
        ],
    ]
    if run.cpu is not None:
        cores = os.cpu_count() or 1
        facts.append(
            [
                f"cores busy during the hand (of {cores}): table, bot worker, everything else",
                f"{run.cpu.table:.2f}, {run.cpu.worker:.2f}, {run.cpu.others:.2f}",
            ]
        )
    slowest = sorted(hand, key=lambda frame: -frame.ms)[:5]
    slow_rows = [
        [f"#{frame.index}", frame.label, f"{frame.ms:.2f}", f"{frame.cpu_ms:.2f}"]
        for frame in slowest
    ]
    return [
        (f"Frame work time at {size} (App.step, without the tick's wait)", FRAME_HEADER, rows),
        (f"The hand at {size}", ["measure", "value"], facts),
        (
            f"Slowest frames at {size}",
            ["frame", "phase/beat", "ms", "CPU ms"],
            slow_rows,
        ),
    ]


def first_frame_table(results: Sequence[FirstFrame]) -> ResultTable:
    """Return the first-frame table."""
    rows = [
        [
            size_text(result.size),
            f"{result.wall:.3f}",
            f"{result.interpreter:.3f}",
            f"{result.total:.3f}",
            f"{result.imports:.3f}",
            f"{result.app:.3f}",
            f"{result.first_step:.3f}",
        ]
        for result in results
    ]
    runs = results[0].runs if results else 0
    return (
        f"First frame after launch from source, seconds (median of {runs} fresh interpreters)",
        [
            "size",
            "launch to first frame",
            "interpreter start",
            "first line to first frame",
            "imports",
            "App()",
            "first step",
        ],
        rows,
    )


def _scene_target(name: str, frames: Sequence[Frame], size: str) -> list[str]:
    """Return the target row of a scene's p99 frame time."""
    p99 = percentile([frame.ms for frame in frames], 99)
    status = "met" if p99 <= TARGET_FRAME_MS else "not met"
    return [f"p99 frame ≤ {TARGET_FRAME_MS:.1f} ms, {name}, {size}", f"{p99:.2f} ms", status]


def _max_target(name: str, frames: Sequence[Frame], size: str) -> list[str]:
    """Return the target row of a scene's slowest frame, with its CPU time (the rest of a
    frame's time is waiting for a core taken by other processes)."""
    slowest = max(frames, key=lambda frame: frame.ms)
    status = "met" if slowest.ms <= TARGET_FRAME_MS else "not met"
    measured = f"{slowest.ms:.2f} ms ({slowest.cpu_ms:.2f} ms CPU)"
    return [f"no frame over {TARGET_FRAME_MS:.1f} ms, {name}, {size}", measured, status]


def targets_table(
    runs: Sequence[HandRun], firsts: Sequence[FirstFrame], idles: Sequence[IdleCpu] = ()
) -> ResultTable:
    """Return each target at each size, met or not met."""
    rows = []
    for run in runs:
        if not run.hand:
            continue
        size = size_text(run.size)
        p99 = percentile([frame.ms for frame in run.hand], 99)
        status = "met" if p99 <= TARGET_FRAME_MS and run.finished else "not met"
        rows.append([f"p99 frame ≤ {TARGET_FRAME_MS:.1f} ms, {size}", f"{p99:.2f} ms", status])
        scenes = (("title menu", run.title), ("hand summary", run.summary))
        rows += [_scene_target(name, frames, size) for name, frames in scenes if frames]
        if len(run.title) > 1:
            rows.append(_max_target("title menu after its first frame", run.title[1:], size))
        if run.summary:
            rows.append(_max_target("hand summary", run.summary, size))
    for first in firsts:
        status = "met" if first.wall <= TARGET_FIRST_FRAME_S else "not met"
        rows.append(
            [
                f"first frame ≤ {TARGET_FIRST_FRAME_S:g} s, {size_text(first.size)}",
                f"{first.wall:.3f} s",
                status,
            ]
        )
    rows += target_rows(list(idles))
    return ("Targets", ["target", "measured", "status"], rows)


def profile_text(run: HandRun, lines: int = 25) -> str:
    """Return the top functions by cumulative CPU time: every frame, then the slowest ones."""
    if not run.profiles or run.profile_total is None:
        return ""
    out = io.StringIO()
    size = size_text(run.size)
    out.write(f"\ncProfile at {size}, CPU time of the table's thread, all {len(run.hand)} ")
    out.write("frames of the hand (divide by the frame count for a frame's share):\n")
    total = pstats.Stats(stream=out)
    total.add(run.profile_total)
    total.sort_stats("cumulative").print_stats(lines)
    labels = ", ".join(f"#{index} {label} {ms:.1f} ms" for ms, index, label, _ in run.profiles)
    out.write(f"\ncProfile at {size}, the {len(run.profiles)} frames with the most CPU time ")
    out.write(f"(CPU ms under the profiler): {labels}\n")
    stats = pstats.Stats(run.profiles[0][3], stream=out)
    for _, _, _, profiler in run.profiles[1:]:
        stats.add(profiler)
    stats.sort_stats("cumulative").print_stats(lines)
    return out.getvalue()
