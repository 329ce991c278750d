"""The table: the person's hand at the bottom, three bots around, the trick in the middle.

The scene wires the parts of the table together and moves time on: the match is played
through ``TableMatch`` (``game.table.match.port``), never a controller; the person's clicks and
keys are ``TableControls``'; the picture is ``TablePainter``'s, which only reads; what is
counted, kept and shown as the match goes on is ``MatchFlow``'s. The match's events become
beats of the view, which says where every card is drawn. The others' moves are applied only
when the previous move has been shown, so each card can be followed with the eye.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ai.review import Review
from core import events as ev
from game.table.card_art import CardArt
from game.table.hint_panel import THINKING
from game.table.match.flow import Books, MatchFlow
from game.table.match.port import HUMAN_SEAT, ReviewKey, TableMatch
from game.table.match.practice import PracticeBooks
from game.table.playing.buttons import TableButtons
from game.table.playing.controls import AUTO_PLAY_DELAY, TableControls
from game.table.playing.cues import Gain, on_cue, tick_gains
from game.table.playing.painter import THINKING_DOTS_PER_S, TablePainter
from game.table.playing.pointing import HandPointer
from game.table.scene import Scene, register
from game.table.table_view import TableView
from game.table.watch import WATCH_HINT, WATCH_HINT_S
from game.table.wording import SEAT_NAMES, with_verb

if TYPE_CHECKING:
    from game.table.app import App
    from game.table.try_again import Practice

MESSAGE_SECONDS = 2.6
#: Time a frame may spend drawing card faces ahead of need.
WARM_BUDGET_S = 0.004


def seat_label(seat: int, player: str, person: str | None) -> str:
    """Return the name shown for a seat: the person's name at seat 0 when ``person`` is given,
    else the seat's compass name with its ``player`` (a bot's level), e.g. ``West (hard)``."""
    if seat == HUMAN_SEAT and person is not None:
        return person
    return f"{SEAT_NAMES[seat]} ({player})" if player else SEAT_NAMES[seat]


class TableScene(Scene):
    """The table screen for one match (``session``: the match, through ``TableMatch``).

    With ``practice`` the match is a hand tried again from the review page: the top bar says
    so, its books keep nothing (``PracticeBooks``), and when the hand is over the coach's
    comparison opens instead of the hand's summary."""

    def __init__(
        self,
        app: App,
        session: TableMatch,
        resumed: bool = False,
        practice: Practice | None = None,
    ) -> None:
        super().__init__(app)
        self.session = session
        self.practice = practice
        settings = app.settings
        self.view = TableView(
            app.layout, settings.speed, settings.click_to_continue, on_cue=self._cue
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
        self.gains: list[Gain] = []
        self.clock = 0.0
        #: Keys pressed while cards moved (or a moment showed), acted on once the table is still.
        self.keys_waiting: list[pygame.event.Event] = []
        #: While watching, whether the bots' hands are shown face up.
        self.show_all_hands = False
        self.controls = TableControls(self)
        self.painter = TablePainter(self)
        books: Books = app.books if practice is None else PracticeBooks()
        self.flow = MatchFlow(session, books, self)
        self.pointer = HandPointer(self)
        self.bar = TableButtons(self)
        self.bar.place(app.layout)
        if resumed:
            self.view.sync(session.view(), snap=True)
            session.take_events()
            self.flow.resumed()
        else:
            self.view.show(session.take_events(), session.view())
        if not session.person_plays:
            self.message = (WATCH_HINT, WATCH_HINT_S)
        self._refresh()

    # -- the look -------------------------------------------------------------------------

    def art(self, small: bool = False) -> CardArt:
        """Return the card art at the layout's size for the person's or the bots' cards."""
        return self.app.card_art(small)

    def _refresh(self) -> None:
        """Follow the match and the chosen cards: the buttons, and the cards aimed."""
        self.bar.follow(self.session.view())
        self.view.place(self.pointer.lifted())

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
        self.painter.resize()
        self.bar.place(self.app.layout)
        self._refresh()

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the table (``TablePainter``: it changes nothing)."""
        self.painter.draw(surface)

    # -- cues from the view ---------------------------------------------------------------

    def _cue(self, name: str, value: object) -> None:
        on_cue(self, name, value)

    def say(self, text: str) -> None:
        """Show a short message above the person's hand."""
        self.message = (text, MESSAGE_SECONDS)

    # -- what the match flow asks of the table (``flow.Stage``) ---------------------------

    def moments_on(self) -> bool:
        """Return whether big moments are played (not at the instant speed)."""
        return self.app.settings.speed != "instant"

    def show_moment(
        self,
        kind: str,
        title: str,
        subtitle: str,
        ended: Callable[[], None],
        follows: bool,
        shaded: bool,
    ) -> None:
        """Play a moment over the table."""
        seed = self.view.shown.hand_number
        self.app.push_scene("moment", kind, title, subtitle, ended, seed, follows, shaded)

    def show_summary(self, event: ev.HandScored) -> None:
        """Open the hand's summary (the coach's comparison, after practice)."""
        if self.practice is not None:
            self.app.push_scene("practice_over", self, self.practice, event.points)
            return
        self.app.push_scene("hand_summary", self, event)

    def show_result(self) -> None:
        """Open the match result."""
        self.app.push_scene("match_over", self)

    # -- screens over the table -----------------------------------------------------------

    def open_menu(self) -> None:
        """Open the pause menu over the table."""
        self.app.push_scene("pause_menu", self)

    def open_scores(self) -> None:
        """Show the score sheet."""
        self.app.push_scene("score_sheet", self.session.sheet(), self)

    def open_last_trick(self) -> None:
        """Show the last completed trick."""
        if not self.view.shown.last_trick:
            self.say("No trick has been completed yet in this hand")
            return
        self.app.push_scene("last_trick", self)

    def next_hand(self) -> None:
        """Deal the next hand (after the summary), or show the match result."""
        if self.session.phase == "match_over":
            self.flow.match_result()
            return
        if self.session.next_hand().ok:
            self.flow.save()

    def record(self) -> str:
        """Return the match's record: what the review page reads (its ``HandSource``)."""
        return self.session.record()

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

    # -- what the person may do now -------------------------------------------------------

    def ready_for_person(self) -> bool:
        """Return whether every move has been shown and no other seat's move waits."""
        return self.view.idle and not self.session.has_ready_move()

    def pass_button_shown(self) -> bool:
        """Return whether the pass button shows (three cards chosen, the table still)."""
        seat = self.session.view()
        return seat.person_must_pass and len(self.selected) == 3 and self.view.idle

    # -- input ----------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> bool:
        """Mouse and keyboard play (``TableControls``); the table consumes every event."""
        self.controls.handle(event)
        return True

    def key_after_skip(self, event: pygame.event.Event) -> None:
        """Keep a command key (S, L, H, M) that skipped a moment, to act on it afterwards."""
        self.controls.key_after_skip(event)

    # -- time -----------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """Ask the others, show what happened, play forced cards, keep the save current."""
        self.clock += dt
        session = self.session
        due = self.flow.take_due_summary()
        if due is not None:
            self.view.shown.totals = list(due.totals)
            self.flow.hand_scored(due, self.view.shown.hand_number)
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
        self.gains = tick_gains(self.gains, dt)
        if self.keys_waiting and self.view.idle and not self.paused:
            self.controls.key(self.keys_waiting.pop(0))
        self.pointer.keep_focus_on_a_legal_card()
        self.controls.automatic_moves(dt)
        self.app.warm_up(WARM_BUDGET_S)
        self._refresh()

    def _show_events(self) -> None:
        """Queue the match's new events on the view; save after a trick or an exchange."""
        events = self.session.take_events()
        if events:
            self.view.show(events, self.session.view())
            self.flow.progressed(events)

    def leave(self) -> None:
        """Keep the match as it is now (moves since the last trick too) and stop waiting for
        the others."""
        if self.session.phase in ("pass", "play", "hand_over"):
            self.flow.save()
        self.session.close()

    def frame_due_in(self) -> float | None:
        """Return how soon the table's picture changes by itself (see ``Scene.frame_due_in``).

        ``0`` while cards move, points rise, a hint is awaited, or another seat's move, a kept
        key or an owed summary waits for the next update; else the nearest of a message's end,
        the next step of the thinking dots and a forced card's play.
        """
        session = self.session
        awaiting_hint = self.show_analysis and session.hint is None
        if self.flow.summary_due is not None or self.gains or awaiting_hint:
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


register("table", TableScene)
