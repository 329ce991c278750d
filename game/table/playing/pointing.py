"""Pointing at the person's cards: with the mouse (the card under it) or the keys (a focus
moved over the hand, kept on a playable card on the person's turn)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from game.table.table_view import DrawnCard

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.match.port import TableMatch
    from game.table.table_view import TableView


class PointedTable(Protocol):
    """What the pointer reads from the table (``TableScene``), and the focus it moves."""

    @property
    def app(self) -> App:
        """The running table (its layout)."""

    @property
    def session(self) -> TableMatch:
        """The match played."""

    @property
    def view(self) -> TableView:
        """Where every card is drawn."""

    @property
    def selected(self) -> list[int]:
        """The cards chosen to pass."""

    #: The focused card's place in the person's hand.
    focus: int

    #: The card under the pointer, if any.
    hover: int | None

    #: Whether the person moves over the hand with the keys.
    keyboard_focus: bool

    def ready_for_person(self) -> bool:
        """Return whether every move has been shown and no other seat's move waits."""
        ...


class HandPointer:
    """Which of the person's cards is pointed at, at one table."""

    def __init__(self, table: PointedTable) -> None:
        self.table = table

    def card_at(self, pos: tuple[int, int]) -> int | None:
        """Return the person's card under a point (the topmost one), if any."""
        size = self.table.app.layout.card_size
        for drawn in reversed(self.hand_cards()):
            rect = pygame.Rect(0, 0, *size)
            rect.center = (round(drawn.centre[0]), round(drawn.centre[1]))
            if rect.collidepoint(pos) and drawn.card is not None:
                return drawn.card
        return None

    def hand_cards(self) -> list[DrawnCard]:
        """Return the person's cards as drawn this frame."""
        view = self.table.view
        hand = set(view.shown.hand)
        return [d for d in view.cards(self.lifted()) if d.card in hand and not d.small]

    def lifted(self) -> set[int]:
        """Return the person's cards drawn raised: those chosen to pass and those just
        received. A card pointed at is ringed, never raised, so it never looks chosen."""
        return set(self.table.selected) | self.table.view.shown.received

    def focus_card(self) -> int | None:
        """Return the card the keys point at, if the hand has it."""
        table = self.table
        hand = table.view.shown.hand
        return hand[table.focus] if hand and 0 <= table.focus < len(hand) else None

    def pointed(self) -> int | None:
        """Return the card pointed at by the keys (or the mouse) that a click or Enter would
        use now: one to choose while passing, a playable one on the person's turn."""
        table = self.table
        card = self.focus_card() if table.keyboard_focus else table.hover
        if card is None or not table.ready_for_person():
            return None
        seat = table.session.view()
        return card if seat.person_must_pass or card in seat.legal else None

    def focused(self) -> int | None:
        """Return the card the keys point at (the focus kept within the hand)."""
        table = self.table
        hand = table.view.shown.hand
        if not hand:
            return None
        table.focus = max(0, min(table.focus, len(hand) - 1))
        return hand[table.focus]

    def move_focus(self, step: int) -> None:
        """Point at the next card (a playable one on the person's turn) to one side."""
        table = self.table
        hand = table.view.shown.hand
        if not hand:
            return
        table.keyboard_focus = True
        table.focus = (table.focus + step) % len(hand)
        seat = table.session.view()
        legal = seat.legal
        if legal and not seat.person_must_pass:
            for _ in range(len(hand)):
                if hand[table.focus] in legal:
                    break
                table.focus = (table.focus + step) % len(hand)
        table.hover = hand[table.focus]

    def keep_focus_on_a_legal_card(self) -> None:
        """On the person's turn, move the keys' pointer off a card that may not be played."""
        table = self.table
        legal = table.session.view().legal if table.ready_for_person() else ()
        hand = table.view.shown.hand
        if legal and self.focus_card() not in legal and legal[0] in hand:
            table.focus = hand.index(legal[0])
