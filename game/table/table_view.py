"""What the table shows, trailing the match by a few animated beats.

The controller jumps from state to state; the view replays each event as a beat (a card
travels to the trick, a finished trick is held and swept to its winner, a deal spreads the
cards) and keeps a displayed state: the person's hand, how many cards each bot holds, the trick
on the table, points taken and totals. Every frame, ``cards`` returns where each visible card
should be drawn; cards glide from where they were to where the displayed state puts them.

Bots' cards are shown face down and carry no identity until played, so nothing on screen
hints at which card a bot holds where.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial

from core import events as ev
from core.cards import cards_of, mask_of
from core.hand import PASS_SIZE
from core.rules import pass_receiver, pass_sender
from game.table.anim import Beat, Motion, Point, Timeline, duration
from game.table.layout import LIFT, Layout
from game.table.match.port import SeatView
from game.table.shown import DrawnCard, Key, Shown, Wanted

__all__ = ["DrawnCard", "Key", "Shown", "TableView"]


class TableView:
    """The displayed state, its beats and its cards' motions for one table."""

    def __init__(
        self,
        layout: Layout,
        speed: str = "normal",
        click_to_continue: bool = False,
        face_up_seat: int = 0,
        on_cue: Callable[[str, object], None] | None = None,
    ) -> None:
        self.layout = layout
        self.speed = speed
        self.click_to_continue = click_to_continue
        self.face_up_seat = face_up_seat
        self.on_cue = on_cue or (lambda name, value: None)
        self.shown = Shown()
        self.timeline = Timeline()
        self._motions: dict[Key, Motion] = {}
        self._glides: dict[Key, tuple[float, float, Point | None]] = {}
        self._lifted: set[int] = set()

    # -- following the match --------------------------------------------------------------

    @property
    def idle(self) -> bool:
        """Return whether every event has been shown."""
        return self.timeline.idle

    @property
    def dealing_or_exchanging(self) -> bool:
        """Return whether the cards shown are being dealt or passed (no trick is played)."""
        beat = self.timeline.current
        return beat is not None and beat.name in ("deal", "pass", "turn")

    @property
    def waiting_for_click(self) -> bool:
        """Return whether a finished trick waits for a click to be collected."""
        beat = self.timeline.current
        return beat is not None and beat.wait_for_click and beat.elapsed >= beat.seconds

    def sync(self, seat: SeatView, snap: bool = False) -> None:
        """Show the seat's current view at once (a resumed game, an undo, a redo)."""
        self.timeline.clear()
        shown = self.shown
        previous_number = shown.hand_number
        if not seat.started:
            self.shown = Shown()
            return
        shown.hand_number = seat.hand_number
        shown.direction = seat.pass_direction
        shown.hand = sorted(seat.hand)
        shown.counts = list(seat.counts)
        shown.trick = list(seat.trick)
        shown.leaving.clear()
        shown.flying.clear()
        self._glides.clear()
        shown.taken = list(seat.hand_points)
        totals = list(seat.totals)
        if seat.last_points is not None:
            totals = [t - p for t, p in zip(totals, seat.last_points, strict=True)]
        shown.totals = totals
        shown.hearts_broken = seat.hearts_broken
        shown.passing = False
        shown.received.clear()
        shown.arriving.clear()
        shown.last_trick = seat.last_trick
        shown.last_winner = seat.last_winner
        if snap or previous_number != shown.hand_number:
            self._motions.clear()

    def show(self, events: Iterable[ev.Event], seat: SeatView) -> None:
        """Queue the beats that show these events (``seat``: the view after them, read for a
        new deal's cards and after an undo)."""
        for event in events:
            if isinstance(event, ev.HandStarted):
                self._queue_deal(event, seat)
            elif isinstance(event, ev.PassSubmitted):
                self.timeline.add(Beat(0.0, partial(self.on_cue, "passed", event.seat)))
            elif isinstance(event, ev.PassesExchanged):
                self._queue_exchange(event)
            elif isinstance(event, ev.CardPlayed):
                self._queue_play(event)
            elif isinstance(event, ev.HeartsBroken):
                self.timeline.add(Beat(0.0, partial(self._hearts_broken, event)))
            elif isinstance(event, ev.TrickWon):
                self._queue_trick_won(event)
            elif isinstance(event, ev.HandScored):
                self.timeline.add(Beat(0.0, partial(self._hand_scored, event)))
            elif isinstance(event, ev.MatchOver):
                self.timeline.add(Beat(0.0, partial(self.on_cue, "match_over", event)))
            elif isinstance(event, ev.ActionUndone):
                self.sync(seat)

    def _queue_deal(self, event: ev.HandStarted, seat: SeatView) -> None:
        hand = sorted(seat.hand)
        deal_seconds = duration("deal", self.speed)

        def start() -> None:
            shown = self.shown
            shown.hand_number = event.hand_number
            shown.direction = event.direction
            shown.hand = list(hand)
            shown.counts = [13, 13, 13, 13]
            shown.trick.clear()
            shown.leaving.clear()
            shown.taken = [0, 0, 0, 0]
            shown.hearts_broken = False
            shown.received.clear()
            shown.arriving.clear()
            shown.last_trick = ()
            shown.last_winner = None
            shown.passing = event.direction != "hold"
            self._motions.clear()
            stagger = duration("deal_stagger", self.speed)
            order = 0
            for index in range(13):
                for seat in range(4):
                    order += 1  # even the first card waits a moment in the deck, face down
                    key = self._hand_key(seat, index, hand)
                    self._glides[key] = (deal_seconds * 0.5, order * stagger, self.layout.centre)
            self.on_cue("deal", event.hand_number)

        seconds = deal_seconds + 52 * duration("deal_stagger", self.speed)
        self.timeline.add(Beat(seconds, start, name="deal"))

    def _hand_key(self, seat: int, index: int, hand: list[int]) -> Key:
        if seat == self.face_up_seat:
            return ("card", hand[index]) if index < len(hand) else ("none",)
        return ("back", seat, index)

    def _queue_exchange(self, event: ev.PassesExchanged) -> None:
        """Show the exchange once: every pass travels to its receiver in one move.

        The person's passed cards leave face up; the cards the person receives travel face down
        from the passer to their places in the hand and turn face up there; the bots' cards stay
        face down throughout.
        """
        seconds = duration("pass", self.speed)
        me = self.face_up_seat
        sender = pass_sender(me, event.direction)
        received = event.passes[sender]

        def send() -> None:
            shown = self.shown
            shown.passing = False
            passed = set(event.passes[me])
            kept = [card for card in shown.hand if card not in passed]
            shown.hand = cards_of(mask_of([*kept, *received]))
            shown.arriving = set(received)
            origin = self.layout.seat_anchor(sender)
            for card in received:
                self._glides[("card", card)] = (seconds, 0.0, origin)
            for seat in range(4):
                if seat != me:
                    shown.counts[seat] -= PASS_SIZE
                if seat == sender:
                    continue
                to = pass_receiver(seat, event.direction)
                # the others' passes are only counted (their cards are not the person's to see)
                faces: list[int | None] = (
                    list(event.passes[me]) if seat == me else [None] * PASS_SIZE
                )
                for index, face in enumerate(faces):
                    key: Key = ("pass", seat, index)
                    shown.flying.append((key, face, seat, to))
                    self._glides[key] = (seconds, 0.0, self.layout.seat_anchor(seat))
            self.on_cue("pass", event.direction)

        def land() -> None:
            shown = self.shown
            shown.flying.clear()
            for seat in range(4):
                if seat != me:
                    shown.counts[seat] += PASS_SIZE

        def turned() -> None:
            shown = self.shown
            shown.arriving.clear()
            shown.received = set(received)

        self.timeline.add(Beat(seconds, send, name="pass"))
        self.timeline.add(Beat(duration("turn", self.speed), land, name="turn"))
        self.timeline.add(Beat(0.0, turned))

    def _turn_progress(self) -> float:
        """Return how far the received cards have turned over (0 face down, 1 face up)."""
        beat = self.timeline.current
        if beat is None or beat.name != "turn" or not beat.started:
            return 0.0
        return 1.0 if beat.seconds <= 0 else min(1.0, beat.elapsed / beat.seconds)

    def _queue_play(self, event: ev.CardPlayed) -> None:
        seconds = duration("play", self.speed)

        def start() -> None:
            shown = self.shown
            key: Key = ("card", event.card)
            if event.seat == self.face_up_seat and event.card in shown.hand:
                shown.hand.remove(event.card)
            else:
                shown.counts[event.seat] = max(0, shown.counts[event.seat] - 1)
                self._glides[key] = (seconds, 0.0, self.layout.seat_anchor(event.seat))
            self._glides.setdefault(key, (seconds, 0.0, None))
            shown.trick.append((event.seat, event.card))
            if event.seat == self.face_up_seat:
                shown.received.clear()
            self.on_cue("play", event)

        self.timeline.add(Beat(seconds, start, name="play"))

    def _hearts_broken(self, event: ev.HeartsBroken) -> None:
        self.shown.hearts_broken = True
        self.on_cue("hearts_broken", event)

    def _queue_trick_won(self, event: ev.TrickWon) -> None:
        hold = duration("trick_hold", self.speed)
        collect = duration("collect", self.speed)

        def take() -> None:
            shown = self.shown
            shown.leaving = [(seat, card, event.seat) for seat, card in shown.trick]
            shown.last_trick = tuple(shown.trick)
            shown.last_winner = event.seat
            shown.trick = []
            for _, card, _ in shown.leaving:
                self._glides[("card", card)] = (collect, 0.0, None)
            self.on_cue("collect", event)

        def settle() -> None:
            shown = self.shown
            shown.leaving = []
            shown.taken[event.seat] += event.points
            self.on_cue("trick_taken", event)

        self.timeline.add(
            Beat(hold, lambda: self.on_cue("trick_won", event), self.click_to_continue, "hold")
        )
        self.timeline.add(Beat(collect, take, name="collect"))
        self.timeline.add(Beat(0.0, settle))

    def _hand_scored(self, event: ev.HandScored) -> None:
        self.shown.totals = list(event.totals)
        self.on_cue("hand_scored", event)

    # -- time -----------------------------------------------------------------------------

    def advance(self, dt: float) -> None:
        """Move the beats and the cards on by ``dt`` seconds."""
        self.timeline.advance(dt)
        for motion in self._motions.values():
            motion.advance(dt)

    def put_down_received(self) -> None:
        """Stop marking the cards received in the pass (the person clicked: they were seen)."""
        self.shown.received.clear()

    def skip(self) -> None:
        """Finish every queued beat now (the player is in a hurry)."""
        self.timeline.finish()
        for motion in self._motions.values():
            motion.elapsed = motion.delay + motion.duration

    def release(self) -> bool:
        """Let a trick waiting for a click be collected; return whether one was waiting."""
        return self.timeline.release()

    def relayout(self, layout: Layout) -> None:
        """Use a new window size; cards jump to their new places."""
        self.layout = layout
        self._motions.clear()

    def next_change_in(self) -> float | None:
        """Return how soon the shown table changes by itself, in seconds (None: it is still).

        ``0`` while a beat runs or a card glides. A finished trick waiting for a click is still.
        """
        running = not self.timeline.idle and not self.waiting_for_click
        if running or any(not motion.done for motion in self._motions.values()):
            return 0.0
        return None

    # -- where the cards are --------------------------------------------------------------

    def hand_targets(self, lifted: Iterable[int] = ()) -> dict[int, Point]:
        """Return where each of the shown hand's cards sits (lifted ones raised)."""
        raised = set(lifted)
        lift = self.layout.card_size[1] * LIFT
        positions = self.layout.hand_positions(len(self.shown.hand))
        return {
            card: (x, y - lift if card in raised else y)
            for card, (x, y) in zip(self.shown.hand, positions, strict=True)
        }

    def _wanted(self, lifted: Iterable[int]) -> list[Wanted]:
        """Return every visible card: its key, face, target, whether it is small, on its side
        and glowing (just received), bottom-most first."""
        layout = self.layout
        shown = self.shown
        wanted: list[Wanted] = []
        for seat in (2, 1, 3):
            if seat == self.face_up_seat:
                continue
            for index, pos in enumerate(layout.opponent_positions(seat, shown.counts[seat])):
                wanted.append((("back", seat, index), None, pos, True, seat != 2, False))
        for card, spot in self.hand_targets(lifted).items():
            wanted.append((("card", card), card, spot, False, False, card in shown.received))
        for seat, card in shown.trick:
            wanted.append((("card", card), card, layout.trick_centres[seat], False, False, False))
        for _, card, to in shown.leaving:
            wanted.append((("card", card), card, layout.pile_position(to), False, False, False))
        for key, face, _, to in shown.flying:
            wanted.append((key, face, layout.seat_anchor(to), face is None, False, False))
        return wanted

    def _motion(self, key: Key, target: Point) -> Motion:
        """Return a card's motion as ``place`` leaves it: its own, or a new one starting where
        its glide says (a new one is not kept: ``place`` keeps it)."""
        motion = self._motions.get(key)
        seconds, delay, origin = self._glides.get(key, (duration("resort", self.speed), 0.0, None))
        if motion is None:
            motion = Motion(origin or target, origin or target)
            if origin is None:
                motion.snap(target)
        elif motion.target == target:
            return motion  # already aimed there (``Motion.retarget`` would change nothing)
        else:
            motion = replace(motion)
        motion.retarget(target, seconds, delay)
        return motion

    def place(self, lifted: Iterable[int] = ()) -> None:
        """Aim every visible card at where the shown state puts it (gliding there) and forget
        the cards no longer shown. The table calls it once a frame after time moved on, and
        after a resize; drawing never does (``cards`` only reads)."""
        live: set[Key] = set()
        for key, _, target, _, _, _ in self._wanted(lifted):
            live.add(key)
            self._motions[key] = self._motion(key, target)
            self._glides.pop(key, None)
        for key in list(self._motions):
            if key not in live:
                del self._motions[key]
        self._glides = {key: value for key, value in self._glides.items() if key not in live}

    def cards(self, lifted: Iterable[int] = ()) -> list[DrawnCard]:
        """Return every card to draw this frame, bottom-most first, where its motion has it
        now; changes nothing (a card ``place`` has not aimed yet is shown as it would)."""
        shown = self.shown
        drawn: list[DrawnCard] = []
        turn = self._turn_progress()
        for key, face, target, small, rotated, glow in self._wanted(lifted):
            motion = self._motion(key, target)
            squeeze = 1.0
            if motion.waiting:
                face = None  # a card waiting in the deck to be dealt shows its back
            elif face is not None and face in shown.arriving:
                face, squeeze = _turning(face, turn)
            drawn.append(DrawnCard(key, face, motion.position(), small, rotated, glow, squeeze))
        return drawn


def _turning(card: int, progress: float) -> tuple[int | None, float]:
    """Return the face (None for the back) and width share of a card turning over.

    The back narrows to an edge in the first half, then the face widens from it.
    """
    if progress < 0.5:
        return None, 1.0 - 2 * progress
    return card, 2 * progress - 1.0
