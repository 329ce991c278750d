"""The loop that lets bots move for their seats until a person must act or the hand is over.

The one owner of "bots play": the front ends drive a ``Controller`` with ``play_bots``, the
tournament a bare ``HandState`` with ``play_hand_bots``, and the reliability benchmark checks
every move through the same loop's ``after_move`` hook.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from ai.bot import Bot
from core import events as ev
from core.controller import Controller
from core.errors import HeartsError
from core.hand import HandState
from core.observation import Observation

#: Called after every bot move with the seat that moved and how long its bot took, in ms.
AfterMove = Callable[[int, float], None]
#: Called with the seat after its bot decided: events to report before the move's own.
Notes = Callable[[int], Sequence[ev.Event]]


class BotError(RuntimeError):
    """A bot chose a move the rules refuse; a bug in that bot, never in the player's input."""


class BotTable(Protocol):
    """What the loop needs of a hand in progress: who acts, what they see, and the moves."""

    def seats_to_act(self) -> Sequence[int]:
        """Return the seats that must act now, in order (none once the hand is over)."""
        ...

    def passing(self) -> bool:
        """Return whether the seats to act choose cards to pass (else they play)."""
        ...

    def observation(self, seat: int) -> Observation:
        """Return what ``seat`` may see."""
        ...

    def move(self, seat: int, choice: tuple[int, int, int] | int) -> list[ev.Event]:
        """Apply a pass (three cards) or a play (one card); raise BotError if refused."""
        ...


class ControllerTable:
    """A match's current hand, through its controller."""

    def __init__(self, controller: Controller) -> None:
        self.controller = controller

    def seats_to_act(self) -> Sequence[int]:
        """Return the seats that must act now."""
        return self.controller.seats_to_act

    def passing(self) -> bool:
        """Return whether the hand is in its pass."""
        return self.controller.phase == "pass"

    def observation(self, seat: int) -> Observation:
        """Return what ``seat`` may see."""
        return self.controller.observation(seat)

    def move(self, seat: int, choice: tuple[int, int, int] | int) -> list[ev.Event]:
        """Submit the pass or play the card; raise BotError if the controller refuses it."""
        if isinstance(choice, int):
            result = self.controller.play_card(seat, choice)
        else:
            result = self.controller.submit_pass(seat, choice)
        if not result.ok:
            raise BotError(f"the bot at seat {seat} chose an illegal move: {result.error}")
        return list(result.events)


class HandTable:
    """A bare hand (no match around it), scored against ``scores``, as tournaments play it."""

    def __init__(self, hand: HandState, scores: Sequence[int] = (0, 0, 0, 0)) -> None:
        self.hand = hand
        self.scores = scores

    def seats_to_act(self) -> Sequence[int]:
        """Return the seats that must act now."""
        if self.hand.phase == "pass":
            return self.hand.seats_to_pass
        turn = self.hand.turn
        return [] if turn is None else [turn]

    def passing(self) -> bool:
        """Return whether the hand is in its pass."""
        return self.hand.phase == "pass"

    def observation(self, seat: int) -> Observation:
        """Return what ``seat`` may see."""
        return self.hand.observation(seat, self.scores)

    def move(self, seat: int, choice: tuple[int, int, int] | int) -> list[ev.Event]:
        """Submit the pass or play the card; raise BotError if the rules refuse it."""
        try:
            if isinstance(choice, int):
                return self.hand.play(seat, choice)
            return self.hand.submit_pass(seat, choice)
        except HeartsError as error:
            raise BotError(f"the bot at seat {seat} chose an illegal move: {error}") from None


def run_bots(
    table: BotTable,
    bots: Mapping[int, Bot],
    after_move: AfterMove | None = None,
    notes: Notes | None = None,
) -> list[ev.Event]:
    """Let the bots move while any seat that must act is theirs; return what happened.

    Stops when a seat without a bot must act or the hand is over. Raises BotError if a bot
    picks a move the rules refuse (the moves before it stay applied). ``after_move`` is called
    after every move with the seat and its bot's thinking time in ms. ``notes(seat)``, when
    given, adds what there is to say about the seat's decision (e.g. an engine's problem)
    before the events of its move.
    """
    happened: list[ev.Event] = []
    while True:
        waiting = [seat for seat in table.seats_to_act() if seat in bots]
        if not waiting:
            return happened
        seat = waiting[0]
        observation = table.observation(seat)
        start = time.perf_counter()
        choice: tuple[int, int, int] | int
        if table.passing():
            choice = bots[seat].choose_pass(observation)
        else:
            choice = bots[seat].choose_play(observation)
        elapsed_ms = (time.perf_counter() - start) * 1000
        if notes is not None:
            happened.extend(notes(seat))
        happened.extend(table.move(seat, choice))
        if after_move is not None:
            after_move(seat, elapsed_ms)


def play_bots(
    controller: Controller,
    bots: Mapping[int, Bot],
    after_move: AfterMove | None = None,
    notes: Notes | None = None,
) -> list[ev.Event]:
    """Let the bots move for their seats of a match (``run_bots`` on its current hand)."""
    return run_bots(ControllerTable(controller), bots, after_move, notes)


def play_hand_bots(
    hand: HandState,
    bots: Mapping[int, Bot],
    scores: Sequence[int] = (0, 0, 0, 0),
    after_move: AfterMove | None = None,
) -> list[ev.Event]:
    """Let the bots move for their seats of a bare hand (``run_bots`` on ``hand``)."""
    return run_bots(HandTable(hand, scores), bots, after_move)
