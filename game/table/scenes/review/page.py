"""The review page: the steps' strip, the keys and buttons, the progress while the review
computes; what each step shows is drawn by ``rows``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from ai.review import Decision, DecisionReview, Review, ReviewError, seat_decisions
from core.record import loads_record
from game.table import theme
from game.table.hand_drawing import hand_page_panel, page_content_area, place_page_buttons
from game.table.hand_story import HandStory, hand_story
from game.table.match.port import HUMAN_SEAT, ReviewKey
from game.table.review_requests import TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED
from game.table.scene import Scene, register
from game.table.scenes.review.rows import draw_pass, draw_total, draw_trick
from game.table.scenes.review.verdicts import GRADE_COLOURS, Step
from game.table.session import TableSession
from game.table.try_again import Practice, position_at
from game.table.widgets import (
    Button,
    draw_close_hint,
    draw_dialog,
    draw_keys_and_close_hint,
    draw_text,
)

if TYPE_CHECKING:
    from game.table.app import App

#: The hindsight button's label when every hand is hidden, and when shown.
HINDSIGHT_OFF = "Hindsight: show all hands"
HINDSIGHT_ON = "Hindsight: hide other hands"
#: The try-again buttons: the other hands dealt again, or the real ones.
TRY_AGAIN = "Try again"
TRY_REAL = "Cards as they were"
#: The page's keys, said on its bottom line.
KEYS = "← → step   Home / End first / last   H hindsight   T try again   R real cards"


class HandSource(Protocol):
    """A match whose finished hands a page reviews: the table's match, or a replayed one."""

    def record(self) -> str:
        """Return the match's record (``core.record`` text)."""
        ...

    @property
    def reviews(self) -> dict[ReviewKey, Review]:
        """Return the finished reviews of the match's hands, kept so they reopen at once."""
        ...

    def seat_name(self, seat: int) -> str:
        """Return the name shown for a seat."""
        ...


class ReviewPage(Scene):
    """The review of the person's (or any seat's) decisions in one finished hand."""

    overlay = True
    owns_reviews = True

    def __init__(
        self,
        app: App,
        source: HandSource,
        hand: int,
        seat: int = 0,
        samples: int = TABLE_REVIEW_SAMPLES,
        seed: int = TABLE_REVIEW_SEED,
    ) -> None:
        super().__init__(app)
        self.source = source
        self.seat = seat
        text = source.record()
        #: The match as recorded: what the page shows and a hand is tried again from.
        self.record = loads_record(text)
        self.story: HandStory = hand_story(self.record, seat, hand)
        self.steps = [Step("pass")] if self.story.passing is not None else []
        self.steps += [Step("trick", trick.number) for trick in self.story.tricks]
        self.steps.append(Step("total"))
        self.index = 0
        self.key = (hand, seat, samples, seed)
        self.review: Review | None = source.reviews.get(self.key)
        self.error: str | None = None
        self.done, self.total = 0, len(self.steps) - 1
        self.computing = self.review is None
        #: Whether news of the review came: the worker has begun it.
        self.started = False
        if self.computing:
            app.reviews.submit(text, seat, hand, samples, seed)
        #: Hindsight: every hand face up on the trick steps (off until the person asks).
        self.hindsight = False
        self.hindsight_button = Button(HINDSIGHT_OFF, self.toggle_hindsight)
        #: The seat's decisions in the hand, once asked (what a step's Try again starts from).
        self._decisions: list[Decision] | None = None
        #: How many tries were made from this page (each deals the others' hands afresh).
        self.tries = 0
        self.try_button = Button(TRY_AGAIN, lambda: self.try_again(False))
        self.real_button = Button(TRY_REAL, lambda: self.try_again(True))
        self.back_button = Button("‹ Previous", lambda: self.go(self.index - 1))
        self.next_button = Button("Next ›", lambda: self.go(self.index + 1), primary=True)
        self.step_buttons = [
            Button(step.short, lambda index=index: self.go(index))  # type: ignore[misc]
            for index, step in enumerate(self.steps)
        ]

    # -- state ----------------------------------------------------------------------------

    @property
    def step(self) -> Step:
        """Return the step shown."""
        return self.steps[self.index]

    def go(self, index: int) -> None:
        """Show step ``index`` (kept within the steps); nothing while the review computes."""
        if self.review is not None:
            self.index = max(0, min(index, len(self.steps) - 1))

    def toggle_hindsight(self) -> None:
        """Show or hide every seat's hand on the trick steps."""
        self.hindsight = not self.hindsight
        self.hindsight_button.label = HINDSIGHT_ON if self.hindsight else HINDSIGHT_OFF

    def name_of(self, seat: int) -> str:
        """Return a seat's name on the page: the reviewed seat is "You"."""
        return "You" if seat == self.seat else self.source.seat_name(seat)

    def decision(self, step: Step) -> DecisionReview | None:
        """Return the review of the decision made at a step (None for the total)."""
        if self.review is None:
            return None
        kind = {"pass": "pass", "trick": "play"}.get(step.kind)
        for decision in self.review.decisions:
            if (kind, step.trick) == (decision.kind, decision.trick or 0):
                return decision
        return None

    def decision_index(self) -> int | None:
        """Return the number (0 first) of the seat's decision made at the step shown, or None
        when it has none to try again (the total, a seat other than the person's)."""
        step = self.step
        kind = {"pass": "pass", "trick": "play"}.get(step.kind)
        if self.review is None or kind is None or self.seat != HUMAN_SEAT:
            return None
        if self._decisions is None:
            try:
                self._decisions = seat_decisions(self.record, self.seat, self.story.hand)
            except ReviewError:
                self._decisions = []
        for index, decision in enumerate(self._decisions):
            if (decision.kind, decision.trick or 0) == (kind, step.trick):
                return index
        return None

    def try_again(self, real_cards: bool) -> None:
        """Play the hand on from the decision shown, as practice (``LocalMatches.practice``):
        the other hands dealt again to fit what the person saw, or the real ones. The match
        under the page waits: its bots' requests are dropped (the worker serves the practice
        now) and asked again when it goes on."""
        index = self.decision_index()
        if index is None:
            return
        hand = self.story.hand
        try:
            again = position_at(self.record, self.seat, hand, index, real_cards, self.tries)
            match = self.app.matches.practice(again)
        except (ReviewError, ValueError) as error:
            self.app.toast(f"This hand cannot be tried again: {error}")
            return
        self.tries += 1
        for scene in self.app.scenes():
            waiting = getattr(scene, "session", None)
            if isinstance(waiting, TableSession) and waiting is not match:
                waiting.close()
        practice = Practice(self.record, hand, self.seat, again.decision, again.label)
        self.app.push_scene("table", match, resumed=True, practice=practice)

    def close(self) -> None:
        """Close the page (cancelling a review still computing)."""
        self.app.close_scene(self)

    def leave(self) -> None:
        """A review still computing is cancelled when the page closes."""
        if self.computing:
            self.app.reviews.cancel()
            self.computing = False

    def update(self, dt: float) -> None:
        """Collect the review's progress and, when it is done, keep it with the session."""
        if not self.computing:
            return
        for news in self.app.reviews.poll():
            self.started = True
            self.done, self.total = news.done, news.total or self.total
            if news.review is not None:
                self.review = news.review
                self.source.reviews[self.key] = news.review
                self.computing = False
            elif news.error is not None:
                self.error = news.error
                self.computing = False
            self.app.request_frame()

    # -- input ----------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> bool:
        """← → step, Home/End go to the ends, Esc closes; clicks on the buttons step, a
        click outside the panel closes."""
        if event.type == pygame.KEYDOWN:
            key = event.key
            if key == pygame.K_ESCAPE:
                self.close()
            elif key in (pygame.K_LEFT, pygame.K_PAGEUP):
                self.go(self.index - 1)
            elif key in (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_SPACE):
                self.go(self.index + 1)
            elif key == pygame.K_HOME:
                self.go(0)
            elif key == pygame.K_END:
                self.go(len(self.steps) - 1)
            elif key == pygame.K_h and self.review is not None:
                self.toggle_hindsight()
            elif key in (pygame.K_t, pygame.K_r):
                self.try_again(key == pygame.K_r)
            return True
        if self.review is not None:
            buttons = [self.back_button, self.next_button, self.hindsight_button]
            if self.decision_index() is not None:
                buttons += [self.try_button, self.real_button]
            for button in [*buttons, *self.step_buttons]:
                if button.handle(event):
                    return True
        if (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            and not self.panel().collidepoint(event.pos)
        ):
            self.close()
        return True

    # -- geometry -------------------------------------------------------------------------

    def panel(self) -> pygame.Rect:
        """Return the page's panel: nearly all the window."""
        return hand_page_panel(self.app.layout)

    def _place_buttons(self, rect: pygame.Rect) -> None:
        """Place the step strip under the title and the arrows near the bottom."""
        place_page_buttons(
            self.app.layout,
            rect,
            self.step_buttons,
            self.back_button,
            self.next_button,
            self.hindsight_button,
            300,
        )
        self._place_try_buttons()
        self.back_button.enabled = self.index > 0
        self.next_button.enabled = self.index < len(self.steps) - 1

    def _place_try_buttons(self) -> None:
        """Share the room between the arrows: hindsight, then the two try-again buttons."""
        gap = self.app.layout.px(12)
        left, right = self.back_button.rect.right + gap, self.next_button.rect.left - gap
        width = (right - left - 2 * gap) // 3
        buttons = (self.hindsight_button, self.try_button, self.real_button)
        for number, button in enumerate(buttons):
            button.rect = self.hindsight_button.rect.copy()
            button.rect.width = width
            button.rect.left = left + number * (width + gap)

    def content_area(self, rect: pygame.Rect) -> pygame.Rect:
        """Return the room between the step strip and the arrows."""
        return page_content_area(self.app.layout, rect, self.step_buttons, self.back_button)

    # -- drawing --------------------------------------------------------------------------

    def frame_due_in(self) -> float | None:
        """Nothing moves by itself: progress asks for a frame when it arrives."""
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the panel: progress while computing, else the step shown."""
        layout = self.app.layout
        rect = self.panel()
        title = f"Review of hand {self.story.hand}"
        draw_dialog(surface, rect, title, layout.text(28), layout.px(32))
        if self.review is None:
            self._draw_progress(surface, rect)
            draw_close_hint(surface, rect, layout.text(14), layout.px(18))
        else:
            self._place_buttons(rect)
            self._draw_strip(surface)
            area = self.content_area(rect)
            step = self.step
            if step.kind == "pass":
                draw_pass(self, surface, area)
            elif step.kind == "trick":
                draw_trick(self, surface, area, self.story.tricks[step.trick - 1])
            else:
                draw_total(self, surface, area)
            self.back_button.draw(surface)
            self.next_button.draw(surface)
            self.hindsight_button.draw(surface)
            if self.decision_index() is not None:
                self.try_button.draw(surface)
                self.real_button.draw(surface)
            # The keys and the close hint share the bottom line, either side of its middle.
            draw_keys_and_close_hint(
                surface,
                rect,
                KEYS,
                layout.text(14),
                rect.bottom - layout.px(18),
                layout.px(12),
            )

    def _draw_progress(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Draw how far the review is, or why it failed."""
        layout = self.app.layout
        if self.error is not None:
            text = f"The review could not be done: {self.error}"
            draw_text(
                surface,
                text,
                layout.text(18),
                theme.DANGER,
                center=rect.center,
                max_width=rect.width - layout.px(48),
            )
            return
        words = f"Reviewing your decisions… {self.done} of {self.total}"
        if not self.started:
            words = "Starting the review…"
        draw_text(
            surface,
            words,
            layout.text(20),
            theme.TEXT,
            center=(rect.centerx, rect.centery - layout.px(40)),
            max_width=rect.width - layout.px(48),
        )
        bar = pygame.Rect(0, 0, min(layout.px(600), rect.width - layout.px(80)), layout.px(22))
        bar.center = rect.center
        pygame.draw.rect(surface, theme.BUTTON_DISABLED, bar, border_radius=bar.height // 2)
        filled = bar.copy()
        filled.width = round(bar.width * self.done / max(1, self.total))
        if filled.width:
            pygame.draw.rect(surface, theme.ACCENT, filled, border_radius=bar.height // 2)
        pygame.draw.rect(surface, theme.PANEL_BORDER, bar, 1, border_radius=bar.height // 2)
        draw_text(
            surface,
            "Esc cancels",
            layout.text(15),
            theme.TEXT_DIM,
            center=(rect.centerx, bar.bottom + layout.px(30)),
        )

    def _draw_strip(self, surface: pygame.Surface) -> None:
        """Draw the steps' buttons, each edged in its decision's colour, the current one lit."""
        for index, (step, button) in enumerate(zip(self.steps, self.step_buttons, strict=True)):
            decision = self.decision(step)
            button.primary = index == self.index
            button.draw(surface)
            if decision is not None and decision.grade != "fine":
                mark = button.rect.inflate(-4, -4)
                mark.height = max(3, button.rect.height // 8)
                mark.bottom = button.rect.bottom - 3
                pygame.draw.rect(surface, GRADE_COLOURS[decision.grade], mark)


register("review", ReviewPage)
