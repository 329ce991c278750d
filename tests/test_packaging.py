"""The standalone build's files agree with the code: the spec, run with stand-ins for
PyInstaller, collects the compiled modules, the assets and the entry point; version resources."""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any
from xml.etree import ElementTree

import pytest

from ai.play_model import DEFAULT_PATH
from game.paths import asset_path, assets_dir
from game.table.fonts import FONT_FILES
from game.version import VERSION, version_numbers

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
SPEC = PACKAGING / "mdhearts.spec"


@dataclass
class Call:
    """One call the spec made to a PyInstaller build step."""

    step: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


@dataclass
class SpecRun:
    """What the spec asked PyInstaller to build, step by step."""

    calls: list[Call] = field(default_factory=list)

    def steps(self, step: str) -> list[Call]:
        """Return the calls of one build step (Analysis, PYZ, EXE, COLLECT, BUNDLE)."""
        return [call for call in self.calls if call.step == step]

    def analysis(self) -> Call:
        """Return the single Analysis call."""
        (analysis,) = self.steps("Analysis")
        return analysis


def run_spec(*, onefile: bool, platform: str, workpath: Path | None = None) -> SpecRun:
    """Execute the spec with recording stand-ins for PyInstaller's build steps.

    The Analysis stand-in returns distinct markers for its outputs so that the test can follow
    where the scripts, binaries and data files go. ``workpath`` is PyInstaller's build folder,
    where the Windows build writes its version resource (needed for ``win32`` only).
    """
    run = SpecRun()

    def step(name: str) -> Callable[..., Any]:
        def record(*args: Any, **kwargs: Any) -> Any:
            run.calls.append(Call(name, args, kwargs))
            if name == "Analysis":
                return SimpleNamespace(
                    pure="<pure>", scripts="<scripts>", binaries="<binaries>", datas="<datas>"
                )
            return f"<{name}>"

        return record

    namespace: dict[str, Any] = {
        "SPECPATH": str(PACKAGING),
        "workpath": str(workpath or "<no workpath given>"),
        **{name: step(name) for name in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")},
    }
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MDH_ONEFILE", "1" if onefile else "0")
        patch.setattr(sys, "path", list(sys.path))  # the spec puts the source tree first
        patch.setattr(sys, "platform", platform)
        exec(compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec"), namespace)
    return run


def source_trees() -> list[ast.Module]:
    """Return the parsed modules of the program's packages."""
    return [
        ast.parse(path.read_text(encoding="utf-8"))
        for top in ("core", "ai", "game")
        for path in (ROOT / top).rglob("*.py")
    ]


def calls_named(name: str) -> list[ast.Call]:
    """Return every call of a function called ``name`` in the program's source."""
    return [
        node
        for tree in source_trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name | ast.Attribute)
        and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == name
    ]


def literal(node: ast.expr) -> str:
    """Return the value of a string literal in the source."""
    assert isinstance(node, ast.Constant) and isinstance(node.value, str), ast.unparse(node)
    return node.value


def compiled_extensions() -> set[str]:
    """Return the module names of the compiled extensions setup.py builds."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    return {
        literal(node.args[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        if node.func.id == "Extension"
    }


def test_the_build_starts_from_the_launcher_and_the_game_entry_point() -> None:
    analysis = run_spec(onefile=False, platform="linux").analysis()
    (script,) = analysis.args[0]
    assert Path(script) == PACKAGING / "launcher.py" and Path(script).is_file()
    assert analysis.kwargs["pathex"] == [str(ROOT)]
    launcher = ast.parse(Path(script).read_text(encoding="utf-8"))
    imports = {
        (node.module, alias.name)
        for node in ast.walk(launcher)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert ("game.main", "main") in imports
    assert "sys.exit(main())" in {ast.unparse(node) for node in ast.walk(launcher)}
    # The launcher starts what the installed `mdhearts` command starts.
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["scripts"]["mdhearts"] == "game.main:main"
    assert callable(importlib.import_module("game.main").main)


def test_every_compiled_module_and_its_twin_is_a_hidden_import() -> None:
    hidden = set(run_spec(onefile=False, platform="linux").analysis().kwargs["hiddenimports"])
    compiled = compiled_extensions()
    assert compiled, "setup.py names the compiled modules"
    loaded = calls_named("load_native")
    assert loaded, "the program loads its compiled modules through load_native"
    twin_of = {literal(call.args[0]): ast.unparse(call.args[1]) for call in loaded}
    assert set(twin_of) == compiled, "load_native and setup.py name different modules"
    missing = compiled - hidden
    assert not missing, f"compiled modules not collected by the build: {sorted(missing)}"
    for name in compiled:
        source = ROOT.joinpath(*name.split(".")).with_suffix(".pyx")
        assert source.is_file(), f"{name} has no source {source.name}"
        # Its pure-Python twin is imported by name too, so it ships either way.
        package = name.rpartition(".")[0]
        assert f"{package}.{twin_of[name]}" in hidden, f"the twin of {name} is not collected"
    for name in hidden - compiled:
        assert importlib.util.find_spec(name) is not None, f"hidden import {name} does not exist"
    if os.environ.get("MDH_REQUIRE_COMPILED") == "1":
        for name in compiled:
            found = importlib.util.find_spec(name)
            assert found is not None and found.origin is not None
            assert found.origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def runtime_assets() -> list[tuple[str, ...]]:
    """Return the path parts of every asset the game loads through ``asset_path``.

    Calls with literal arguments are read from the source; the only other caller, the font
    loader, picks one of ``FONT_FILES``.
    """
    assets: list[tuple[str, ...]] = []
    calls = calls_named("asset_path")
    for call in calls:
        if all(isinstance(arg, ast.Constant) for arg in call.args):
            assets.append(tuple(literal(arg) for arg in call.args))
        else:
            assert ast.unparse(call) == "asset_path('fonts', FONT_FILES[bold])", (
                f"update runtime_assets for {ast.unparse(call)}"
            )
            assets.extend(("fonts", name) for name in FONT_FILES.values())
    assert ("icon.png",) in assets and len(calls) >= 2
    return assets


def bundle(datas: list[tuple[str, str]], into: Path) -> None:
    """Lay out data files as PyInstaller does: a folder's contents, or a file, go to ``dest``."""
    for source, dest in datas:
        origin = Path(source)
        assert origin.is_absolute() and origin.exists(), source
        target = into / dest
        if origin.is_dir():
            shutil.copytree(origin, target, dirs_exist_ok=True)
        else:
            target.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, target / origin.name)


