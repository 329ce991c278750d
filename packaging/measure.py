"""Measure a built program: launch to first frame, and peak memory during a hard-bot hand.

``python packaging/measure.py dist/mdhearts/mdhearts`` (Linux: memory is read from /proc).
The first frame is the moment the program's self-test reports it; the wall time counts from
the launch, so it includes unpacking and starting Python. Memory is the resident size of the
program and its bot worker together, sampled every 20 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

FIRST_FRAME_MARK = "ok: first frame drawn"
SAMPLE_S = 0.02


def first_frame_seconds(program: Path) -> float:
    """Return seconds from launching the program's self-test to its first frame."""
    started = time.perf_counter()
    with subprocess.Popen(
        [str(program), "--self-test"], stdout=subprocess.PIPE, text=True, env=_env()
    ) as child:
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith(FIRST_FRAME_MARK):
                seconds = time.perf_counter() - started
                child.stdout.read()
                child.wait(120)
                return seconds
        raise RuntimeError(f"the program never reported its first frame (exit {child.wait()})")


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.update(extra)
    return env


def _tree_rss_kib(root: int) -> int:
    """Return the resident KiB of a process and its descendants (0 once they are gone)."""
    total = 0
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
        pending.extend(int(child) for child in children)
    return total


def peak_memory_mib(program: Path, think_ms: int) -> tuple[float, float]:
    """Run a self-test hand against hard bots; return (peak MiB of program + worker, seconds)."""
    started = time.perf_counter()
    env = _env(MDH_THINK_LIMIT_MS=str(think_ms))
    with subprocess.Popen(
        [str(program), "--self-test", "--opponents", "hard"],
        stdout=subprocess.DEVNULL,
        env=env,
    ) as child:
        peak = 0
        while child.poll() is None:
            peak = max(peak, _tree_rss_kib(child.pid))
            time.sleep(SAMPLE_S)
        if child.returncode != 0:
            raise RuntimeError(f"the hard-bot self-test failed (exit {child.returncode})")
    return peak / 1024, time.perf_counter() - started


def main() -> int:
    """Measure and print a Markdown table."""
    parser = argparse.ArgumentParser(description="Measure a built MDHearts program.")
    parser.add_argument("program", type=Path, help="the built program")
    parser.add_argument("--runs", type=int, default=5, help="launches to time (median)")
    parser.add_argument("--think-ms", type=int, default=1000, help="hard bots' think time")
    args = parser.parse_args()
    launches = [first_frame_seconds(args.program) for _ in range(max(1, args.runs))]
    peak, seconds = peak_memory_mib(args.program, args.think_ms)
    print("| measure | result |")
    print("| --- | --- |")
    print(
        f"| launch to first frame (median of {len(launches)}) | "
        f"{statistics.median(launches):.2f} s (min {min(launches):.2f}, max {max(launches):.2f}) |"
    )
    print(
        f"| peak memory, program + bot worker, hand against 3 hard bots at "
        f"{args.think_ms} ms | {peak:.0f} MiB ({seconds:.0f} s hand) |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
