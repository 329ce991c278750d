"""The end of a hand and of a match: who took which points, the totals, the winner."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from core import events as ev
from core.cards import JACK_OF_DIAMONDS, POINT_CARDS_MASK
from game.table import theme
from game.table.card_art import CardArt
from game.table.scene import Scene, register
from game.table.score_table import MOON_NOTE, Row, any_moon, hand_rows, score_names, total_row
from game.table.session import HUMAN_SEAT
from game.table.watch import WATCH_MATCH_PAUSE_S, WATCH_PAUSE_S, Countdown
from game.table.widgets import Button, draw_dialog, draw_text

#: The summary's width, and its parts down and across, at the base size.
PANEL_WIDTH = 960
ROWS_TOP = 96
ROW_GAP = 12
BUTTON_ROOM = 76
NAMES_WIDTH = 210
NUMBERS_WIDTH = 180
#: The narrowest point cards drawn when the window is very low.
MIN_CARD_WIDTH = 24
#: What gold means on the summary, and the keys the summary and the match result take.
BEST_WORDS = "gold: fewest points this hand"
KEYS_WORDS = "S score sheet · L last trick"
#: The match result's width, the room above its table (the title) and below it (the buttons).
RESULT_WIDTH = 720
RESULT_TOP = 84
RESULT_BOTTOM = 104

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.scenes.table import TableScene


def point_cards_taken(table: TableScene) -> list[list[int]]:
    """Return, per seat, the point cards (and the J♦ if it counts) it took this hand."""
    controller = table.session.record
    counted = POINT_CARDS_MASK
    if controller.rules.jack_of_diamonds:
        counted |= 1 << JACK_OF_DIAMONDS
    taken: list[list[int]] = [[], [], [], []]
    for trick in controller.tricks:
        winner = trick.winner
        if winner is None:
            continue
        taken[winner].extend(card for card in trick.cards if counted >> card & 1)
    return [sorted(cards, key=lambda c: (-(c // 13 == 2), c)) for cards in taken]


class HandSummary(Scene):
    """Over the table after a hand: each seat's point cards, points and totals."""

    overlay = True

    def __init__(self, app: App, table: TableScene, event: ev.HandScored) -> None:
        super().__init__(app)
        self.table = table
        self.event = event
        self.taken = point_cards_taken(table)
        last = table.session.phase == "match_over"
        self.label = "See the result" if last else "Next hand"
        self.button = Button(self.label, self.go_on, primary=True)
        #: The person's hand just played can be reviewed (not while watching the bots).
        self.review_button = (
            Button("Review this hand", self.open_review) if table.session.person_plays else None
        )
        self.hand = table.session.record.hand_number
        #: While watching, the summary goes on by itself after a pause.
        self.countdown = Countdown(None if table.session.person_plays else WATCH_PAUSE_S)

    def update(self, dt: float) -> None:
        """While watching, count down and go on by itself."""
        if self.countdown.tick(dt):
            self.go_on()
        else:
            self.button.label = self.countdown.label(self.label)

    def frame_due_in(self) -> float | None:
        """While watching, the countdown on the button changes every second."""
        return self.countdown.frame_due_in()

    def go_on(self) -> None:
        """Close the summary and deal the next hand (or show the match result)."""
        self.app.close_scene(self)
        self.table.next_hand()

    def open_review(self) -> None:
        """Open the review of the person's decisions in the hand just played."""
        if self.review_button is not None:
            self.app.push_scene("review", self.table, self.hand, HUMAN_SEAT)

    def buttons(self) -> list[Button]:
        """Return the summary's buttons: go on, and the review when the person plays."""
        return [self.button] if self.review_button is None else [self.button, self.review_button]

    def handle(self, event: pygame.event.Event) -> bool:
        """Enter, Space or the button goes on; R or its button reviews; S shows the score
        sheet, L the last trick; Esc opens the menu."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER):
                self.go_on()
            elif event.key == pygame.K_r:
                self.open_review()
            elif event.key == pygame.K_ESCAPE:
                self.table.open_menu()
            else:
                open_page(self.table, event.key)
        else:
            for button in self.buttons():
                if button.handle(event):
                    return True
        return True

    def panel(self) -> pygame.Rect:
        """Return the summary's panel: wide enough for a fan of 15 cards, tall for 4 rows."""
        layout = self.app.layout
        card_h = self.table.art(small=True).size[1]
        rows = 4 * (card_h + layout.px(ROW_GAP))
        height = layout.px(ROWS_TOP) + rows + layout.px(BUTTON_ROOM)
        return layout.panel(layout.px(PANEL_WIDTH), height, layout.px(20))

    def _rows(self, rect: pygame.Rect) -> tuple[int, int]:
        """Return the top of the first row and the height of a row in the panel."""
        layout = self.app.layout
        top = rect.top + layout.px(ROWS_TOP)
        bottom = rect.bottom - layout.px(BUTTON_ROOM)
        return top, max(1, (bottom - top) // 4)

    def _card_art(self, row_h: int) -> CardArt:
        """Return the small cards' art, made smaller if a row is too low for them."""
        art = self.table.art(small=True)
        fitting = int((row_h - self.app.layout.px(ROW_GAP)) / (art.size[1] / art.size[0]))
        if fitting >= art.size[0]:
            return art
        return self.app.art.get(max(MIN_CARD_WIDTH, fitting), art.style)

    def card_spots(self) -> list[tuple[int, pygame.Rect]]:
        """Return each point card drawn and where, seat by seat, left to right."""
        layout = self.app.layout
        rect = self.panel()
        top, row_h = self._rows(rect)
        art = self._card_art(row_h)
        width, height = art.size
        left = rect.left + layout.px(NAMES_WIDTH)
        span = rect.right - layout.px(NUMBERS_WIDTH) - left
        spots: list[tuple[int, pygame.Rect]] = []
        for seat, cards in enumerate(self.taken):
            step = min(width * 0.62, (span - width) / max(1, len(cards) - 1))
            cy = top + seat * row_h + row_h // 2
            for index, card in enumerate(cards):
                spot = pygame.Rect(0, 0, width, height)
                spot.midleft = (round(left + index * step), cy)
                spots.append((card, spot))
        return spots

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the summary panel over the shaded table."""
        layout = self.app.layout
        rect = self.panel()
        event = self.event
        title = f"Hand {self.table.view.shown.hand_number} is over"
        if event.moon_shooter is not None:
            title = f"{self.table.seat_name(event.moon_shooter)} shot the moon!"
        draw_dialog(surface, rect, title, layout.text(30), layout.px(38))
        draw_keys_words(surface, rect, layout.text(14), rect.top + layout.px(38), layout.px(24))
        top, row_h = self._rows(rect)
        art = self._card_art(row_h)
        for card, spot in self.card_spots():
            surface.blit(art.face(card), spot)
        self._draw_numbers(surface, rect, top, row_h)
        buttons = self.buttons()
        for index, button in enumerate(buttons):
            button.rect = pygame.Rect(0, 0, layout.px(220), layout.px(46))
            offset = (index - (len(buttons) - 1) / 2) * layout.px(240)
            button.rect.midbottom = (round(rect.centerx + offset), rect.bottom - layout.px(16))
            button.draw(surface)

    def best_seats(self) -> set[int]:
        """Return the seats that took the fewest points this hand (their names are gold)."""
        low = min(self.event.points)
        return {seat for seat, points in enumerate(self.event.points) if points == low}

    def _draw_numbers(
        self, surface: pygame.Surface, rect: pygame.Rect, top: int, row_h: int
    ) -> None:
        """Draw each seat's name, its points this hand and its total, with the columns' heads."""
        layout = self.app.layout
        event = self.event
        name_x = rect.left + layout.px(24)
        cards_x = rect.left + layout.px(NAMES_WIDTH)
        points_x = rect.right - layout.px(90)
        total_x = rect.right - layout.px(24)
        px = layout.text(18)
        head_y = top - layout.px(10)
        small = layout.text(14)
        draw_text(surface, BEST_WORDS, small, theme.ACCENT, midleft=(name_x, head_y))
        draw_text(surface, "points", small, theme.TEXT_DIM, midright=(points_x, head_y))
        draw_text(surface, "total", small, theme.TEXT_DIM, midright=(total_x, head_y))
        best = self.best_seats()
        for seat in range(4):
            cy = top + seat * row_h + row_h // 2
            gold = seat in best
            draw_text(
                surface,
                self.table.seat_name(seat),
                px,
                theme.ACCENT if gold else theme.TEXT,
                bold=gold,
                midleft=(name_x, cy),
                max_width=cards_x - name_x - layout.px(10),
            )
            if not self.taken[seat]:
                draw_text(surface, "no points", small, theme.TEXT_DIM, midleft=(cards_x, cy))
            points = event.points[seat]
            draw_text(
                surface,
                f"{points:+d}" if points else "0",
                px,
                theme.DANGER if points > 0 else theme.GOOD if points < 0 else theme.TEXT,
                bold=True,
                midright=(points_x, cy),
            )
            total = str(event.totals[seat])
            draw_text(surface, total, px, theme.TEXT, bold=True, midright=(total_x, cy))


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
        controller = self.table.session.record
        room = layout.height - 2 * layout.px(20) - layout.px(RESULT_TOP + RESULT_BOTTOM)
        fixed = 2 + (1 if any_moon(controller) else 0)
        most = max(1, room // self.line_height() - fixed)
        head = score_names(controller, self.app.settings.player_name)
        return [head, *hand_rows(controller, most), total_row(controller)]

    def panel(self) -> pygame.Rect:
        """Return the result's panel: as tall as its table, within the window, covering each
        name plate whole or not at all (``Layout.panel``)."""
        layout = self.app.layout
        lines = len(self.rows()) + (1 if any_moon(self.table.session.record) else 0)
        height = layout.px(RESULT_TOP + RESULT_BOTTOM) + lines * self.line_height()
        return layout.panel(layout.px(RESULT_WIDTH), height, layout.px(20))

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the result panel: the winner, the table of every hand, the buttons."""
        layout = self.app.layout
        controller = self.table.session.record
        winner = controller.winner
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
        if any_moon(controller):
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


def open_page(table: TableScene, key: int) -> None:
    """Open the score sheet (S) or the last trick (L) over a summary or the match result."""
    if key == pygame.K_s:
        table.open_scores()
    elif key == pygame.K_l:
        table.open_last_trick()


def draw_keys_words(
    surface: pygame.Surface, rect: pygame.Rect, px: int, y: int, margin: int
) -> None:
    """Write the keys a summary takes (``KEYS_WORDS``) at the right of the panel ``rect``."""
    draw_text(
        surface,
        KEYS_WORDS,
        px,
        theme.TEXT_DIM,
        midright=(rect.right - margin, y),
        max_width=rect.width // 4,
    )


register("hand_summary", HandSummary)
register("match_over", MatchOverScene)
