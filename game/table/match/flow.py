"""A match's flow at the table, apart from the picture: what is counted, kept and shown when.

When a hand is scored the person's statistics count it (once, even when a resumed game shows
its summary again), then its big moment plays (a moon) and its summary opens, never over a
moment still showing. When the match ends it is kept to replay and counted. The match in
progress is saved after every trick and exchange, and after an undo or a redo. The big moments
queue up: what must follow them waits until the last one has ended.

Nothing here draws, plays a sound or imports pygame: the table is a ``Stage`` that opens the
moments and dialogs, the person's files are ``Books``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from core import events as ev
from core.cards import QUEEN_OF_SPADES, card_label
from core.view import HAND_SIZE
from game.table.match.port import HUMAN_SEAT, TableMatch
from game.table.wording import with_verb


class Books(Protocol):
    """Where the person's statistics, saved game and finished matches are kept."""

    def count_hand(
        self, points: tuple[int, ...], shooter: int | None, seat: int, levels: list[str]
    ) -> None:
        """Count a hand the person played against bots of ``levels``."""
        ...

    def count_match(self, match: TableMatch, won: bool, points: int, levels: list[str]) -> None:
        """Count a match the person finished (once per match)."""
        ...

    def save_match(self, match: TableMatch) -> None:
        """Keep the match in progress as it is now (where this machine keeps it)."""
        ...

    def archive_match(self, match: TableMatch) -> None:
        """Keep a finished match to replay."""
        ...


class Stage(Protocol):
    """The table as the flow sees it: it opens moments and dialogs and names seats."""

    def moments_on(self) -> bool:
        """Return whether big moments are played (not at the instant speed)."""
        ...

    def show_moment(
        self,
        kind: str,
        title: str,
        subtitle: str,
        ended: Callable[[], None],
        follows: bool,
        shaded: bool,
    ) -> None:
        """Play a moment over the table; call ``ended`` once it has ended (``follows``: a
        dialog opens as it ends; ``shaded``: it comes in over a table already shaded)."""
        ...

    def show_summary(self, event: ev.HandScored) -> None:
        """Open the hand's summary."""
        ...

    def show_result(self) -> None:
        """Open the match result."""
        ...

    def seat_name(self, seat: int) -> str:
        """Return the name shown for a seat."""
        ...

    def say(self, text: str) -> None:
        """Show a short message."""
        ...


def moon_outcome(event: ev.HandScored) -> str:
    """Say what a moon did to the scores: "Everyone else takes 26 points", say."""
    shooter = event.moon_shooter
    if shooter is None:
        return ""
    own = event.points[shooter]
    others = {points for seat, points in enumerate(event.points) if seat != shooter}
    if own < 0:
        return f"{-own} points off the shooter's score"
    if len(others) == 1:
        return f"Everyone else takes {others.pop()} points"
    return "The others take the points"


