"""The table's buttons: the top bar's (menu, undo, redo, hint or show hands, scores, last
trick) and the pass button, placed for the layout and enabled for the match as it is."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from core.rules import pass_receiver
from game.table.layout import Layout
from game.table.match.port import HUMAN_SEAT, SeatView
from game.table.widgets import Button

if TYPE_CHECKING:
    from game.table.match.port import TableMatch


class TableActions(Protocol):
    """What the buttons do at the table (``TableControls``)."""

    def hint(self) -> None:
        """Ask the strongest bot what it would play here."""
        ...

    def toggle_hands(self) -> None:
        """While watching, show or hide the bots' hands."""
        ...

    def undo(self) -> None:
        """Take back the person's last move."""
        ...

    def redo(self) -> None:
        """Apply again what undo took back."""
        ...

    def pass_selected(self) -> None:
        """Pass the three chosen cards."""
        ...


class ButtonTable(Protocol):
    """What the buttons read from the table (``TableScene``) and the screens they open."""

    @property
    def controls(self) -> TableActions:
        """The table's controls, which most buttons call."""

    @property
    def session(self) -> TableMatch:
        """The match played."""

    def open_menu(self) -> None:
        """Open the pause menu over the table."""
        ...

    def open_scores(self) -> None:
        """Show the score sheet."""
        ...

    def open_last_trick(self) -> None:
        """Show the last completed trick."""
        ...

    def seat_name(self, seat: int) -> str:
        """Return the name shown for a seat."""
        ...


class TableButtons:
    """The buttons of one table."""

    def __init__(self, table: ButtonTable) -> None:
        controls = table.controls
        self.table = table
        self.hint = Button("Hint", controls.hint, why_not=controls.hint)
        self.hands = Button("Show hands", controls.toggle_hands)
        self.top = [
            Button("Menu", table.open_menu),
            Button("Undo", controls.undo, why_not=controls.undo),
            Button("Redo", controls.redo, why_not=controls.redo),
            self.hint if table.session.person_plays else self.hands,
            Button("Scores", table.open_scores),
            Button("Last trick", table.open_last_trick),
        ]
        self.pass_button = Button("Pass", controls.pass_selected, primary=True)

    def place(self, layout: Layout) -> None:
        """Place the buttons for ``layout``: the top bar's from the right, the pass button
        under the middle of the table."""
        bar = layout.top_bar
        height = bar.height - layout.px(12)
        right = bar.right - layout.px(10)
        for button in reversed(self.top):
            width = layout.px(34 + 10 * len(button.label))
            button.rect = pygame.Rect(0, 0, width, height)
            button.rect.midright = (right, bar.centery)
            right = button.rect.left - layout.px(8)
        self.pass_button.rect = layout.action_button.copy()
        self.pass_button.rect.centery = layout.centre[1] + layout.px(70)

    def follow(self, seat: SeatView) -> None:
        """Enable the buttons and word the pass button for the match as the seat sees it."""
        self.top[1].enabled = seat.can_undo
        self.top[2].enabled = seat.can_redo
        self.hint.enabled = seat.person_must_pass or seat.person_must_play
        receiver = pass_receiver(HUMAN_SEAT, seat.pass_direction)
        self.pass_button.label = f"Pass to {self.table.seat_name(receiver)}"
