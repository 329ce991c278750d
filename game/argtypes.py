"""Value types for the commands' argparse options, shared by every command that needs them."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """Return an argparse type accepting whole numbers from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, got {text!r:.40}"
            )
        return value

    return parse
