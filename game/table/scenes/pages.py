"""The pages opened from the table and the title menu: pause menu, scores, statistics, help."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from core.cards import card_label, parse_card
from core.rules import RuleSet
from core.scoresheet import rules_summary
from game.table import theme
from game.table.hover import HoverGate
from game.table.match.port import MatchSheet
from game.table.scene import register
from game.table.scenes.menu import MenuItem, MenuScene
from game.table.scenes.text_page import SIDE, TOP, Line, TextPage
from game.table.score_table import MOON_NOTE, hand_rows, score_names, total_row
from game.table.store.stats import LEVELS, RECENT_MATCHES, MatchResult, Statistics, Tally
from game.table.widgets import draw_panel, draw_text

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
    "Keys: ← → point at a card, ↑ ↓ choose or put back a card to pass, Enter plays or passes, "
    "H hint, Space plays the hint, Ctrl+Z undo, Ctrl+Y redo, S scores, L last trick, M sound, "
    "F11 or Alt+Enter fullscreen, Esc menu.",
]


#: A card in its typed form (``QS``, ``2C``) inside a sentence.
CARD_TEXT = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def with_suit_symbols(text: str) -> str:
    """Return ``text`` with every typed card (``QS``) written as the table shows it (``Q♠``)."""
    return CARD_TEXT.sub(lambda found: card_label(parse_card(found.group())), text)


def rules_line(match_rules: RuleSet | None, settings_rules: RuleSet) -> str:
    """Return the help page's line on the rules: those of the match being played, or outside a
    match the rules the next match starts with (the settings')."""
    if match_rules is not None:
        return f"Rules of this match: {with_suit_symbols(rules_summary(match_rules))}."
    summary = with_suit_symbols(rules_summary(settings_rules))
    return f"Rules for the next match (from Settings): {summary}."


def help_page(app: App, match_rules: RuleSet | None = None) -> TextPage:
    """Return the rules and keys page; ``match_rules`` are those of the match being played."""
    rules = rules_line(match_rules, app.settings.rules)
    return TextPage(app, "How to play", [*HELP_LINES, "", rules])


def stats_page(app: App) -> StatsPage:
    """Return the statistics page (read when drawn, so it is always current)."""
    return StatsPage(app)


def _share(part: int, whole: int) -> str:
    """Return a count with its share of ``whole`` in percent: ``5 (42%)``."""
    return f"{part} ({100 * part / whole:.0f}%)" if whole else str(part)


def _match_points(points: int | None) -> str:
    """Return a match's final points, or a dash before any match is over."""
    return "—" if points is None else str(points)


#: The rows of the statistics table: a name and how to show one column's counts.
STAT_ROWS: tuple[tuple[str, Callable[[Tally], str]], ...] = (
    ("Matches played", lambda t: str(t.matches_played)),
    ("Matches won", lambda t: _share(t.matches_won, t.matches_played)),
    ("Hands played", lambda t: str(t.hands_played)),
    ("Hands won", lambda t: _share(t.hands_won, t.hands_recorded)),
    ("Points per hand", lambda t: f"{t.average_points:.2f}"),
    ("Moons shot", lambda t: str(t.moons_shot)),
    ("Moons conceded", lambda t: str(t.moons_conceded)),
    ("Best match", lambda t: _match_points(t.best_match)),
    ("Worst match", lambda t: _match_points(t.worst_match)),
    ("Points lost per decision", lambda t: _loss(t.loss_per_decision)),
)


def _loss(value: float | None) -> str:
    """Return the points lost per decision, or a dash before the coach reviewed a match."""
    return "—" if value is None else f"{value:.2f}"


def stats_lines(stats: Statistics) -> list[Line]:
    """Return the statistics as a table: a column for all matches and one per difficulty
    played, then the streaks."""
    levels = [level for level in LEVELS if level in stats.by_difficulty]
    columns: list[Tally] = [stats, *(stats.tally(level) for level in levels)]
    rows: list[Line] = [("", "All", *(level.capitalize() for level in levels))]
    rows += [(name, *(show(tally) for tally in columns)) for name, show in STAT_ROWS]
    rows += ["", f"Winning streak: {stats.current_streak} now, {stats.best_streak} at best"]
    if stats.earlier_hands or stats.earlier_matches:
        rows.append(
            f"The first {stats.earlier_matches} matches and {stats.earlier_hands} hands were "
            "counted before hands won, moons conceded and match points were kept."
        )
    if not stats.matches_played:
        rows.append("No match is over yet: play one and its results appear here.")
    return rows


#: The height of the chart of recent matches, and the gap above it (in layout pixels).
CHART_HEIGHT = 260
CHART_GAP = 14
#: The height of the chart of the points lost per decision in the recent matches.
TREND_HEIGHT = 170


class StatsPage(TextPage):
    """The statistics table, with a chart of the last matches below it and, once the coach
    reviewed some of them, the trend of the points lost per decision."""

    def __init__(self, app: App) -> None:
        super().__init__(app, "Statistics", lambda: stats_lines(app.books.stats))

    def has_trend(self) -> bool:
        """Return whether any recent match has its points lost per decision."""
        return any(result.loss_per_decision is not None for result in self.app.books.stats.recent)

    def extra_height(self) -> int:
        """Return the charts' height and the gaps above them, when there are matches to show."""
        layout = self.app.layout
        if not self.app.books.stats.recent:
            return 0
        trend = TREND_HEIGHT + CHART_GAP if self.has_trend() else 0
        return layout.px(CHART_HEIGHT + CHART_GAP + trend)

    def reserved_height(self) -> int:
        """Return the room the charts keep at least: half the chart of points, a third of the
        trend, and the gaps."""
        layout = self.app.layout
        if not self.app.books.stats.recent:
            return 0
        # The trend keeps less: in a short window the streaks' line comes first.
        trend = TREND_HEIGHT // 3 + CHART_GAP if self.has_trend() else 0
        return layout.px(CHART_HEIGHT // 2 + CHART_GAP + trend)

    def draw_lines(self, surface: pygame.Surface, rect: pygame.Rect) -> int:
        """Draw the table, then the charts below it in the room left (up to their heights)."""
        layout = self.app.layout
        bottom = super().draw_lines(surface, rect)
        recent = self.app.books.stats.recent
        if not recent:
            return bottom
        room = self.lines_bottom(rect) - bottom - layout.px(CHART_GAP)
        share = CHART_HEIGHT / (
            CHART_HEIGHT + (TREND_HEIGHT + CHART_GAP if self.has_trend() else 0)
        )
        chart = pygame.Rect(rect.left + layout.px(SIDE), bottom + layout.px(CHART_GAP), 0, 0)
        chart.width = rect.width - 2 * layout.px(SIDE)
        chart.height = min(layout.px(CHART_HEIGHT), round(room * share))
        draw_recent_chart(surface, chart, recent, layout.px(14))
        if not self.has_trend():
            return chart.bottom
        trend = chart.move(0, chart.height + layout.px(CHART_GAP))
        trend.height = min(layout.px(TREND_HEIGHT), self.lines_bottom(rect) - trend.top)
        draw_loss_trend(surface, trend, recent, layout.px(14))
        return trend.bottom


def draw_loss_trend(
    surface: pygame.Surface, rect: pygame.Rect, results: Sequence[MatchResult], px: int
) -> None:
    """Draw the points lost per decision of the recent matches the coach reviewed as a line,
    one point a match in the same slots as the chart of final points, with a caption above."""
    caption = "Points you lost per decision, by the coach's review (lower is better)"
    draw_text(surface, caption, px, theme.TEXT_DIM, topleft=rect.topleft, max_width=rect.width)
    area = pygame.Rect(rect.left, rect.top + round(px * 3), rect.width, 0)
    area.height = max(1, rect.bottom - area.top - round(px * 0.5))
    values = [result.loss_per_decision for result in results]
    highest = max([0.5, *(value for value in values if value is not None)])
    slot = area.width / RECENT_MATCHES
    pygame.draw.line(surface, theme.TEXT_DIM, area.bottomleft, area.bottomright)
    points: list[tuple[int, int]] = []
    for index, value in enumerate(values):
        if value is None:
            continue
        x = round(area.left + index * slot + slot / 2)
        y = area.bottom - round(area.height * value / highest)
        points.append((x, y))
        draw_text(
            surface,
            f"{value:.2f}",
            px,
            theme.TEXT,
            center=(x, y - round(px * 0.9)),
            max_width=round(slot),
        )
    if len(points) > 1:
        pygame.draw.lines(surface, theme.ACCENT, False, points, max(2, px // 7))
    for point in points:
        pygame.draw.circle(surface, theme.ACCENT, point, max(3, px // 4))


def draw_recent_chart(
    surface: pygame.Surface, rect: pygame.Rect, results: Sequence[MatchResult], px: int
) -> None:
    """Draw the last matches as bars of the player's final points, green when won, in
    ``rect``, with a caption above and each bar's points over it."""
    matches = "The last match" if len(results) == 1 else f"The last {len(results)} matches"
    caption = f"{matches}: your final points (green: won, red: lost)"
    draw_text(surface, caption, px, theme.TEXT_DIM, topleft=rect.topleft, max_width=rect.width)
    area = pygame.Rect(rect.left, rect.top + round(px * 3), rect.width, 0)
    area.height = rect.bottom - area.top
    highest = max(1, *(result.points for result in results))
    lowest = min(0, *(result.points for result in results))
    slot = area.width / RECENT_MATCHES
    baseline = area.bottom - round(area.height * -lowest / (highest - lowest))
    pygame.draw.line(surface, theme.TEXT_DIM, (area.left, baseline), (area.right, baseline))
    for index, result in enumerate(results):
        height = round(area.height * result.points / (highest - lowest))
        bar = pygame.Rect(round(area.left + index * slot + slot * 0.15), 0, round(slot * 0.7), 0)
        bar.height = max(1, abs(height))
        bar.bottom = baseline if height >= 0 else baseline + bar.height
        pygame.draw.rect(surface, theme.GOOD if result.won else theme.DANGER, bar)
        label_y = bar.top - round(px * 0.7) if height >= 0 else bar.bottom + round(px * 0.7)
        draw_text(
            surface,
            str(result.points),
            px,
            theme.TEXT,
            center=(bar.centerx, label_y),
            max_width=round(slot),
        )


def score_lines(app: App, sheet: MatchSheet) -> list[Line]:
    """Return the score sheet's rows: the names, every hand's points, the totals."""
    if not sheet.started:
        return ["No match in progress."]
    rows: list[Line] = [score_names(sheet, app.settings.player_name)]
    rows += hand_rows(sheet)
    rows.append(total_row(sheet))
    if sheet.any_moon:
        rows.append(MOON_NOTE)
    return rows


#: What the score sheet says when its hands can be reviewed.
REVIEW_WORDS = "↑ ↓ choose a hand, Enter or a click on it reviews your decisions"


class ScoreSheet(TextPage):
    """The score sheet of the match: every hand's points and the totals.

    Opened over a match the person plays (``table`` given), it also reviews any finished hand:
    ↑ ↓ choose one, Enter (or R) or a click on its row opens its review.
    """

    def __init__(self, app: App, sheet: MatchSheet, table: TableScene | None = None) -> None:
        self.sheet = sheet
        self.table = table
        reviewable = table is not None and table.session.person_plays
        #: The hands that can be reviewed, and the one chosen (an index into them).
        self.hands = sheet.finished_hands if reviewable else []
        self.chosen: int | None = None
        #: Hover chooses a hand only once the pointer has really moved.
        self.hover = HoverGate()
        super().__init__(app, "Score sheet", self.sheet_lines)

    def sheet_lines(self) -> list[Line]:
        """Return the score rows, and how to review a hand when one can be."""
        rows = score_lines(self.app, self.sheet)
        return [*rows, "", REVIEW_WORDS] if self.hands else rows

    def hand_row(self, hand: int) -> int:
        """Return the index of a hand's row among the sheet's rows."""
        earlier = self.sheet.earlier_count
        return hand - earlier + (1 if earlier else 0)

    def row_rect(self, index: int) -> pygame.Rect:
        """Return where row ``index`` of the sheet is drawn."""
        layout = self.app.layout
        rect = self.panel()
        top = rect.top + layout.px(TOP) + index * self.line_height()
        left = rect.left + layout.px(SIDE) - layout.px(8)
        return pygame.Rect(
            left, top, rect.width - 2 * layout.px(SIDE) + layout.px(16), self.line_height()
        )

    def review(self, hand: int) -> None:
        """Open the review of the person's decisions in a finished hand."""
        if self.table is not None and hand in self.hands:
            self.app.push_scene("review", self.table, hand, 0)

    def handle(self, event: pygame.event.Event) -> bool:
        """↑ ↓ choose a hand, Enter or R reviews it, a click on a hand's row reviews that
        hand; Esc, Enter with no hand chosen, or a click elsewhere closes."""
        if self.hands and event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_UP, pygame.K_DOWN):
                step = -1 if event.key == pygame.K_UP else 1
                last = len(self.hands) - 1
                start = (last + 1 if step < 0 else -1) if self.chosen is None else self.chosen
                self.chosen = max(0, min(last, start + step))
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_r) and (
                self.chosen is not None
            ):
                self.review(self.hands[self.chosen])
                return True
        if self.hands and event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for index, hand in enumerate(self.hands):
                if self.row_rect(self.hand_row(hand)).collidepoint(event.pos):
                    self.chosen = index
                    self.review(hand)
                    return True
        if self.hands and event.type == pygame.MOUSEMOTION:
            if not self.hover.moved(event):
                return True
            for index, hand in enumerate(self.hands):
                if self.row_rect(self.hand_row(hand)).collidepoint(event.pos):
                    self.chosen = index
            return True
        return super().handle(event)

    def draw_lines(self, surface: pygame.Surface, rect: pygame.Rect) -> int:
        """Light the chosen hand's row, then draw the rows."""
        if self.chosen is not None:
            row = self.row_rect(self.hand_row(self.hands[self.chosen]))
            draw_panel(surface, row, (*theme.BUTTON_HOVER, 255), theme.ACCENT, radius=6)
        return super().draw_lines(surface, rect)


def score_page(app: App, sheet: MatchSheet, table: TableScene | None = None) -> ScoreSheet:
    """Return the score sheet of the match (reviewing its hands when ``table`` is given)."""
    return ScoreSheet(app, sheet, table)


def leave_words(person_plays: bool) -> str:
    """Return what the pause menu's way out says: a watched match is not saved."""
    return "Save and leave to the title" if person_plays else "Leave to the title"


def pause_menu(app: App, table: TableScene) -> MenuScene:
    """Return the menu opened with Esc over the table."""

    def resume() -> None:
        app.close_scene(menu)

    def new_match() -> None:
        if table.session.person_plays or app.dirs.save_file.exists():
            app.push_scene("abandon_match")
        else:
            app.start_match()

    def leave() -> None:
        table.flow.save()  # through the table's books: a practice hand is never saved
        app.replace_scene("title")

    menu = MenuScene(
        app,
        "Paused",
        [
            MenuItem("Resume", resume),
            MenuItem("New match", new_match),
            MenuItem("Settings", lambda: app.push_scene("settings", overlay=True)),
            MenuItem(
                "Score sheet",
                lambda: app.push(score_page(app, table.session.sheet(), table)),
            ),
            MenuItem(
                "How to play",
                lambda: app.push(help_page(app, table.session.sheet().rules)),
            ),
            MenuItem(leave_words(table.session.person_plays), leave),
        ],
        overlay=True,
    )
    return menu


register("help", help_page)
register("statistics", stats_page)
register("score_sheet", score_page)
register("pause_menu", pause_menu)
