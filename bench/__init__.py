"""Benchmarks, run from the repository root: ``python -m bench <name> [options]``.

Each benchmark is a module with ``add_arguments(parser)`` and ``run(args) -> int``, listed in
``bench.__main__.BENCHES``. This package holds what they share: timing and the machine's
description.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time
from collections.abc import Callable
from importlib import metadata


def cpu_model() -> str:
    """Return the CPU model from /proc/cpuinfo, or what the platform module knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def package_version(name: str) -> str | None:
    """Return an installed distribution's version, or None when it is not installed."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def machine_info() -> dict[str, str]:
    """Return the machine, interpreter and date a measurement was taken on, as labelled text."""
    info = {
        "date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "platform": platform.platform(),
        "cpu": f"{cpu_model()} ({os.cpu_count()} logical cores, one used)",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }
    for name in ("Cython", "open-spiel"):
        version = package_version(name)
        if version is not None:
            info[name] = version
    return info


def best_rate(run_batch: Callable[[int], int], seconds: float, rounds: int = 3) -> float:
    """Return the best operations per second over ``rounds`` rounds of ``seconds / rounds``.

    ``run_batch(size)`` does some work and returns how many operations it did; the batch size
    is first doubled until one batch takes about 10 ms, so the clock is read rarely.
    """
    size = 1
    while True:
        start = time.perf_counter()
        run_batch(size)
        if time.perf_counter() - start >= 0.01 or size >= 1 << 30:
            break
        size *= 2
    best = 0.0
    for _ in range(rounds):
        operations = 0
        start = time.perf_counter()
        elapsed = 0.0
        while elapsed < seconds / rounds:
            operations += run_batch(size)
            elapsed = time.perf_counter() - start
        best = max(best, operations / elapsed)
    return best


def add_markdown_option(parser: argparse.ArgumentParser, what: str = "the results") -> None:
    """Add ``--markdown [FILE]``: print ``what`` as Markdown (no FILE), or write it to FILE."""
    parser.add_argument(
        "--markdown",
        nargs="?",
        const="-",
        metavar="FILE",
        help=f"print {what} as Markdown, or write the Markdown to FILE",
    )


def publish(target: str | None, text: str, markdown: str) -> None:
    """Print the plain text, or the Markdown when ``target`` is ``-``, or write it to a file."""
    if target == "-":
        print(markdown)
        return
    if target is not None:
        with open(target, "w", encoding="utf-8") as out:
            out.write(markdown + "\n")
    print(text)
