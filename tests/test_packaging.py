"""The standalone build's files agree with the code: version, compiled modules, entry point."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from game.version import VERSION

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"


def test_windows_version_resources_match_the_program_version() -> None:
    numbers = tuple(int(part) for part in VERSION.split("."))
    info = (PACKAGING / "windows" / "version_info.txt").read_text(encoding="utf-8")
    assert f"filevers=({numbers[0]}, {numbers[1]}, {numbers[2]}, 0)" in info
    assert f"StringStruct('ProductVersion', '{VERSION}')" in info
    manifest = (PACKAGING / "windows" / "mdhearts.manifest").read_text(encoding="utf-8")
    assert f'version="{VERSION}.0"' in manifest
    assert "PerMonitorV2" in manifest


def test_every_compiled_module_is_collected_by_the_build() -> None:
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    compiled = re.findall(r'Extension\("([\w.]+)"', setup)
    assert compiled, "setup.py names the compiled modules"
    spec = (PACKAGING / "mdhearts.spec").read_text(encoding="utf-8")
    hidden = re.search(r"hidden = \[(.*?)\]", spec)
    assert hidden is not None
    for name in compiled:
        assert f'"{name}"' in hidden.group(1), f"{name} is not a hidden import of the build"


def test_the_launcher_starts_the_worker_support_before_anything_else() -> None:
    tree = ast.parse((PACKAGING / "launcher.py").read_text(encoding="utf-8"))
    main_block = next(node for node in tree.body if isinstance(node, ast.If))
    first = main_block.body[0]
    assert isinstance(first, ast.Expr) and isinstance(first.value, ast.Call)
    assert ast.unparse(first.value) == "multiprocessing.freeze_support()"


def test_mac_bundle_asks_for_high_dpi_and_linux_has_a_desktop_file() -> None:
    spec = (PACKAGING / "mdhearts.spec").read_text(encoding="utf-8")
    assert '"NSHighResolutionCapable": True' in spec
    assert "upx=False" in spec and "upx=True" not in spec
    desktop = (PACKAGING / "linux" / "mdhearts.desktop").read_text(encoding="utf-8")
    assert "Exec=mdhearts" in desktop and "Icon=mdhearts" in desktop
    assert (ROOT / "assets" / "icon.png").stat().st_size > 1000


def test_every_python_package_and_asset_folder_is_installed() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = re.search(r"^packages = \[(.*?)\]", pyproject, re.MULTILINE)
    assert listed is not None
    packages = set(re.findall(r'"([\w.]+)"', listed.group(1)))
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("core", "ai", "game")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found <= packages, f"not installed: {sorted(found - packages)}"
    folders = {
        "game.assets" + "".join(f".{part}" for part in folder.relative_to(ROOT / "assets").parts)
        for folder in [ROOT / "assets", *(p for p in (ROOT / "assets").rglob("*") if p.is_dir())]
    }
    assert folders <= packages, f"asset folders not installed: {sorted(folders - packages)}"
