"""The rules' hot paths: the compiled kernel when it is built, else its pure-Python twin.

``COMPILED`` says which one is loaded. Setting ``MDH_PURE_PYTHON=1`` forces the twin.
"""

from __future__ import annotations

import os
from types import ModuleType

from core import kernel_py


def _load() -> tuple[ModuleType, bool]:
    if os.environ.get("MDH_PURE_PYTHON", "") == "1":
        return kernel_py, False
    try:
        from core import _kernel  # type: ignore[attr-defined]
    except ImportError:
        return kernel_py, False
    return _kernel, True


_implementation, COMPILED = _load()

legal_mask = _implementation.legal_mask
next_random = _implementation.next_random
random_playout = _implementation.random_playout
random_playouts = _implementation.random_playouts
trick_points = _implementation.trick_points
trick_winner_offset = _implementation.trick_winner_offset

__all__ = [
    "COMPILED",
    "legal_mask",
    "next_random",
    "random_playout",
    "random_playouts",
    "trick_points",
    "trick_winner_offset",
]
