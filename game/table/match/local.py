"""Matches played on this machine, made for the table: a new one, or the saved one continued.

The table asks here for a match (``LocalMatches``) and gets a ``TableMatch`` (the local one,
``game.table.session.TableSession``); a match hosted elsewhere would be offered the same way.
Nothing here draws: what went wrong comes back as words for the table to show.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ai.registry import SeatRefused, check_seats, seat_player_names
from ai.review import finished_hands
from ai.think import ThinkConfig
from core.seats import Seat, engine_seats
from game.table.bot_requests import AsyncBots
from game.table.match.books import MatchBooks
from game.table.match.port import TableMatch
from game.table.session import TableSession
from game.table.store.review_file import load_reviews
from game.table.store.settings import Settings
from game.table.try_again import TryAgain


def table_seat_problem(seats: Sequence[Seat]) -> str | None:
    """Say why the table cannot play a match with these seats (None when it can).

    The table seats the person at seat 0 (or nobody, to watch); every other seat must be a
    bot or an engine program this program knows how to run. Nothing is started here.
    """
    others = [number for number, seat in enumerate(seats) if seat.is_human and number != 0]
    if others:
        return (
            f"the saved match has a person at seat {others[0]}, and the table seats you at "
            "seat 0 only: play it with mdhearts cli"
        )
    try:
        check_seats(seats, allow_engines=True)
    except SeatRefused as refused:
        return f"the saved match cannot be played here: {refused}"
    return None


@dataclass(frozen=True)
class SavedMatch:
    """What asking for the saved match found.

    ``match`` is the match to continue (None when there is none, it cannot be played here, or
    its programs must be allowed first). ``problem`` says why it cannot be played here (it is
    left on disk untouched); ``programs`` are the seats played by programs, to ask about before
    any is started; ``notes`` say what was wrong with the files (set aside, or ignored).
    """

    match: TableMatch | None = None
    problem: str | None = None
    programs: dict[int, Seat] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


class LocalMatches:
    """Where the table gets a match played on this machine, with bots from ``bots`` thinking
    as ``think`` says and the opponents and rules of ``settings()`` (read when asked)."""

    def __init__(
        self,
        books: MatchBooks,
        bots: AsyncBots,
        think: ThinkConfig,
        settings: Callable[[], Settings],
    ) -> None:
        self.books = books
        self.bots = bots
        self.think = think
        self.settings = settings

    def new(self, watch: bool = False) -> TableMatch:
        """Return a new match with the settings' opponents and rules (the person watching
        bots at every seat when ``watch``)."""
        settings = self.settings()
        self.bots.cancel_all()
        return TableSession.new_match(
            self.bots,
            settings.opponents,
            settings.rules,
            limit_ms=self.think.limit_ms,
            watch=watch,
        )

    def practice(self, again: TryAgain) -> TableMatch:
        """Return a practice match standing where ``again`` (a hand set up again by
        ``game.table.try_again``) stands, against the bots its seats name, the person at
        seat 0. It is practice: the table plays it with ``match.practice.PracticeBooks``,
        and the app's coach and books leave it alone.

        Raises ValueError for seats the table cannot play a practice hand with.
        """
        problem = table_seat_problem(again.seats)
        if problem is None and engine_seats(again.seats):
            problem = "a hand with a program at the table cannot be tried again here"
        if problem is not None:
            raise ValueError(problem)
        names = seat_player_names(again.seats, self.think.difficulty)
        names.pop(0, None)  # the person plays seat 0, whoever played it first
        self.bots.cancel_all()
        return TableSession.practice_of(again, names, self.bots, self.think.limit_ms)

    def saved(self, programs_allowed: bool = False) -> SavedMatch:
        """Return the saved match to continue, with the reviews kept beside it; its seats
        played by programs start only once ``programs_allowed``."""
        controller, message = self.books.load_game()
        notes = (message,) if message else ()
        if controller is None:
            return SavedMatch(notes=notes)
        problem = table_seat_problem(controller.seats)
        if problem is not None:
            return SavedMatch(problem=problem, notes=notes)
        programs = engine_seats(controller.seats)
        if programs and not programs_allowed:
            return SavedMatch(programs=programs, notes=notes)
        names = seat_player_names(controller.seats, self.think.difficulty)
        self.bots.cancel_all()
        session = TableSession(controller, names, self.bots, self.think.limit_ms)
        reviews, found = load_reviews(
            self.books.dirs.reviews_file, controller, finished_hands(controller)
        )
        session.reviews.update(reviews)
        session.reviews_saved = len(reviews)
        return SavedMatch(session, notes=(*notes, found) if found else notes)
