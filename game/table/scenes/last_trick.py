"""The last completed trick, shown again over the table: each card by the seat that played it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.table import theme
from game.table.scene import Scene, register
from game.table.widgets import centred_rect, draw_close_hint, draw_dialog

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.scenes.table import TableScene


#: Where each seat's card sits from the centre, in card widths and heights (South, West,
#: North, East): far enough apart that no card covers another.
SEAT_OFFSETS = ((0.0, 0.55), (-1.05, 0.0), (0.0, -0.55), (1.05, 0.0))


class LastTrick(Scene):
    """The cards of the last trick in a cross, the winner's card marked; any input closes it."""

    overlay = True

    def __init__(self, app: App, table: TableScene) -> None:
        super().__init__(app)
        self.table = table
        shown = table.view.shown
        self.cards = list(shown.last_trick)
        self.winner = shown.last_winner

    def handle(self, event: pygame.event.Event) -> bool:
        """Close on a key or a click."""
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.app.close_scene(self)
        return True

    def panel(self) -> pygame.Rect:
        """Return the panel's rectangle: room for the cross of cards, the title and the hint."""
        layout = self.app.layout
        card_w, card_h = self.table.art().size
        return centred_rect(layout.size, card_w * 5, card_h * 3 + layout.px(110), layout.px(20))

    def places(self) -> list[tuple[int, int, pygame.Rect]]:
        """Return each card of the trick with its seat and where it is drawn: in a cross by
        seat, apart, so every card shows its rank and suit whole."""
        layout = self.app.layout
        card_w, card_h = self.table.art().size
        rect = self.panel()
        cx, cy = rect.centerx, rect.centery + layout.px(14)
        placed = []
        for seat, card in self.cards:
            dx, dy = SEAT_OFFSETS[seat]
            place = pygame.Rect(0, 0, card_w, card_h)
            place.center = (round(cx + dx * card_w), round(cy + dy * card_h))
            placed.append((seat, card, place))
        return placed

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the panel with the four cards where their seats sit."""
        layout = self.app.layout
        art = self.table.art()
        rect = self.panel()
        winner = self.table.seat_name(self.winner) if self.winner is not None else "nobody"
        draw_dialog(surface, rect, f"Last trick, won by {winner}", layout.px(24), layout.px(30))
        for seat, card, place in self.places():
            surface.blit(art.face(card), place)
            if seat == self.winner:
                surface.blit(art.outline(theme.ACCENT), place)
        draw_close_hint(surface, rect, layout.px(14), layout.px(16))


register("last_trick", LastTrick)
