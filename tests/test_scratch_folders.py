"""The test suite's own scratch folders (telemetry and game files) go when the run ends."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_parallel_run_leaves_no_scratch_folders_behind(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("MDH_TELEMETRY_DIR", "MDH_HOME", "PYTEST_XDIST_WORKER")
    }
    env["TMPDIR"] = str(scratch)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "2",
            "-p",
            "no:cacheprovider",
            "tests/test_cards.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    left = sorted(path.name for path in scratch.iterdir() if path.name.startswith("mdh-"))
    assert left == []
