"""The first frame after launch from source: fresh interpreters open the title menu."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.frame_results import FPS, FirstFrame
from bench.headless import user_home

#: The marker line the first-frame child prints, followed by its timings as JSON.
MARKER = "MDH-FIRST-FRAME"
REPO_ROOT = Path(__file__).resolve().parent.parent

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
app.push(TitleScene(app))
app.step(app.clock.tick({FPS}) / 1000)
_drawn = time.perf_counter()
print("{MARKER}", json.dumps({{
    "imports": _imported - _start, "app": _opened - _imported,
    "first_step": _drawn - _opened, "total": _drawn - _start,
}}), flush=True)
app.close()
"""


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
