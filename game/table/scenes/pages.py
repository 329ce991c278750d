"""The pages opened from the table and the title menu: pause menu, scores, statistics, help."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.cards import card_label, parse_card
from core.controller import Controller
from core.scoresheet import rules_summary
from game.table.scene import register
from game.table.scenes.menu import MenuItem, MenuScene
from game.table.scenes.table import SEAT_NAMES
from game.table.scenes.text_page import Line, TextPage

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.scenes.table import TableScene

HELP_LINES = [
    "Goal: take as few points as you can. Each heart is 1 point and the Q♠ is 13. "
    "The match ends when someone reaches the end score; the lowest total wins.",
    "Passing: before each hand, choose three cards to pass (left, right, across, then a "
    "hand without passing).",
    "Play: the 2♣ leads the first trick. Follow suit if you can. No points may be played on "
    "the first trick, and hearts cannot be led until they are broken.",
    "Shooting the moon: take all the hearts and the Q♠ and everyone else gets 26 points.",
    "",
    "Mouse: click a card to choose or play it. Click during an animation to hurry it.",
    "Keys: ← → pick a card, ↑ ↓ choose or put back a card to pass, Enter plays or passes, "
    "H hint, Space plays the hint, Ctrl+Z undo, Ctrl+Y redo, S scores, L last trick, M sound, "
    "F11 or Alt+Enter fullscreen, Esc menu.",
]


#: A card in its typed form (``QS``, ``2C``) inside a sentence.
CARD_TEXT = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def with_suit_symbols(text: str) -> str:
    """Return ``text`` with every typed card (``QS``) written as the table shows it (``Q♠``)."""
    return CARD_TEXT.sub(lambda found: card_label(parse_card(found.group())), text)


def help_page(app: App) -> TextPage:
    """Return the rules and keys page."""
    rules = f"Rules of this match: {with_suit_symbols(rules_summary(app.settings.rules))}."
    return TextPage(app, "How to play", [*HELP_LINES, "", rules])


def stats_page(app: App) -> TextPage:
    """Return the statistics page (read when drawn, so it is always current)."""

    def lines() -> list[str]:
        stats = app.stats
        return [
            f"Matches played: {stats.matches_played}",
            f"Matches won: {stats.matches_won} ({100 * stats.win_rate:.0f}%)",
            f"Hands played: {stats.hands_played}",
            f"Average points per hand: {stats.average_points:.2f}",
            f"Moons shot: {stats.moons_shot}",
            f"Current winning streak: {stats.current_streak}",
            f"Best winning streak: {stats.best_streak}",
        ]

    return TextPage(app, "Statistics", lines)


def score_page(app: App, controller: Controller) -> TextPage:
    """Return the score sheet of the match: every hand's points and the totals."""

    def lines() -> list[Line]:
        if controller.match is None:
            return ["No match in progress."]
        person = controller.seats[0].is_human
        names = [app.settings.player_name if person else SEAT_NAMES[0], *SEAT_NAMES[1:]]
        rows: list[Line] = [("Hand", *names)]
        earlier = controller.match.earlier
        if earlier.count:
            rows.append((f"1-{earlier.count}", *(str(total) for total in earlier.totals)))
        for number, score in enumerate(controller.hand_scores, start=earlier.count + 1):
            marks = ["*" if seat == score.moon_shooter else "" for seat in range(4)]
            rows.append(
                (str(number), *(f"{p}{m}" for p, m in zip(score.points, marks, strict=True)))
            )
        rows.append(("Total", *(str(total) for total in controller.totals)))
        if any(score.moon_shooter is not None for score in controller.hand_scores):
            rows.append("* shot the moon")
        return rows

    return TextPage(app, "Score sheet", lines)


def pause_menu(app: App, table: TableScene) -> MenuScene:
    """Return the menu opened with Esc over the table."""

    def resume() -> None:
        app.stack.remove(menu)

    def new_match() -> None:
        if table.session.person_plays or app.dirs.save_file.exists():
            app.push_scene("abandon_match")
        else:
            app.start_match()

    def leave() -> None:
        if table.session.person_plays:
            app.save_game(table.session.controller)
        app.replace_scene("title")

    menu = MenuScene(
        app,
        "Paused",
        [
            MenuItem("Resume", resume),
            MenuItem("New match", new_match),
            MenuItem("Settings", lambda: app.push_scene("settings", overlay=True)),
            MenuItem(
                "Score sheet", lambda: app.stack.push(score_page(app, table.session.controller))
            ),
            MenuItem("How to play", lambda: app.stack.push(help_page(app))),
            MenuItem("Save and leave to the title", leave),
        ],
        overlay=True,
    )
    return menu


register("help", help_page)
register("statistics", stats_page)
register("score_sheet", score_page)
register("pause_menu", pause_menu)
