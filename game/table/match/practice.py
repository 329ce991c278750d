"""A hand tried again at the table is practice: its books keep nothing.

A practice hand plays through the same ``MatchFlow`` as a real match, with ``PracticeBooks``
as its books: no hand or match of it is counted in the statistics, it never replaces the saved
game, and it is never kept to replay. The real match waits, untouched, under it.
"""

from __future__ import annotations

from game.table.match.port import TableMatch


class PracticeBooks:
    """The books of a practice hand (``flow.Books``): every call keeps nothing."""

    def count_hand(
        self, points: tuple[int, ...], shooter: int | None, seat: int, levels: list[str]
    ) -> None:
        """A practice hand is not counted."""

    def count_match(self, match: TableMatch, won: bool, points: int, levels: list[str]) -> None:
        """A practice hand that ends the match does not count the match."""

    def save_match(self, match: TableMatch) -> None:
        """A practice hand never replaces the saved game."""

    def archive_match(self, match: TableMatch) -> None:
        """A practice hand is not kept to replay."""
