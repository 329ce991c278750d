"""Choosing between a compiled module and its pure-Python twin.

The compiled module is used when it is built, unless ``MDH_PURE_PYTHON=1`` forces the twin.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def load_native(compiled: str, twin: ModuleType) -> tuple[ModuleType, bool]:
    """Return (the module to use, whether it is the compiled one named ``compiled``)."""
    if os.environ.get("MDH_PURE_PYTHON", "") == "1":
        return twin, False
    try:
        return importlib.import_module(compiled), True
    except ImportError:
        return twin, False
