"""The rules' hot paths: the compiled kernel when it is built, else its pure-Python twin.

``COMPILED`` says which one is loaded. Setting ``MDH_PURE_PYTHON=1`` forces the twin.
"""

from __future__ import annotations

from core import kernel_py
from core.native import load_native

_implementation, COMPILED = load_native("core._kernel", kernel_py)

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