class MatchFlow:
    """What the table counts, keeps and shows as a match goes on (see the module's text)."""

    def __init__(self, match: TableMatch, books: Books, stage: Stage) -> None:
        self.match = match
        self.books = books
        self.stage = stage
        self.counted_hands: set[int] = set()
        #: Moments over the table not ended yet, and what waits for them to end.
        self.moments_showing = 0
        self.after_moments: list[Callable[[], None]] = []
        #: A match resumed between a hand's end and the next deal owes its summary.
        self.summary_due: ev.HandScored | None = None
        #: Whether a moment that left the table shaded (for a dialog) has just ended: what
        #: opens now comes in over the shade rather than lighting the table first.
        self._shade_left = False

    def _levels(self) -> list[str]:
        return list(self.match.bot_names.values())

    def resumed(self) -> None:
        """A saved match reopens: a hand over and not yet followed by a deal owes its summary
        (its points may have been counted before the game was closed)."""
        view = self.match.view()
        self.summary_due = view.finished_hand()
        if self.summary_due is not None:
            self.counted_hands.add(view.hand_number)

    def take_due_summary(self) -> ev.HandScored | None:
        """Return the summary a resumed match owes, once."""
        due, self.summary_due = self.summary_due, None
        return due

    # -- events ---------------------------------------------------------------------------

    def progressed(self, events: Iterable[ev.Event]) -> None:
        """Save after a trick or an exchange (not once the match is over)."""
        progress = any(isinstance(e, (ev.TrickWon, ev.PassesExchanged)) for e in events)
        if progress and self.match.phase != "match_over":
            self.save()

    def save(self) -> None:
        """Save the match in progress; a watched match is never saved."""
        if self.match.person_plays:
            self.books.save_match(self.match)

    def queen_taken(self, event: ev.TrickWon) -> str:
        """Play the moment of the Q♠ taken; return the words said."""
        taker = with_verb(self.stage.seat_name(event.seat), "takes")
        taken = f"{taker} the {card_label(QUEEN_OF_SPADES)}"
        # the hand's last trick: its summary (or moon) follows the moment
        self.moment("queen", taken, follows=event.trick_number == HAND_SIZE)
        return taken

    def hand_scored(self, event: ev.HandScored, number: int) -> None:
        """Count hand ``number`` once, then show its moon (if shot) and its summary after the
        moments showing."""
        match = self.match
        if match.person_plays and number not in self.counted_hands:
            self.counted_hands.add(number)
            self.books.count_hand(event.points, event.moon_shooter, HUMAN_SEAT, self._levels())

        def summary() -> None:
            self.stage.show_summary(event)

        shooter = event.moon_shooter
        if shooter is None:
            self.when_moments_end(summary)
            return
        name = self.stage.seat_name(shooter)
        title = "You shot the moon!" if shooter == HUMAN_SEAT else f"{name} shot the moon!"
        outcome = moon_outcome(event)
        self.when_moments_end(lambda: self.moment("moon", title, outcome, then=summary))

    def match_over(self, event: ev.MatchOver) -> None:
        """Keep the finished match to replay; count it in the person's statistics."""
        match = self.match
        self.books.archive_match(match)
        if match.person_plays:
            won, points = event.winner == HUMAN_SEAT, event.totals[HUMAN_SEAT]
            self.books.count_match(match, won, points, self._levels())

    def match_result(self) -> None:
        """Show the match result, after a celebration when the person won (or lost)."""
        stage = self.stage
        winner = self.match.view().winner if self.match.person_plays else None
        if winner is None:
            stage.show_result()
        elif winner == HUMAN_SEAT:
            self.moment("won", "You win the match!", "Lowest score at the end", stage.show_result)
        else:
            wins = with_verb(stage.seat_name(winner), "wins")
            self.moment("lost", f"{wins} the match", then=stage.show_result)

    # -- the queue of big moments ---------------------------------------------------------

    def moment(
        self,
        kind: str,
        title: str,
        subtitle: str = "",
        then: Callable[[], None] | None = None,
        follows: bool = False,
    ) -> None:
        """Play a moment over the table (none at the instant speed); ``then`` runs after it
        (``follows``: a dialog opens as it ends, so its shade ends at the dialog's)."""
        if not self.stage.moments_on():
            if then is not None:
                then()
            return
        self.moments_showing += 1

        def ended() -> None:
            self.moments_showing -= 1
            self._shade_left = follows
            try:
                if then is not None:
                    then()
                if not self.moments_showing:
                    waiting, self.after_moments = self.after_moments, []
                    for later in waiting:
                        later()
            finally:
                self._shade_left = False

        self.stage.show_moment(kind, title, subtitle, ended, follows, self._shade_left)

    def when_moments_end(self, action: Callable[[], None]) -> None:
        """Run ``action`` now, or once the moments showing have ended (so a hand's summary never
        covers the moment of its last trick, to show it afterwards)."""
        if self.moments_showing:
            self.after_moments.append(action)
        else:
            action()
