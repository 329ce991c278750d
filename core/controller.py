"""The match controller: the one object that owns a match, for every transport.

Commands validate first and change the state only when valid; each returns a ``Result`` with
the events that happened or a specific error. Queries never change anything.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from core import events as ev
from core.actions import Action, PassAction, PlayAction
from core.cards import cards_of, parse_card, parse_cards
from core.errors import REFUSAL_REASONS, HeartsError, IllegalActionError
from core.hand import HandState, Trick
from core.match import (
    MAX_SEED,
    NO_EARLIER_HANDS,
    EarlierHands,
    HandRecord,
    MatchState,
    validate_seed,
)
from core.observation import Observation
from core.rules import RuleSet
from core.scoring import HandScore, match_winner
from core.seats import DEFAULT_SEATS, Seat, parse_seats, seat_texts

CardInput = int | str


@dataclass(frozen=True)
class Result:
    """The answer to a command: ok with its events, or an error with nothing changed."""

    ok: bool
    events: tuple[ev.Event, ...] = ()
    error: str | None = None
    #: Why it was refused, one of ``REFUSAL_REASONS``, with the rule's data (see
    #: ``IllegalActionError``): front ends word refusals from these, not from ``error``.
    reason: str | None = None
    details: Mapping[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON data."""
        data: dict[str, Any] = {"ok": self.ok, "events": [e.to_dict() for e in self.events]}
        if self.error is not None:
            data["error"] = self.error
            data["reason"] = self.reason
        return data


def refused(error: str, reason: str, **details: object) -> Result:
    """Return the result of a refused command."""
    if reason not in REFUSAL_REASONS:
        raise ValueError(f"unknown refusal reason {reason!r}")
    return Result(False, error=error, reason=reason, details=details)


def _refusal(error: HeartsError) -> Result:
    """Return the result of a command the rules engine refused with ``error``."""
    if isinstance(error, IllegalActionError):
        return refused(str(error), error.reason, **error.details)
    return refused(str(error), "bad_input")


def _card(value: CardInput) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 52:
        return value
    return parse_card(value)


def _cards(values: str | Iterable[CardInput]) -> list[int]:
    if isinstance(values, str):
        return parse_cards(values, allow_duplicates=True)
    return [_card(value) for value in values]


