"""The table: the person's hand at the bottom, three bots around, the trick in the middle.

Clicks and keys become commands to the session; the session's events become beats of the
view; the view says where every card is drawn. Bots' answers are applied only when the
previous move has been shown, so each card can be followed with the eye.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from ai.review import Review
from core import events as ev
from core.cards import QUEEN_OF_SPADES, card_label
from core.controller import Controller, Result
from core.rules import pass_receiver
from core.view import HAND_SIZE
from game.table import theme
from game.table.card_art import CardArt, CardStyle
from game.table.fonts import render_text
from game.table.header import header_text, seat_to_play, turn_words
from game.table.hint_panel import THINKING, draw_hint_panel
from game.table.pointer import draw_focus_ring, draw_pointer
from game.table.scene import Scene, register
from game.table.session import (
    HUMAN_SEAT,
    ReviewKey,
    TableSession,
    action_cards,
    player_message,
)
from game.table.store.stats import match_difficulty
from game.table.table_view import DrawnCard, TableView
from game.table.watch import WATCH_HINT, WATCH_HINT_S, face_of, watched_hands
from game.table.widgets import Button, draw_panel, draw_text
from game.table.wording import SEAT_NAMES, breaking_hearts, plate_points, with_verb

if TYPE_CHECKING:
    from game.table.app import App

MESSAGE_SECONDS = 2.6
#: Seconds before a forced card is played for the person (when that option is on).
AUTO_PLAY_DELAY = 0.35
#: Time a frame may spend drawing card faces ahead of need.
WARM_BUDGET_S = 0.004
#: How long a "+N points" rises over a name plate after a trick is taken.
GAIN_SECONDS = 1.4
#: Keys kept while cards move and acted on once they have landed: the score sheet, the last trick.
WAITING_KEYS = (pygame.K_s, pygame.K_l)
#: Steps per second of the dots after a thinking bot's name.
THINKING_DOTS_PER_S = 3


def seat_label(seat: int, player: str, person: str | None) -> str:
    """Return the name shown for a seat: the person's name at seat 0 when ``person`` is given,
    else the seat's compass name with its ``player`` (a bot's level), e.g. ``West (hard)``."""
    if seat == HUMAN_SEAT and person is not None:
        return person
    return f"{SEAT_NAMES[seat]} ({player})" if player else SEAT_NAMES[seat]


@dataclass
class Gain:
    """Points just taken by a seat, shown rising over its name plate for a moment."""

    seat: int
    points: int
    left: float


class TableScene(Scene):
    """The table screen for one match."""

    def __init__(self, app: App, session: TableSession, resumed: bool = False) -> None:
        super().__init__(app)
        self.session = session
        settings = app.settings
        self.view = TableView(
            app.layout,
            settings.speed,
            settings.click_to_continue,
            on_cue=self._cue,
        )
        self.selected: list[int] = []
        self.hover: int | None = None
        self.focus = 0
        #: Whether the person moves over the hand with the keys (the focused card is shown).
        self.keyboard_focus = False
        self.message: tuple[str, float] | None = None
        self.show_analysis = False
        self.play_hint_when_ready = False
        self.forced_wait = 0.0
        self.rushing = False
        #: Whether a screen is open over the table (between ``pause`` and ``resume``).
        self.paused = False
        self.counted_hands: set[int] = set()
        self.gains: list[Gain] = []
        #: Moments over the table not ended yet, and what waits for them to end.
        self.moments_showing = 0
        self.after_moments: list[Callable[[], None]] = []
        self.clock = 0.0
        #: Keys pressed while cards moved (or a moment showed), acted on once the table is still.
        self.keys_waiting: list[pygame.event.Event] = []
        self._derived: dict[tuple[int, CardStyle, str], pygame.Surface] = {}
        #: While watching, whether the bots' hands are shown face up.
        self.show_all_hands = False
        self.hint_button = Button("Hint", self.hint, why_not=self.hint)
        self.hands_button = Button("Show hands", self.toggle_hands)
        self.buttons = [
            Button("Menu", self.open_menu),
            Button("Undo", self.undo, why_not=self.undo),
            Button("Redo", self.redo, why_not=self.redo),
            self.hint_button if session.person_plays else self.hands_button,
            Button("Scores", self.open_scores),
            Button("Last trick", self.open_last_trick),
        ]
        self.pass_button = Button("Pass", self.pass_selected, primary=True)
        self._place_buttons()
        #: A match resumed between a hand's end and the next deal owes its summary.
        self.summary_due: ev.HandScored | None = None
        if resumed:
            self.view.sync(session.controller, snap=True)
            session.take_events()
            self.summary_due = self._finished_hand()
            if self.summary_due is not None:
                # Its points may have been counted before the game was closed.
                self.counted_hands.add(session.controller.hand_number)
        else:
            self.view.show(session.take_events(), session.controller)
        if not session.person_plays:
            self.message = (WATCH_HINT, WATCH_HINT_S)

    # -- the look -------------------------------------------------------------------------

    def art(self, small: bool = False) -> CardArt:
        """Return the card art at the layout's size for the person's or the bots' cards."""
        return self.app.card_art(small)

    def _place_buttons(self) -> None:
        layout = self.app.layout
        bar = layout.top_bar
        height = bar.height - layout.px(12)
        right = bar.right - layout.px(10)
        for button in reversed(self.buttons):
            width = layout.px(34 + 10 * len(button.label))
            button.rect = pygame.Rect(0, 0, width, height)
            button.rect.midright = (right, bar.centery)
            right = button.rect.left - layout.px(8)
        self.pass_button.rect = layout.action_button.copy()
        self.pass_button.rect.centery = layout.centre[1] + layout.px(70)

    def pause(self) -> None:
        """A screen opened over the table: its notices hide and waiting keys wait."""
        self.paused = True

    def resume(self) -> None:
        """Back on top (a menu closed): follow the speed and trick settings as they are now."""
        self.paused = False
        settings = self.app.settings
        if not self.rushing:
            self.view.speed = settings.speed
        self.view.click_to_continue = settings.click_to_continue

    def resize(self) -> None:
        """Follow a new window size: new layout, new card sizes, cards jump into place."""
        self.view.relayout(self.app.layout)
        self._derived.clear()
        self._place_buttons()

    # -- cues from the view ---------------------------------------------------------------

    def _cue(self, name: str, value: object) -> None:
        sounds = self.app.sounds
        if name == "deal":
            sounds.play("deal")
            self.selected.clear()
            self.keys_waiting.clear()
            self.gains.clear()
            self.rushing = False
            self.view.speed = self.app.settings.speed
        elif name == "pass":
            sounds.play("pass")
        elif name == "play" and isinstance(value, ev.CardPlayed):
            sounds.play("play")
            if value.card == QUEEN_OF_SPADES:
                self.say(f"{self.seat_does(value.seat, 'plays')} the {card_label(value.card)}")
        elif name == "hearts_broken" and isinstance(value, ev.HeartsBroken):
            sounds.play("hearts_broken")
            self.say(breaking_hearts(value.card))
        elif name == "collect":
            sounds.play("sweep")
        elif name == "trick_taken" and isinstance(value, ev.TrickWon) and value.points:
            self._add_gain(value.seat, value.points)
            if QUEEN_OF_SPADES in value.cards:
                taken = f"{self.seat_does(value.seat, 'takes')} the {card_label(QUEEN_OF_SPADES)}"
                self.say(taken)
                # the hand's last trick: its summary (or moon) follows the moment
                self.moment("queen", taken, dialog_follows=value.trick_number == HAND_SIZE)
        elif name == "hand_scored" and isinstance(value, ev.HandScored):
            self._hand_over(value)
        elif name == "match_over" and isinstance(value, ev.MatchOver):
            self._count_match(value)

    def _add_gain(self, seat: int, points: int) -> None:
        """Show points just taken over a seat's plate, added to a label still showing there."""
        for index, gain in enumerate(self.gains):
            if gain.seat == seat:
                self.gains[index] = Gain(seat, gain.points + points, GAIN_SECONDS)
                return
        self.gains.append(Gain(seat, points, GAIN_SECONDS))

    def say(self, text: str) -> None:
        """Show a short message above the person's hand."""
        self.message = (text, MESSAGE_SECONDS)

    # -- the person's commands ------------------------------------------------------------

    def _ready_for_person(self) -> bool:
        return self.view.idle and not self.session.has_ready_move()

    def toggle_card(self, card: int) -> None:
        """Pick or put back a card to pass."""
        if card in self.selected:
            self.selected.remove(card)
        elif len(self.selected) < 3:
            self.selected.append(card)
        else:
            self.say("You have chosen three cards: click one of them to put it back")
            self.app.sounds.play("illegal")

    def pass_selected(self) -> None:
        """Pass the three chosen cards."""
        if len(self.selected) != 3:
            self.say("Choose three cards to pass")
            return
        result = self.session.pass_cards(self.selected)
        if result.ok:
            self.selected = []
            self._after_person_move(result.events)
        else:
            self.say(player_message(result, "That pass is not allowed"))

    def play(self, card: int) -> None:
        """Play a card, or say why it may not be played."""
        result = self.session.play_card(card)
        if result.ok:
            self._after_person_move(result.events)
        else:
            self.say(player_message(result, "That card cannot be played"))
            self.app.sounds.play("illegal")

    def _after_person_move(self, events: tuple[ev.Event, ...]) -> None:
        self.hover = None
        self.play_hint_when_ready = False
        self.show_analysis = False

    def click_card(self, card: int) -> None:
        """React to a click on one of the person's cards."""
        session = self.session
        if session.person_must_pass:
            self.toggle_card(card)
        elif session.person_must_play:
            self.play(card)
        elif session.phase == "pass":
            self.say("Waiting for the others to pass")
        else:
            self.say("Wait for your turn")

    def undo(self) -> None:
        """Take back the person's last move (and the bots' moves after it)."""
        if self._travel(self.session.undo()):
            self.selected = []

    def redo(self) -> None:
        """Apply again what undo took back."""
        self._travel(self.session.redo())

    def _travel(self, result: Result) -> bool:
        """Show the position an undo or redo led to at once and keep it saved; or say why not."""
        if not result.ok:
            self.say(player_message(result, result.error or "Nothing to do"))
            return False
        self.view.sync(self.session.controller)
        self.session.take_events()
        self._save()
        return True

    def hint(self) -> None:
        """Ask the strongest bot what it would play here, with its values per card."""
        if self.session.request_hint():
            self.show_analysis = True
        else:
            self.say("There is nothing for you to decide now")

    def toggle_hands(self) -> None:
        """Show or hide the bots' hands face up; only while watching, never when a person plays."""
        if self.session.person_plays:
            self.say("The other hands stay hidden while you play")
            return
        self.show_all_hands = not self.show_all_hands
        self.hands_button.label = "Hide hands" if self.show_all_hands else "Show hands"

    def _watched_faces(self) -> dict[int, list[int]]:
        """Return the bots' hands to draw face up, seat by seat (only while watching, if asked)."""
        if self.session.person_plays or not self.show_all_hands:
            return {}
        return watched_hands(self.session.controller, self.view.shown)

    def play_hint(self) -> None:
        """Play the hint's move (asking for one first if needed)."""
        hint = self.session.hint
        if hint is None:
            self.play_hint_when_ready = self.session.request_hint()
            if self.play_hint_when_ready:
                self.say(THINKING)
            return
        cards = action_cards(hint.action)
        if self.session.person_must_pass and len(cards) == 3:
            self.selected = list(cards)
            self.pass_selected()
        elif self.session.person_must_play and cards:
            self.play(cards[0])

    def open_menu(self) -> None:
        """Open the pause menu over the table."""
        self.app.push_scene("pause_menu", self)

    def open_scores(self) -> None:
        """Show the score sheet."""
        self.app.push_scene("score_sheet", self.session.controller, self)

    def open_last_trick(self) -> None:
        """Show the last completed trick."""
        shown = self.view.shown
        if not shown.last_trick:
            self.say("No trick has been completed yet in this hand")
            return
        self.app.push_scene("last_trick", self)

    @property
    def controller(self) -> Controller:
        """Return the match at the table."""
        return self.session.controller

    @property
    def reviews(self) -> dict[ReviewKey, Review]:
        """Return the finished reviews of this match's hands."""
        return self.session.reviews

    def seat_name(self, seat: int) -> str:
        """Return the name shown for a seat."""
        person = self.app.settings.player_name if self.session.person_plays else None
        return seat_label(seat, self.session.bot_names.get(seat, ""), person)

    def seat_does(self, seat: int, verb: str) -> str:
        """Return a seat's name with ``verb`` agreeing with it: "You take", "West (hard) takes"."""
        return with_verb(self.seat_name(seat), verb)

    # -- hands and matches ending ---------------------------------------------------------

    def _finished_hand(self) -> ev.HandScored | None:
        """Return the score of the hand just over, when the match waits for the next deal."""
        controller = self.session.controller
        if controller.phase != "hand_over" or not controller.hand_scores:
            return None
        score = controller.hand_scores[-1]
        return ev.HandScored(score.points, controller.totals, score.moon_shooter)

    def _hand_over(self, event: ev.HandScored) -> None:
        self.gains.clear()  # the summary shows the points; no label outlives the hand
        number = self.view.shown.hand_number
        if self.session.person_plays and number not in self.counted_hands:
            self.counted_hands.add(number)
            level = match_difficulty(self.session.bot_names.values())
            self.app.change_stats(
                self.app.stats.with_hand_scored(event.points, event.moon_shooter, HUMAN_SEAT, level)
            )

        def summary() -> None:
            self.app.push_scene("hand_summary", self, event)

        if event.moon_shooter is None:
            self.when_moments_end(summary)
            return
        shooter = self.seat_name(event.moon_shooter)
        title = (
            "You shot the moon!"
            if event.moon_shooter == HUMAN_SEAT
            else f"{shooter} shot the moon!"
        )
        outcome = moon_outcome(event)
        self.when_moments_end(lambda: self.moment("moon", title, outcome, then=summary))

    def _count_match(self, event: ev.MatchOver) -> None:
        """Keep the finished match to replay; count it in the person's statistics."""
        self.app.archive_match(self.session.controller)
        if self.session.person_plays and not self.session.match_counted:
            self.session.match_counted = True
            won, points = event.winner == HUMAN_SEAT, event.totals[HUMAN_SEAT]
            level = match_difficulty(self.session.bot_names.values())
            self.app.change_stats(self.app.stats.with_match(won, points, difficulty=level))
            self.app.discard_game()

    def moment(
        self,
        kind: str,
        title: str,
        subtitle: str = "",
        then: Callable[[], None] | None = None,
        dialog_follows: bool = False,
    ) -> None:
        """Play a moment over the table (none at the instant speed); ``then`` runs after it
        (``dialog_follows``: a dialog opens as it ends, so its shade ends at the dialog's)."""
        if self.app.settings.speed == "instant":
            if then is not None:
                then()
            return
        seed = self.view.shown.hand_number
        self.moments_showing += 1

        def ended() -> None:
            self.moments_showing -= 1
            if then is not None:
                then()
            if not self.moments_showing:
                waiting, self.after_moments = self.after_moments, []
                for later in waiting:
                    later()

        self.app.push_scene("moment", kind, title, subtitle, ended, seed, dialog_follows)

    def when_moments_end(self, action: Callable[[], None]) -> None:
        """Run ``action`` now, or once the moments showing have ended (so a hand's summary never
        covers the moment of its last trick, to show it afterwards)."""
        if self.moments_showing:
            self.after_moments.append(action)
        else:
            action()

    def _match_result(self) -> None:
        """Show the match result, after a celebration when the person won."""

        def result() -> None:
            self.app.push_scene("match_over", self)

        winner = self.session.controller.winner if self.session.person_plays else None
        if winner is None:
            result()
        elif winner == HUMAN_SEAT:
            self.moment("won", "You win the match!", "Lowest score at the end", then=result)
        else:
            self.moment("lost", f"{self.seat_does(winner, 'wins')} the match", then=result)

    def next_hand(self) -> None:
        """Deal the next hand (after the summary), or show the match result."""
        if self.session.phase == "match_over":
            self._match_result()
            return
        result = self.session.next_hand()
        if result.ok:
            self._save()

    # -- input ----------------------------------------------------------------------------

    def card_at(self, pos: tuple[int, int]) -> int | None:
        """Return the person's card under a point (the topmost one), if any."""
        size = self.app.layout.card_size
        for drawn in reversed(self._hand_cards()):
            rect = pygame.Rect(0, 0, *size)
            rect.center = (round(drawn.centre[0]), round(drawn.centre[1]))
            if rect.collidepoint(pos) and drawn.card is not None:
                return drawn.card
        return None

    def _hand_cards(self) -> list[DrawnCard]:
        hand = set(self.view.shown.hand)
        return [d for d in self.view.cards(self._lifted()) if d.card in hand and not d.small]

    def _lifted(self) -> set[int]:
        """Return the person's cards drawn raised: those chosen to pass and those just
        received. A card pointed at is ringed, never raised, so it never looks chosen."""
        return set(self.selected) | self.view.shown.received

    def _pointed(self) -> int | None:
        """Return the card pointed at by the keys (or the mouse) that a click or Enter would
        use now: one to choose while passing, a playable one on the person's turn."""
        card = self._focus_card() if self.keyboard_focus else self.hover
        if card is None or not self._ready_for_person():
            return None
        if self.session.person_must_pass or card in self.session.legal_cards():
            return card
        return None

    def handle(self, event: pygame.event.Event) -> bool:
        """Mouse and keyboard play; the table consumes every event."""
        if event.type == pygame.MOUSEMOTION:
            for button in [*self.buttons, self.pass_button]:
                button.handle(event)
            self.hover = self.card_at(event.pos)
            self.keyboard_focus = False
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.view.put_down_received()
            self._click(event.pos, event)
        elif event.type == pygame.KEYDOWN:
            self._key(event)
        return True

    def _click(self, pos: tuple[int, int], event: pygame.event.Event) -> None:
        for button in self.buttons:
            if button.handle(event):
                return
        if self.view.release():
            return
        if not self.view.idle:
            self.view.skip()
            return
        if self._pass_button_shown() and self.pass_button.handle(event):
            return
        card = self.card_at(pos)
        if card is not None:
            self.click_card(card)

    def _key(self, event: pygame.event.Event) -> None:
        key, mod = event.key, event.mod
        ctrl = bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        if key == pygame.K_ESCAPE:
            self.open_menu()
        elif ctrl and key == pygame.K_z:
            self.redo() if mod & pygame.KMOD_SHIFT else self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif key == pygame.K_h:
            self.hint()
        elif key in WAITING_KEYS and self._keep_for_later(event):
            return
        elif key == pygame.K_s:
            self.open_scores()
        elif key == pygame.K_f and not self.session.person_plays:
            self.toggle_hands()
        elif key == pygame.K_l:
            self.open_last_trick()
        elif key == pygame.K_m:
            sound = not self.app.settings.sound
            self.app.change_settings(self.app.settings.with_changes(sound=sound))
            self.say("Sound on" if sound else "Sound off")
        elif not self.view.idle:
            if not self.view.release():
                self.view.skip()
        elif key == pygame.K_SPACE:
            self.play_hint()
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            self._move_focus(-1 if key == pygame.K_LEFT else 1)
        elif key == pygame.K_UP and self.session.person_must_pass:
            card = self._focused()
            if card is not None and card not in self.selected:
                self.toggle_card(card)
        elif key == pygame.K_DOWN and self.session.person_must_pass:
            card = self._focused()
            if card is not None and card in self.selected:
                self.selected.remove(card)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.session.person_must_pass and len(self.selected) == 3:
                self.pass_selected()
            else:
                card = self._focused()
                if card is not None:
                    self.click_card(card)

    def _keep_for_later(self, event: pygame.event.Event) -> bool:
        """Keep S or L pressed while cards move, to act on once they have landed (the score
        sheet then counts the trick just taken; the last trick is the one just swept); return
        whether it was kept."""
        if self.view.idle or (event.key == pygame.K_s and self.view.waiting_for_click):
            return False
        self.keys_waiting.append(event)
        return True

    def key_after_skip(self, event: pygame.event.Event) -> None:
        """Keep a command key (S, L, H, M) that skipped a moment, to act on it afterwards."""
        if (
            event.key in (*WAITING_KEYS, pygame.K_h, pygame.K_m)
            and not event.mod & pygame.KMOD_CTRL
        ):
            self.keys_waiting.append(event)

    def _focused(self) -> int | None:
        hand = self.view.shown.hand
        if not hand:
            return None
        self.focus = max(0, min(self.focus, len(hand) - 1))
        return hand[self.focus]

    def _move_focus(self, step: int) -> None:
        hand = self.view.shown.hand
        if not hand:
            return
        self.keyboard_focus = True
        self.focus = (self.focus + step) % len(hand)
        legal = self.session.legal_cards()
        if legal and not self.session.person_must_pass:
            for _ in range(len(hand)):
                if hand[self.focus] in legal:
                    break
                self.focus = (self.focus + step) % len(hand)
        self.hover = hand[self.focus]

    # -- time -----------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """Ask the bots, show what happened, play forced cards, keep the save current."""
        self.clock += dt
        session = self.session
        if self.summary_due is not None:
            event, self.summary_due = self.summary_due, None
            self.view.shown.totals = list(event.totals)
            self._hand_over(event)
            return
        session.update()
        self._show_events()
        if self.view.idle and session.has_ready_move():
            session.apply_ready()
            self._show_events()
        self.view.advance(dt)
        if self.message is not None:
            text, left = self.message
            answered = text == THINKING and session.hint is not None
            self.message = (text, left - dt) if left > dt and not answered else None
        self.gains = [Gain(g.seat, g.points, g.left - dt) for g in self.gains if g.left > dt]
        if self.keys_waiting and self.view.idle and not self.paused:
            self._key(self.keys_waiting.pop(0))
        self._keep_focus_on_a_legal_card()
        self._automatic_moves(dt)
        self._warm_art()

    def _keep_focus_on_a_legal_card(self) -> None:
        legal = self.session.legal_cards() if self._ready_for_person() else []
        hand = self.view.shown.hand
        if legal and self._focus_card() not in legal and legal[0] in hand:
            self.focus = hand.index(legal[0])

    def _show_events(self) -> None:
        """Queue the session's new events on the view; save after a trick or an exchange."""
        session = self.session
        events = session.take_events()
        if events:
            self.view.show(events, session.controller)
            progress = any(isinstance(e, (ev.TrickWon, ev.PassesExchanged)) for e in events)
            if progress and session.phase != "match_over":
                self._save()

    def leave(self) -> None:
        """Keep the match as it is now (moves since the last trick too) and stop its bots."""
        if self.session.phase in ("pass", "play", "hand_over"):
            self._save()
        self.session.close()

    def _save(self) -> None:
        """Save the match in progress; a watched match is never saved."""
        if self.session.person_plays:
            self.app.save_game(self.session.controller)

    def _automatic_moves(self, dt: float) -> None:
        session = self.session
        if not self._ready_for_person():
            self.forced_wait = 0.0
            return
        if self.play_hint_when_ready and session.hint is not None:
            self.play_hint_when_ready = False
            self.play_hint()
            return
        if not session.person_must_play:
            return
        settings = self.app.settings
        legal = session.legal_cards()
        if settings.end_hand_early and not session.points_remain():
            self.rushing = True
            self.view.speed = "instant"
            self.play(legal[0])
        elif settings.auto_play_forced and len(legal) == 1:
            self.forced_wait += dt
            if self.forced_wait >= AUTO_PLAY_DELAY:
                self.forced_wait = 0.0
                self.play(legal[0])

    def _warm_art(self) -> None:
        """Draw card faces and sounds ahead of need, a little each frame."""
        self.app.warm_up(WARM_BUDGET_S)

    def frame_due_in(self) -> float | None:
        """Return how soon the table's picture changes by itself (see ``Scene.frame_due_in``).

        ``0`` while cards move, points rise, a hint is awaited, or a bot's move, a kept key or
        an owed summary waits for the next update; else the nearest of a message's end, the
        next step of the thinking dots and a forced card's play.
        """
        session = self.session
        awaiting_hint = self.show_analysis and session.hint is None
        if self.summary_due is not None or self.gains or awaiting_hint:
            return 0.0
        if self.keys_waiting and self.view.idle:
            return 0.0
        if self.view.idle and session.has_ready_move():
            return 0.0
        waits = [self.view.next_change_in()]
        if self.message is not None:
            waits.append(self.message[1])
        if session.thinking_seats():
            waits.append(
                (int(self.clock * THINKING_DOTS_PER_S) + 1) / THINKING_DOTS_PER_S - self.clock
            )
        if self.forced_wait > 0:
            waits.append(AUTO_PLAY_DELAY - self.forced_wait)
        return min((wait for wait in waits if wait is not None), default=None)

    # -- drawing --------------------------------------------------------------------------

    def _pass_button_shown(self) -> bool:
        return self.session.person_must_pass and len(self.selected) == 3 and self.view.idle

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the felt, the plates, the cards, the buttons and the messages."""
        surface.blit(theme.felt(surface.get_size()), (0, 0))
        self._draw_top_bar(surface)
        self._draw_plates(surface)
        self._draw_centre(surface)
        self._draw_cards(surface)
        if self._pass_button_shown():
            receiver = pass_receiver(HUMAN_SEAT, self.session.controller.pass_direction)
            self.pass_button.label = f"Pass to {self.seat_name(receiver)}"
            self.pass_button.draw(surface)
        self._draw_analysis(surface)
        self._draw_gains(surface)
        if not self.paused:  # a dialog over the table hides its notices
            self._draw_message(surface)

    def _draw_message(self, surface: pygame.Surface) -> None:
        """Draw the short message (or the call to continue) above the person's hand."""
        layout = self.app.layout
        rect = layout.message_area
        if self.message is not None:
            draw_panel(surface, rect, (40, 24, 16, 225), theme.ACCENT)
            draw_text(
                surface,
                self.message[0],
                layout.text(17),
                theme.TEXT,
                center=rect.center,
                max_width=rect.width - layout.px(16),
            )
        elif self.view.waiting_for_click:
            draw_text(
                surface,
                "Click or press a key to continue",
                layout.text(16),
                theme.TEXT_DIM,
                center=rect.center,
            )

    def header(self) -> str:
        """Return the top bar's words: the hand, then the pass or whose turn the table shows."""
        shown = self.view.shown
        if self.session.phase == "pass" or shown.passing or self.view.dealing_or_exchanging:
            return header_text(shown, shown.direction != "hold", "")
        turn = turn_words(shown, self._first_leader(), self.seat_name, self.session.person_plays)
        return header_text(shown, False, turn)

    def _first_leader(self) -> int | None:
        """Return the seat that leads this hand's first trick, once the play has begun."""
        controller = self.session.controller
        if controller.phase not in ("play", "hand_over", "match_over"):
            return None
        tricks = controller.tricks
        if tricks:
            return tricks[0].leader
        return controller.seats_to_act[0] if controller.seats_to_act else None

    def _seats_shown_to_act(self) -> set[int]:
        """Return the seats the table shows as to act: those still passing, or the seat whose
        card the shown trick waits for."""
        session = self.session
        shown = self.view.shown
        if session.phase == "pass" or shown.passing or self.view.dealing_or_exchanging:
            return set(session.controller.seats_to_act) if self.view.idle else set()
        turn = seat_to_play(shown, self._first_leader())
        return set() if turn is None else {turn[0]}

    def _draw_top_bar(self, surface: pygame.Surface) -> None:
        layout = self.app.layout
        bar = layout.top_bar
        draw_panel(surface, bar, (6, 22, 15, 200), (6, 22, 15), radius=0, width=0)
        self.buttons[1].enabled = self.session.can_undo
        self.buttons[2].enabled = self.session.controller.can_redo
        self.hint_button.enabled = self.session.person_must_pass or self.session.person_must_play
        for button in self.buttons:
            button.draw(surface)
        left = bar.left + layout.px(14)
        draw_text(
            surface,
            self.header(),
            layout.text(18),
            theme.ACCENT if self._ready_for_person() else theme.TEXT,
            midleft=(left, bar.centery),
            max_width=self.buttons[0].rect.left - left - layout.px(10),
        )

    def _draw_plates(self, surface: pygame.Surface) -> None:
        layout = self.app.layout
        shown = self.view.shown
        thinking = self.session.thinking_seats()
        to_act = self._seats_shown_to_act()
        for seat, rect in enumerate(layout.name_plates):
            active = seat in to_act
            border = theme.ACCENT if active else theme.PANEL_BORDER
            draw_panel(surface, rect, theme.PANEL, border, width=2 if active else 1)
            name = self.seat_name(seat)
            if seat in thinking:
                name += " " + "·" * (1 + int(self.clock * THINKING_DOTS_PER_S) % 3)
            # two lines: the name above, the points under it
            px, left, room = layout.text(15), rect.left + layout.px(10), rect.width - layout.px(20)
            colour = theme.ACCENT if active else theme.TEXT
            top_line = (left, rect.top + round(rect.height * 0.3))
            draw_text(surface, name, px, colour, bold=active, midleft=top_line, max_width=room)
            colour = theme.DANGER if shown.taken[seat] else theme.TEXT_DIM
            low_line = (left, rect.top + round(rect.height * 0.7))
            draw_text(surface, self.plate_score(seat), px, colour, midleft=low_line, max_width=room)

    def plate_score(self, seat: int) -> str:
        """Return a name plate's numbers with what they are ("+3 · 12 pts", ``plate_points``)."""
        shown = self.view.shown
        return plate_points(shown.taken[seat], shown.totals[seat])

    def _draw_gains(self, surface: pygame.Surface) -> None:
        for image, rect in self._gain_labels():
            surface.blit(image, rect)

    def _gain_labels(self) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """Return each "+N" label and where it is drawn this frame.

        A label rises from the top of its seat's plate, or sinks from its bottom when rising
        would reach the top bar; it always stays on the table, below the bar.
        """
        layout = self.app.layout
        gap = layout.px(4)
        travel = layout.px(36)
        felt = pygame.Rect(0, layout.top_bar.bottom, layout.width, layout.height)
        felt.height -= felt.top
        labels = []
        for gain in self.gains:
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
        layout = self.app.layout
        session = self.session
        beat = self.view.timeline.current
        exchanging = beat is not None and beat.name in ("pass", "turn")
        if not exchanging and (session.phase != "pass" or not self.view.idle):
            return
        direction = self.view.shown.direction
        cx, cy = layout.centre
        target = self.seat_name(pass_receiver(HUMAN_SEAT, direction))
        if exchanging:
            text = f"Passing to {target}…"
        elif session.person_must_pass:
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
        big, small = self.art(), self.art(small=True)
        session = self.session
        legal = set(session.legal_cards()) if self._ready_for_person() else set()
        dim_illegal = session.person_must_play and self.view.idle
        hand = set(self.view.shown.hand)
        hint_cards = set(action_cards(session.hint.action)) if session.hint else set()
        faces = self._watched_faces()
        pointed = self._pointed()
        for drawn in self.view.cards(self._lifted()):
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
            if card in self.selected:
                surface.blit(art.outline(theme.ACCENT), rect)
            elif card in hint_cards and self.show_analysis:
                surface.blit(art.outline((120, 180, 255)), rect)
            elif dim_illegal and card not in legal:
                surface.blit(self._dim(art), rect)
            if card == pointed:
                draw_focus_ring(surface, rect)
        if pointed is not None:
            draw_pointer(surface, self.app.layout, self.view.hand_targets(), pointed)

    def _focus_card(self) -> int | None:
        hand = self.view.shown.hand
        return hand[self.focus] if hand and 0 <= self.focus < len(hand) else None

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

    def _draw_analysis(self, surface: pygame.Surface) -> None:
        if self.show_analysis:
            passing = self.session.phase == "pass"
            draw_hint_panel(surface, self.app.layout, self.session.hint, passing)


def moon_outcome(event: ev.HandScored) -> str:
    """Say what a moon did to the scores: "Everyone else takes 26 points", say."""
    shooter = event.moon_shooter
    if shooter is None:
        return ""
    own = event.points[shooter]
    others = {points for seat, points in enumerate(event.points) if seat != shooter}
    if own < 0:
        return f"{-own} points off the shooter's score"
    if len(others) == 1:
        return f"Everyone else takes {others.pop()} points"
    return "The others take the points"


def _squeezed(image: pygame.Surface, share: float) -> pygame.Surface:
    """Return ``image`` narrowed to ``share`` of its width (a card seen turning over)."""
    width, height = image.get_size()
    return pygame.transform.smoothscale(image, (max(1, round(width * share)), height))


register("table", TableScene)
