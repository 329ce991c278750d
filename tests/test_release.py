"""Releases: the tag and the version, the archives' names and contents, the Linux install script
(run against a stand-in program folder), and the workflows that build them.

The real build, its archive, install and self-test are checked by ``.ci/run`` (Linux) and by the
release workflow (each system); this file checks what needs no build.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from game.version import VERSION

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
WORKFLOWS = ROOT / ".github" / "workflows"

needs_sh = pytest.mark.skipif(
    os.name != "posix" or shutil.which("sh") is None, reason="the install script is for Linux"
)


def load_script(name: str) -> ModuleType:
    """Import a script of ``packaging/`` (the folder is no package: its name is a library's)."""
    spec = importlib.util.spec_from_file_location(f"mdh_{name}", PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


archive = load_script("archive")
check_release = load_script("check_release")


# -- one version number ---------------------------------------------------------------------


def test_the_tag_must_be_v_and_the_program_version(capsys: pytest.CaptureFixture[str]) -> None:
    archive.check_tag(f"v{VERSION}")
    archive.check_tag("v1.4.0", "1.4.0")
    for wrong in ("1.4.0", "v1.4", "v1.4.1", "V1.4.0", "v1.4.0-rc1", "release-1.4.0", ""):
        with pytest.raises(archive.ReleaseError, match="does not match the program's version"):
            archive.check_tag(wrong, "1.4.0")
    assert archive.main(["--check-tag", f"v{VERSION}"]) == 0
    assert archive.main(["--check-tag", "v9.9.9"]) == 1
    error = capsys.readouterr().err
    assert "'v9.9.9' does not match" in error and f"tag the release 'v{VERSION}'" in error


def test_one_version_number_is_used_by_the_package_the_changelog_and_the_archives() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in pyproject["project"]
    assert pyproject["project"]["dynamic"] == ["version"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "game.version.VERSION"}
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", changelog, re.MULTILINE)
    assert released and released[0] == VERSION, "the newest changelog entry is not VERSION"
    assert "\n### " in archive.release_notes(changelog)
    for system in ("linux", "windows", "macos"):
        assert f"-{VERSION}-" in archive.archive_name(VERSION, system, "x86_64")


def test_release_notes_are_the_version_s_section() -> None:
    changelog = "\n".join(
        [
            "# Changelog",
            "## [Unreleased]",
            "- next",
            "## [1.1.0] - 2026-02-01",
            "### Added",
            "- moons",
            "",
            "## [1.0.0] - 2026-01-01",
            "- first",
            "",
            "[1.1.0]: https://example.org/1.1.0",
            "[1.0.0]: https://example.org/1.0.0",
        ]
    )
    assert archive.release_notes(changelog, "1.1.0") == "### Added\n- moons"
    assert archive.release_notes(changelog, "1.0.0") == "- first"
    with pytest.raises(archive.ReleaseError, match=r"no section '## \[1.2.0\]'"):
        archive.release_notes(changelog, "1.2.0")
    with pytest.raises(archive.ReleaseError, match="is empty"):
        archive.release_notes("## [2.0.0]\n\n## [1.0.0]\n- x", "2.0.0")


def test_archive_names_say_the_version_the_system_and_the_processor() -> None:
    name = archive.archive_name
    assert name("1.2.3", "linux", "x86_64") == "mdhearts-1.2.3-linux-x86_64.tar.gz"
    assert name("1.2.3", "linux", "arm64") == "mdhearts-1.2.3-linux-arm64.tar.gz"
    assert name("1.2.3", "windows", "x86_64") == "mdhearts-1.2.3-windows-x64.zip"
    assert name("1.2.3", "macos", "arm64") == "mdhearts-1.2.3-macos-arm64.zip"
    with pytest.raises(archive.ReleaseError, match="unknown system"):
        name("1.2.3", "plan9", "x86_64")
    with pytest.raises(ValueError, match="MAJOR"):
        name("1.2", "linux", "x86_64")


# -- the archives, from a stand-in build ------------------------------------------------------

FAKE_PROGRAM = """#!/bin/sh
# Stands in for the frozen program: says what it was asked.
echo "fake mdhearts $*"
"""


def fake_dist(tmp_path: Path, windows: bool = False, text: str = FAKE_PROGRAM) -> Path:
    """Return a ``dist`` folder holding a tiny stand-in for the one-folder build."""
    dist = tmp_path / "dist"
    program = dist / "mdhearts"
    (program / "_internal" / "assets").mkdir(parents=True)
    (program / "_internal" / "assets" / "data.txt").write_text("data", encoding="utf-8")
    executable = program / ("mdhearts.exe" if windows else "mdhearts")
    executable.write_text(text, encoding="utf-8")
    executable.chmod(0o755)
    return dist


def test_the_linux_archive_holds_the_program_the_menu_entry_the_icon_and_the_script(
    tmp_path: Path,
) -> None:
    made = archive.make_linux(fake_dist(tmp_path), tmp_path, "1.2.3", "x86_64")
    assert made == tmp_path / "mdhearts-1.2.3-linux-x86_64.tar.gz"
    top = "mdhearts-1.2.3-linux-x86_64"
    with tarfile.open(made) as tar:
        members = {member.name: member for member in tar.getmembers()}
        assert {
            f"{top}/install.sh",
            f"{top}/mdhearts.desktop",
            f"{top}/mdhearts.png",
            f"{top}/mdhearts/mdhearts",
            f"{top}/mdhearts/_internal/assets/data.txt",
        } <= set(members)
        assert all(name.startswith(f"{top}/") for name in members)
        assert members[f"{top}/install.sh"].mode == 0o755
        if os.name == "posix":  # elsewhere files carry no execute bits to keep
            assert members[f"{top}/mdhearts/mdhearts"].mode & 0o111
        assert {(m.uid, m.gid, m.uname) for m in members.values()} == {(0, 0, "")}
        icon = tar.extractfile(f"{top}/mdhearts.png")
        assert icon is not None and icon.read() == (ROOT / "assets" / "icon.png").read_bytes()


def test_the_windows_archive_is_the_program_folder(tmp_path: Path) -> None:
    made = archive.make_windows(fake_dist(tmp_path, windows=True), tmp_path, "1.2.3", "x86_64")
    assert made.name == "mdhearts-1.2.3-windows-x64.zip"
    with zipfile.ZipFile(made) as zipped:
        names = set(zipped.namelist())
    assert {"mdhearts/mdhearts.exe", "mdhearts/_internal/assets/data.txt"} <= names
    assert all(name.startswith("mdhearts/") for name in names)


def test_an_archive_needs_a_build_first(tmp_path: Path) -> None:
    for make in (archive.make_linux, archive.make_windows):
        with pytest.raises(archive.ReleaseError, match=r"run packaging/build\.py first"):
            make(tmp_path, tmp_path, "1.2.3", "x86_64")


# -- the install script ------------------------------------------------------------------------


def unpacked(tmp_path: Path) -> Path:
    """Make the Linux archive of a stand-in build, unpack it, and return its folder."""
    made = archive.make_linux(fake_dist(tmp_path), tmp_path, "1.2.3", "x86_64")
    with tarfile.open(made) as tar:
        tar.extractall(tmp_path / "unpacked", filter="tar")
    return tmp_path / "unpacked" / "mdhearts-1.2.3-linux-x86_64"


def run(command: list[str | Path], **env: str) -> subprocess.CompletedProcess[str]:
    """Run a command with extra environment variables; return its result."""
    return subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
    )


def installed_files(prefix: Path) -> set[str]:
    """Return the files and links under ``prefix``, relative to it."""
    return {
        path.relative_to(prefix).as_posix()
        for path in prefix.rglob("*")
        if path.is_file() or path.is_symlink()
    }


@needs_sh
@pytest.mark.parametrize("prefix_name", ["prefix", "odd 'prefix' $HOME \\ %u ` \"x\""])
def test_install_script_installs_for_the_user_and_removes_it_again(
    tmp_path: Path, prefix_name: str
) -> None:
    top = unpacked(tmp_path)
    prefix = tmp_path / prefix_name
    installed = run([top / "install.sh", "--prefix", prefix])
    assert installed.returncode == 0, installed.stderr
    program = prefix / "lib" / "mdhearts" / "mdhearts"
    assert {
        "bin/mdhearts",
        "lib/mdhearts/mdhearts",
        "lib/mdhearts/install.sh",
        "lib/mdhearts/_internal/assets/data.txt",
        "share/applications/mdhearts.desktop",
        "share/icons/hicolor/512x512/apps/mdhearts.png",
    } <= installed_files(prefix)
    # The menu entry starts the installed program and shows the installed icon.
    desktop = (prefix / "share/applications/mdhearts.desktop").read_text(encoding="utf-8")
    command = check_release.desktop_command(check_release.desktop_value(desktop, "Exec"))
    assert command == [str(program)]
    assert check_release.desktop_value(desktop, "Icon") == str(
        prefix / "share/icons/hicolor/512x512/apps/mdhearts.png"
    )
    assert "Name=MDHearts" in desktop and desktop.startswith("[Desktop Entry]\n")
    # The command on PATH is a link to the program, and runs it.
    link = prefix / "bin" / "mdhearts"
    assert link.is_symlink() and link.resolve() == program.resolve()
    assert run([link, "--self-test"]).stdout == "fake mdhearts --self-test\n"
    # The printed removal command is a working shell command.
    removal = installed.stdout.splitlines()[-1].removeprefix("to remove it: ")
    removed = run(["sh", "-c", removal])
    assert removed.returncode == 0, removed.stderr
    assert installed_files(prefix) == set()
    again = run([top / "install.sh", "--uninstall", "--prefix", prefix])
    assert again.returncode == 1 and "not installed" in again.stderr


@needs_sh
def test_install_script_defaults_to_the_user_s_local_folder_and_upgrades_in_place(
    tmp_path: Path,
) -> None:
    top = unpacked(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    assert run([top / "install.sh"], HOME=str(home)).returncode == 0
    program = home / ".local" / "lib" / "mdhearts" / "mdhearts"
    assert program.is_file()
    stale = program.parent / "_internal" / "stale.txt"
    stale.write_text("from the old version", encoding="utf-8")
    assert run([top / "install.sh"], HOME=str(home)).returncode == 0
    assert program.is_file() and not stale.exists(), "an upgrade replaces the whole folder"
    assert not [p for p in (home / ".local" / "lib").iterdir() if p.name.startswith(".")]
    # The installed copy of the script knows where it was installed.
    removed = run([program.parent / "install.sh", "--uninstall"], HOME=str(tmp_path))
    assert removed.returncode == 0, removed.stderr
    assert installed_files(home) == set()


@needs_sh
def test_install_script_refuses_bad_input_and_never_overwrites_what_is_not_its_own(
    tmp_path: Path,
) -> None:
    top = unpacked(tmp_path)
    unknown = run([top / "install.sh", "--prefx", tmp_path])
    assert unknown.returncode == 2 and "usage:" in unknown.stderr
    assert "unknown option: --prefx" in unknown.stderr
    missing = run([top / "install.sh", "--prefix"])
    assert missing.returncode == 1 and "--prefix needs a folder" in missing.stderr
    empty = run([top / "install.sh", "--prefix="], HOME=str(tmp_path / "home"))
    assert empty.returncode == 1 and "not an empty name" in empty.stderr
    assert not (tmp_path / "home").exists()
    # A folder of the same name that this script did not make is left alone.
    prefix = tmp_path / "taken"
    (prefix / "lib" / "mdhearts").mkdir(parents=True)
    (prefix / "lib" / "mdhearts" / "precious.txt").write_text("mine", encoding="utf-8")
    taken = run([top / "install.sh", "--prefix", prefix])
    assert taken.returncode == 1 and "was not made by this script" in taken.stderr
    kept = run([top / "install.sh", "--uninstall", "--prefix", prefix])
    assert kept.returncode == 1
    assert (prefix / "lib" / "mdhearts" / "precious.txt").read_text(encoding="utf-8") == "mine"
    # So is a command of the same name that is not a link.
    other = tmp_path / "other"
    (other / "bin").mkdir(parents=True)
    (other / "bin" / "mdhearts").write_text("another program", encoding="utf-8")
    clash = run([top / "install.sh", "--prefix", other])
    assert clash.returncode == 1 and "is not a link to MDHearts" in clash.stderr
    # The script works only beside the archive's files.
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    shutil.copy2(top / "install.sh", lonely / "install.sh")
    alone = run([lonely / "install.sh", "--prefix", tmp_path / "p"])
    assert alone.returncode == 1 and "unpacked MDHearts archive" in alone.stderr
    assert not (tmp_path / "p").exists()
    line_break = run([top / "install.sh", "--prefix", tmp_path / "a\nb"])
    assert line_break.returncode == 1 and "line break" in line_break.stderr


# A stand-in that answers as the real program does, or misbehaves as FAKE_FAULT says.
ANSWERING_PROGRAM = """#!/bin/sh
folder=$(dirname "$(readlink "$0" || echo "$0")")
case $1 in
    --version) [ "$FAKE_FAULT" = version ] && echo "mdhearts 0.0.0" || echo "mdhearts $VERSION" ;;
    --self-test)
        [ "$FAKE_FAULT" = fails ] && exit 1
        [ "$FAKE_FAULT" = writes ] && : > "$folder/settings.json"
        echo "self-test passed" ;;
esac
exit 0
"""


@needs_sh
@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        ("", None),
        ("version", "--version said 'mdhearts 0.0.0'"),
        ("fails", "--self-test failed with status 1"),
        ("writes", "wrote inside its own folder"),
    ],
)
def test_the_archive_check_installs_runs_and_removes_the_program(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fault: str,
    reason: str | None,
) -> None:
    program = ANSWERING_PROGRAM.replace("$VERSION", VERSION)
    made = archive.make_linux(fake_dist(tmp_path, text=program), tmp_path, VERSION, "x86_64")
    monkeypatch.setenv("FAKE_FAULT", fault)
    status = check_release.main([str(made)])
    out, err = capsys.readouterr()
    if reason is None:
        assert status == 0, err
        assert "install.sh --uninstall removed every file" in out
        assert "the menu entry and" in out and "--self-test passed and wrote nothing" in out
    else:
        assert status == 1 and reason in err


