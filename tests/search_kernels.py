"""The search kernel's two implementations, for the tests that compare them."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from ai import search_py


def _compiled() -> ModuleType | None:
    try:
        return importlib.import_module("ai._search")
    except ImportError:
        return None


#: The compiled kernel, or None where it is not built.
compiled = _compiled()
needs_compiled = pytest.mark.skipif(compiled is None, reason="compiled search kernel not built")
#: Every implementation built here: the pure-Python twin, and the compiled one if built.
IMPLEMENTATIONS = [search_py] if compiled is None else [search_py, compiled]
