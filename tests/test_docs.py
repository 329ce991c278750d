"""The docs say what the program does."""

from __future__ import annotations

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
