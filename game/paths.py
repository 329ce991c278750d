"""Where the game finds its shipped assets: beside the source tree, in an installed package or
in a frozen build's bundle. The person's folders are ``core.files.user_dirs``: never next to
the program, whose folder may be read-only or temporary."""

from __future__ import annotations

import sys
from pathlib import Path


def assets_dir() -> Path:
    """Return the assets folder: in a frozen build's bundle, in an installed package, or the
    top-level ``assets/`` of the source tree (which an editable install also uses)."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle is not None:
        return Path(bundle) / "assets"
    here = Path(__file__).resolve().parent
    installed = here / "assets"
    return installed if installed.is_dir() else here.parent / "assets"


def asset_path(*parts: str) -> Path:
    """Return the path of a shipped asset, e.g. ``asset_path("fonts", "DejaVuSans.ttf")``."""
    return assets_dir().joinpath(*parts)
