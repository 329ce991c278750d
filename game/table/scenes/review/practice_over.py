"""The end of a hand tried again: the coach compares it with the original line, then the
person goes back to the review page the try began from (the real match waiting under it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.table import theme
from game.table.scene import Scene, register
from game.table.widgets import Button, draw_dialog, draw_text

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.scenes.table import TableScene
    from game.table.try_again import Practice

#: The panel's size at the base size.
PANEL_SIZE = (760, 330)
#: The button back to the review.
BACK_LABEL = "Back to the review"


class PracticeOver(Scene):
    """Over the practice table once its hand is scored: where the try began, the coach's
    comparison (``Practice.sentence``), and the way back. Enter, Space, Esc or the button
    close the practice table and this with it."""

    overlay = True

    def __init__(
        self, app: App, table: TableScene, practice: Practice, points: tuple[int, ...]
    ) -> None:
        super().__init__(app)
        self.table = table
        self.practice = practice
        #: The coach's comparison with the original line.
        self.sentence = practice.sentence(tuple(points))
        self.button = Button(BACK_LABEL, self.back, primary=True)

    def back(self) -> None:
        """Leave the practice: back to the review page (the match under it goes on)."""
        self.app.close_scene(self)
        self.app.close_scene(self.table)

    def handle(self, event: pygame.event.Event) -> bool:
        """Enter, Space or Esc, or the button, go back to the review."""
        if event.type == pygame.KEYDOWN and event.key in (
            pygame.K_RETURN,
            pygame.K_KP_ENTER,
            pygame.K_SPACE,
            pygame.K_ESCAPE,
        ):
            self.back()
            return True
        self.button.handle(event)
        return True

    def panel(self) -> pygame.Rect:
        """Return the panel, centred, within the window."""
        layout = self.app.layout
        width, height = self.app.screen.get_size()
        rect = pygame.Rect(
            0, 0, min(layout.px(PANEL_SIZE[0]), width - 20), layout.px(PANEL_SIZE[1])
        )
        rect.height = min(rect.height, height - 20)
        rect.center = (width // 2, height // 2)
        return rect

    def frame_due_in(self) -> float | None:
        """Nothing moves by itself."""
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the comparison over the shaded table."""
        layout = self.app.layout
        rect = self.panel()
        draw_dialog(surface, rect, "Practice over", layout.text(30), layout.px(38))
        practice = self.practice
        width = rect.width - layout.px(48)
        words = f"Tried again from {practice.moment}, {practice.label}."
        draw_text(
            surface,
            words,
            layout.text(17),
            theme.TEXT_DIM,
            center=(rect.centerx, rect.top + layout.px(96)),
            max_width=width,
        )
        draw_text(
            surface,
            self.sentence,
            layout.text(21),
            theme.TEXT,
            center=(rect.centerx, rect.top + layout.px(150)),
            max_width=width,
        )
        draw_text(
            surface,
            "Nothing of a practice hand is saved or counted: your match waits where it was.",
            layout.text(15),
            theme.TEXT_DIM,
            center=(rect.centerx, rect.top + layout.px(200)),
            max_width=width,
        )
        self.button.rect = pygame.Rect(0, 0, layout.px(260), layout.px(46))
        self.button.rect.midbottom = (rect.centerx, rect.bottom - layout.px(22))
        self.button.draw(surface)


register("practice_over", PracticeOver)
