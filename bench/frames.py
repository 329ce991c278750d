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
import cProfile
import heapq
import io
import os
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bench import add_markdown_option, machine_info, publish
from bench.cpu_meter import CpuMeter
from bench.first_frame import first_frame
from bench.frame_results import (
    FPS,
    Frame,
    HandRun,
    ResultTable,
    first_frame_table,
    hand_tables,
    profile_text,
    size_text,
    targets_table,
)
from bench.headless import headless, user_home
from bench.idle import IDLE_HEADER, IdleCpu, idle_rows, run_idle
from bench.rules import render_markdown, render_text

if TYPE_CHECKING:
    from ai.think import Decision
    from game.table.app import App
    from game.table.session import TableSession

TITLE = "MDHearts table frame-time benchmark"
DEFAULT_SIZES = "1920x1080,3840x2160"
DEFAULT_SEED = 20261122


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """Parse ``1920x1080,3840x2160`` into window sizes (ValueError with the expected form)."""
    from game.tools.screenshots import parse_size

    sizes = [parse_size(part.strip()) for part in text.split(",") if part.strip()]
    if not sizes:
        raise ValueError("no sizes given")
    return sizes


def _label(session: TableSession, app: App) -> str:
    """Describe the frame: the match phase and the animation beat being shown."""
    from game.table.scenes.table import TableScene

    scene = next((s for s in app.scenes() if isinstance(s, TableScene)), None)
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
            app.push(TitleScene(app))
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
            app.show_only(TableScene(app, session))
            result.setup_ms = (time.perf_counter() - start) * 1000
            stepper.keep = profile_slowest
            stepper.count = 0

            def thinking() -> bool:
                return bool(session.thinking_seats())

            def label() -> str:
                return _label(session, app)

            while time.perf_counter() - start < max_seconds:
                result.hand.append(stepper.frame(thinking, label))
                if isinstance(app.top_scene(), HandSummary):
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
    info["sizes"] = ", ".join(size_text(size) for size in sizes)
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
        print(f"timing one hand at {size_text(size)} …", file=sys.stderr, flush=True)
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
            print(f"measuring the idle loop at {size_text(size)} …", file=sys.stderr, flush=True)
            idles += run_idle(size, args.idle_seconds)
    firsts = []
    if args.first_frame_runs:
        for size in sizes:
            print(f"timing the first frame at {size_text(size)} …", file=sys.stderr, flush=True)
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
            print(f"profiling one hand at {size_text(size)} …", file=sys.stderr, flush=True)
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
