"""The table's screens open each other by name, so none imports another to show it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import game.table.scenes
from game.table.scene import SCENES, Scene, register, scene_named

SCENES_DIR = Path(game.table.scenes.__file__).resolve().parent
#: Screens other screens may import: base classes and shared names, never to open them.
SHARED = {"menu", "text_page"}


def scene_imports(path: Path) -> set[str]:
    """Return the screen modules a screen's module imports when it runs (not for types)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in ast.walk(block)
    }
    modules = {
        node.module or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and id(node) not in typing_only
    }
    prefix = "game.table.scenes."
    return {module.removeprefix(prefix) for module in modules if module.startswith(prefix)}


def test_every_screen_is_registered_by_name() -> None:
    assert {
        "title",
        "table",
        "hand_summary",
        "match_over",
        "last_trick",
        "pause_menu",
        "score_sheet",
        "statistics",
        "help",
        "settings",
        "name_entry",
    } <= set(SCENES)


def test_no_screen_imports_another_to_open_it() -> None:
    """A screen in a package (``review/``) may import its own package's modules, no other."""
    for path in sorted(SCENES_DIR.rglob("*.py")):
        if path.parent == SCENES_DIR and path.stem == "__init__":
            continue
        own = None if path.parent == SCENES_DIR else path.parent.name
        imported = {module for module in scene_imports(path) if module.split(".")[0] != own}
        opened = imported - SHARED - {"table"}
        name = path.relative_to(SCENES_DIR)
        assert not opened, f"{name} imports {sorted(opened)}: open screens by name instead"
    # The table only shares its seat names; it imports no screen itself.
    assert scene_imports(SCENES_DIR / "table.py") == set()
    assert "table" not in scene_imports(SCENES_DIR / "title.py")


def test_an_unknown_name_and_a_taken_name_are_refused() -> None:
    with pytest.raises(LookupError, match="no screen is registered as 'nowhere'"):
        scene_named("nowhere", object())
    with pytest.raises(ValueError, match="already registered as 'title'"):
        register("title", Scene)
