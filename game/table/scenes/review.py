"""The review of one hand: the person's decisions judged by the hard bot's search, step by step.

The review is computed by ``app.reviews`` (a worker process at the table) while a progress bar
shows how far it is; Esc cancels it. Then the page steps through the hand: the pass, each
trick with its four cards as they were played and the person's hand before their card, each
decision marked fine, inaccuracy or mistake with the better choice and what it was worth, and
last the points lost to decisions. A finished review is kept with the match (and beside its
saved file, by the app), so reopening it is instant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import pygame

from ai.review import DecisionReview, Review
from core.cards import card_label
from core.controller import Controller
from core.record import dumps_record
from core.rules import pass_receiver
from game.table import theme
from game.table.hand_drawing import (
    FAN,
    NAME_COLUMN,
    draw_card_row,
    draw_seat_rows,
    draw_trick_cards,
    fit_art,
    hand_page_panel,
    page_content_area,
    place_page_buttons,
)
from game.table.hand_story import HandStory, TrickStory, hand_story, trick_caption
from game.table.review_requests import TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED
from game.table.scene import Scene, register
from game.table.session import ReviewKey
from game.table.widgets import (
    Button,
    draw_close_hint,
    draw_dialog,
    draw_keys_and_close_hint,
    draw_text,
    wrap_text,
)

if TYPE_CHECKING:
    from game.table.app import App


class HandSource(Protocol):
    """A match whose finished hands a page reviews: the table's match, or a replayed one."""

    @property
    def controller(self) -> Controller:
        """Return the match."""
        ...

    @property
    def reviews(self) -> dict[ReviewKey, Review]:
        """Return the finished reviews of the match's hands, kept so they reopen at once."""
        ...

    def seat_name(self, seat: int) -> str:
        """Return the name shown for a seat."""
        ...


#: The hindsight button's label when every hand is hidden, and when shown.
HINDSIGHT_OFF = "Hindsight: show all hands"
HINDSIGHT_ON = "Hindsight: hide other hands"

#: The gap between the rows of every hand in hindsight, at the base size.
ROW_GAP = 6
#: Each seat's place in the order of play, by its row in hindsight (the first led).
ORDINALS = ("1st, led", "2nd", "3rd", "4th")

#: The colour of each class of decision.
GRADE_COLOURS = {"fine": theme.GOOD, "inaccuracy": theme.ACCENT, "mistake": theme.DANGER}
#: How each class is named on the page.
GRADE_WORDS = {"fine": "Fine", "inaccuracy": "Inaccuracy", "mistake": "Mistake"}


@dataclass(frozen=True)
class Step:
    """One step of the page: ``pass``, ``trick`` (with its number) or ``total``."""

    kind: str
    trick: int = 0

    @property
    def short(self) -> str:
        """Return the step's name on its button in the strip."""
        return {"pass": "Pass", "total": "Total"}.get(self.kind, str(self.trick))


def points(value: float) -> str:
    """Return a number of points as the page writes it: ``1.18 points``, ``1 point``."""
    return "1 point" if value == 1 else f"{value:.2f} points"


def cards_text(cards: tuple[int, ...]) -> str:
    """Return cards written with their suit symbols, separated by spaces."""
    return " ".join(card_label(card) for card in cards)


def verdict(decision: DecisionReview) -> str:
    """Return the sentence judging one decision, e.g. ``A♦ was better by 1.18 points``."""
    chosen, best = cards_text(decision.chosen), cards_text(decision.best)
    if decision.forced:
        return f"{chosen} was your only legal card"
    if decision.best == decision.chosen or decision.loss == 0:
        return f"{chosen} was the best choice found"
    if decision.kind == "pass":
        best = f"Passing {best}"
    if decision.grade == "fine":
        return f"{best} was a little better, by {points(decision.loss)}: within the search's noise"
    return f"{best} was better by {points(decision.loss)}"


