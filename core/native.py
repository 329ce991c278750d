"""Choosing between a compiled module and its pure-Python twin.

The compiled module is used when it is built, unless ``MDH_PURE_PYTHON=1`` forces the twin.
Any other value but ``0`` or empty is ignored with a warning, which the front ends show
(``pure_python_from_env``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, TypeVar, cast

from core.environment import setting_from_env

Function = TypeVar("Function", bound=Callable[..., Any])


#: The environment variable that forces the pure-Python twins: ``1`` on, ``0`` (or unset) off.
PURE_PYTHON_ENV = "MDH_PURE_PYTHON"


def _parse_switch(text: str) -> bool:
    value = text.strip()
    if value not in ("0", "1"):
        raise ValueError("use 1 (the pure-Python modules) or 0 (the compiled ones)")
    return value == "1"


def pure_python_from_env(environ: Mapping[str, str] | None = None) -> tuple[bool, list[str]]:
    """Return whether the environment forces the pure-Python twins, and a warning if invalid."""
    return setting_from_env(environ, PURE_PYTHON_ENV, _parse_switch, False)


def load_native(compiled: str, twin: ModuleType) -> tuple[ModuleType, bool]:
    """Return (the module to use, whether it is the compiled one named ``compiled``)."""
    if pure_python_from_env()[0]:
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
