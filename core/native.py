"""Choosing between a compiled module and its pure-Python twin.

The compiled module is used when it is built, unless ``MDH_PURE_PYTHON=1`` forces the twin.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar, cast

Function = TypeVar("Function", bound=Callable[..., Any])


def load_native(compiled: str, twin: ModuleType) -> tuple[ModuleType, bool]:
    """Return (the module to use, whether it is the compiled one named ``compiled``)."""
    if os.environ.get("MDH_PURE_PYTHON", "") == "1":
        return twin, False
    try:
        return importlib.import_module(compiled), True
    except ImportError:
        return twin, False


def same_function(twin_function: Function, implementation: ModuleType) -> Function:
    """Return the implementation's function of the twin function's name, typed as the twin's.

    The twins have identical signatures (the ``.pyi`` stubs of the compiled modules say so).
    """
    return cast(Function, getattr(implementation, twin_function.__name__))
