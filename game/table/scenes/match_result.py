"""The match result: the winner, every hand's points and the totals, what to do next."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.table import theme
from game.table.scene import Scene, register
from game.table.score_table import MOON_NOTE, Row, hand_rows, score_names, total_row
from game.table.summary_keys import KEYS_WORDS, open_page
from game.table.watch import WATCH_MATCH_PAUSE_S, Countdown
from game.table.widgets import Button, draw_dialog, draw_text

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.scenes.table import TableScene

#: The match result's width, the room above its table (the title) and below it (the buttons).
RESULT_WIDTH = 720
RESULT_TOP = 84
RESULT_BOTTOM = 104


class MatchOverScene(Scene):
    """The match result: the winner, every hand's points and the totals, what to do next."""

    overlay = True

    def __init__(self, app: App, table: TableScene) -> None:
        super().__init__(app)
        self.table = table
        self.watching = not table.session.person_plays
        self.label = "Watch another" if self.watching else "New match"
        self.buttons = [
            Button(self.label, self.new_match, primary=True),
            Button("Main menu", self.main_menu),
        ]
        #: While watching, the next watched match starts by itself after a pause.
        self.countdown = Countdown(WATCH_MATCH_PAUSE_S if self.watching else None)

    def update(self, dt: float) -> None:
        """While watching, count down and start the next watched match by itself."""
        if self.countdown.tick(dt):
            self.new_match()
        else:
            self.buttons[0].label = self.countdown.label(self.label)

    def frame_due_in(self) -> float | None:
        """While watching, the countdown on the button changes every second."""
        return self.countdown.frame_due_in()

    def new_match(self) -> None:
        """Start a new match with the same settings: watched again if this one was watched."""
        self.app.start_match(watch=self.watching)

    def main_menu(self) -> None:
        """Go back to the title menu."""
        self.app.replace_scene("title")

    def handle(self, event: pygame.event.Event) -> bool:
        """Enter starts a new match, Esc goes to the menu, S shows the score sheet and L the
        last trick; buttons work with the mouse."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER):
                self.new_match()
            elif event.key == pygame.K_ESCAPE:
                self.main_menu()
            else:
                open_page(self.table, event.key)
            return True
        for button in self.buttons:
            if button.handle(event):
                return True
        return True

    def text_px(self) -> int:
        """Return the size of the table's text."""
        return self.app.layout.text(18)

    def line_height(self) -> int:
        """Return the height of one row of the table."""
        return round(self.text_px() * 1.5)

    def rows(self) -> list[Row]:
        """Return the table's rows: the names, the hands (the first ones added up into one row
        when all would not fit the window) and the totals."""
        layout = self.app.layout
        sheet = self.table.session.sheet()
        room = layout.height - 2 * layout.px(20) - layout.px(RESULT_TOP + RESULT_BOTTOM)
        fixed = 2 + (1 if sheet.any_moon else 0)
        most = max(1, room // self.line_height() - fixed)
        head = score_names(sheet, self.app.settings.player_name)
        return [head, *hand_rows(sheet, most), total_row(sheet)]

    def panel(self) -> pygame.Rect:
        """Return the result's panel: as tall as its table, within the window, covering each
        name plate whole or not at all (``Layout.panel``)."""
        layout = self.app.layout
        lines = len(self.rows()) + (1 if self.table.session.sheet().any_moon else 0)
        height = layout.px(RESULT_TOP + RESULT_BOTTOM) + lines * self.line_height()
        return layout.panel(layout.px(RESULT_WIDTH), height, layout.px(20))

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the result panel: the winner, the table of every hand, the buttons."""
        layout = self.app.layout
        sheet = self.table.session.sheet()
        winner = sheet.winner
        rect = self.panel()
        you_won = winner == 0 and self.table.session.person_plays
        title = "You win the match!" if you_won else f"{self.table.seat_name(winner or 0)} wins"
        draw_dialog(surface, rect, title, layout.text(34), layout.px(44), theme.ACCENT)
        px, line_h = self.text_px(), self.line_height()
        left = rect.left + layout.px(30)
        width = rect.width - 2 * layout.px(30)
        rows = self.rows()
        y = rect.top + layout.px(RESULT_TOP)
        for number, row in enumerate(rows):
            last = number == len(rows) - 1
            if last:
                pygame.draw.line(surface, theme.PANEL_BORDER, (left, y), (left + width, y))
            strong = number == 0 or last
            _draw_result_row(surface, row, px, (left, y, width, line_h), winner, strong)
            y += line_h
        if sheet.any_moon:
            note_px = layout.text(14)
            draw_text(surface, MOON_NOTE, note_px, theme.TEXT_DIM, midleft=(left, y + line_h // 2))
        draw_text(
            surface,
            KEYS_WORDS,
            layout.text(14),
            theme.TEXT_DIM,
            center=(rect.centerx, rect.bottom - layout.px(84)),
            max_width=width,
        )
        for index, button in enumerate(self.buttons):
            button.rect = pygame.Rect(0, 0, layout.px(200), layout.px(46))
            offset = (index - 0.5) * layout.px(220)
            button.rect.midbottom = (round(rect.centerx + offset), rect.bottom - layout.px(20))
            button.draw(surface)


def _draw_result_row(
    surface: pygame.Surface,
    row: Row,
    px: int,
    place: tuple[int, int, int, int],
    winner: int | None,
    strong: bool,
) -> None:
    """Draw one row of the result's table in ``place`` (left, top, width, height): its name
    left-aligned, a column a seat right-aligned, the winner's column gold."""
    left, top, width, height = place
    first = round(width * 0.28)
    column = (width - first) // 4
    middle = top + height // 2
    colour = theme.TEXT if strong else theme.TEXT_DIM
    draw_text(surface, row[0], px, colour, bold=strong, midleft=(left, middle), max_width=first)
    for seat, cell in enumerate(row[1:]):
        gold = seat == winner
        draw_text(
            surface,
            cell,
            px,
            theme.ACCENT if gold else theme.TEXT,
            bold=strong or gold,
            midright=(left + first + (seat + 1) * column, middle),
            max_width=column - max(4, px // 2),
        )


register("match_over", MatchOverScene)
