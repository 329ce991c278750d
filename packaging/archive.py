"""Pack the standalone build for a release: ``python packaging/archive.py [--tag TAG]``.

Run after ``packaging/build.py`` on the system the archive is for (the release workflow runs it
on each); it writes one archive into ``dist/release/`` and prints its path:

- Linux: ``mdhearts-VERSION-linux-x86_64.tar.gz``, a folder with the program folder, the desktop
  file, the icon and ``install.sh`` (installs for the user, under ``~/.local`` by default);
- Windows: ``mdhearts-VERSION-windows-x64.zip``, the program folder;
- macOS: ``mdhearts-VERSION-macos-arm64.zip``, ``MDHearts.app``, signed ad hoc first (or with
  ``--sign-identity``).

``--tag TAG`` first checks that the release tag is ``v`` + the program's version, and stops
with the reason if not; ``--check-tag TAG`` only checks. ``--notes`` prints the changelog's
section for the version (the release's description).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from game.version import VERSION, version_numbers  # noqa: E402

NAME = "mdhearts"
APP = "MDHearts.app"
#: What ``platform.machine()`` says, and what the archive's name says, for each processor.
MACHINES = {
    "x86_64": "x86_64",
    "amd64": "x86_64",
    "aarch64": "arm64",
    "arm64": "arm64",
}
SYSTEMS = {"linux": "linux", "win32": "windows", "darwin": "macos"}


class ReleaseError(Exception):
    """The release cannot be made as asked; the message says why."""


def this_system() -> str:
    """Return ``linux``, ``windows`` or ``macos`` for the system this runs on."""
    for prefix, system in SYSTEMS.items():
        if sys.platform.startswith(prefix):
            return system
    raise ReleaseError(f"no release archive is made on {sys.platform}")


def this_machine() -> str:
    """Return the processor name used in archive names (``x86_64`` or ``arm64``)."""
    machine = platform.machine().lower()
    if machine not in MACHINES:
        raise ReleaseError(f"no release archive is made for the processor {machine!r}")
    return MACHINES[machine]


def archive_name(version: str, system: str, machine: str) -> str:
    """Return the file name of a release archive.

    >>> archive_name("1.2.0", "linux", "x86_64")
    'mdhearts-1.2.0-linux-x86_64.tar.gz'
    >>> archive_name("1.2.0", "windows", "x86_64")
    'mdhearts-1.2.0-windows-x64.zip'
    """
    version_numbers(version)  # a release is a three-number version
    if system == "linux":
        return f"{NAME}-{version}-linux-{machine}.tar.gz"
    if system == "windows":
        return f"{NAME}-{version}-windows-{'x64' if machine == 'x86_64' else machine}.zip"
    if system == "macos":
        return f"{NAME}-{version}-macos-{machine}.zip"
    raise ReleaseError(f"unknown system {system!r}")


def check_tag(tag: str, version: str = VERSION) -> None:
    """Raise ReleaseError unless ``tag`` names the release of ``version`` (``v`` + version)."""
    expected = f"v{version}"
    if tag != expected:
        raise ReleaseError(
            f"the tag {tag!r} does not match the program's version {version!r} in "
            f"game/version.py: tag the release {expected!r}, or change the version first"
        )


def release_notes(changelog: str, version: str = VERSION) -> str:
    """Return the changelog's section for ``version`` (without its heading)."""
    heading = re.compile(rf"^## \[{re.escape(version)}\][^\n]*$", re.MULTILINE)
    found = heading.search(changelog)
    if found is None:
        raise ReleaseError(f"CHANGELOG.md has no section '## [{version}]'")
    following = re.compile(r"^## ", re.MULTILINE).search(changelog, found.end())
    end = following.start() if following else len(changelog)
    notes = changelog[found.end() : end].strip()
    # Link definitions at the end of the file belong to no section.
    notes = re.sub(r"(\n\[[^\]\n]+\]: \S+)+\s*$", "", notes).strip()
    if not notes:
        raise ReleaseError(f"CHANGELOG.md's section for {version} is empty")
    return notes