def test_every_asset_is_bundled_where_the_frozen_game_looks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    datas = run_spec(onefile=True, platform="linux").analysis().kwargs["datas"]
    bundle(datas, tmp_path)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert assets_dir().parent == tmp_path
    for parts in runtime_assets():
        assert asset_path(*parts).is_file(), f"{'/'.join(parts)} is not in the bundle"
    shipped = {p.relative_to(ROOT / "assets") for p in (ROOT / "assets").rglob("*") if p.is_file()}
    bundled = {p.relative_to(assets_dir()) for p in assets_dir().rglob("*") if p.is_file()}
    assert shipped <= bundled, f"not bundled: {sorted(map(str, shipped - bundled))}"
    # The hard bot's learned model of play, beside its module as the frozen ai/ package has it.
    play_model = tmp_path / DEFAULT_PATH.relative_to(ROOT)
    assert play_model.is_file() and play_model.read_bytes() == DEFAULT_PATH.read_bytes()


@pytest.mark.parametrize("platform", ["linux", "win32", "darwin"])
@pytest.mark.parametrize("onefile", [False, True])
def test_each_build_mode_ships_the_binaries_and_the_data(
    onefile: bool, platform: str, tmp_path: Path
) -> None:
    run = run_spec(onefile=onefile, platform=platform, workpath=tmp_path)
    (pyz,) = run.steps("PYZ")
    assert pyz.args == ("<pure>",)
    (exe,) = run.steps("EXE")
    assert exe.args[:2] == ("<PYZ>", "<scripts>")
    assert exe.kwargs["name"] == "mdhearts"
    assert exe.kwargs["console"] is (platform != "win32")
    assert Path(exe.kwargs["icon"]).is_file()
    if onefile:
        assert "<binaries>" in exe.args and "<datas>" in exe.args
        assert not run.steps("COLLECT") and not run.steps("BUNDLE")
    else:
        assert exe.kwargs["exclude_binaries"] is True
        (collect,) = run.steps("COLLECT")
        assert collect.args == ("<EXE>", "<binaries>", "<datas>")
        assert len(run.steps("BUNDLE")) == (platform == "darwin")
    if platform == "win32":
        assert Path(exe.kwargs["version"]).is_file()
        assert exe.kwargs["manifest"].startswith("<?xml")
    else:
        assert "version" not in exe.kwargs and "manifest" not in exe.kwargs
    # UPX-packed programs start slower and trip virus scanners.
    for call in run.calls:
        assert call.kwargs.get("upx", False) is False, call.step


