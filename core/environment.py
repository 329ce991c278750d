"""Settings read from environment variables.

A valid value is used; an invalid one is ignored with one warning that names the variable, its
value (cut short) and what it should be. The caller shows each warning once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TypeVar

Value = TypeVar("Value")


def environment(environ: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """Return ``environ``, or this process's environment when it is None."""
    return os.environ if environ is None else environ


def ignored(name: str, value: str, reason: str) -> str:
    """Return the warning for the variable ``name`` whose ``value`` is ignored, and why.

    >>> ignored("MDH_SEARCH_THREADS", "many", "must be a whole number")
    "ignoring MDH_SEARCH_THREADS='many': must be a whole number"
    """
    return f"ignoring {name}={value!r:.40}: {reason}"


def setting_from_env(
    environ: Mapping[str, str] | None,
    name: str,
    parse: Callable[[str], Value],
    default: Value,
) -> tuple[Value, list[str]]:
    """Return the variable ``name`` read by ``parse`` (``default`` when it is unset or blank),
    and a warning when ``parse`` refuses it (a ValueError, whose text says why): then the
    default.

    >>> setting_from_env({"N": " 3 "}, "N", int, 1)
    (3, [])
    >>> setting_from_env({"N": "  "}, "N", int, 1)
    (1, [])
    >>> setting_from_env({"N": "x"}, "N", int, 1)
    (1, ["ignoring N='x': invalid literal for int() with base 10: 'x'"])
    """
    text = environment(environ).get(name)
    if text is None or not text.strip():
        return default, []
    try:
        return parse(text), []
    except ValueError as error:
        return default, [ignored(name, text, str(error))]
