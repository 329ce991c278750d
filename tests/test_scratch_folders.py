"""The test suite's own scratch folders (telemetry and game files) go when the run ends."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run_environment(scratch: Path) -> dict[str, str]:
    """The environment of a test run started from a shell: no scratch folders of ours yet."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("MDH_TELEMETRY_DIR", "MDH_HOME", "PYTEST_XDIST_WORKER")
    }
    env["TMPDIR"] = str(scratch)
    return env


def _parallel_run(*files: str) -> list[str]:
    """The command of a test run on two workers, as CI makes it."""
    return [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider", *files]


def _left_behind(scratch: Path) -> list[str]:
    return sorted(path.name for path in scratch.iterdir() if path.name.startswith("mdh-"))


def test_a_parallel_run_leaves_no_scratch_folders_behind(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = subprocess.run(
        _parallel_run("tests/test_cards.py"),
        cwd=ROOT,
        env=_run_environment(scratch),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert _left_behind(scratch) == []


def test_a_run_stopped_with_sigterm_leaves_no_scratch_folders_behind(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    started = tmp_path / "started"
    waiting = tmp_path / "test_waiting.py"
    waiting.write_text(
        "import pathlib, time\n\n"
        "def test_waits():\n"
        f"    pathlib.Path({str(started)!r}).touch()\n"
        "    time.sleep(60)\n"
    )
    # The conftest of tests/ (named by its first file) makes the scratch folders.
    run = subprocess.Popen(
        _parallel_run("tests/test_cards.py", str(waiting)),
        cwd=ROOT,
        env=_run_environment(scratch),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not started.exists() and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert started.exists(), "the waiting test never started"
        assert _left_behind(scratch), "the run made no scratch folders to remove"
        run.send_signal(signal.SIGTERM)  # as `timeout` or a CI runner stops a run
        output, _ = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert _left_behind(scratch) == [], output
