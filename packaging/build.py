"""Build the standalone game with PyInstaller: ``python packaging/build.py [--onefile]``.

The default is one folder, ``dist/mdhearts/`` with the ``mdhearts`` program inside (fast to
start, fewer false alarms from virus scanners); ``--onefile`` makes a single ``dist/mdhearts``
program that unpacks itself at every start; on macOS ``dist/MDHearts.app`` too. Prints the
build time and size. ``packaging/archive.py`` then packs the folder for a release.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def folder_size(path: Path) -> int:
    """Return the bytes of every file under ``path`` (or of the file itself)."""
    if path.is_file():
        return path.stat().st_size
    return sum(
        item.lstat().st_size for item in path.rglob("*") if item.is_file() and not item.is_symlink()
    )


def build(onefile: bool) -> Path:
    """Run PyInstaller on the spec and return what it made."""
    env = dict(os.environ, MDH_ONEFILE="1" if onefile else "0")
    command = [
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--clean",
        "--log-level",
        "WARN",
        "--distpath",
        str(ROOT / "dist"),
        "--workpath",
        str(ROOT / "build" / "pyinstaller"),
        str(HERE / "mdhearts.spec"),
    ]
    subprocess.run(command, check=True, env=env, cwd=ROOT)
    return ROOT / "dist" / "mdhearts"


def main() -> int:
    """Build and report."""
    parser = argparse.ArgumentParser(description="Build the standalone MDHearts program.")
    parser.add_argument("--onefile", action="store_true", help="one self-unpacking file")
    args = parser.parse_args()
    started = time.perf_counter()
    made = build(args.onefile)
    seconds = time.perf_counter() - started
    size = folder_size(made) / 1e6
    program = made / "mdhearts" if made.is_dir() else made
    print(f"built {program} in {seconds:.0f} s, {size:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
