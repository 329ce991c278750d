"""Check a release archive as a player gets it: ``python packaging/check_release.py ARCHIVE``.

The archive is unpacked into a temporary folder and the program in it must pass its
``--self-test`` (headless) without writing inside its own folder; with ``--serve`` (Linux and
macOS), it must also host a network table and play at it, still writing nothing there
(``check_serve.py``: ``serve`` on a loopback port, ``cli --server``, a clean stop):

- Linux (``.tar.gz``): ``install.sh`` installs into a temporary prefix first; the installed
  program is tested, the menu entry must start it and show the icon, the ``bin`` link must reach
  it, and ``install.sh --uninstall`` must remove it all again;
- Windows (``-windows-*.zip``): ``mdhearts/mdhearts.exe``;
- macOS (``-macos-*.zip``, unpacked with ``ditto``): the signature of ``MDHearts.app`` must
  verify, then ``MDHearts.app/Contents/MacOS/mdhearts`` is tested.

Exit status 0 when every check passes, 1 with the reason otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.append(str(Path(__file__).resolve().parent))  # check_serve.py, beside this script

from check_serve import CheckFailed as ServeCheckFailed
from check_serve import check_serve

from game.version import VERSION

NAME = "mdhearts"
#: Seconds the self-test may take (it plays a whole hand).
SELF_TEST_TIMEOUT_S = 300


class CheckFailed(Exception):
    """A check of the archive failed; the message says which."""


def desktop_value(text: str, key: str) -> str:
    """Return the value of ``key`` in a desktop file's main group, with escapes undone."""
    values = [line.partition("=")[2] for line in text.splitlines() if line.startswith(f"{key}=")]
    if len(values) != 1:
        raise CheckFailed(f"the desktop file has {len(values)} {key}= lines, not one")
    # \s \n \t \r and \\ are the escapes of a string value.
    escapes = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(0)), values[0])


def desktop_command(exec_value: str) -> list[str]:
    """Split an ``Exec=`` value (already unescaped as a string) into the program and arguments.

    Quoted words may hold spaces, and ``"``, `````, ``$`` and ``\\`` escaped with ``\\``;
    ``%%`` is a percent sign and other ``%`` codes are field codes, left out.
    """
    words: list[str] = []
    for word in re.findall(r'"(?:[^"\\]|\\.)*"|[^ ]+', exec_value):
        if word.startswith('"'):
            words.append(re.sub(r'\\([\\"`$])', r"\1", word[1:-1]).replace("%%", "%"))
        elif not re.fullmatch(r"%[fFuUdDnNickvm]", word):
            words.append(word.replace("%%", "%"))
    return words


def files_newer_than(folder: Path, moment: float) -> list[Path]:
    """Return the files and folders under ``folder`` changed after ``moment``."""
    return [path for path in folder.rglob("*") if path.lstat().st_mtime > moment]


