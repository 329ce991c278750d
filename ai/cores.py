"""How many threads the hard bot's search uses within one decision.

The default is the cores this process may run on, minus one (left to the table and the other
programs), and at least one. ``MDH_SEARCH_THREADS`` sets it: a whole number from 1 to
``ai.search_py.MAX_THREADS``; an invalid value is ignored with one warning, which the front
ends show with the think config's (``ai.think.think_config_from_env``). From two threads on, when
a core is left over, the thread that asks for the decision draws the next deals meanwhile
(``ai.hard``), so a decision keeps one more thread partly busy.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ai.search_py import MAX_THREADS
from core.environment import setting_from_env

#: The environment variable that sets the hard bot's search threads.
THREADS_ENV = "MDH_SEARCH_THREADS"


def available_cores() -> int:
    """Return the number of cores this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on every system (Windows, macOS)
        return max(1, os.cpu_count() or 1)


def default_threads() -> int:
    """Return the search threads when nothing sets them: the cores minus one, at least 1."""
    return max(1, min(MAX_THREADS, available_cores() - 1))


def parse_threads(text: str) -> int:
    """Return a number of search threads given as text; ValueError saying what is wrong.

    >>> parse_threads(" 3 ")
    3
    >>> parse_threads("0")
    Traceback (most recent call last):
    ...
    ValueError: must be a whole number from 1 to 256
    """
    try:
        value = int(text.strip())
    except ValueError:
        raise ValueError(f"must be a whole number from 1 to {MAX_THREADS}") from None
    if not 1 <= value <= MAX_THREADS:
        raise ValueError(f"must be a whole number from 1 to {MAX_THREADS}")
    return value


def threads_from_env(environ: Mapping[str, str] | None = None) -> tuple[int, list[str]]:
    """Return the search threads the environment sets (else ``default_threads()``), and a
    warning when its value is invalid (then ignored).

    >>> threads_from_env({"MDH_SEARCH_THREADS": "2"})
    (2, [])
    >>> threads_from_env({"MDH_SEARCH_THREADS": "many"})[1]
    ["ignoring MDH_SEARCH_THREADS='many': must be a whole number from 1 to 256"]
    """
    return setting_from_env(environ, THREADS_ENV, parse_threads, default_threads())
