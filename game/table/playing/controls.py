"""The person's controls at the table: clicks, keys (``keys.KEYS``) and the commands they give.

Every command goes to the match through ``TableMatch`` (``game.table.match.port``); what the
table shows is the scene's (``TableScene``), which these controls change and the painter reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from core.controller import Result
from game.table.hint_panel import THINKING
from game.table.match.port import action_cards, player_message
from game.table.playing.keys import AFTER_SKIP_KEYS, WAITING_KEYS, key_command

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.match.flow import MatchFlow
    from game.table.match.port import TableMatch
    from game.table.playing.buttons import TableButtons
    from game.table.playing.pointing import HandPointer
    from game.table.table_view import TableView


class ControlledTable(Protocol):
    """What the controls read and change on the table (``TableScene``)."""

    @property
    def app(self) -> App:
        """The running table (its sounds and settings)."""

    @property
    def session(self) -> TableMatch:
        """The match played."""

    @property
    def view(self) -> TableView:
        """Where every card is drawn."""

    @property
    def flow(self) -> MatchFlow:
        """What is counted, kept and shown as the match goes on."""

    @property
    def bar(self) -> TableButtons:
        """The table's buttons."""

    @property
    def pointer(self) -> HandPointer:
        """The card pointed at and the keyboard focus."""

    @property
    def keys_waiting(self) -> list[pygame.event.Event]:
        """Keys kept while cards moved, acted on once the table is still."""

    #: The cards chosen to pass.
    selected: list[int]

    #: The card under the pointer, if any.
    hover: int | None

    #: Whether the person moves over the hand with the keys.
    keyboard_focus: bool

    #: Whether the hint panel is shown.
    show_analysis: bool

    #: Whether the hint's card is played once the hint comes.
    play_hint_when_ready: bool

    #: While watching, whether the bots' hands are shown face up.
    show_all_hands: bool

    #: Seconds a forced card has waited to be played for the person.
    forced_wait: float

    #: Whether the rest of the hand is played at the instant speed (no points remain).
    rushing: bool

    def say(self, text: str) -> None:
        """Show a short message above the person's hand."""
        ...

    def open_menu(self) -> None:
        """Open the pause menu over the table."""
        ...

    def open_scores(self) -> None:
        """Show the score sheet."""
        ...

    def open_last_trick(self) -> None:
        """Show the last completed trick."""
        ...

    def ready_for_person(self) -> bool:
        """Return whether every move has been shown and no other seat's move waits."""
        ...

    def pass_button_shown(self) -> bool:
        """Return whether the pass button shows."""
        ...


#: Seconds before a forced card is played for the person (when that option is on).
AUTO_PLAY_DELAY = 0.35