def self_test(program: Path, folder: Path) -> None:
    """Run ``program --self-test`` headless; fail if it fails or writes inside ``folder``."""
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
    )
    before = time.time()
    time.sleep(1.1)  # file times may have a resolution of one second
    try:
        result = subprocess.run(
            [str(program), "--self-test"],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=SELF_TEST_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as error:
        raise CheckFailed(f"{program} --self-test took over {SELF_TEST_TIMEOUT_S} s") from error
    print(result.stdout + result.stderr, end="")
    if result.returncode != 0:
        raise CheckFailed(f"{program} --self-test failed with status {result.returncode}")
    written = files_newer_than(folder, before)
    if written:
        raise CheckFailed(f"the program wrote inside its own folder: {written[0]}")
    print(f"ok: {program} --self-test passed and wrote nothing in {folder}")


def serve_test(program: Path, folder: Path, work: Path) -> None:
    """Host a table with ``program serve`` and play at it (``check_serve.py``) in ``work``;
    fail if that fails or writes inside ``folder``."""
    before = time.time()
    time.sleep(1.1)  # file times may have a resolution of one second
    work.mkdir()
    try:
        check_serve(program, work)
    except ServeCheckFailed as error:
        raise CheckFailed(f"{program} serve: {error}") from error
    written = files_newer_than(folder, before)
    if written:
        raise CheckFailed(f"the program wrote inside its own folder while serving: {written[0]}")
    print(f"ok: {program} hosted a table, played at it, stopped cleanly; wrote nothing in {folder}")


def print_version(program: Path) -> None:
    """Check that ``program --version`` names this version (systems with a console only)."""
    result = subprocess.run(
        [str(program), "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    if result.stdout.strip() != f"{NAME} {VERSION}":
        raise CheckFailed(f"{program} --version said {result.stdout.strip()!r}")
    print(f"ok: {program} --version says {NAME} {VERSION}")


def install_script(top: Path, *args: str) -> str:
    """Run ``install.sh`` in ``top`` as a player would, and return what it printed."""
    result = subprocess.run(
        [str(top / "install.sh"), *args], capture_output=True, text=True, timeout=120
    )
    if result.returncode != 0:
        raise CheckFailed(f"install.sh {shlex.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def check_linux(archive: Path, work: Path, serve: bool = False) -> None:
    """Unpack, install into a temporary prefix, test the installed program (with ``serve``,
    its network play too), uninstall."""
    with tarfile.open(archive) as tar:
        tar.extractall(work / "unpacked", filter="tar")
    (top,) = (work / "unpacked").iterdir()
    if top.name != archive.name.removesuffix(".tar.gz"):
        raise CheckFailed(f"the archive's folder is {top.name}")
    prefix = work / "prefix with space"
    print(install_script(top, "--prefix", str(prefix)), end="")
    installed = prefix / "lib" / NAME
    program = installed / NAME
    desktop = prefix / "share" / "applications" / f"{NAME}.desktop"
    text = desktop.read_text(encoding="utf-8")
    command = desktop_command(desktop_value(text, "Exec"))
    if command[:1] != [str(program)]:
        raise CheckFailed(f"the menu entry starts {command}, not {program}")
    icon = Path(desktop_value(text, "Icon"))
    if not icon.is_file() or icon.read_bytes() != (top / f"{NAME}.png").read_bytes():
        raise CheckFailed(f"the menu entry's icon {icon} is not the game's icon")
    link = prefix / "bin" / NAME
    if link.resolve() != program.resolve():
        raise CheckFailed(f"{link} does not lead to {program}")
    print(f"ok: installed in {installed}; the menu entry and {link} start it")
    print_version(link)
    self_test(link, installed)
    if serve:
        serve_test(link, installed, work / "serve")
    print(install_script(installed, "--uninstall"), end="")
    left = [path for path in prefix.rglob("*") if not path.is_dir()]
    if left:
        raise CheckFailed(f"install.sh --uninstall left {left[0]}")
    print("ok: install.sh --uninstall removed every file")


def check_windows(archive: Path, work: Path) -> None:
    """Unpack the zip and test ``mdhearts/mdhearts.exe``."""
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(work)
    folder = work / NAME
    self_test(folder / f"{NAME}.exe", folder)


def check_macos(archive: Path, work: Path, serve: bool = False) -> None:
    """Unpack the zip with ``ditto``, verify the signature, test the program in the bundle
    (with ``serve``, its network play too)."""
    subprocess.run(["ditto", "-x", "-k", str(archive), str(work)], check=True)
    app = work / "MDHearts.app"
    verify = subprocess.run(
        ["codesign", "--verify", "--deep", "--strict", "--verbose=2", str(app)],
        capture_output=True,
        text=True,
    )
    if verify.returncode != 0:
        raise CheckFailed(f"the signature of MDHearts.app does not verify: {verify.stderr}")
    print(f"ok: the signature of {app.name} verifies")
    program = app / "Contents" / "MacOS" / NAME
    print_version(program)
    self_test(program, app)
    if serve:
        serve_test(program, app, work / "serve")


def check(archive: Path, serve: bool = False) -> None:
    """Run the checks that fit the archive's kind (``serve``: network play too, where the
    program has a console and signals)."""
    if not archive.is_file():
        raise CheckFailed(f"no archive {archive}")
    # A bot worker that ends a moment after the program may still hold its files open (Windows
    # cannot delete those then); what is left in the temporary folder is not the check's concern.
    with tempfile.TemporaryDirectory(
        prefix="mdhearts-release-", ignore_cleanup_errors=True
    ) as folder:
        work = Path(folder)
        if archive.name.endswith(".tar.gz"):
            check_linux(archive, work, serve)
        elif "-windows-" in archive.name:
            if serve:
                # mdhearts.exe has no console: serve's log and cli's answers go nowhere.
                print("skipped: --serve on Windows (the program has no console)")
            check_windows(archive, work)
        elif "-macos-" in archive.name:
            check_macos(archive, work, serve)
        else:
            raise CheckFailed(f"{archive.name} is no release archive")


def main(argv: list[str] | None = None) -> int:
    """Check the archive named on the command line."""
    parser = argparse.ArgumentParser(description="Check a release archive as a player gets it.")
    parser.add_argument("archive", type=Path)
    parser.add_argument(
        "--serve",
        action="store_true",
        help="also host a table with the program's serve and play at it (Linux and macOS)",
    )
    args = parser.parse_args(argv)
    try:
        check(args.archive, args.serve)
    except CheckFailed as error:
        print(f"check_release.py: {error}", file=sys.stderr)
        return 1
    print(f"{args.archive.name}: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
