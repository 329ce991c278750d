"""One match at the table: the controller, the person's commands and the bots' requests.

Nothing here draws or waits. The table calls ``update`` once a frame: it submits a request for
every bot seat that must act and has none in flight, and collects the answers that came back.
An answer is applied only when the table says the previous move has been shown
(``apply_ready``), and only while the position it was asked about is still the current one:
after an undo or a new match the old answers are dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ai.review import Review
from ai.think import Decision
from core import events as ev
from core.cards import POINT_CARDS_MASK, mask_of
from core.controller import Controller, Result
from core.hand import Trick
from core.record import dumps_record
from core.rules import RuleSet
from game.table.bot_requests import AsyncBots, InlineBots
from game.table.hint_requests import AsyncHints, HintDesk, InlineHints, ThreadHints
from game.table.match.port import (
    HUMAN_SEAT,
    Hint,
    MatchSheet,
    Play,
    ReviewKey,
    SeatView,
    action_cards,
)
from game.table.match_sheet import match_sheet
from game.table.try_again import TryAgain

__all__ = ["TableSession"]


@dataclass(frozen=True)
class _Request:
    seat: int
    stamp: tuple[int, int]


class TableSession:
    """A match in progress at the table, with bots at every seat but the person's: the local
    ``TableMatch`` (``game.table.match.port``), a controller and the bot worker.

    ``bot_names[seat]`` names the bot of each bot seat; the person's seat has none (in watch
    mode every seat has one). ``limit_ms`` is the bots' think time per decision. ``hints``
    answers the person's hints (``game.table.hint_requests``: the review's own search); by
    default they are answered as the bots are, in a thread, or inline with ``InlineBots``.
    """

    def __init__(
        self,
        controller: Controller,
        bot_names: dict[int, str],
        bots: AsyncBots,
        limit_ms: float | None = None,
        hints: AsyncHints | None = None,
    ) -> None:
        self.controller = controller
        self.bot_names = dict(bot_names)
        self.bots = bots
        self.limit_ms = limit_ms
        if hints is None:
            hints = InlineHints() if isinstance(bots, InlineBots) else ThreadHints()
        self.hints = HintDesk(hints)
        self._requests: dict[int, _Request] = {}
        self._ready: dict[int, Decision] = {}
        self.events: list[ev.Event] = []
        #: The finished reviews of this match's hands, by hand, seat, samples and seed, so a
        #: review reopens at once (the app also keeps them beside the saved game).
        self.reviews: dict[ReviewKey, Review] = {}
        #: How many reviews the reviews file beside the saved game holds.
        self.reviews_saved = 0
        self._view: tuple[object, object, SeatView] | None = None
        self._sheet: tuple[object, object, MatchSheet] | None = None
        #: Whether this is a hand tried again (``LocalMatches.practice``): kept nowhere.
        self.practice = False

    @classmethod
    def new_match(
        cls,
        bots: AsyncBots,
        opponents: Sequence[str],
        rules: RuleSet | None = None,
        seed: int | None = None,
        limit_ms: float | None = None,
        watch: bool = False,
    ) -> TableSession:
        """Start a match: the person at seat 0 (a bot too in watch mode), bots elsewhere."""
        names = dict(zip((1, 2, 3), opponents, strict=False))
        if watch:
            names[HUMAN_SEAT] = opponents[0]
        seats = [f"bot:{names[seat]}" if seat in names else "human" for seat in range(4)]
        controller = Controller()
        result = controller.new_match(rules, seed, seats)
        if not result.ok:
            raise ValueError(result.error)
        session = cls(controller, names, bots, limit_ms)
        session.events.extend(session._seen(result).events)
        return session

    @classmethod
    def practice_of(
        cls, again: TryAgain, names: dict[int, str], bots: AsyncBots, limit_ms: float | None
    ) -> TableSession:
        """Return a practice match (kept nowhere) standing where ``again`` stands."""
        session = cls(again.controller, names, bots, limit_ms)
        session.practice = True
        return session

    # -- what the table reads -------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        """Return what changes whenever the match does (a move, an undo, a redo, a deal)."""
        controller = self.controller
        return (self._stamp(), len(controller.redo_actions), controller.phase)

    def view(self) -> SeatView:
        """Return what seat 0 sees now, made again only when the match has changed."""
        match, key = self.controller.match, self._key()
        cached = self._view
        if cached is None or cached[0] is not match or cached[1] != key:
            self._view = cached = (match, key, self._make_view())
        return cached[2]

    def sheet(self) -> MatchSheet:
        """Return the match's scores and rules, made again only when the match has changed."""
        match, key = self.controller.match, self._key()
        cached = self._sheet
        if cached is None or cached[0] is not match or cached[1] != key:
            self._sheet = cached = (match, key, match_sheet(self.controller))
        return cached[2]

    def _make_view(self) -> SeatView:
        controller = self.controller
        if controller.match is None:
            return SeatView()
        phase = controller.phase
        last_points, shooter = None, None
        if phase in ("hand_over", "match_over") and controller.hand_scores:
            score = controller.hand_scores[-1]
            last_points, shooter = tuple(score.points), score.moon_shooter
        last = controller.last_trick
        return SeatView(
            phase=phase,
            hand_number=controller.hand_number,
            pass_direction=controller.pass_direction,
            hand=tuple(sorted(controller.hand(HUMAN_SEAT))),
            counts=tuple(len(controller.hand(seat)) for seat in range(4)),
            trick=_plays(controller.current_trick),
            last_trick=_plays(last),
            last_winner=None if last is None else last.winner,
            first_leader=self._first_leader(),
            hand_points=tuple(controller.hand_points),
            totals=tuple(controller.totals),
            last_points=last_points,
            last_moon_shooter=shooter,
            hearts_broken=controller.hearts_broken,
            seats_to_act=tuple(controller.seats_to_act),
            winner=controller.winner,
            legal=tuple(self.legal_cards()),
            person_must_pass=self.person_must_pass,
            person_must_play=self.person_must_play,
            can_undo=self.can_undo,
            can_redo=controller.can_redo,
            points_remain=self.points_remain(),
            open_hands=None
            if self.person_plays
            else tuple(tuple(controller.hand(seat)) for seat in range(4)),
        )

    def _first_leader(self) -> int | None:
        """Return the seat that leads this hand's first trick, once the play has begun."""
        controller = self.controller
        if controller.phase not in ("play", "hand_over", "match_over"):
            return None
        tricks = controller.tricks
        if tricks:
            return tricks[0].leader
        return controller.seats_to_act[0] if controller.seats_to_act else None

    @property
    def phase(self) -> str:
        """Return the controller's phase (``pass``, ``play``, ``hand_over``, ``match_over``)."""
        return self.controller.phase

    @property
    def person_plays(self) -> bool:
        """Return whether a person sits at seat 0 (not watch mode)."""
        return HUMAN_SEAT not in self.bot_names

    @property
    def person_must_pass(self) -> bool:
        """Return whether the person still has to choose three cards to pass."""
        return (
            self.person_plays
            and self.phase == "pass"
            and HUMAN_SEAT in self.controller.seats_to_act
        )

    @property
    def person_must_play(self) -> bool:
        """Return whether it is the person's turn to play a card."""
        return self.person_plays and self.phase == "play" and self.controller.seats_to_act == [0]

    def thinking_seats(self) -> set[int]:
        """Return the bot seats whose decision is being worked on."""
        return {r.seat for r in self._requests.values()}

    def legal_cards(self) -> list[int]:
        """Return the cards the person may play now."""
        return self.controller.legal_cards(HUMAN_SEAT) if self.person_must_play else []

    def points_remain(self) -> bool:
        """Return whether any point card is still unplayed in this hand."""
        remaining = 0
        for seat in range(4):
            remaining |= mask_of(self.controller.hand(seat))
        return bool(remaining & POINT_CARDS_MASK)

    # -- the person's commands ------------------------------------------------------------

    def _seen(self, result: Result) -> Result:
        """Return the result with its events as seat 0 may see them (``core.events.seen_by``):
        while the person plays, the other seats' passes are hidden; watching, nothing is."""
        viewer = HUMAN_SEAT if self.person_plays else None
        over = self.controller.phase == "match_over"
        events = tuple(ev.seen_by(event, viewer, match_over=over) for event in result.events)
        return replace(result, events=events)

    @property
    def hint(self) -> Hint | None:
        """Return the hint asked for this position, once it has come."""
        return self.hints.hint

    def record(self) -> str:
        """Return the match's record (``core.record`` text)."""
        return dumps_record(self.controller)

    def _after(self, result: Result) -> Result:
        if result.ok:
            self.hints.hint = None
            result = self._seen(result)
            self.events.extend(result.events)
        return result

    def pass_cards(self, cards: Iterable[int]) -> Result:
        """Pass the person's three chosen cards."""
        return self._after(self.controller.submit_pass(HUMAN_SEAT, list(cards)))

    def play_card(self, card: int) -> Result:
        """Play one of the person's cards."""
        return self._after(self.controller.play_card(HUMAN_SEAT, card))

    def next_hand(self) -> Result:
        """Deal the next hand once this one is over."""
        return self._after(self.controller.next_hand())

    def _drop_requests(self) -> None:
        self.bots.cancel_all()
        self.hints.drop()
        self._requests.clear()
        self._ready.clear()

    @property
    def can_undo(self) -> bool:
        """Return whether undo has a move to take back: one of the person's in this hand, but
        not a pass whose cards were exchanged (in watch mode, any move)."""
        if self.controller.match is None:
            return False
        if not self.person_plays:
            return self.controller.can_undo
        return self.controller.can_undo_until([HUMAN_SEAT])

    def undo(self) -> Result:
        """Take back moves up to and including the person's last one (the bots' after it too);
        never a pass once the cards are exchanged (``Controller.undo_until``).

        In watch mode one move is taken back.
        """
        if self.person_plays:
            result = self.controller.undo_until([HUMAN_SEAT])
        else:
            result = self.controller.undo()
        if not result.ok:
            return result
        self._drop_requests()
        result = self._seen(result)
        self.events.extend(result.events)
        return result

    def redo(self) -> Result:
        """Apply again what undo took back, up to the person's next decision."""
        if not self.controller.can_redo:
            return Result(False, error="Nothing to redo")
        self._drop_requests()
        if self.person_plays:
            result = self.controller.redo_until([HUMAN_SEAT])
        else:
            result = self.controller.redo()
        done = self._seen(result).events if result.ok else ()
        self.events.extend(done)
        return Result(True, done)

    # -- bots -----------------------------------------------------------------------------

    def _stamp(self) -> tuple[int, int]:
        match = self.controller.match
        if match is None:
            return (0, 0)
        return (len(match.hands), len(match.hands[-1].actions))

    def update(self) -> None:
        """Submit requests for bot seats that must act; collect the answers that arrived."""
        waiting = {r.seat for r in self._requests.values()} | set(self._ready)
        stamp = self._stamp()
        for seat in self.controller.seats_to_act:
            if seat in self.bot_names and seat not in waiting:
                request_id = self.bots.submit(
                    self.controller.observation(seat), self.bot_names[seat], None, self.limit_ms
                )
                self._requests[request_id] = _Request(seat, stamp)
        for request_id, decision in self.bots.poll():
            request = self._requests.pop(request_id, None)
            if request is None or request.stamp[0] != stamp[0]:
                continue
            if self._still_wanted(request):
                self._ready[request.seat] = decision
        self.hints.poll(stamp)

    def _still_wanted(self, request: _Request) -> bool:
        if self.phase == "pass":
            return request.seat in self.controller.seats_to_act
        return request.stamp == self._stamp() and self.controller.seats_to_act == [request.seat]

    def has_ready_move(self) -> bool:
        """Return whether a bot's answer waits to be applied."""
        return bool(self._ready)

    def apply_ready(self) -> list[ev.Event]:
        """Apply one bot answer that is ready (passes first, then the seat to play)."""
        for seat in sorted(self._ready):
            decision = self._ready.pop(seat)
            cards = action_cards(decision.action)
            if self.phase == "pass" and seat in self.controller.seats_to_act:
                result = self.controller.submit_pass(seat, cards)
            elif self.phase == "play" and self.controller.seats_to_act == [seat] and cards:
                result = self.controller.play_card(seat, cards[0])
            else:
                continue
            if result.ok:
                seen = self._seen(result).events
                self.events.extend(seen)
                return list(seen)
        return []

    def request_hint(self) -> bool:
        """Ask for the person's hint: the review's search of this decision, with why its move
        beats the runner-up (``game.table.hint_requests``). False when the person has
        nothing to decide."""
        if not (self.person_must_pass or self.person_must_play):
            return False
        observation = self.controller.observation(HUMAN_SEAT)
        self.hints.ask(observation, self.controller.hand_number, self._stamp())
        return True

    def take_events(self) -> list[ev.Event]:
        """Return and forget the events that happened since the last call."""
        events, self.events = self.events, []
        return events

    def close(self) -> None:
        """Drop every request and stop the hint's search (the worker belongs to the caller)."""
        self._drop_requests()


def _plays(trick: Trick | None) -> tuple[Play, ...]:
    """Return a trick's cards with the seat that played each."""
    if trick is None:
        return ()
    return tuple((trick.seat_of(index), card) for index, card in enumerate(trick.cards))
