"""A kept match stepped through hand by hand, every card face up: the steps, the keys and
the buttons; what each step shows is drawn by ``replay_steps``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from core.actions import PlayAction
from game.table.hand_drawing import hand_page_panel, page_content_area, place_page_buttons
from game.table.hand_story import HandStory, hand_story
from game.table.scene import Scene, register
from game.table.scenes.replays.replay import Replay
from game.table.scenes.replays.replay_steps import ReplayStep, draw_hands_step, draw_score
from game.table.widgets import Button, draw_dialog, draw_keys_and_close_hint

if TYPE_CHECKING:
    from game.table.app import App

REPLAY_KEYS_WATCHED = "← → step   ↑ ↓ hand   Home / End first / last"
REPLAY_KEYS = f"{REPLAY_KEYS_WATCHED}   R review"


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
            moves: dict[int, Callable[[], None]] = {
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
            draw_score(self, surface, area, step.hand)
        else:
            draw_hands_step(self, surface, area, story, step)
        keys = REPLAY_KEYS if self.replay.person is not None else REPLAY_KEYS_WATCHED
        draw_keys_and_close_hint(
            surface, rect, keys, layout.text(14), rect.bottom - layout.px(18), layout.px(12)
        )


register("replay", ReplayPage)
