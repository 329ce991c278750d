"""The list of finished matches kept, newest first: choose one to replay it."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import pygame

from game.table import theme
from game.table.hover import HoverGate
from game.table.scene import Scene, register
from game.table.scenes.replays.replay import Replay
from game.table.store.replays import ReplayEntry, list_replays, load_replay
from game.table.widgets import centred_rect, draw_dialog, draw_panel, draw_text

if TYPE_CHECKING:
    from game.table.app import App

#: The list's panel width and margin (layout pixels), and the room above and below its rows.
LIST_WIDTH = 1000
MARGIN = 16
LIST_TOP = 84
LIST_BOTTOM = 48
#: What the list says with no match kept.
NO_REPLAYS = (
    "No finished match is kept yet. Every match played to its end is kept here "
    "(how many: Settings, “Finished matches kept to replay”)."
)
LIST_KEYS = "↑ ↓ choose · Enter or a click replays it · Esc closes"


def ended_text(ended: datetime) -> str:
    """Return when a match ended as the list writes it, in local time: ``Mon 23 Nov 2026 16:34``."""
    return ended.astimezone().strftime("%a %d %b %Y %H:%M")


def row_cells(entry: ReplayEntry) -> tuple[str, str, str]:
    """Return a match's cells in the list: when it ended, the bots, the result and its hands."""
    hands = "1 hand" if entry.hands == 1 else f"{entry.hands} hands"
    return (
        ended_text(entry.ended),
        entry.opponents() + ("" if entry.person_played else " (watched)"),
        f"{entry.result()} · {hands}",
    )


class ReplayList(Scene):
    """The finished matches kept, newest first: choose one to replay it."""

    overlay = True

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.entries, messages = list_replays(app.dirs.replays)
        for message in messages[:3]:
            app.toast(message)
        self.chosen = 0
        #: The first entry shown, when there are more than fit.
        self.first = 0
        #: Hover chooses an entry only once the pointer has really moved.
        self.hover = HoverGate()

    def panel(self) -> pygame.Rect:
        """Return the list's panel: as tall as its rows, at most the window's height."""
        layout = self.app.layout
        rows = max(2, len(self.entries) + 1)
        height = layout.px(LIST_TOP + LIST_BOTTOM) + rows * self.line_height()
        return centred_rect(layout.size, layout.px(LIST_WIDTH), height, layout.px(MARGIN))

    def line_height(self) -> int:
        """Return the height of one row."""
        return round(self.app.layout.text(17) * 1.6)

    def shown_rows(self, rect: pygame.Rect) -> int:
        """Return how many entries fit in the panel ``rect`` under the header row."""
        layout = self.app.layout
        room = rect.height - layout.px(LIST_TOP + LIST_BOTTOM) - self.line_height()
        return max(1, room // self.line_height())

    def row_rect(self, rect: pygame.Rect, index: int) -> pygame.Rect:
        """Return where the entry ``index`` (counted from the first shown) is drawn."""
        layout = self.app.layout
        top = rect.top + layout.px(LIST_TOP) + (index + 1) * self.line_height()
        return pygame.Rect(
            rect.left + layout.px(20), top, rect.width - layout.px(40), self.line_height()
        )

    def choose(self, index: int) -> None:
        """Choose entry ``index`` (kept within the list), scrolling it into view."""
        if not self.entries:
            return
        self.chosen = max(0, min(index, len(self.entries) - 1))
        shown = self.shown_rows(self.panel())
        self.first = min(max(self.first, self.chosen - shown + 1), self.chosen)

    def open(self, entry: ReplayEntry) -> None:
        """Open a kept match; a file that cannot be replayed is said so (and set aside)."""
        controller, message = load_replay(entry.path)
        if controller is None:
            self.app.toast(message or f"{entry.path.name} cannot be replayed")
            self.entries.remove(entry)
            self.choose(self.chosen)
            return
        replay = Replay.of(controller, self.app.settings.player_name)
        self.app.push_scene("replay", replay, ended_text(entry.ended))

    def handle(self, event: pygame.event.Event) -> bool:
        """↑ ↓ (and Page Up / Down, Home / End) choose, Enter opens, Esc closes; a click on
        an entry opens it, one outside the panel closes the list."""
        if event.type == pygame.KEYDOWN:
            page = self.shown_rows(self.panel())
            moves = {
                pygame.K_UP: -1,
                pygame.K_DOWN: 1,
                pygame.K_PAGEUP: -page,
                pygame.K_PAGEDOWN: page,
                pygame.K_HOME: -len(self.entries),
                pygame.K_END: len(self.entries),
            }
            if event.key == pygame.K_ESCAPE:
                self.app.close_scene(self)
            elif event.key in moves:
                self.choose(self.chosen + moves[event.key])
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.entries:
                self.open(self.entries[self.chosen])
            return True
        if event.type not in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            return True
        if event.type == pygame.MOUSEMOTION and not self.hover.moved(event):
            return True
        rect = self.panel()
        if event.type == pygame.MOUSEWHEEL:
            self.choose(self.chosen - event.y)
            return True
        for index in range(min(self.shown_rows(rect), len(self.entries) - self.first)):
            if self.row_rect(rect, index).collidepoint(event.pos):
                self.chosen = self.first + index
                if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                    self.open(self.entries[self.chosen])
                return True
        if (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            and not rect.collidepoint(event.pos)
        ):
            self.app.close_scene(self)
        return True

    def frame_due_in(self) -> float | None:
        """Nothing moves by itself."""
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the header and the entries shown, the chosen one lit."""
        layout = self.app.layout
        rect = self.panel()
        draw_dialog(surface, rect, "Replays", layout.text(28), layout.px(36))
        px = layout.text(17)
        columns = (0.0, 0.33, 0.62)
        edges = (*columns, 1.0)
        header = self.row_rect(rect, -1)
        if not self.entries:
            draw_text(
                surface,
                NO_REPLAYS,
                px,
                theme.TEXT,
                topleft=header.topleft,
                max_width=header.width,
            )
        else:
            for share, word in zip(columns, ("Ended", "Played against", "Result"), strict=True):
                left = header.left + layout.px(10) + round(header.width * share)
                draw_text(surface, word, px, theme.TEXT_DIM, midleft=(left, header.centery))
        shown = self.entries[self.first : self.first + self.shown_rows(rect)]
        for index, entry in enumerate(shown):
            row = self.row_rect(rect, index)
            if self.first + index == self.chosen:
                draw_panel(surface, row, (*theme.BUTTON_HOVER, 255), theme.ACCENT, radius=6)
            cells = row_cells(entry)
            for number, (share, text) in enumerate(zip(columns, cells, strict=True)):
                left = row.left + layout.px(10) + round(row.width * share)
                right = row.left + round(row.width * edges[number + 1])
                draw_text(
                    surface,
                    text,
                    px,
                    theme.TEXT,
                    midleft=(left, row.centery),
                    max_width=right - left - layout.px(12),
                )
        hint = LIST_KEYS if self.entries else "Esc closes"
        draw_text(
            surface,
            hint,
            layout.text(14),
            theme.TEXT_DIM,
            center=(rect.centerx, rect.bottom - layout.px(20)),
            max_width=rect.width - layout.px(40),
        )


register("replays", ReplayList)