def make_linux(dist: Path, out: Path, version: str, machine: str) -> Path:
    """Write the Linux tar.gz: the program folder, desktop file, icon and install script."""
    program = dist / NAME
    if not (program / NAME).is_file():
        raise ReleaseError(f"no one-folder build in {program}: run packaging/build.py first")
    archive = out / archive_name(version, "linux", machine)
    top = archive.name.removesuffix(".tar.gz")
    extras = [
        (HERE / "linux" / "install.sh", "install.sh", 0o755),
        (HERE / "linux" / f"{NAME}.desktop", f"{NAME}.desktop", 0o644),
        (ROOT / "assets" / "icon.png", f"{NAME}.png", 0o644),
    ]

    def owned_by_nobody(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
        tar.add(program, arcname=f"{top}/{NAME}", filter=owned_by_nobody)
        for source, name, mode in extras:
            info = owned_by_nobody(tar.gettarinfo(source, arcname=f"{top}/{name}"))
            info.mode = mode
            with source.open("rb") as stream:
                tar.addfile(info, stream)
    return archive


def make_windows(dist: Path, out: Path, version: str, machine: str) -> Path:
    """Write the Windows zip: the program folder ``mdhearts`` with ``mdhearts.exe``."""
    program = dist / NAME
    if not (program / f"{NAME}.exe").is_file():
        raise ReleaseError(f"no one-folder build in {program}: run packaging/build.py first")
    archive = out / archive_name(version, "windows", machine)
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for path in sorted(program.rglob("*")):
            zipped.write(path, Path(NAME, path.relative_to(program)).as_posix())
    return archive


def make_macos(dist: Path, out: Path, version: str, machine: str, identity: str) -> Path:
    """Sign ``MDHearts.app`` (``-``: ad hoc) and zip it as the Finder would, with ``ditto``."""
    app = dist / APP
    if not (app / "Contents" / "MacOS" / NAME).is_file():
        raise ReleaseError(f"no {APP} in {dist}: run packaging/build.py first")
    sign = ["codesign", "--force", "--deep", "--sign", identity]
    if identity != "-":
        # Notarisation asks for the hardened runtime and a secure timestamp.
        sign += ["--options", "runtime", "--timestamp"]
    subprocess.run([*sign, str(app)], check=True)
    subprocess.run(["codesign", "--verify", "--deep", "--strict", str(app)], check=True)
    archive = out / archive_name(version, "macos", machine)
    subprocess.run(["ditto", "-c", "-k", "--keepParent", str(app), str(archive)], check=True)
    return archive


def make_archive(dist: Path, out: Path, identity: str = "-") -> Path:
    """Write the release archive for this system from the build in ``dist``; return its path."""
    system, machine = this_system(), this_machine()
    out.mkdir(parents=True, exist_ok=True)
    archive = out / archive_name(VERSION, system, machine)
    archive.unlink(missing_ok=True)
    if system == "linux":
        return make_linux(dist, out, VERSION, machine)
    if system == "windows":
        return make_windows(dist, out, VERSION, machine)
    return make_macos(dist, out, VERSION, machine, identity)


def main(argv: list[str] | None = None) -> int:
    """Check the tag, or print the notes, or make this system's archive."""
    parser = argparse.ArgumentParser(description="Pack the standalone build for a release.")
    parser.add_argument("--tag", help="the release tag; it must be v + the program's version")
    parser.add_argument("--check-tag", metavar="TAG", help="only check the tag, make nothing")
    parser.add_argument("--notes", action="store_true", help="print the changelog's section")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the build's folder")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "release")
    parser.add_argument(
        "--sign-identity",
        default=os.environ.get("MDH_CODESIGN_IDENTITY", "-"),
        help="macOS signing identity (default '-', ad hoc; or MDH_CODESIGN_IDENTITY)",
    )
    args = parser.parse_args(argv)
    try:
        if args.check_tag is not None:
            check_tag(args.check_tag)
            print(f"the tag {args.check_tag} matches version {VERSION}")
            return 0
        if args.notes:
            changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
            print(release_notes(changelog))
            return 0
        if args.tag is not None:
            check_tag(args.tag)
        archive = make_archive(args.dist, args.out, args.sign_identity)
    except ReleaseError as error:
        print(f"archive.py: {error}", file=sys.stderr)
        return 1
    size = archive.stat().st_size / 1e6
    print(f"made {archive} ({size:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
