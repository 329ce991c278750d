"""The replays: the list of finished matches kept, and a kept match stepped through.

The list (a title menu entry) shows when each match ended, who played it and the result,
newest first; ↑ ↓ choose one, Enter or a click opens it. The replay steps through every hand
with all four hands face up: the deal, the passes, each trick, the score; ← → step (across
hands), ↑ ↓ go to the previous or next hand, Home / End to the first or last step of the hand,
a click on the strip to a step. R (or its button) reviews the person's decisions in the hand
shown, with the same page as at the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

import pygame

from ai.registry import seat_player_names
from ai.review import Review
from core.actions import PlayAction
from core.cards import mask_of
from core.controller import Controller
from core.kernel import trick_points
from core.rules import pass_receiver
from game.table import theme
from game.table.hand_drawing import (
    NAME_COLUMN,
    ROW_PITCH,
    TIGHT_FAN,
    draw_seat_rows,
    draw_trick_cards,
    fit_art,
    hand_page_panel,
    page_content_area,
    place_page_buttons,
)
from game.table.hand_story import HandStory, hand_story, trick_caption
from game.table.hover import HoverGate
from game.table.scene import Scene, register
from game.table.scenes.table import seat_label
from game.table.session import ReviewKey
from game.table.store.replays import ReplayEntry, list_replays, load_replay
from game.table.widgets import (
    Button,
    centred_rect,
    draw_dialog,
    draw_keys_and_close_hint,
    draw_panel,
    draw_text,
)

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
REPLAY_KEYS_WATCHED = "← → step   ↑ ↓ hand   Home / End first / last"
REPLAY_KEYS = f"{REPLAY_KEYS_WATCHED}   R review"


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


@dataclass
class Replay:
    """A kept match opened to replay: its controller, who played each seat, its reviews."""

    controller: Controller
    person: str | None
    players: dict[int, str]
    reviews: dict[ReviewKey, Review] = field(default_factory=dict)

    @classmethod
    def of(cls, controller: Controller, person_name: str) -> Replay:
        """Return the replay of a finished match; seat 0 is ``person_name`` if a person played."""
        person = person_name if controller.seats[0].is_human else None
        return cls(controller, person, seat_player_names(controller.seats, "bot"))

    def seat_name(self, seat: int) -> str:
        """Return the name shown for a seat."""
        player = self.players.get(seat, "")
        return seat_label(seat, "program" if player.startswith("engine:") else player, self.person)

    def short_name(self, seat: int) -> str:
        """Return a seat's name without its player: the person's name, or the seat's
        ("West"), as the table says whom a pass goes to."""
        return seat_label(seat, "", self.person)


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


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: a hand's ``deal``, ``pass``, ``trick`` (with its number) or
    ``score``."""

    hand: int
    kind: str
    trick: int = 0

    @property
    def short(self) -> str:
        """Return the step's name on its button in the strip."""
        names = {"deal": "Deal", "pass": "Pass", "score": "Score"}
        return names.get(self.kind, str(self.trick))


