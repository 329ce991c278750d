"""The docs say what the program does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import game.table.main
from game.main import main

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_plain_mdhearts_opens_the_table_and_the_cli_docs_do_not_say_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[bool] = []
    monkeypatch.setattr(game.table.main, "main", lambda: opened.append(True) or 0)
    assert main([]) == 0
    assert opened == [True]
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for claim in ("plain `mdhearts`", "`mdhearts` with no arguments", "`mdhearts` alone"):
        assert claim not in text, f"docs/cli.md says {claim} starts the terminal session"


def test_the_docs_name_the_bot_of_a_plain_bot_seat() -> None:
    from ai.registry import DEFAULT_SEAT_BOT

    claims = {
        "cli.md": r"a plain `bot` is\s+`(\w+)`",
        "bots.md": r"a plain `bot` seat is the `(\w+)` bot",
    }
    for name, pattern in claims.items():
        found = re.findall(pattern, (DOCS / name).read_text(encoding="utf-8"))
        assert found == [DEFAULT_SEAT_BOT], f"docs/{name} says a plain bot plays {found}"
