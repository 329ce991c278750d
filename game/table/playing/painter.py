"""The table's picture: felt, top bar, name plates, cards, buttons and messages.

The painter only reads the table (``TableScene``) and the match's seat view; it never changes
them. The images it derives from the card art (a back turned on its side, the shade over a
card that may not be played) are its own cache, dropped when the window changes size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from core.rules import pass_receiver
from game.table import theme
from game.table.card_art import CardArt, CardStyle
from game.table.fonts import render_text
from game.table.header import header_text, seat_to_play, turn_words
from game.table.hint_panel import draw_hint_panel
from game.table.match.port import HUMAN_SEAT, action_cards
from game.table.playing.cues import GAIN_SECONDS
from game.table.pointer import draw_focus_ring, draw_pointer
from game.table.watch import face_of, watched_hands
from game.table.widgets import draw_panel, draw_text
from game.table.wording import plate_points

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.match.port import TableMatch
    from game.table.playing.buttons import TableButtons
    from game.table.playing.cues import Gain
    from game.table.playing.pointing import HandPointer
    from game.table.table_view import TableView
    from game.table.try_again import Practice


class PaintedTable(Protocol):
    """What the painter reads from the table (``TableScene``): all of it read only, since
    drawing never changes the table."""

    @property
    def app(self) -> App:
        """The running table (its layout and card art)."""

    @property
    def session(self) -> TableMatch:
        """The match played."""

    @property
    def view(self) -> TableView:
        """Where every card is drawn."""

    @property
    def bar(self) -> TableButtons:
        """The table's buttons."""

    @property
    def pointer(self) -> HandPointer:
        """The card pointed at and the cards lifted."""

    @property
    def gains(self) -> list[Gain]:
        """The "+N points" rising over the name plates."""

    @property
    def practice(self) -> Practice | None:
        """The hand tried again, when the match is practice."""

    @property
    def message(self) -> tuple[str, float] | None:
        """The message above the hand and its seconds left."""

    @property
    def selected(self) -> list[int]:
        """The cards chosen to pass."""

    @property
    def clock(self) -> float:
        """Seconds since the table opened (the thinking dots step with it)."""

    @property
    def paused(self) -> bool:
        """Whether a screen is open over the table."""

    @property
    def show_analysis(self) -> bool:
        """Whether the hint panel is shown."""

    @property
    def show_all_hands(self) -> bool:
        """While watching, whether the bots' hands are shown face up."""

    def art(self, small: bool = False) -> CardArt:
        """Return the card art for the person's or the bots' cards."""
        ...

    def seat_name(self, seat: int) -> str:
        """Return the name shown for a seat."""
        ...

    def ready_for_person(self) -> bool:
        """Return whether every move has been shown and no other seat's move waits."""
        ...

    def pass_button_shown(self) -> bool:
        """Return whether the pass button shows."""
        ...


#: Steps per second of the dots after a thinking bot's name.
THINKING_DOTS_PER_S = 3