class ReplayPage(Scene):
    """A kept match, stepped through hand by hand with every card face up."""

    overlay = True

    def __init__(self, app: App, replay: Replay, ended: str) -> None:
        super().__init__(app)
        self.replay = replay
        self.ended = ended
        controller = replay.controller
        match = controller.match
        assert match is not None
        self.first_hand = match.earlier.count + 1
        self.hands = len(match.hands)
        self.stories: dict[int, HandStory] = {}
        self.steps: list[ReplayStep] = []
        for hand in range(self.first_hand, self.first_hand + self.hands):
            record = match.hands[hand - self.first_hand]
            tricks = sum(isinstance(action, PlayAction) for action in record.actions) // 4
            self.steps.append(ReplayStep(hand, "deal"))
            if record.direction != "hold":
                self.steps.append(ReplayStep(hand, "pass"))
            self.steps += [ReplayStep(hand, "trick", number) for number in range(1, tricks + 1)]
            self.steps.append(ReplayStep(hand, "score"))
        self.index = 0
        self.back_button = Button("‹ Previous", lambda: self.go(self.index - 1))
        self.next_button = Button("Next ›", lambda: self.go(self.index + 1), primary=True)
        self.review_button = Button("Review this hand", self.review)
        self.step_buttons: list[Button] = []
        self._strip_hand = 0

    # -- state ----------------------------------------------------------------------------

    @property
    def step(self) -> ReplayStep:
        """Return the step shown."""
        return self.steps[self.index]

    def story(self, hand: int) -> HandStory:
        """Return a hand's story (read from the record once)."""
        if hand not in self.stories:
            self.stories[hand] = hand_story(self.replay.controller, 0, hand)
        return self.stories[hand]

    def go(self, index: int) -> None:
        """Show step ``index``, kept within the match."""
        self.index = max(0, min(index, len(self.steps) - 1))

    def go_hand(self, hand: int) -> None:
        """Show the deal of hand ``hand``, kept within the match."""
        hand = max(self.first_hand, min(hand, self.first_hand + self.hands - 1))
        self.go(self.steps.index(ReplayStep(hand, "deal")))

    def hand_steps(self) -> list[int]:
        """Return the indexes of the steps of the hand shown."""
        hand = self.step.hand
        return [index for index, step in enumerate(self.steps) if step.hand == hand]

    def review(self) -> None:
        """Review the person's decisions in the hand shown (only in a match a person played)."""
        if self.replay.person is not None:
            self.app.push_scene("review", self.replay, self.step.hand, 0)

    # -- input ----------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> bool:
        """← → step, ↑ ↓ change hand, Home / End go to the hand's ends, R reviews, Esc
        closes; clicks on the buttons act, a click outside the panel closes."""
        if event.type == pygame.KEYDOWN:
            own = self.hand_steps()
            moves = {
                pygame.K_LEFT: lambda: self.go(self.index - 1),
                pygame.K_RIGHT: lambda: self.go(self.index + 1),
                pygame.K_SPACE: lambda: self.go(self.index + 1),
                pygame.K_UP: lambda: self.go_hand(self.step.hand - 1),
                pygame.K_PAGEUP: lambda: self.go_hand(self.step.hand - 1),
                pygame.K_DOWN: lambda: self.go_hand(self.step.hand + 1),
                pygame.K_PAGEDOWN: lambda: self.go_hand(self.step.hand + 1),
                pygame.K_HOME: lambda: self.go(own[0]),
                pygame.K_END: lambda: self.go(own[-1]),
                pygame.K_r: self.review,
                pygame.K_ESCAPE: lambda: self.app.close_scene(self),
            }
            action = moves.get(event.key)
            if action is not None:
                action()
            return True
        buttons = [self.back_button, self.next_button, *self.step_buttons]
        if self.replay.person is not None:
            buttons.append(self.review_button)
        for button in buttons:
            if button.handle(event):
                return True
        if (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            and not self.panel().collidepoint(event.pos)
        ):
            self.app.close_scene(self)
        return True

    # -- geometry -------------------------------------------------------------------------

    def panel(self) -> pygame.Rect:
        """Return the page's panel: nearly all the window, as the review page's."""
        return hand_page_panel(self.app.layout)

    def _place_buttons(self, rect: pygame.Rect) -> None:
        """Place the strip of the hand's steps under the title and the buttons at the bottom."""
        layout = self.app.layout
        own = self.hand_steps()
        if self._strip_hand != self.step.hand or len(self.step_buttons) != len(own):
            self._strip_hand = self.step.hand
            self.step_buttons = [
                Button(self.steps[index].short, lambda index=index: self.go(index))  # type: ignore[misc]
                for index in own
            ]
        place_page_buttons(
            layout,
            rect,
            self.step_buttons,
            self.back_button,
            self.next_button,
            self.review_button,
            260,
            72,
        )
        for index, button in zip(own, self.step_buttons, strict=True):
            button.primary = index == self.index
        self.back_button.enabled = self.index > 0
        self.next_button.enabled = self.index < len(self.steps) - 1

    # -- drawing --------------------------------------------------------------------------

    def frame_due_in(self) -> float | None:
        """Nothing moves by itself."""
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the panel with the strip, the step shown and the buttons."""
        layout = self.app.layout
        rect = self.panel()
        step = self.step
        title = f"Replay of {self.ended}: hand {step.hand} of {self.first_hand + self.hands - 1}"
        draw_dialog(surface, rect, title, layout.text(26), layout.px(32))
        self._place_buttons(rect)
        for button in self.step_buttons:
            button.draw(surface)
        self.back_button.draw(surface)
        self.next_button.draw(surface)
        if self.replay.person is not None:
            self.review_button.draw(surface)
        area = page_content_area(layout, rect, self.step_buttons, self.back_button)
        story = self.story(step.hand)
        if step.kind == "score":
            self._draw_score(surface, area, step.hand)
        else:
            self._draw_hands_step(surface, area, story, step)
        keys = REPLAY_KEYS if self.replay.person is not None else REPLAY_KEYS_WATCHED
        draw_keys_and_close_hint(
            surface, rect, keys, layout.text(14), rect.bottom - layout.px(18), layout.px(12)
        )

    def totals_before(self, hand: int) -> list[int]:
        """Return every seat's total before hand ``hand``."""
        controller = self.replay.controller
        match = controller.match
        assert match is not None
        totals = list(match.earlier.totals)
        for score in controller.hand_scores[: hand - self.first_hand]:
            for seat in range(4):
                totals[seat] += score.points[seat]
        return totals

    def _draw_hands_step(
        self, surface: pygame.Surface, area: pygame.Rect, story: HandStory, step: ReplayStep
    ) -> None:
        """Draw a deal, the passes or a trick: a caption, the trick's cards for a trick, and
        every hand below, with the cards that move ringed."""
        layout = self.app.layout
        px = layout.text(17)
        small = layout.text(14)
        trick = story.tricks[step.trick - 1] if step.kind == "trick" else None
        fixed = 2 * px + (round(small * 2) + round(px * 0.9) if trick is not None else 0)
        rows = 1 + ROW_PITCH * 3 + (1.0 if trick is not None else 0.0)
        narrow = area.inflate(-2 * layout.px(NAME_COLUMN), 0)
        # A little room is kept around the rows, so the page never looks crammed.
        art = fit_art(self.app, narrow, 0.85 * (area.height - fixed) / rows, 13, TIGHT_FAN)
        used = fixed + round(art.size[1] * rows)
        area = area.move(0, max(0, (area.height - used) // 2))
        name_of = self.replay.seat_name
        totals = self.totals_before(step.hand)
        notes = [f"{totals[seat]} before" for seat in range(4)]
        hands: tuple[tuple[int, ...], ...] = story.deal
        ringed: dict[int, tuple[int, int, int]] = {}
        if step.kind == "deal":
            where = "no passing" if story.direction == "hold" else f"passing {story.direction}"
            caption = f"Hand {step.hand}: the deal ({where})"
        elif step.kind == "pass":
            caption = f"Hand {step.hand}: each passes the ringed cards {story.direction}"
            ringed = {card: theme.ACCENT for cards in story.passes for card in cards}
            to = self.replay.short_name
            notes = [f"to {to(pass_receiver(seat, story.direction))}" for seat in range(4)]
        else:
            assert trick is not None
            caption = trick_caption(trick, -1, name_of)
            hands = trick.hands
            ringed = {card: theme.ACCENT for _, card in trick.plays}
            taken = self._points_taken(story, step.trick - 1)
            notes = [f"{taken[seat]} taken" for seat in range(4)]
        draw_text(
            surface,
            caption,
            px,
            theme.TEXT_DIM,
            center=(area.centerx, area.top + px),
            max_width=area.width,
        )
        top = area.top + 2 * px
        if trick is not None:
            top = draw_trick_cards(
                surface, self.app, art, area, top, trick.plays, trick.winner, name_of
            )
            top += round(px * 0.9)
        draw_seat_rows(surface, self.app, art, area, top, hands, 0, name_of, ringed, notes)

    def _points_taken(self, story: HandStory, tricks: int) -> list[int]:
        """Return the points each seat took in the hand's first ``tricks`` tricks."""
        taken = [0, 0, 0, 0]
        flags = self.replay.controller.rules.flags
        for trick in story.tricks[:tricks]:
            taken[trick.winner] += trick_points(mask_of(card for _, card in trick.plays), flags)
        return taken

    def _draw_score(self, surface: pygame.Surface, area: pygame.Rect, hand: int) -> None:
        """Draw the hand's points and every seat's total after it."""
        layout = self.app.layout
        controller = self.replay.controller
        score = controller.hand_scores[hand - self.first_hand]
        before = self.totals_before(hand)
        px = layout.text(20)
        line_h = round(px * 1.8)
        y = area.top + px
        draw_text(
            surface,
            f"Hand {hand} scored",
            layout.text(24),
            theme.ACCENT,
            bold=True,
            center=(area.centerx, y),
            max_width=area.width,
        )
        y += line_h * 2
        columns = (0.25, 0.55, 0.75)
        for share, word in zip(columns, ("", "This hand", "Total"), strict=True):
            left = round(area.left + area.width * share)
            draw_text(surface, word, px, theme.TEXT_DIM, midleft=(left, y))
        for seat in range(4):
            y += line_h
            points = score.points[seat]
            cells = (
                self.replay.seat_name(seat),
                f"{points:+d}" if points else "0",
                str(before[seat] + points),
            )
            for share, text in zip(columns, cells, strict=True):
                draw_text(
                    surface,
                    text,
                    px,
                    theme.TEXT,
                    bold=seat == score.moon_shooter,
                    midleft=(round(area.left + area.width * share), y),
                    max_width=round(area.width * 0.28),
                )
        if score.moon_shooter is not None:
            y += round(line_h * 1.5)
            draw_text(
                surface,
                f"{self.replay.seat_name(score.moon_shooter)} shot the moon",
                px,
                theme.ACCENT,
                center=(area.centerx, y),
                max_width=area.width,
            )


register("replays", ReplayList)
register("replay", ReplayPage)