def test_desktop_values_and_commands_are_read_as_the_menu_reads_them() -> None:
    text = '[Desktop Entry]\nName=MDHearts\nExec="/a b/it\'s \\\\$x %%" %u\nIcon=/i\\\\n\n'
    assert check_release.desktop_value(text, "Icon") == "/i\\n"
    exec_value = check_release.desktop_value(text, "Exec")
    assert exec_value == '"/a b/it\'s \\$x %%" %u'
    assert check_release.desktop_command(exec_value) == ["/a b/it's $x %"]
    assert check_release.desktop_command("/usr/bin/mdhearts --x") == ["/usr/bin/mdhearts", "--x"]
    with pytest.raises(check_release.CheckFailed, match="2 Name= lines"):
        check_release.desktop_value("Name=a\nName=b\n", "Name")


# -- the workflows -----------------------------------------------------------------------------


def workflow(name: str) -> dict[Any, Any]:
    """Parse a workflow file (YAML reads its ``on:`` key as True)."""
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed")
    loaded = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def commands(job: dict[str, Any]) -> str:
    """Return every shell command of a job, one after another."""
    return "\n".join(step.get("run", "") for step in job["steps"])


def test_ci_runs_the_readme_test_command_on_three_systems() -> None:
    ci = workflow("ci.yml")
    test = ci["jobs"]["test"]
    assert test["strategy"]["matrix"]["os"] == ["ubuntu-latest", "windows-latest", "macos-latest"]
    assert test["strategy"]["fail-fast"] is False
    setup = next(s for s in test["steps"] if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "3.11"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert '.venv/bin/pip install -e ".[test]" && .venv/bin/python -m pytest -n 2' in readme
    run_all = commands(test)
    assert 'pip install -e ".[test]"' in run_all and "python -m pytest -n 2" in run_all
    assert "core.kernel.COMPILED and ai.search.COMPILED" in run_all
    assert ci["env"]["MDH_REQUIRE_COMPILED"] == "1" and ci["env"]["SDL_VIDEODRIVER"] == "dummy"
    lint = commands(ci["jobs"]["lint"])
    for check in ("ruff check .", "mypy --strict core ai game bench", "lint-imports"):
        assert check in lint and check in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_a_version_tag_builds_checks_and_publishes_on_three_systems() -> None:
    release = workflow("release.yml")
    assert release[True]["push"]["tags"] == ["v*"]
    assert release["permissions"] == {"contents": "read"}
    jobs = release["jobs"]
    assert "--check-tag" in commands(jobs["check"]) and "--notes" in commands(jobs["check"])
    build = jobs["build"]
    systems = {entry["system"]: entry["os"] for entry in build["strategy"]["matrix"]["include"]}
    assert set(systems) == {"linux", "windows", "macos"}
    assert systems["windows"].startswith("windows-") and systems["macos"].startswith("macos-")
    built = commands(build)
    order = [
        built.index(step)
        for step in (
            "python packaging/build.py",
            'python packaging/archive.py --tag "$TAG"',
            "python packaging/check_release.py --serve dist/release/mdhearts-*",
        )
    ]
    assert order == sorted(order)
    publish = jobs["publish"]
    assert publish["needs"] == "build" and publish["if"] == "github.ref_type == 'tag'"
    assert publish["permissions"] == {"contents": "write"}
    assert "gh release create" in commands(publish) and "--verify-tag" in commands(publish)
    # Every script a workflow runs is in the repository.
    for name in ("ci.yml", "release.yml"):
        text = (WORKFLOWS / name).read_text(encoding="utf-8")
        for script in re.findall(r"packaging/\w+\.py", text):
            assert (ROOT / script).is_file(), f"{name} runs {script}, which does not exist"
