"""The ``mdhearts`` command: its options, and each command reaching its own program."""

from __future__ import annotations

import importlib

import pytest

from core.native import pure_python_from_env
from game.main import COMMANDS, main
from game.version import VERSION

#: Each command and the module whose ``main`` runs it.
PROGRAMS = {
    "cli": "game.terminal.main",
    "engine": "game.engine.main",
    "serve": "game.server.main",
    "tournament": "game.tools.tournament",
    "telemetry": "game.tools.telemetry",
    "screenshots": "game.tools.screenshots",
    "review": "game.tools.review",
}


def spy(monkeypatch: pytest.MonkeyPatch, module: str, status: int = 7) -> list[list[str]]:
    """Replace ``module.main`` by one that records its arguments and returns ``status``."""
    calls: list[list[str]] = []

    def fake(argv: list[str] | None = None) -> int:
        calls.append(list(argv or []))
        return status

    monkeypatch.setattr(importlib.import_module(module), "main", fake)
    return calls


def test_version_prints_the_program_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"mdhearts {VERSION}\n"


def test_help_names_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: mdhearts")
    for name in [*COMMANDS, "--self-test", "--version"]:
        assert name in shown
    assert main(["help"]) == 0
    assert capsys.readouterr().out == shown


@pytest.mark.parametrize("argv", [["frobnicate"], ["--frobnicate"], ["--opponents", "easy"]])
def test_an_unknown_command_or_option_is_bad_usage(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: mdhearts") and "mdhearts: error:" in err


def test_options_before_a_command_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = spy(monkeypatch, "game.terminal.main")
    assert main(["--json", "cli", "status"]) == 2
    assert calls == []
    assert "unrecognized arguments: --json" in capsys.readouterr().err


@pytest.mark.parametrize("command", sorted(PROGRAMS))
def test_each_command_hands_the_rest_of_its_arguments_to_its_program(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert set(PROGRAMS) == set(COMMANDS)
    calls = spy(monkeypatch, PROGRAMS[command])
    assert main([command, "--help"]) == 7
    assert main([command, "-x", "--json", "status", "--", "--version"]) == 7
    assert main([command]) == 7
    assert calls == [["--help"], ["-x", "--json", "status", "--", "--version"], []]


def test_self_test_and_plain_mdhearts_reach_their_programs(monkeypatch: pytest.MonkeyPatch) -> None:
    self_test = spy(monkeypatch, "game.tools.self_test", status=0)
    table = spy(monkeypatch, "game.table.main", status=0)
    assert main(["--self-test", "--opponents", "easy"]) == 0
    assert main(["--self-test"]) == 0
    assert self_test == [["--opponents", "easy"], []]
    assert main([]) == 0
    assert table == [[]]


@pytest.mark.parametrize("value", ["yes", "true", "2", " on "])
def test_an_invalid_pure_python_switch_is_ignored_with_a_warning(
    value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert pure_python_from_env({"MDH_PURE_PYTHON": value}) == (
        False,
        [
            f"ignoring MDH_PURE_PYTHON={value!r}: use 1 (the pure-Python modules) "
            "or 0 (the compiled ones)"
        ],
    )
    calls = spy(monkeypatch, "game.tools.telemetry")
    monkeypatch.setenv("MDH_PURE_PYTHON", value)
    assert main(["telemetry", "export"]) == 7 and calls == [["export"]]
    assert capsys.readouterr().err == (
        f"mdhearts telemetry: warning: ignoring MDH_PURE_PYTHON={value!r}: "
        "use 1 (the pure-Python modules) or 0 (the compiled ones)\n"
    )


def test_the_pure_python_switch_takes_1_and_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert pure_python_from_env({"MDH_PURE_PYTHON": "1"}) == (True, [])
    for off in ("0", "", " "):
        assert pure_python_from_env({"MDH_PURE_PYTHON": off}) == (False, [])
    assert pure_python_from_env({}) == (False, [])
    spy(monkeypatch, "game.tools.telemetry")
    monkeypatch.setenv("MDH_PURE_PYTHON", "1")
    assert main(["telemetry", "export"]) == 7
    assert capsys.readouterr().err == ""


def test_the_table_shows_an_invalid_pure_python_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    import game.table.main as table_main

    shown: list[list[str]] = []

    class Stop(Exception):
        pass

    def fake_app(dirs: object, notices: list[str]) -> None:
        shown.append(notices)
        raise Stop

    monkeypatch.setenv("MDH_PURE_PYTHON", "yes")
    monkeypatch.setattr(table_main, "App", fake_app)
    monkeypatch.setattr(table_main, "write_crash_log", lambda dirs: None)
    assert table_main.main() == 1
    assert any("ignoring MDH_PURE_PYTHON='yes'" in notice for notice in shown[0])
