"""Every command-line program shares one never-raise main, one usage error and one set of codes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from game.programs import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    Parser,
    UsageError,
    guarded,
)


def _interrupted() -> int:
    raise KeyboardInterrupt


def _buggy() -> int:
    raise ZeroDivisionError("oops")


def _bad_usage() -> int:
    Parser(prog="demo").parse_args(["--nothing"])
    return EXIT_OK


def test_guarded_never_raises_and_says_why_in_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert guarded("demo", _interrupted) == EXIT_INTERRUPTED
    assert guarded("demo", _buggy) == EXIT_INTERNAL
    assert "demo: internal error: ZeroDivisionError: oops" in capsys.readouterr().err
    assert guarded("demo", _bad_usage) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("usage: demo") and "demo: error: unrecognized arguments" in err
    assert guarded("demo", lambda: Parser(prog="demo").parse_args(["--help"]) and 5) == EXIT_OK


def test_a_one_line_parser_leaves_the_usage_out() -> None:
    with pytest.raises(UsageError) as caught:
        Parser(prog="demo", usage_on_error=False).parse_args(["--nothing"])
    assert caught.value.usage == ""


def _programs() -> dict[str, Callable[[list[str]], int]]:
    from game.engine.main import main as engine
    from game.terminal.main import main as cli
    from game.tools.review import main as review
    from game.tools.screenshots import main as screenshots
    from game.tools.telemetry import main as telemetry
    from game.tools.tournament import main as tournament

    return {
        "cli": cli,
        "engine": engine,
        "review": review,
        "screenshots": screenshots,
        "telemetry": telemetry,
        "tournament": tournament,
    }


@pytest.mark.parametrize("name", sorted(_programs()))
def test_every_program_answers_a_bad_option_with_status_2(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _programs()[name](["--no-such-option"]) == EXIT_USAGE
    assert f"mdhearts {name}: error:" in capsys.readouterr().err