class Controller:
    """Owns one match: commands change it, queries read it, bots get observations of it."""

    def __init__(self) -> None:
        self._match: MatchState | None = None
        self._hand: HandState | None = None
        self._earlier_scores: list[HandScore] = []
        self._redo: list[Action] = []

    # -- commands -----------------------------------------------------------------------------

    def new_match(
        self,
        rules: RuleSet | dict[str, Any] | None = None,
        seed: int | None = None,
        seats: Sequence[str | Seat] | None = None,
    ) -> Result:
        """Start a new match (the current one, if any, is replaced)."""
        try:
            rule_set = rules if isinstance(rules, RuleSet) else RuleSet.from_dict(rules)
            match_seed = secrets.randbelow(MAX_SEED) if seed is None else validate_seed(seed)
            checked = parse_seats(DEFAULT_SEATS if seats is None else seats)
        except HeartsError as error:
            return _refusal(error)
        match = MatchState(rule_set, match_seed, checked)
        match.hands.append(match.new_hand_record())
        self._install(match, [])
        record = match.hands[0]
        started = ev.MatchStarted(match_seed, seat_texts(match.seats))
        return Result(True, (started, ev.HandStarted(1, record.direction)))

    def submit_pass(self, seat: int, cards: str | Iterable[CardInput]) -> Result:
        """Choose the three cards ``seat`` passes this hand."""
        try:
            hand = self._require_hand()
            action = PassAction(seat, tuple(_cards(cards)))
            hand.verify_pass(seat, action.cards)
        except HeartsError as error:
            return _refusal(error)
        self._redo.clear()
        return Result(True, tuple(self._apply(action)))

    def play_card(self, seat: int, card: CardInput) -> Result:
        """Play one card for ``seat``."""
        try:
            hand = self._require_hand()
            action = PlayAction(seat, _card(card))
            hand.verify_play(seat, action.card)
        except HeartsError as error:
            return _refusal(error)
        self._redo.clear()
        return Result(True, tuple(self._apply(action)))

    def undo(self) -> Result:
        """Take back the last action of the current hand."""
        if self._match is None:
            return refused("no match in progress", "no_match")
        actions = self._match.hands[-1].actions
        if not actions:
            return refused("nothing to undo in this hand", "nothing_to_undo")
        action = actions.pop()
        self._redo.append(action)
        self._hand = self._replay_current()
        return Result(True, (ev.ActionUndone(action),))

    def undo_until(self, seats: Collection[int]) -> Result:
        """Take back moves until one of ``seats`` has its last move of this hand taken back.

        The moves after it go too, so those seats decide again; with no seats given, the whole
        hand is taken back. Refused (``nothing_to_undo``) when no such move is in this hand, and
        when that move is a pass and the cards have been exchanged: the seat has seen what it
        received, and would pass again knowing it (``details["exchanged"]`` is then True).
        """
        refusal = self._undo_refusal(seats)
        if refusal is not None:
            return refusal
        actions = self._require_match().hands[-1].actions
        wanted = set(seats)
        undone: list[ev.Event] = []
        while actions:
            action = actions[-1]
            undone.extend(self.undo().events)
            if action.seat in wanted:
                break
        return Result(True, tuple(undone))

    def can_undo_until(self, seats: Collection[int]) -> bool:
        """Return whether ``undo_until(seats)`` would take something back."""
        return self._undo_refusal(seats) is None

    def _undo_refusal(self, seats: Collection[int]) -> Result | None:
        """Return why ``undo_until(seats)`` is refused now, or None when it may go ahead."""
        if self._match is None:
            return refused("no match in progress", "no_match")
        actions = self._match.hands[-1].actions
        wanted = set(seats)
        mine = [action for action in actions if action.seat in wanted]
        if not actions or (wanted and not mine):
            return refused("nothing to undo in this hand", "nothing_to_undo")
        exchanged = self._hand is not None and self._hand.phase != "pass"
        if mine and isinstance(mine[-1], PassAction) and exchanged:
            return refused(
                "a pass cannot be taken back once the cards are exchanged",
                "nothing_to_undo",
                exchanged=True,
            )
        return None

    def redo(self) -> Result:
        """Apply again the last action taken back by undo."""
        if self._match is None:
            return refused("no match in progress", "no_match")
        if not self._redo:
            return refused("nothing to redo", "nothing_to_redo")
        try:
            self._check(self._redo[-1])
        except HeartsError as error:
            refusal = _refusal(error)
            return replace(refusal, error=f"cannot redo: {error}")
        action = self._redo.pop()
        return Result(True, tuple(self._apply(action)))

    def redo_until(self, seats: Collection[int]) -> Result:
        """Apply again what undo took back until one of ``seats`` must decide again.

        The counterpart of ``undo_until``: the moves of those seats and of the others after
        them are applied again in turn, up to the next decision of one of ``seats`` (or until
        nothing is left to redo, or a move cannot be applied again). Refused when not even the
        first move can be applied again.
        """
        wanted = set(seats)
        done: list[ev.Event] = []
        while True:
            result = self.redo()
            if not result.ok:
                return result if not done else Result(True, tuple(done))
            done.extend(result.events)
            if not self.can_redo or wanted & set(self.seats_to_act):
                return Result(True, tuple(done))

    def next_hand(self) -> Result:
        """Deal the next hand once the current one is over."""
        if self._match is None or self._hand is None:
            return refused("no match in progress", "no_match")
        if self._hand.phase != "done":
            return refused("the current hand is not over yet", "hand_not_over")
        if self.winner is not None:
            return refused("the match is over", "match_over")
        self._earlier_scores.append(self._hand.score(self._totals_before_current()))
        record = self._match.new_hand_record()
        self._match.hands.append(record)
        self._hand = HandState.new(self._match.rules, record.direction, record.deal)
        self._redo.clear()
        return Result(True, (ev.HandStarted(self.hand_number, record.direction),))

    # -- replay -------------------------------------------------------------------------------

    @classmethod
    def from_match(cls, match: MatchState) -> Controller:
        """Rebuild a controller by replaying a match; raise HeartsError if it is not legal."""
        validate_seed(match.seed)
        parse_seats(match.seats)
        if not match.hands:
            raise HeartsError("a match has at least one hand")
        controller = cls()
        replayed = MatchState(match.rules, match.seed, match.seats, earlier=match.earlier)
        for index, record in enumerate(match.hands):
            number = match.earlier.count + index + 1
            if index > 0:
                result = controller.next_hand()
                if not result.ok:
                    raise HeartsError(f"hand {number} cannot be dealt: {result.error}")
            else:
                replayed.hands.append(HandRecord(record.deal, record.direction))
                controller._install(replayed, [])
            current = replayed.hands[-1]
            if (current.deal, current.direction) != (record.deal, record.direction):
                raise HeartsError(f"hand {number}: the deal or pass direction does not match")
            for step, action in enumerate(record.actions, start=1):
                try:
                    controller._check(action)
                except IllegalActionError as error:
                    raise HeartsError(f"hand {number}, action {step}: {error}") from None
                controller._apply(action)
        return controller

    # -- queries ------------------------------------------------------------------------------

    @property
    def match(self) -> MatchState | None:
        """Return the match data (read it, do not change it), or None."""
        return self._match

    @property
    def rules(self) -> RuleSet:
        """Return the rules of the match in progress."""
        return self._require_match().rules

    @property
    def phase(self) -> str:
        """Return ``no_match``, ``pass``, ``play``, ``hand_over`` or ``match_over``."""
        if self._hand is None:
            return "no_match"
        if self._hand.phase != "done":
            return self._hand.phase
        return "match_over" if self.winner is not None else "hand_over"

    @property
    def hand_number(self) -> int:
        """Return the 1-based number of the current hand (0 with no match)."""
        return self._match.earlier.count + len(self._match.hands) if self._match else 0

    @property
    def pass_direction(self) -> str:
        """Return the pass direction of the current hand."""
        return self._require_hand().direction

    @property
    def seats(self) -> tuple[Seat, Seat, Seat, Seat]:
        """Return who plays each seat."""
        return self._require_match().seats

    @property
    def seats_to_act(self) -> list[int]:
        """Return the seats that must act now: all that still pass, or the one to play."""
        if self._hand is None:
            return []
        if self._hand.phase == "pass":
            return self._hand.seats_to_pass
        turn = self._hand.turn
        return [] if turn is None else [turn]

    @property
    def can_undo(self) -> bool:
        """Return whether the current hand has an action to take back."""
        return bool(self._match and self._match.hands[-1].actions)

    @property
    def can_redo(self) -> bool:
        """Return whether an undone action can be applied again."""
        return bool(self._redo)

    @property
    def redo_actions(self) -> list[Action]:
        """Return the actions redo would apply, the next one last."""
        return list(self._redo)

    def set_redo_actions(self, actions: Sequence[Action]) -> None:
        """Restore the redo list (as saved in a record); each is checked when it is redone."""
        self._redo = list(actions)

    def legal_cards(self, seat: int) -> list[int]:
        """Return the cards ``seat`` may play now (empty when it is not its turn)."""
        return cards_of(self._hand.legal_mask(seat)) if self._hand else []

    def hand(self, seat: int) -> list[int]:
        """Return the cards ``seat`` holds now."""
        return cards_of(self._require_hand().hands[seat])

    def pass_choice(self, seat: int) -> tuple[int, ...] | None:
        """Return the cards ``seat`` chose to pass this hand, if it has."""
        return self._require_hand().pass_choices[seat]

    @property
    def current_trick(self) -> Trick | None:
        """Return a copy of the open trick, or None."""
        trick = self._require_hand().current_trick
        return trick.copy() if trick else None

    @property
    def last_trick(self) -> Trick | None:
        """Return a copy of the last completed trick of this hand, or None."""
        done = self._require_hand().completed_tricks
        return done[-1].copy() if done else None

    @property
    def tricks(self) -> list[Trick]:
        """Return copies of this hand's tricks, completed ones first."""
        return [trick.copy() for trick in self._require_hand().tricks]

    @property
    def hearts_broken(self) -> bool:
        """Return whether hearts have been broken this hand."""
        return self._require_hand().hearts_broken

    @property
    def hand_points(self) -> list[int]:
        """Return the points each seat has taken in tricks this hand (before moon scoring)."""
        return self._require_hand().taken_points()

    @property
    def hand_scores(self) -> list[HandScore]:
        """Return the scores of every finished hand, the current one included once done.

        Hands folded into ``match.earlier`` by a long match's record are not among them.
        """
        scores = list(self._earlier_scores)
        if self._hand is not None and self._hand.phase == "done":
            scores.append(self._hand.score(self._totals_before_current()))
        return scores

    @property
    def totals(self) -> tuple[int, int, int, int]:
        """Return the match totals, including the current hand once it is over."""
        totals = list(self._earlier().totals)
        for score in self.hand_scores:
            for seat in range(4):
                totals[seat] += score.points[seat]
        return totals[0], totals[1], totals[2], totals[3]

    @property
    def winner(self) -> int | None:
        """Return the winning seat once the match is over, else None."""
        if self._hand is None or self._hand.phase != "done":
            return None
        return match_winner(self.totals, self._require_match().rules.end_score)

    def observation(self, seat: int) -> Observation:
        """Return what ``seat`` may know — the only input a bot or external program gets."""
        return self._require_hand().observation(seat, self._totals_before_current())

    # -- internals ----------------------------------------------------------------------------

    def _require_match(self) -> MatchState:
        if self._match is None:
            raise IllegalActionError("no match in progress", "no_match")
        return self._match

    def _require_hand(self) -> HandState:
        if self._hand is None:
            raise IllegalActionError("no match in progress", "no_match")
        return self._hand

    def _install(self, match: MatchState, earlier: list[HandScore]) -> None:
        self._match = match
        self._earlier_scores = earlier
        self._redo = []
        self._hand = self._replay_current()

    def _earlier(self) -> EarlierHands:
        return self._match.earlier if self._match else NO_EARLIER_HANDS

    def _totals_before_current(self) -> list[int]:
        totals = list(self._earlier().totals)
        for score in self._earlier_scores:
            for seat in range(4):
                totals[seat] += score.points[seat]
        return totals

    def _replay_current(self) -> HandState:
        match = self._require_match()
        record = match.hands[-1]
        hand = HandState.new(match.rules, record.direction, record.deal)
        for action in record.actions:
            if isinstance(action, PassAction):
                hand.submit_pass(action.seat, action.cards)
            else:
                hand.play(action.seat, action.card)
        return hand

    def _check(self, action: Action) -> None:
        hand = self._require_hand()
        if isinstance(action, PassAction):
            hand.verify_pass(action.seat, action.cards)
        else:
            hand.verify_play(action.seat, action.card)

    def _apply(self, action: Action) -> list[ev.Event]:
        """Apply an action already verified, record it, and add end-of-hand events."""
        hand = self._require_hand()
        match = self._require_match()
        if isinstance(action, PassAction):
            events = hand.submit_pass(action.seat, action.cards)
        else:
            events = hand.play(action.seat, action.card)
        match.hands[-1].actions.append(action)
        if hand.phase == "done":
            score = hand.score(self._totals_before_current())
            totals = self.totals
            events.append(ev.HandScored(score.points, totals, score.moon_shooter))
            winner = self.winner
            if winner is not None:
                events.append(ev.MatchOver(winner, totals))
        return events
