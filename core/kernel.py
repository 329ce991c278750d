"""The rules' hot paths: the compiled kernel when it is built, else its pure-Python twin.

``COMPILED`` says which one is loaded. Setting ``MDH_PURE_PYTHON=1`` forces the twin.
"""

from __future__ import annotations

from core import kernel_py
from core.native import load_native, same_function

_implementation, COMPILED = load_native("core._kernel", kernel_py)

legal_mask = same_function(kernel_py.legal_mask, _implementation)
next_random = same_function(kernel_py.next_random, _implementation)
random_playout = same_function(kernel_py.random_playout, _implementation)
random_playouts = same_function(kernel_py.random_playouts, _implementation)
trick_points = same_function(kernel_py.trick_points, _implementation)
trick_winner_offset = same_function(kernel_py.trick_winner_offset, _implementation)

__all__ = [
    "COMPILED",
    "legal_mask",
    "next_random",
    "random_playout",
    "random_playouts",
    "trick_points",
    "trick_winner_offset",
]
