"""``mdhearts screenshots``: pictures of the real table at several window sizes.

For each size the title menu is saved as PNG, then the table plays a seeded hand by itself and
the window is saved while passing, in the middle of a trick, with a hint, at the hand summary
and on the review of that hand (at a trick); then the moon celebration, settings over the pause
menu, the statistics page and the result of a short match; last the list of replays and that
match replayed.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from core.match import MAX_SEED
from game.argtypes import output_folder, whole_number
from game.programs import Parser, guarded

PROG = "mdhearts screenshots"
DEFAULT_SIZES = ("1280x720", "1920x1080", "3840x2160", "1024x1280")
#: Where the pictures go without ``--out``: a folder of this name in the current folder.
DEFAULT_OUT = "mdhearts-screenshots"


def parse_size(text: str) -> tuple[int, int]:
    """Parse ``WIDTHxHEIGHT`` (each 320..7680); raise ValueError with the expected form."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise ValueError(f"bad size {text!r}: write it as 1920x1080")
    size = int(width), int(height)
    if not (320 <= size[0] <= 7680 and 240 <= size[1] <= 4320):
        raise ValueError(f"bad size {text!r}: from 320x240 to 7680x4320")
    return size


def take(out: Path, size: tuple[int, int], seed: int) -> list[Path]:
    """Save the pictures of one window size; return their paths.

    The title; a seeded hand played by itself while passing, mid-trick, with a hint, at its
    summary and on its review (its fifth trick, then in hindsight with every hand face up); the
    moon celebration (staged: a moon is rare in a seeded hand); settings over the pause menu; a
    short match played to its result; then the statistics page with that match, the list of
    replays and the match replayed (its first hand's fifth trick).
    """
    import pygame

    from core.files import UserDirs
    from core.rules import RuleSet
    from game.table.app import App
    from game.table.bot_requests import InlineBots
    from game.table.scenes.title import TitleScene
    from game.tools.scripted import ScriptedTable

    home = Path(tempfile.mkdtemp(prefix="mdh-shots-"))
    dirs = UserDirs(home / "config", home / "data", home / "state", home / "log")
    app = App(dirs, size=size, bots=InlineBots())
    saved: list[Path] = []
    name = f"{size[0]}x{size[1]}"

    def save(moment: str) -> None:
        path = out / f"{moment}-{name}.png"
        pygame.image.save(app.screen, str(path))
        saved.append(path)

    try:
        app.push(TitleScene(app))
        for _ in range(600):  # until the title's cards are drawn (a few seconds at 4K)
            app.step(1 / 60)
            if app.warm_up(0.0):
                break
        app.step(1 / 60)
        save("title")
        table = ScriptedTable(app, seed)
        steps: list[tuple[str, Callable[[], bool]]] = [
            ("passing", table.at_passing),
            ("hint", table.at_hint),
            ("mid-trick", table.at_mid_trick),
            ("summary", table.at_summary),
        ]
        for moment, reach in steps:
            if not reach():
                raise RuntimeError(f"the table never reached the {moment} moment at {name}")
            save(f"table-{moment}")
        app.push_scene("review", table.scene, table.session.view().hand_number, 0)
        review = app.top_scene()
        assert review is not None
        for _ in range(600):  # one decision a frame with the inline reviews
            app.step(1 / 60)
            if getattr(review, "review", None) is not None:
                break
        else:
            raise RuntimeError(f"the review never finished at {name}")
        for _ in range(5):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0))
            app.step(1 / 60)
        save("review")
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0))
        app.step(1 / 60)
        save("review-hindsight")
        app.close_scene(review)
        table.next_hand()
        table.scene.flow.moment("moon", "North shot the moon!", "Everyone else takes 26 points")
        for _ in range(80):
            app.step(1 / 60)
        save("moon")
        app.show_only(table.scene)
        app.push_scene("pause_menu", table.scene)
        app.push_scene("settings", overlay=True)
        app.step(1 / 60)
        save("settings-over-pause")
        short = ScriptedTable(app, seed, rules=RuleSet(end_score=30))
        if not short.at_match_over():
            raise RuntimeError(f"the short match never ended at {name}")
        save("match-result")
        app.replace_scene("title")
        app.push_scene("statistics")
        app.step(1 / 60)
        save("statistics")
        # The short match was kept to replay: the list, then its first hand at the fifth trick.
        app.saver.flush()
        app.replace_scene("title")
        app.push_scene("replays")
        app.step(1 / 60)
        save("replays")
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
        for _ in range(6):  # past the deal and the passes to the fifth trick
            app.step(1 / 60)
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0))
        app.step(1 / 60)
        save("replay")
    finally:
        app.close()
        shutil.rmtree(home, ignore_errors=True)
    return saved


def main(argv: Sequence[str] | None = None) -> int:
    """Take the screenshots and print where they are."""
    return guarded(PROG, lambda: _run(argv))


def _run(argv: Sequence[str] | None) -> int:
    parser = Parser(prog=PROG, description="Save pictures of the table at window sizes.")
    parser.add_argument(
        "--out",
        type=output_folder,
        default=DEFAULT_OUT,
        help=f"folder for the PNG files, made if missing (default: {DEFAULT_OUT} in the "
        "current folder)",
    )
    parser.add_argument(
        "--sizes", default=",".join(DEFAULT_SIZES), help="comma-separated WIDTHxHEIGHT list"
    )
    parser.add_argument(
        "--seed", type=whole_number(0, MAX_SEED), default=7, help="seed of the dealt match"
    )
    args = parser.parse_args(argv)
    try:
        sizes = [parse_size(text.strip()) for text in args.sizes.split(",") if text.strip()]
    except ValueError as error:
        parser.error(str(error))
    out: Path = args.out
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        sys.stderr.write(f"{parser.prog}: error: cannot make the folder {out}: {error.strerror}\n")
        return 1
    for size in sizes:
        for path in take(out, size, args.seed):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
