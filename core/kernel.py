"""The rules' hot paths: the compiled kernel when it is built, else its pure-Python twin.

``COMPILED`` says which one is loaded. Setting ``MDH_PURE_PYTHON=1`` forces the twin.
"""

from __future__ import annotations

import os

if os.environ.get("MDH_PURE_PYTHON", "") == "1":
    from core.kernel_py import (
        legal_mask,
        next_random,
        random_playout,
        random_playouts,
        trick_points,
        trick_winner_offset,
    )

    COMPILED = False
else:
    try:
        from core._kernel import (  # type: ignore[import-not-found,no-redef]
            legal_mask,
            next_random,
            random_playout,
            random_playouts,
            trick_points,
            trick_winner_offset,
        )

        COMPILED = True
    except ImportError:
        from core.kernel_py import (
            legal_mask,
            next_random,
            random_playout,
            random_playouts,
            trick_points,
            trick_winner_offset,
        )

        COMPILED = False

__all__ = [
    "COMPILED",
    "legal_mask",
    "next_random",
    "random_playout",
    "random_playouts",
    "trick_points",
    "trick_winner_offset",
]
