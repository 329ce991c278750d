"""``mdhearts screenshots`` reaches every moment it names and saves each at the window size."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.tools import screenshots
from game.tools.screenshots import take


def test_every_moment_is_saved_at_the_window_size(tmp_path: Path) -> None:
    saved = take(tmp_path, (800, 600), seed=7)
    names = [path.name for path in saved]
    expected = [
        "title",
        "table-passing",
        "table-hint",
        "table-mid-trick",
        "table-summary",
        "review",
        "review-hindsight",
        "moon",
        "settings-over-pause",
        "match-result",
        "statistics",
        "replays",
        "replay",
    ]
    assert names == [f"{name}-800x600.png" for name in expected]
    pictures = [pygame.image.load(str(path)) for path in saved]
    assert all(picture.get_size() == (800, 600) for picture in pictures)
    assert len({pygame.image.tobytes(picture, "RGB") for picture in pictures}) == len(expected)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--out", "/dev/null"],
            "'/dev/null' is not a folder: it is not a regular file (a device)",
        ),
        (["--out", "notes.txt"], "'notes.txt' is not a folder: it is a file"),
        (["--out", "notes.txt/shots"], "cannot use 'notes.txt/shots'"),
        (["--seed", "-1"], "argument --seed: must be a whole number from 0 to"),
        (["--seed", "seven"], "argument --seed: must be a whole number from 0 to"),
        (["--sizes", "big"], "bad size 'big'"),
    ],
)
def test_bad_arguments_are_refused_before_any_picture(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("mine\n")
    monkeypatch.setattr(screenshots, "take", _never_take)
    assert screenshots.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert (tmp_path / "notes.txt").read_text() == "mine\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt"]


def _never_take(out: Path, size: tuple[int, int], seed: int) -> list[Path]:
    raise AssertionError("a picture was taken")


def test_without_out_the_pictures_go_to_a_folder_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    taken: list[tuple[Path, int]] = []

    def fake_take(out: Path, size: tuple[int, int], seed: int) -> list[Path]:
        taken.append((out, seed))
        return [out / "title.png"]

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(screenshots, "take", fake_take)
    assert screenshots.main(["--sizes", "800x600"]) == 0
    assert taken == [(Path(screenshots.DEFAULT_OUT), 7)]
    assert (tmp_path / "mdhearts-screenshots").is_dir()
    assert not (tmp_path / "docs").exists()
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "200")
    assert screenshots.main(["--help"]) == 0
    assert "(default: mdhearts-screenshots in the current folder)" in capsys.readouterr().out
