"""The program's version, shown by ``mdhearts --version`` and stamped into builds.

It is the one version number: the package metadata, the standalone build (the macOS bundle and
the Windows version resource and manifest, filled in at build time) and the release tag
(``v`` + this) all take it from here.
"""

import re

VERSION = "0.2.0"


def version_numbers(version: str = VERSION) -> tuple[int, int, int]:
    """Return the three numbers of a ``MAJOR.MINOR.PATCH`` version.

    >>> version_numbers("1.12.0")
    (1, 12, 0)

    Raises ValueError for anything else: Windows version resources hold numbers only.
    """
    match = re.fullmatch(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)", version)
    if match is None:
        raise ValueError(f"version {version!r} is not MAJOR.MINOR.PATCH (three numbers)")
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch
