"""The real table playing by itself: the person's seat is played by a bot through the screen.

Used to take screenshots, to check a build renders and plays, and by benchmarks. Moves go
through the table screen's own commands (choose, pass, play, next hand), exactly as clicks
would, and frames are drawn as in the game.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ai.easy import EasyBot
from core.rules import RuleSet
from game.table.app import App
from game.table.match.port import HUMAN_SEAT
from game.table.scenes.match_result import MatchOverScene
from game.table.scenes.summary import HandSummary
from game.table.scenes.table import TableScene
from game.table.session import TableSession

FRAME_DT = 1 / 60


class ScriptedTable:
    """Plays a match at ``app``'s table, the person's moves chosen by a seeded easy bot."""

    def __init__(
        self, app: App, seed: int = 1, paced: bool = False, rules: RuleSet | None = None
    ) -> None:
        self.app = app
        #: With ``paced``, frames run at most 60 a second on the real clock, as in the game
        #: (the bots then get the processor time they would have); else as fast as possible.
        self.clock = pygame.time.Clock() if paced else None
        self.bot = EasyBot(seed)
        settings = app.settings
        session = TableSession.new_match(
            app.bots,
            settings.opponents,
            settings.rules if rules is None else rules,
            seed=seed,
            limit_ms=app.think.limit_ms,
        )
        #: The match being played (the local one: its bot reads the person's observation).
        self.session = session
        self.scene = TableScene(app, session)
        app.show_only(self.scene)
        self.frames = 0

    def person_ready(self) -> bool:
        """Return whether the person must act, the table has shown everything so far and
        nothing covers it (a moment, say: input would go there)."""
        session = self.session
        waiting = session.person_must_pass or session.person_must_play
        on_top = self.app.top_scene() is self.scene
        return waiting and on_top and self.scene.view.idle and not session.has_ready_move()

    def choose_pass(self) -> None:
        """Pick the bot's three cards to pass (shown lifted; not yet passed)."""
        observation = self.session.controller.observation(HUMAN_SEAT)
        self.scene.selected = list(self.bot.choose_pass(observation))

    def act(self) -> None:
        """Make the person's move now: pass the chosen (or the bot's) cards, or play a card."""
        scene = self.scene
        if self.session.person_must_pass:
            if len(scene.selected) != 3:
                self.choose_pass()
            scene.controls.pass_selected()
        elif self.session.person_must_play:
            observation = self.session.controller.observation(HUMAN_SEAT)
            scene.controls.play(self.bot.choose_play(observation))

    def run_until(
        self,
        done: Callable[[], bool],
        max_frames: int = 20_000,
        act: bool = True,
        dt: float = FRAME_DT,
    ) -> bool:
        """Run frames (the person moving when ``act``) until ``done()``; False at the cap."""
        for _ in range(max_frames):
            if done():
                return True
            if act and self.person_ready():
                self.act()
            if self.clock is not None:
                dt = self.clock.tick(60) / 1000
            self.app.step(dt)
            self.frames += 1
        return done()

    # -- moments worth a picture ----------------------------------------------------------

    def at_passing(self) -> bool:
        """Run to the pass of the first hand with three cards chosen (hold hands have none)."""
        reached = self.run_until(
            lambda: self.person_ready() and self.session.person_must_pass, act=False
        )
        if reached:
            self.choose_pass()
            self.run_until(lambda: False, max_frames=20, act=False)
        return reached

    def at_mid_trick(self, cards_on_table: int = 3) -> bool:
        """Run to a trick with this many cards on the table, waiting for the person."""
        shown = self.scene.view.shown
        return self.run_until(
            lambda: (
                self.person_ready()
                and self.session.person_must_play
                and len(shown.trick) == cards_on_table
                and len(shown.hand) < 12
            )
        )

    def at_summary(self, max_frames: int = 20_000) -> bool:
        """Run to the end of the hand, its summary on screen."""
        reached = self.run_until(
            lambda: isinstance(self.app.top_scene(), HandSummary), max_frames=max_frames
        )
        if reached:
            self.run_until(lambda: False, max_frames=10, act=False)
        return reached

    def at_hint(self, choices: int = 4) -> bool:
        """Run to a play of the person's with at least ``choices`` legal cards, ask for a hint
        and wait until it is shown."""
        session = self.session
        if not self.run_until(
            lambda: (
                self.person_ready()
                and session.person_must_play
                and len(session.legal_cards()) >= choices
            )
        ):
            return False
        self.scene.controls.hint()
        reached = self.run_until(lambda: self.session.hint is not None, act=False)
        self.run_until(lambda: False, max_frames=10, act=False)
        return reached

    def at_match_over(self) -> bool:
        """Play hands to the end of the match, its result on screen."""
        for _ in range(60):
            if self.run_until(
                lambda: self.match_over() or isinstance(self.app.top_scene(), HandSummary)
            ):
                if self.match_over():
                    self.run_until(lambda: False, max_frames=10, act=False)
                    return True
                self.next_hand()
        return False

    def next_hand(self) -> None:
        """Close a hand summary on screen and deal the next hand."""
        top = self.app.top_scene()
        if isinstance(top, HandSummary):
            top.go_on()

    def match_over(self) -> bool:
        """Return whether the match result is on screen."""
        return isinstance(self.app.top_scene(), MatchOverScene)
