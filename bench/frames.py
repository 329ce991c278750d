"""Frame-time benchmark: the pygame table through one watched hand while hard bots think.

For each window size the table opens headless (SDL's dummy video and audio drivers unless the
caller chose others), with throw-away user folders and the real bot worker process. Three hard
bots and a hard bot in the person's seat (watch mode) play one seeded hand at the ``normal``
animation speed: deal, pass, 13 tricks and their collection, until the hand summary appears.
Frames are paced by ``pygame.time.Clock().tick(60)`` as in the game; each frame's work is the
time ``App.step`` takes (input, update, drawing and ``display.flip``), without the wait for the
next tick. The first frame after launch from source is timed in fresh interpreters. The CPU the
real loop takes while nothing moves (the title menu, the table waiting for the pass) is
measured by ``bench.idle``.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import heapq
import io
import json
import math
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench import add_markdown_option, machine_info, publish
from bench.idle import IDLE_HEADER, IdleCpu, idle_rows, run_idle, target_rows
from bench.rules import render_markdown, render_text

if TYPE_CHECKING:
    from ai.think import Decision
    from game.table.app import App
    from game.table.session import TableSession

TITLE = "MDHearts table frame-time benchmark"
#: Targets from the issue: p99 frame work time (one frame at 60 Hz), and the first frame.
TARGET_FRAME_MS = 1000 / 60
TARGET_FIRST_FRAME_S = 1.0
FPS = 60
DEFAULT_SIZES = "1920x1080,3840x2160"
DEFAULT_SEED = 20261122
#: Frames at the start of the table reported on their own as well (one second at 60 Hz).
WARM_FRAMES = 60
#: The marker line the first-frame child prints, followed by its timings as JSON.
MARKER = "MDH-FIRST-FRAME"
REPO_ROOT = Path(__file__).resolve().parent.parent

ResultTable = tuple[str, list[str], list[list[str]]]

#: Run in a fresh interpreter: open the game as ``python -m game`` does, draw the title menu.
FIRST_FRAME_CODE = f"""
import time
_start = time.perf_counter()
import json, sys
from game.table.app import App
from core.files import user_dirs
from game.table.scenes.title import TitleScene
_imported = time.perf_counter()
dirs, _ = user_dirs()
app = App(dirs, size=(int(sys.argv[1]), int(sys.argv[2])))
_opened = time.perf_counter()
app.stack.push(TitleScene(app))
app.step(app.clock.tick({FPS}) / 1000)
_drawn = time.perf_counter()
print("{MARKER}", json.dumps({{
    "imports": _imported - _start, "app": _opened - _imported,
    "first_step": _drawn - _opened, "total": _drawn - _start,
}}), flush=True)
app.close()
"""


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


class CpuMeter:
    """Reads the CPU time of the machine, this process and the bot worker (Linux ``/proc``)."""

    def __init__(self, worker_pid: int | None) -> None:
        self.worker_pid = worker_pid
        self.tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self.start = self.read()
        self.started = time.perf_counter()

    def read(self) -> tuple[float, float, float] | None:
        """Return busy seconds of every core together, of this process and of the worker."""
        try:
            with open("/proc/stat", encoding="ascii") as stat:
                fields = [int(value) for value in stat.readline().split()[1:]]
            worker = 0.0
            if self.worker_pid is not None:
                with open(f"/proc/{self.worker_pid}/stat", encoding="ascii") as stat:
                    values = stat.read().rsplit(")", 1)[1].split()
                worker = (int(values[11]) + int(values[12])) / self.tick
        except (OSError, ValueError, IndexError):
            return None
        idle = fields[3] + fields[4]
        busy = (sum(fields[:8]) - idle) / self.tick
        return busy, time.process_time(), worker

    def share(self) -> CpuShare | None:
        """Return the cores busy since this meter was made, or None off Linux."""
        end = self.read()
        if self.start is None or end is None:
            return None
        seconds = time.perf_counter() - self.started
        machine, table, worker = (
            (after - before) / seconds for before, after in zip(self.start, end, strict=True)
        )
        return CpuShare(machine, table, worker)


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


def headless() -> None:
    """Use SDL's dummy video and audio drivers unless the caller chose drivers."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """Parse ``1920x1080,3840x2160`` into window sizes (ValueError with the expected form)."""
    from game.tools.screenshots import parse_size

    sizes = [parse_size(part.strip()) for part in text.split(",") if part.strip()]
    if not sizes:
        raise ValueError("no sizes given")
    return sizes