class TableControls:
    """What the person's clicks and keys do at one table."""

    def __init__(self, table: ControlledTable) -> None:
        self.table = table

    # -- input ----------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """React to a mouse motion, a click or a key."""
        table = self.table
        if event.type == pygame.MOUSEMOTION:
            for button in [*table.bar.top, table.bar.pass_button]:
                button.handle(event)
            table.hover = table.pointer.card_at(event.pos)
            table.keyboard_focus = False
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            table.view.put_down_received()
            self.click(event.pos, event)
        elif event.type == pygame.KEYDOWN:
            self.key(event)

    def click(self, pos: tuple[int, int], event: pygame.event.Event) -> None:
        """A click: a button, else hurry the cards moving, else the pass button or a card."""
        table = self.table
        for button in table.bar.top:
            if button.handle(event):
                return
        if table.view.release():
            return
        if not table.view.idle:
            table.view.skip()
            return
        if table.pass_button_shown() and table.bar.pass_button.handle(event):
            return
        card = table.pointer.card_at(pos)
        if card is not None:
            self.click_card(card)

    def key(self, event: pygame.event.Event) -> None:
        """Run a key's command (``keys.KEYS``); keep S and L pressed while cards move; any
        other key while cards move hurries them."""
        table = self.table
        if event.key in WAITING_KEYS and self._keep_for_later(event):
            return
        found = key_command(event.key, event.mod)
        if found is not None and found.watching_only and table.session.person_plays:
            found = None
        if found is None or (not found.while_moving and not table.view.idle):
            if not table.view.idle and not table.view.release():
                table.view.skip()
            return
        getattr(self, found.command)()

    def _keep_for_later(self, event: pygame.event.Event) -> bool:
        """Keep S or L pressed while cards move, to act on once they have landed (the score
        sheet then counts the trick just taken; the last trick is the one just swept); return
        whether it was kept."""
        view = self.table.view
        if view.idle or (event.key == pygame.K_s and view.waiting_for_click):
            return False
        self.table.keys_waiting.append(event)
        return True

    def key_after_skip(self, event: pygame.event.Event) -> None:
        """Keep a command key (S, L, H, M) that skipped a moment, to act on it afterwards."""
        if event.key in AFTER_SKIP_KEYS and not event.mod & pygame.KMOD_CTRL:
            self.table.keys_waiting.append(event)

    # -- the commands of the keys ---------------------------------------------------------

    def open_menu(self) -> None:
        """Open the pause menu."""
        self.table.open_menu()

    def open_scores(self) -> None:
        """Open the score sheet."""
        self.table.open_scores()

    def open_last_trick(self) -> None:
        """Show the last trick."""
        self.table.open_last_trick()

    def toggle_sound(self) -> None:
        """Turn the sound on or off."""
        app = self.table.app
        sound = not app.settings.sound
        app.change_settings(app.settings.with_changes(sound=sound))
        self.table.say("Sound on" if sound else "Sound off")

    def focus_left(self) -> None:
        """Point at the card to the left."""
        self.table.pointer.move_focus(-1)

    def focus_right(self) -> None:
        """Point at the card to the right."""
        self.table.pointer.move_focus(1)

    def choose_focused(self) -> None:
        """Choose the card pointed at to pass."""
        card = self.table.pointer.focused()
        seat = self.table.session.view()
        if seat.person_must_pass and card is not None and card not in self.table.selected:
            self.toggle_card(card)

    def put_back_focused(self) -> None:
        """Put back the card pointed at among those chosen to pass."""
        card = self.table.pointer.focused()
        if self.table.session.view().person_must_pass and card in self.table.selected:
            self.table.selected.remove(card)

    def confirm(self) -> None:
        """Enter: pass the three chosen cards, or act on the card pointed at."""
        if self.table.session.view().person_must_pass and len(self.table.selected) == 3:
            self.pass_selected()
            return
        card = self.table.pointer.focused()
        if card is not None:
            self.click_card(card)

    # -- the person's moves ---------------------------------------------------------------

    def toggle_card(self, card: int) -> None:
        """Pick or put back a card to pass."""
        selected = self.table.selected
        if card in selected:
            selected.remove(card)
        elif len(selected) < 3:
            selected.append(card)
        else:
            self.table.say("You have chosen three cards: click one of them to put it back")
            self.table.app.sounds.play("illegal")

    def pass_selected(self) -> None:
        """Pass the three chosen cards."""
        table = self.table
        if len(table.selected) != 3:
            table.say("Choose three cards to pass")
            return
        result = table.session.pass_cards(table.selected)
        if result.ok:
            table.selected = []
            self._after_person_move()
        else:
            table.say(player_message(result, "That pass is not allowed"))

    def play(self, card: int) -> None:
        """Play a card, or say why it may not be played."""
        result = self.table.session.play_card(card)
        if result.ok:
            self._after_person_move()
        else:
            self.table.say(player_message(result, "That card cannot be played"))
            self.table.app.sounds.play("illegal")

    def _after_person_move(self) -> None:
        table = self.table
        table.hover = None
        table.play_hint_when_ready = False
        table.show_analysis = False

    def click_card(self, card: int) -> None:
        """React to a click on one of the person's cards."""
        seat = self.table.session.view()
        if seat.person_must_pass:
            self.toggle_card(card)
        elif seat.person_must_play:
            self.play(card)
        elif seat.phase == "pass":
            self.table.say("Waiting for the others to pass")
        else:
            self.table.say("Wait for your turn")

    def undo(self) -> None:
        """Take back the person's last move (and the others' moves after it)."""
        if self._travel(self.table.session.undo()):
            self.table.selected = []

    def redo(self) -> None:
        """Apply again what undo took back."""
        self._travel(self.table.session.redo())

    def _travel(self, result: Result) -> bool:
        """Show the position an undo or redo led to at once and keep it saved; or say why not."""
        table = self.table
        if not result.ok:
            table.say(player_message(result, result.error or "Nothing to do"))
            return False
        table.view.sync(table.session.view())
        table.session.take_events()
        table.flow.save()
        return True

    def hint(self) -> None:
        """Ask the strongest bot what it would play here, with its values per card."""
        if self.table.session.request_hint():
            self.table.show_analysis = True
        else:
            self.table.say("There is nothing for you to decide now")

    def toggle_hands(self) -> None:
        """Show or hide the bots' hands face up; only while watching, never when a person plays."""
        table = self.table
        if table.session.person_plays:
            table.say("The other hands stay hidden while you play")
            return
        table.show_all_hands = not table.show_all_hands
        table.bar.hands.label = "Hide hands" if table.show_all_hands else "Show hands"

    def play_hint(self) -> None:
        """Play the hint's move (asking for one first if needed)."""
        table = self.table
        session = table.session
        hint = session.hint
        if hint is None:
            table.play_hint_when_ready = session.request_hint()
            if table.play_hint_when_ready:
                table.say(THINKING)
            return
        cards = action_cards(hint.action)
        seat = session.view()
        if seat.person_must_pass and len(cards) == 3:
            table.selected = list(cards)
            self.pass_selected()
        elif seat.person_must_play and cards:
            self.play(cards[0])

    def automatic_moves(self, dt: float) -> None:
        """Play the hint asked for with Space once it comes, a forced card (after a moment,
        when that option is on) and the rest of a hand with no points left (when asked)."""
        table = self.table
        session = table.session
        if not table.ready_for_person():
            table.forced_wait = 0.0
            return
        if table.play_hint_when_ready and session.hint is not None:
            table.play_hint_when_ready = False
            self.play_hint()
            return
        seat = session.view()
        if not seat.person_must_play:
            return
        settings = table.app.settings
        legal = seat.legal
        if settings.end_hand_early and not seat.points_remain:
            table.rushing = True
            table.view.speed = "instant"
            self.play(legal[0])
        elif settings.auto_play_forced and len(legal) == 1:
            table.forced_wait += dt
            if table.forced_wait >= AUTO_PLAY_DELAY:
                table.forced_wait = 0.0
                self.play(legal[0])