def total_line(review: Review) -> str:
    """Return the last step's sentence: the points lost and the count of flagged decisions."""
    grades = [decision.grade for decision in review.decisions]
    mistakes, slips = grades.count("mistake"), grades.count("inaccuracy")
    counts = (
        f"{mistakes} mistake{'s' if mistakes != 1 else ''}, "
        f"{slips} inaccurac{'ies' if slips != 1 else 'y'}"
    )
    return f"Points lost to decisions: {review.total_loss:.2f} ({counts})"


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
        controller = source.controller
        self.story: HandStory = hand_story(controller, seat, hand)
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
            record = dumps_record(controller)
            app.reviews.submit(record, seat, hand, samples, seed)
        #: Hindsight: every hand face up on the trick steps (off until the person asks).
        self.hindsight = False
        self.hindsight_button = Button(HINDSIGHT_OFF, self.toggle_hindsight)
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
            return True
        if self.review is not None:
            buttons = [self.back_button, self.next_button, self.hindsight_button]
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
        self.back_button.enabled = self.index > 0
        self.next_button.enabled = self.index < len(self.steps) - 1

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
                self._draw_pass(surface, area)
            elif step.kind == "trick":
                self._draw_trick(surface, area, self.story.tricks[step.trick - 1])
            else:
                self._draw_total(surface, area)
            self.back_button.draw(surface)
            self.next_button.draw(surface)
            self.hindsight_button.draw(surface)
            # The keys and the close hint share the bottom line, either side of its middle.
            draw_keys_and_close_hint(
                surface,
                rect,
                "← → step   Home / End first / last   H hindsight",
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

    def _verdict_lines(
        self,
        surface: pygame.Surface,
        area: pygame.Rect,
        top: int,
        decision: DecisionReview | None,
        doing: str,
    ) -> None:
        """Write what the person did and the decision's class and better choice."""
        layout = self.app.layout
        if decision is None:
            return
        grade = decision.grade
        head = "Forced" if decision.forced else GRADE_WORDS[grade]
        colour = theme.TEXT_DIM if decision.forced else GRADE_COLOURS[grade]
        draw_text(
            surface,
            f"{head}: {doing}",
            layout.text(20),
            colour,
            bold=True,
            center=(area.centerx, top),
            max_width=area.width,
        )
        draw_text(
            surface,
            verdict(decision),
            layout.text(18),
            theme.TEXT,
            center=(area.centerx, top + round(layout.text(20) * 1.5)),
            max_width=area.width,
        )

    def _draw_pass(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Draw the hand dealt with the three cards passed marked, and the cards received."""
        layout = self.app.layout
        passing = self.story.passing
        assert passing is not None
        receiver = self.source.seat_name(pass_receiver(self.seat, passing.direction))
        px = layout.text(17)
        verdict_h = round(px * 5.5)
        art = fit_art(self.app, area, (area.height - 5 * px - verdict_h) / 1.12, len(passing.dealt))
        used = 5 * px + verdict_h + round(art.size[1] * 1.12)
        area = area.move(0, max(0, (area.height - used) // 2))
        draw_text(
            surface,
            f"Your pass to {receiver}: the hand you were dealt",
            px,
            theme.TEXT_DIM,
            center=(area.centerx, area.top + px),
            max_width=area.width,
        )
        step = min(art.size[0] * FAN, (area.width - art.size[0]) / 12)
        lift = round(art.size[1] * 0.12)
        centre = (area.centerx, area.top + 2 * px + lift + art.size[1] // 2)
        marked = {card: theme.ACCENT for card in passing.passed}
        rects = draw_card_row(surface, art, passing.dealt, centre, marked, step, area.width)
        bottom = max(rect.bottom for rect in rects)
        received = cards_text(passing.received) or "nothing"
        draw_text(
            surface,
            f"You received {received}",
            px,
            theme.TEXT,
            center=(area.centerx, bottom + round(px * 1.4)),
            max_width=area.width,
        )
        decision = self.decision(self.step)
        doing = f"you passed {cards_text(passing.passed)}"
        self._verdict_lines(surface, area, bottom + round(px * 4), decision, doing)

    def _draw_trick(self, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory) -> None:
        """Draw the trick's four cards in the order played (who led, who won) and the hand
        the person held before playing, their card marked; in hindsight, every hand instead."""
        if self.hindsight and trick.hands:
            self._draw_hindsight(surface, area, trick)
            return
        layout = self.app.layout
        px = layout.text(16)
        small = layout.text(14)
        fixed = 2 * px + round(small * 2) + round(px * 1.8) + round(px * 5)
        art = fit_art(self.app, area, (area.height - fixed) / 2.12, 13)
        used = fixed + round(art.size[1] * 2.12)
        area = area.move(0, max(0, (area.height - used) // 2))
        self._trick_caption(surface, area, trick)
        width, height = art.size
        below = draw_trick_cards(
            surface,
            self.app,
            art,
            area,
            area.top + 2 * px,
            trick.plays,
            trick.winner,
            self.name_of,
            self.seat,
        )
        top = below + round(px * 0.9)
        draw_text(
            surface,
            "Your hand before you played",
            px,
            theme.TEXT_DIM,
            center=(area.centerx, top),
            max_width=area.width,
        )
        hand = trick.hand or (trick.chosen,)
        step = min(width * FAN, (area.width - width) / max(1, len(hand) - 1))
        lift = round(height * 0.12)
        row_centre = (area.centerx, top + round(px * 0.9) + lift + height // 2)
        marked = {trick.chosen: theme.ACCENT}
        rects = draw_card_row(surface, art, hand, row_centre, marked, step, area.width)
        bottom = max(rect.bottom for rect in rects)
        self._trick_verdict(surface, area, trick, bottom + round(px * 1.6))

    def _draw_hindsight(
        self, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory
    ) -> None:
        """Draw every hand before the trick, one whole row a seat (none covers another), each
        seat's card of the trick ringed and its place in the order of play by its name."""
        layout = self.app.layout
        px = layout.text(16)
        gap = layout.px(ROW_GAP)
        fixed = 2 * px + round(px * 1.8) + round(px * 5)
        narrow = area.inflate(-2 * layout.px(NAME_COLUMN), 0)
        art = fit_art(self.app, narrow, (area.height - fixed - 3 * gap) / 4, 13)
        height = art.size[1]
        used = fixed + 4 * height + 3 * gap
        area = area.move(0, max(0, (area.height - used) // 2))
        self._trick_caption(surface, area, trick)
        top = area.top + 2 * px + round(px * 0.4)
        draw_text(
            surface,
            "Hindsight: every hand before this trick",
            px,
            theme.ACCENT,
            center=(area.centerx, top),
            max_width=area.width,
        )
        notes = ["", "", "", ""]
        for order, (seat, _) in enumerate(trick.plays):
            notes[seat] = ORDINALS[order] + (", won it" if seat == trick.winner else "")
        bottom = draw_seat_rows(
            surface,
            self.app,
            art,
            area,
            top + round(px * 0.9),
            trick.hands,
            self.seat,
            self.name_of,
            {card: theme.ACCENT for _, card in trick.plays},
            notes,
            (height + gap) / height,
        )
        self._trick_verdict(surface, area, trick, bottom + round(px * 1.6))

    def _trick_caption(self, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory) -> None:
        """Write who led the trick and who won it, at the top of ``area``."""
        layout = self.app.layout
        draw_text(
            surface,
            trick_caption(trick, self.seat, self.source.seat_name),
            layout.text(17),
            theme.TEXT_DIM,
            center=(area.centerx, area.top + layout.text(16)),
            max_width=area.width,
        )

    def _trick_verdict(
        self, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory, top: int
    ) -> None:
        """Write the verdict on the person's card of the trick from ``top``."""
        doing = f"you played {card_label(trick.chosen)}"
        self._verdict_lines(surface, area, top, self.decision(self.step), doing)

    def _draw_total(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Draw the points lost to decisions and the flagged decisions, one a line."""
        layout = self.app.layout
        review = self.review
        assert review is not None
        px = layout.text(18)
        draw_text(
            surface,
            total_line(review),
            layout.text(24),
            theme.ACCENT,
            bold=True,
            center=(area.centerx, area.top + layout.text(24)),
            max_width=area.width,
        )
        y = area.top + layout.text(24) * 3
        flagged = [d for d in review.decisions if d.grade != "fine"]
        if not flagged:
            lines = [
                (
                    "Every decision was fine: nothing the search could improve on by much.",
                    theme.GOOD,
                )
            ]
        else:
            lines = [
                (
                    f"{'Pass' if d.kind == 'pass' else f'Trick {d.trick}'}: "
                    f"{GRADE_WORDS[d.grade].lower()}, you chose {cards_text(d.chosen)}; "
                    f"{verdict(d).replace('Passing', 'passing', 1)}",
                    GRADE_COLOURS[d.grade],
                )
                for d in flagged
            ]
        lines.append(
            (
                "A loss is in points against the table's average for this hand, measured by the "
                "hard bot's search over deals consistent with what you saw.",
                theme.TEXT_DIM,
            )
        )
        line_h = round(px * 1.45)
        for text, colour in lines:
            for part in wrap_text(text, px, area.width):
                if y + line_h > area.bottom:
                    return
                draw_text(surface, part, px, colour, midleft=(area.left, y), max_width=area.width)
                y += line_h
            y += round(px * 0.3)


register("review", ReviewPage)