def percentile(values: Sequence[float], share: float) -> float:
    """Return the nearest-rank percentile (``share`` in 0..100) of ``values``."""
    ordered = sorted(values)
    rank = max(1, math.ceil(share / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@contextlib.contextmanager
def user_home() -> Iterator[Path]:
    """Yield a temporary folder to hold the game's settings, statistics and saves."""
    with tempfile.TemporaryDirectory(prefix="mdh-frames-") as home:
        yield Path(home)


def _label(session: TableSession, app: App) -> str:
    """Describe the frame: the match phase and the animation beat being shown."""
    from game.table.scenes.table import TableScene

    scene = next((s for s in app.stack.scenes if isinstance(s, TableScene)), None)
    beat = None if scene is None else scene.view.timeline.current
    if beat is None:
        return f"{session.phase}/idle"
    if beat.name:
        return f"{session.phase}/{beat.name}"
    return f"{session.phase}/deal" if beat.seconds > 0 else session.phase


class Stepper:
    """Runs ``App.step`` at the loop's pace and times each call's work.

    ``count`` numbers the frames. With ``profile`` every frame runs under cProfile timed by
    the thread's CPU clock (so time taken by other processes is left out); while ``keep`` is
    set, the frames are summed in ``total`` and the profiles of the ``keep`` frames with the
    most CPU time are kept in ``slowest``.
    """

    def __init__(self, app: App, profile: bool = False) -> None:
        self.app = app
        self.profile = profile
        self.count = 0
        self.slowest: list[tuple[float, int, str, cProfile.Profile]] = []
        self.total: pstats.Stats | None = None
        self.keep = 0

    def frame(self, thinking: Callable[[], bool], label: Callable[[], str]) -> Frame:
        """Wait for the next tick, then run and time one frame."""
        dt = self.app.clock.tick(FPS) / 1000
        before = thinking()
        profiler = cProfile.Profile(time.thread_time) if self.profile else None
        cpu = time.thread_time()
        start = time.perf_counter()
        if profiler is not None:
            profiler.enable()
        self.app.step(dt)
        if profiler is not None:
            profiler.disable()
        ms = (time.perf_counter() - start) * 1000
        cpu_ms = (time.thread_time() - cpu) * 1000
        self.count += 1
        frame = Frame(self.count, ms, cpu_ms, before or thinking(), label())
        if profiler is not None and self.keep:
            if self.total is None:
                self.total = pstats.Stats(profiler, stream=io.StringIO())
            else:
                self.total.add(profiler)
            entry = (cpu_ms, self.count, frame.label, profiler)
            if len(self.slowest) < self.keep:
                heapq.heappush(self.slowest, entry)
            elif cpu_ms > self.slowest[0][0]:
                heapq.heapreplace(self.slowest, entry)
        return frame


def run_hand(
    size: tuple[int, int],
    seed: int,
    think_ms: float | None,
    title_seconds: float,
    summary_frames: int,
    max_seconds: float,
    profile_slowest: int = 0,
) -> HandRun:
    """Open the table at ``size`` and time every frame of one watched hand of hard bots."""
    headless()
    from core.files import UserDirs
    from game.table.app import App
    from game.table.bot_requests import WorkerBots
    from game.table.scenes.summary import HandSummary
    from game.table.scenes.table import TableScene
    from game.table.scenes.title import TitleScene
    from game.table.session import TableSession

    result = HandRun(size)
    environ = dict(os.environ)
    if think_ms is not None:
        environ["MDH_THINK_LIMIT_MS"] = f"{think_ms:g}"
    with user_home() as home:
        dirs = UserDirs(home / "config", home / "data", home / "state", home / "log")
        app = App(dirs=dirs, size=size, environ=environ)
        try:
            bots = app.bots
            if not isinstance(bots, WorkerBots):
                raise RuntimeError("the table is not using the bot worker process")
            report = bots.report

            def record(decision: Decision) -> None:
                result.decisions.append(decision)
                if report is not None:
                    report(decision)

            bots.report = record
            app.settings = app.settings.with_changes(
                opponents=("hard", "hard", "hard"), speed="normal"
            )
            stepper = Stepper(app, profile=profile_slowest > 0)
            app.stack.push(TitleScene(app))
            title_frames = max(1, round(title_seconds * FPS))
            for _ in range(title_frames):
                result.title.append(stepper.frame(lambda: False, lambda: "title"))
            meter = CpuMeter(bots.worker.pid)
            start = time.perf_counter()
            bots.cancel_all()
            session = TableSession.new_match(
                bots,
                app.settings.opponents,
                app.settings.rules,
                seed=seed,
                limit_ms=app.think.limit_ms,
                watch=True,
            )
            app.stack.replace(TableScene(app, session))
            result.setup_ms = (time.perf_counter() - start) * 1000
            stepper.keep = profile_slowest
            stepper.count = 0

            def thinking() -> bool:
                return bool(session.thinking_seats())

            def label() -> str:
                return _label(session, app)

            while time.perf_counter() - start < max_seconds:
                result.hand.append(stepper.frame(thinking, label))
                if isinstance(app.stack.top, HandSummary):
                    result.finished = True
                    break
            result.wall_s = time.perf_counter() - start
            result.cpu = meter.share()
            stepper.keep = 0
            if result.finished:
                for _ in range(summary_frames):
                    result.summary.append(stepper.frame(thinking, lambda: "summary"))
            result.profiles = sorted(stepper.slowest, key=lambda entry: -entry[0])
            result.profile_total = stepper.total
        finally:
            app.close()
    return result


def _child_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    env["MDH_HOME"] = str(home)
    return env


def first_frame_once(size: tuple[int, int], timeout: float = 60.0) -> dict[str, float]:
    """Start a fresh interpreter that opens the title menu; return its timings in seconds.

    ``wall`` is measured here, from just before the process starts until its marker line is
    read; the others are measured in the child from its first line.
    """
    with user_home() as home:
        command = [sys.executable, "-c", FIRST_FRAME_CODE, str(size[0]), str(size[1])]
        start = time.perf_counter()
        child = subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            env=_child_env(home),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        timings: dict[str, float] | None = None
        try:
            for line in child.stdout:
                if line.startswith(MARKER):
                    wall = time.perf_counter() - start
                    timings = {"wall": wall, **json.loads(line[len(MARKER) :])}
                    break
            _, errors = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            _, errors = child.communicate()
        if timings is None or child.returncode != 0:
            raise RuntimeError(f"the first-frame child failed ({child.returncode}): {errors}")
        return timings


def first_frame(size: tuple[int, int], runs: int) -> FirstFrame:
    """Return the median first-frame timings over ``runs`` fresh interpreters."""
    samples = [first_frame_once(size) for _ in range(runs)]

    def median(key: str) -> float:
        return statistics.median(sample[key] for sample in samples)

    return FirstFrame(
        size,
        runs,
        median("wall"),
        median("total"),
        median("imports"),
        median("app"),
        median("first_step"),
    )


def _size(size: tuple[int, int]) -> str:
    return f"{size[0]}×{size[1]}"


def _row(label: str, frames: Sequence[Frame]) -> list[str]:
    if not frames:
        return [label, "0", "-", "-", "-", "-", "-", "-", "-"]
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
]


def hand_tables(run: HandRun) -> list[ResultTable]:
    """Return the frame-time tables of one window size."""
    size = _size(run.size)
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
            _size(result.size),
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
        size = _size(run.size)
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
                f"first frame ≤ {TARGET_FIRST_FRAME_S:g} s, {_size(first.size)}",
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
    size = _size(run.size)
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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options to its command."""
    parser.add_argument(
        "--sizes",
        default=DEFAULT_SIZES,
        metavar="WxH,...",
        help=f"window sizes (default {DEFAULT_SIZES})",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the match's deal")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=None,
        metavar="MS",
        help="the bots' think time per decision (default: the game's, from MDH_THINK_LIMIT_MS "
        "or 1000)",
    )
    parser.add_argument(
        "--title-seconds",
        type=float,
        default=2.0,
        metavar="S",
        help="time on the title menu before the match starts (default 2; the worker starts)",
    )
    parser.add_argument(
        "--summary-frames",
        type=int,
        default=FPS,
        metavar="N",
        help=f"frames timed with the hand summary shown (default {FPS})",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=300.0,
        metavar="S",
        help="give up on a hand after this long (default 300)",
    )
    parser.add_argument(
        "--first-frame-runs",
        type=int,
        default=3,
        metavar="N",
        help="fresh interpreters per size for the first frame (default 3; 0 to skip)",
    )
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds of the real loop measured on the idle title menu and the idle table, "
        "per size (default 5; 0 to skip)",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="after the measurement, play the hand again under cProfile (CPU time of the "
        "table's thread) and print the top functions over all its frames and over the N "
        "frames with the most CPU time (plain text only)",
    )
    add_markdown_option(parser)


def _info(args: argparse.Namespace, sizes: Sequence[tuple[int, int]]) -> dict[str, Any]:
    headless()
    import pygame

    from ai import search
    from ai.think import think_config_from_env

    info: dict[str, Any] = machine_info()
    info["cpu"] = info["cpu"].replace("one used", "the table and the bot worker use them")
    info["load average"] = ", ".join(f"{load:.2f}" for load in os.getloadavg())
    info["pygame-ce"] = f"{pygame.version.ver} (SDL {'.'.join(map(str, pygame.get_sdl_version()))})"
    info["SDL drivers"] = (
        f"video {os.environ['SDL_VIDEODRIVER']}, audio {os.environ['SDL_AUDIODRIVER']}"
    )
    info["ai.search"] = "compiled" if search.COMPILED else "pure Python (not compiled)"
    environ = dict(os.environ)
    if args.think_ms is not None:
        environ["MDH_THINK_LIMIT_MS"] = f"{args.think_ms:g}"
    limit = think_config_from_env(environ)[0].limit_ms
    info["bots"] = f"watch mode, four hard bots in the worker process, {limit:g} ms per decision"
    info["animation speed"] = "normal"
    command = "python -m bench frames"
    if args.sizes != DEFAULT_SIZES:
        command += f" --sizes {args.sizes}"
    if args.seed != DEFAULT_SEED:
        command += f" --seed {args.seed}"
    if args.think_ms is not None:
        command += f" --think-ms {args.think_ms:g}"
    if args.idle_seconds != 5.0:
        command += f" --idle-seconds {args.idle_seconds:g}"
    info["command"] = command
    info["sizes"] = ", ".join(_size(size) for size in sizes)
    return info


def run(args: argparse.Namespace) -> int:
    """Measure, then print the results (and write Markdown when asked)."""
    try:
        sizes = parse_sizes(args.sizes)
    except ValueError as error:
        print(f"--sizes: {error}", file=sys.stderr)
        return 2
    if args.think_ms is not None and args.think_ms <= 0:
        print("--think-ms must be positive", file=sys.stderr)
        return 2
    if min(args.summary_frames, args.first_frame_runs, args.profile) < 0:
        print(
            "--summary-frames, --first-frame-runs and --profile must not be negative",
            file=sys.stderr,
        )
        return 2
    if args.title_seconds < 0 or args.max_seconds <= 0 or args.idle_seconds < 0:
        print(
            "--title-seconds and --idle-seconds must not be negative, --max-seconds must be "
            "positive",
            file=sys.stderr,
        )
        return 2
    info = _info(args, sizes)
    runs = []
    for size in sizes:
        print(f"timing one hand at {_size(size)} …", file=sys.stderr, flush=True)
        runs.append(
            run_hand(
                size,
                args.seed,
                args.think_ms,
                args.title_seconds,
                args.summary_frames,
                args.max_seconds,
            )
        )
    idles: list[IdleCpu] = []
    if args.idle_seconds:
        for size in sizes:
            print(f"measuring the idle loop at {_size(size)} …", file=sys.stderr, flush=True)
            idles += run_idle(size, args.idle_seconds)
    firsts = []
    if args.first_frame_runs:
        for size in sizes:
            print(f"timing the first frame at {_size(size)} …", file=sys.stderr, flush=True)
            firsts.append(first_frame(size, args.first_frame_runs))
    results: list[ResultTable] = []
    for hand in runs:
        results += hand_tables(hand)
    if idles:
        results.append(
            (
                "Idle CPU: the real loop while nothing moves (the table's process only)",
                IDLE_HEADER,
                idle_rows(idles),
            )
        )
    if firsts:
        results.append(first_frame_table(firsts))
    results.append(targets_table(runs, firsts, idles))
    text = TITLE + "\n" + render_text(info, results).split("\n", 1)[1]
    if args.profile:
        for size in sizes:
            print(f"profiling one hand at {_size(size)} …", file=sys.stderr, flush=True)
            profiled = run_hand(
                size,
                args.seed,
                args.think_ms,
                args.title_seconds,
                0,
                args.max_seconds,
                profile_slowest=args.profile,
            )
            text += "\n" + profile_text(profiled)
    publish(args.markdown, text, render_markdown(info, results))
    return 0 if all(hand.finished for hand in runs) else 1