class TablePainter:
    """Draws one table from its state, keeping the images it derives."""

    def __init__(self, table: PaintedTable) -> None:
        self.table = table
        self._derived: dict[tuple[int, CardStyle, str], pygame.Surface] = {}

    def resize(self) -> None:
        """Forget the images made at the old size."""
        self._derived.clear()

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the felt, the plates, the cards, the buttons and the messages."""
        table = self.table
        surface.blit(theme.felt(surface.get_size()), (0, 0))
        self._draw_top_bar(surface)
        self._draw_plates(surface)
        self._draw_centre(surface)
        self._draw_cards(surface)
        if table.pass_button_shown():
            table.bar.pass_button.draw(surface)
        if table.show_analysis:
            passing = table.session.phase == "pass"
            draw_hint_panel(surface, table.app.layout, table.session.hint, passing)
        for image, rect in self.gain_labels():
            surface.blit(image, rect)
        if not table.paused:  # a dialog over the table hides its notices
            self._draw_message(surface)

    def _draw_message(self, surface: pygame.Surface) -> None:
        """Draw the short message (or the call to continue) above the person's hand."""
        table = self.table
        layout = table.app.layout
        rect = layout.message_area
        if table.message is not None:
            draw_panel(surface, rect, (40, 24, 16, 225), theme.ACCENT)
            draw_text(
                surface,
                table.message[0],
                layout.text(17),
                theme.TEXT,
                center=rect.center,
                max_width=rect.width - layout.px(16),
            )
        elif table.view.waiting_for_click:
            draw_text(
                surface,
                "Click or press a key to continue",
                layout.text(16),
                theme.TEXT_DIM,
                center=rect.center,
            )

    def header(self) -> str:
        """Return the top bar's words: practice (a hand tried again), the hand, then the pass
        or whose turn the table shows."""
        table = self.table
        view = table.view
        shown = view.shown
        practice = None if table.practice is None else table.practice.bar
        if table.session.phase == "pass" or shown.passing or view.dealing_or_exchanging:
            return header_text(shown, shown.direction != "hold", "", practice)
        first = table.session.view().first_leader
        turn = turn_words(shown, first, table.seat_name, table.session.person_plays)
        return header_text(shown, False, turn, practice)

    def seats_shown_to_act(self) -> set[int]:
        """Return the seats the table shows as to act: those still passing, or the seat whose
        card the shown trick waits for."""
        table = self.table
        view = table.view
        shown = view.shown
        seat_view = table.session.view()
        if table.session.phase == "pass" or shown.passing or view.dealing_or_exchanging:
            return set(seat_view.seats_to_act) if view.idle else set()
        turn = seat_to_play(shown, seat_view.first_leader)
        return set() if turn is None else {turn[0]}

    def _draw_top_bar(self, surface: pygame.Surface) -> None:
        table = self.table
        layout = table.app.layout
        bar = layout.top_bar
        draw_panel(surface, bar, (6, 22, 15, 200), (6, 22, 15), radius=0, width=0)
        for button in table.bar.top:
            button.draw(surface)
        left = bar.left + layout.px(14)
        draw_text(
            surface,
            self.header(),
            layout.text(18),
            theme.ACCENT if table.ready_for_person() else theme.TEXT,
            midleft=(left, bar.centery),
            max_width=table.bar.top[0].rect.left - left - layout.px(10),
        )

    def _draw_plates(self, surface: pygame.Surface) -> None:
        table = self.table
        layout = table.app.layout
        thinking = table.session.thinking_seats()
        to_act = self.seats_shown_to_act()
        for seat, rect in enumerate(layout.name_plates):
            active = seat in to_act
            border = theme.ACCENT if active else theme.PANEL_BORDER
            draw_panel(surface, rect, theme.PANEL, border, width=2 if active else 1)
            name = table.seat_name(seat)
            if seat in thinking:
                name += " " + "·" * (1 + int(table.clock * THINKING_DOTS_PER_S) % 3)
            # two lines: the name above, the points under it
            px, left, room = layout.text(15), rect.left + layout.px(10), rect.width - layout.px(20)
            colour = theme.ACCENT if active else theme.TEXT
            top_line = (left, rect.top + round(rect.height * 0.3))
            draw_text(surface, name, px, colour, bold=active, midleft=top_line, max_width=room)
            colour = theme.DANGER if table.view.shown.taken[seat] else theme.TEXT_DIM
            low_line = (left, rect.top + round(rect.height * 0.7))
            draw_text(surface, self.plate_score(seat), px, colour, midleft=low_line, max_width=room)

    def plate_score(self, seat: int) -> str:
        """Return a name plate's numbers with what they are ("+3 · 12 pts", ``plate_points``)."""
        shown = self.table.view.shown
        return plate_points(shown.taken[seat], shown.totals[seat])

    def gain_labels(self) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """Return each "+N" label and where it is drawn this frame.

        A label rises from the top of its seat's plate, or sinks from its bottom when rising
        would reach the top bar; it always stays on the table, below the bar.
        """
        layout = self.table.app.layout
        gap = layout.px(4)
        travel = layout.px(36)
        felt = pygame.Rect(0, layout.top_bar.bottom, layout.width, layout.height)
        felt.height -= felt.top
        labels = []
        for gain in self.table.gains:
            plate = layout.name_plates[gain.seat]
            progress = 1 - gain.left / GAIN_SECONDS
            text = f"+{gain.points}" if gain.points > 0 else str(gain.points)
            colour = theme.DANGER if gain.points > 0 else theme.GOOD
            image = render_text(text, layout.px(24), colour, True).copy()
            image.set_alpha(round(255 * min(1.0, 2.5 * (1 - progress))))
            rect = image.get_rect()
            if plate.top - gap - travel - rect.height >= felt.top:
                rect.midbottom = (plate.centerx, plate.top - gap - round(travel * progress))
            else:
                rect.midtop = (plate.centerx, plate.bottom + gap + round(travel * progress))
            labels.append((image, rect.clamp(felt)))
        return labels

    def _draw_centre(self, surface: pygame.Surface) -> None:
        table = self.table
        layout = table.app.layout
        beat = table.view.timeline.current
        exchanging = beat is not None and beat.name in ("pass", "turn")
        if not exchanging and (table.session.phase != "pass" or not table.view.idle):
            return
        direction = table.view.shown.direction
        cx, cy = layout.centre
        target = table.seat_name(pass_receiver(HUMAN_SEAT, direction))
        if exchanging:
            text = f"Passing to {target}…"
        elif table.session.view().person_must_pass:
            text = f"Choose three cards to pass to {target}"
        else:
            text = "Waiting for the others to pass…"
        draw_text(
            surface, text, layout.px(22), theme.TEXT, bold=True, center=(cx, cy - layout.px(40))
        )
        arrow = {"left": "←", "right": "→", "across": "↑"}.get(direction, "")
        if arrow:
            draw_text(surface, arrow, layout.px(56), theme.ACCENT, center=(cx, cy + layout.px(10)))

    def _draw_cards(self, surface: pygame.Surface) -> None:
        table = self.table
        big, small = table.art(), table.art(small=True)
        session = table.session
        seat = session.view()
        legal = set(seat.legal) if table.ready_for_person() else set()
        dim_illegal = seat.person_must_play and table.view.idle
        hand = set(table.view.shown.hand)
        hint_cards = set(action_cards(session.hint.action)) if session.hint else set()
        faces = {}
        if not session.person_plays and table.show_all_hands:
            faces = watched_hands(seat, table.view.shown)
        pointed = table.pointer.pointed()
        for drawn in table.view.cards(table.pointer.lifted()):
            art = small if drawn.small else big
            image = art.back() if drawn.card is None else art.face(drawn.card)
            face = face_of(drawn, faces)
            if face is not None:
                image = art.face(face)
            elif drawn.rotated:
                image = self._rotated_image(art, "back")
            rotated = drawn.rotated and face is None
            shadow = self._rotated_image(art, "shadow") if rotated else art.shadow()
            if drawn.squeeze < 1.0:
                image, shadow = _squeezed(image, drawn.squeeze), _squeezed(shadow, drawn.squeeze)
            rect = image.get_rect(center=(round(drawn.centre[0]), round(drawn.centre[1])))
            offset = max(1, rect.width // 30)
            surface.blit(
                shadow, shadow.get_rect(center=(rect.centerx + offset, rect.centery + 2 * offset))
            )
            surface.blit(image, rect)
            card = drawn.card
            if card is None or card not in hand:
                continue
            if drawn.glow:
                surface.blit(art.outline(theme.GOOD), rect)
            if card in table.selected:
                surface.blit(art.outline(theme.ACCENT), rect)
            elif card in hint_cards and table.show_analysis:
                surface.blit(art.outline((120, 180, 255)), rect)
            elif dim_illegal and card not in legal:
                surface.blit(self._dim(art), rect)
            if card == pointed:
                draw_focus_ring(surface, rect)
        if pointed is not None:
            draw_pointer(surface, table.app.layout, table.view.hand_targets(), pointed)

    def _rotated_image(self, art: CardArt, which: str) -> pygame.Surface:
        key = (art.size[0], art.style, which)
        if key not in self._derived:
            image = art.back() if which == "back" else art.shadow()
            self._derived[key] = pygame.transform.rotate(image, 90)
        return self._derived[key]

    def _dim(self, art: CardArt) -> pygame.Surface:
        key = (art.size[0], art.style, "dim")
        if key not in self._derived:
            mask = pygame.mask.from_surface(art.back())
            self._derived[key] = mask.to_surface(
                setcolor=(10, 20, 15, 110), unsetcolor=(0, 0, 0, 0)
            )
        return self._derived[key]


def _squeezed(image: pygame.Surface, share: float) -> pygame.Surface:
    """Return ``image`` narrowed to ``share`` of its width (a card seen turning over)."""
    width, height = image.get_size()
    return pygame.transform.smoothscale(image, (max(1, round(width * share)), height))