def test_nothing_the_program_imports_is_excluded() -> None:
    excluded = set(run_spec(onefile=False, platform="linux").analysis().kwargs["excludes"])
    imported = set()
    for tree in source_trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    assert {"core", "ai", "game", "pygame", "numpy", "platformdirs"} <= imported
    assert not excluded & imported, f"excluded but imported: {sorted(excluded & imported)}"
    # The optional yardstick is loaded by name only, and never ships.
    assert {"pyspiel", "open_spiel"} <= excluded


def test_the_launcher_starts_the_worker_support_before_anything_else() -> None:
    tree = ast.parse((PACKAGING / "launcher.py").read_text(encoding="utf-8"))
    main_block = next(node for node in tree.body if isinstance(node, ast.If))
    first = main_block.body[0]
    assert isinstance(first, ast.Expr) and isinstance(first.value, ast.Call)
    assert ast.unparse(first.value) == "multiprocessing.freeze_support()"


def test_mac_bundle_asks_for_high_dpi_and_linux_has_a_desktop_file() -> None:
    (app,) = run_spec(onefile=False, platform="darwin").steps("BUNDLE")
    assert app.args == ("<COLLECT>",)
    assert app.kwargs["version"] == VERSION
    plist = app.kwargs["info_plist"]
    assert plist["NSHighResolutionCapable"] is True
    assert plist["CFBundleShortVersionString"] == VERSION
    assert Path(app.kwargs["icon"]).is_file()
    desktop = (PACKAGING / "linux" / "mdhearts.desktop").read_text(encoding="utf-8")
    assert "Exec=mdhearts" in desktop and "Icon=mdhearts" in desktop
    assert (ROOT / "assets" / "icon.png").stat().st_size > 1000


def test_every_python_package_and_asset_folder_is_installed() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = set(pyproject["tool"]["setuptools"]["packages"])
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


def load_version_resource(path: Path) -> Any:
    """Read a version resource file as PyInstaller does, with its own loader when it is here.

    Its module imports ``pefile`` and ``win32api``, which PyInstaller has on Windows only;
    reading a text file needs neither, so stand-ins are put in their place elsewhere.
    """
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.skip("PyInstaller is not installed (the package extra)")
    with pytest.MonkeyPatch.context() as patch:
        if importlib.util.find_spec("pefile") is None:
            patch.setitem(sys.modules, "pefile", ModuleType("pefile"))
        compat = importlib.import_module("PyInstaller.compat")
        if not hasattr(compat, "win32api"):
            patch.setattr(compat, "win32api", None, raising=False)
        versioninfo = importlib.import_module("PyInstaller.utils.win32.versioninfo")
        return versioninfo.load_version_info_from_text_file(str(path))


def test_windows_version_resources_are_made_from_the_program_version(tmp_path: Path) -> None:
    (exe,) = run_spec(onefile=False, platform="win32", workpath=tmp_path).steps("EXE")
    major, minor, patch = version_numbers(VERSION)
    info = load_version_resource(Path(exe.kwargs["version"]))
    assert (info.ffi.fileVersionMS, info.ffi.fileVersionLS) == ((major << 16) | minor, patch << 16)
    assert (info.ffi.productVersionMS, info.ffi.productVersionLS) == (
        (major << 16) | minor,
        patch << 16,
    )
    strings = {
        entry.name: entry.val
        for kid in info.kids
        if type(kid).__name__ == "StringFileInfo"
        for table in kid.kids
        for entry in table.kids
    }
    assert strings["FileVersion"] == strings["ProductVersion"] == VERSION
    assert strings["OriginalFilename"] == "mdhearts.exe"
    manifest = ElementTree.fromstring(exe.kwargs["manifest"].encode("utf-8"))
    namespace = "{urn:schemas-microsoft-com:asm.v1}"
    identity = manifest.find(f"{namespace}assemblyIdentity")
    assert identity is not None and identity.get("version") == f"{VERSION}.0"
    assert "PerMonitorV2" in exe.kwargs["manifest"]


def test_the_version_is_three_numbers() -> None:
    assert version_numbers("1.12.0") == (1, 12, 0)
    assert ".".join(map(str, version_numbers())) == VERSION
    for bad in ("1.2", "1.2.3rc1", "v1.2.3", "01.2.3", "1.2.3.4", ""):
        with pytest.raises(ValueError, match=r"MAJOR\.MINOR\.PATCH"):
            version_numbers(bad)
