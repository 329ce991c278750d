"""A list of choices driven by mouse or keyboard: the title menu, the pause menu, settings.

An item has a label (or a function returning one, for settings that show their value), an
action on Enter or click, and optional Left/Right actions to step a value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from game.table import theme
from game.table.hover import HoverGate
from game.table.scene import Scene
from game.table.widgets import DIALOG_FILL, draw_panel, draw_text, wrap_text

#: Smallest size of a menu's subtitle, so what it explains stays readable in a small window.
MIN_SUBTITLE_PX = 13
#: Time a frame of a menu that prepares the cards (settings) may spend drawing them.
MENU_WARM_BUDGET_S = 0.008

Label = str | Callable[[], str]


@dataclass
class MenuItem:
    """One line of a menu."""

    label: Label
    select: Callable[[], None] | None = None
    left: Callable[[], None] | None = None
    right: Callable[[], None] | None = None
    enabled: Callable[[], bool] | None = None
    #: What a click on the item says while it cannot be chosen (greyed).
    why_not: str = ""

    def text(self) -> str:
        """Return the label to show now."""
        return self.label() if callable(self.label) else self.label

    def usable(self) -> bool:
        """Return whether the item can be chosen now."""
        return self.enabled is None or self.enabled()


class MenuScene(Scene):
    """A titled panel of items; Esc runs ``back`` (closing the menu by default)."""

    def __init__(
        self,
        app: object,
        title: str,
        items: list[MenuItem],
        subtitle: str = "",
        back: Callable[[], None] | None = None,
        overlay: bool = False,
        warm_budget_s: float | None = None,
    ) -> None:
        super().__init__(app)  # type: ignore[arg-type]
        #: The time a frame spends preparing the cards while the menu shows (None: it does
        #: not), and whether they are all prepared.
        self.warm_budget_s = warm_budget_s
        self.warmed = warm_budget_s is None
        self.title = title
        self.subtitle = subtitle
        self.items = items
        self.back = back
        self.overlay = overlay
        self.index = next((i for i, item in enumerate(items) if item.usable()), 0)
        self._rects: list[pygame.Rect] = []
        #: Hover moves the focus only once the pointer has really moved.
        self.hover = HoverGate()

    def update(self, dt: float) -> None:
        """Prepare the cards and sounds (in the look the settings give the cards) a little
        each frame, when the menu does, so the screens below and the table show them at once."""
        if self.warm_budget_s is not None:
            self.warmed = self.app.warm_up(self.warm_budget_s)

    def frame_due_in(self) -> float | None:
        """Return 0 (a frame each tick) while the cards are prepared, then None: it is still."""
        return None if self.warmed else 0.0

    def _subtitle_lines(self, width: int) -> tuple[list[str], int, int]:
        """Return the subtitle wrapped to the panel's width, its text size and line height."""
        if not self.subtitle:
            return [], 0, 0
        px = max(self.app.layout.px(16), MIN_SUBTITLE_PX)
        lines = wrap_text(self.subtitle, px, width - self.app.layout.px(32))
        return lines, px, round(px * 1.35)

    def _geometry(self) -> tuple[pygame.Rect, list[pygame.Rect]]:
        layout = self.app.layout
        width = min(layout.width - layout.px(40), layout.px(560))
        lines, _, line_h = self._subtitle_lines(width)
        head = layout.px(90) + (len(lines) * line_h + layout.px(12) if lines else 0)
        room = layout.height - layout.px(44) - head
        row_h = max(1, min(layout.px(46), room // max(1, len(self.items))))
        height = head + row_h * len(self.items) + layout.px(24)
        panel = pygame.Rect(0, 0, width, min(height, layout.height - layout.px(20)))
        panel.center = (layout.width // 2, layout.height // 2)
        rows = []
        for i in range(len(self.items)):
            row = pygame.Rect(0, 0, width - layout.px(48), row_h - layout.px(8))
            row.midtop = (panel.centerx, panel.top + head + i * row_h)
            rows.append(row)
        return panel, rows

    def _move(self, step: int) -> None:
        for _ in range(len(self.items)):
            self.index = (self.index + step) % len(self.items)
            if self.items[self.index].usable():
                return

    def _run(self, action: Callable[[], None] | None) -> None:
        if action is not None:
            self.app.sounds.play("play")
            action()

    def close(self) -> None:
        """Leave the menu (run ``back``, else pop it)."""
        if self.back is not None:
            self.back()
        else:
            self.app.close_scene(self)

    def handle(self, event: pygame.event.Event) -> bool:
        """Arrows move and step values, Enter chooses, Esc goes back; the mouse works too."""
        item = self.items[self.index] if self.items else None
        if item is not None and not item.usable():
            item = None
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_UP, pygame.K_w):
                self._move(-1)
            elif event.key in (pygame.K_DOWN, pygame.K_s, pygame.K_TAB):
                self._move(1)
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and item:
                self._run(item.select or item.right)
            elif event.key == pygame.K_LEFT and item:
                self._run(item.left)
            elif event.key == pygame.K_RIGHT and item:
                self._run(item.right)
            elif event.key == pygame.K_ESCAPE:
                self.close()
        elif event.type == pygame.MOUSEMOTION and self.hover.moved(event):
            for i, rect in enumerate(self._geometry()[1]):
                if rect.collidepoint(event.pos) and self.items[i].usable():
                    self.index = i
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            for i, rect in enumerate(self._geometry()[1]):
                greyed = self.items[i].why_not and not self.items[i].usable()
                if rect.collidepoint(event.pos) and greyed:
                    self.app.sounds.play("illegal")
                    self.app.toast(self.items[i].why_not)
                if rect.collidepoint(event.pos) and self.items[i].usable():
                    self.index = i
                    chosen = self.items[i]
                    if event.button == 3:
                        self._run(chosen.left)
                    else:
                        self._run(chosen.select or chosen.right)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the panel, the title and the items, the chosen one highlighted."""
        layout = self.app.layout
        if self.overlay:
            theme.shade(surface)
        else:
            surface.blit(theme.felt(surface.get_size()), (0, 0))
        panel, rows = self._geometry()
        draw_panel(surface, panel, DIALOG_FILL, theme.PANEL_BORDER, width=2)
        draw_text(
            surface,
            self.title,
            layout.px(34),
            theme.ACCENT,
            bold=True,
            center=(panel.centerx, panel.top + layout.px(42)),
            max_width=panel.width - layout.px(24),
        )
        lines, px, line_h = self._subtitle_lines(panel.width)
        for number, line in enumerate(lines):
            draw_text(
                surface,
                line,
                px,
                theme.TEXT_DIM,
                center=(panel.centerx, panel.top + layout.px(76) + line_h * number + line_h // 2),
                max_width=panel.width - layout.px(24),
            )
        for i, (item, rect) in enumerate(zip(self.items, rows, strict=True)):
            chosen = i == self.index
            if chosen:
                draw_panel(surface, rect, (*theme.BUTTON_HOVER, 240), theme.ACCENT)
            colour = theme.TEXT if item.usable() else theme.TEXT_DIM
            text = item.text()
            if item.left or item.right:
                text = f"‹  {text}  ›" if chosen else text
            draw_text(
                surface,
                text,
                min(layout.px(21), round(rect.height * 0.6)),
                colour,
                bold=chosen,
                center=rect.center,
                max_width=rect.width - layout.px(12),
            )


def confirm_menu(
    app: object,
    question: str,
    subtitle: str,
    keep: str,
    go: str,
    on_go: Callable[[], object],
) -> MenuScene:
    """Return a question over the screen below: the first item, ``keep``, is the default and
    closes it, as Esc does; the second, ``go``, closes it and runs ``on_go``."""

    def close() -> None:
        menu.app.close_scene(menu)

    def confirmed() -> None:
        close()
        on_go()

    menu = MenuScene(
        app,
        question,
        [MenuItem(keep, close), MenuItem(go, confirmed)],
        subtitle=subtitle,
        back=close,
        overlay=True,
    )
    return menu
