"""The end of a hand: who took which points, and the totals (the match result, shown after the
last hand, is ``match_result``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from core import events as ev
from core.cards import JACK_OF_DIAMONDS, POINT_CARDS_MASK
from game.table import theme
from game.table.card_art import CardArt
from game.table.match.port import HUMAN_SEAT
from game.table.scene import Scene, register
from game.table.summary_keys import draw_keys_words, open_page
from game.table.watch import WATCH_PAUSE_S, Countdown
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
#: What gold means on the summary.
BEST_WORDS = "gold: fewest points this hand"

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.scenes.table import TableScene


def point_cards_taken(table: TableScene) -> list[list[int]]:
    """Return, per seat, the point cards (and the J♦ if it counts) it took this hand."""
    sheet = table.session.sheet()
    counted = POINT_CARDS_MASK
    if sheet.rules.jack_of_diamonds:
        counted |= 1 << JACK_OF_DIAMONDS
    taken = [[card for card in cards if counted >> card & 1] for cards in sheet.taken]
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
        self.hand = table.session.sheet().hand_number
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


register("hand_summary", HandSummary)
