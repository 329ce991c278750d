"""The person's books: statistics, the saved game and its reviews, the matches kept to replay.

Everything is written in the background by the saver (the saved game at once, since a killed
program must lose nothing shown). Nothing here draws or waits.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from core.controller import Controller
from core.files import UserDirs
from core.record import dumps_record
from game.table.coach import Coach
from game.table.match.port import TableMatch
from game.table.session import TableSession
from game.table.store.json_store import json_text
from game.table.store.replays import replay_name, replay_text, surplus
from game.table.store.review_file import reviews_text
from game.table.store.saves import BackgroundSaver, load_game
from game.table.store.stats import Statistics, load_statistics, match_difficulty


class MatchBooks:
    """The person's statistics and files about matches, kept on disk as they change.

    ``replays_kept`` says how many finished matches to keep (read when one finishes, so a
    change in the settings counts at once). ``problems`` are what loading the statistics found.
    """

    def __init__(
        self, dirs: UserDirs, saver: BackgroundSaver, replays_kept: Callable[[], int]
    ) -> None:
        self.dirs = dirs
        self.saver = saver
        self.replays_kept = replays_kept
        self.stats, self.problems = load_statistics(dirs.statistics_file)
        #: The last match counted in the statistics, and the last whose review was counted.
        self._counted: TableMatch | None = None
        self._review_counted: TableMatch | None = None

    def change_stats(self, stats: Statistics) -> None:
        """Use and save new statistics."""
        self.stats = stats
        self.saver.submit(self.dirs.statistics_file, json_text(stats.to_dict()))

    def count_hand(
        self, points: tuple[int, ...], shooter: int | None, seat: int, levels: list[str]
    ) -> None:
        """Count a hand the person played against bots of ``levels``."""
        level = match_difficulty(levels)
        self.change_stats(self.stats.with_hand_scored(points, shooter, seat, level))

    def count_match(self, match: TableMatch, won: bool, points: int, levels: list[str]) -> None:
        """Count a match the person finished, once (its saved game and reviews are then
        forgotten)."""
        if match is self._counted:
            return
        self._counted = match
        level = match_difficulty(levels)
        self.change_stats(self.stats.with_match(won, points, difficulty=level))
        self.discard_game()

    def save_match(self, match: TableMatch) -> None:
        """Save a match played here; one hosted elsewhere is kept by its host."""
        if isinstance(match, TableSession):
            self.save_game(match.controller)

    def save_game(self, controller: Controller) -> None:
        """Write the game in progress now, so a killed program loses nothing shown."""
        self.saver.write_now(self.dirs.save_file, dumps_record(controller))

    def discard_game(self) -> None:
        """Forget the saved game in progress (it is over) and its reviews."""
        self.saver.write_now(self.dirs.save_file, None)
        self.saver.discard(self.dirs.reviews_file)

    def load_game(self) -> tuple[Controller | None, str | None]:
        """Return the saved game in progress (None when there is none or it is over) and what
        was wrong with the file, if anything (a bad file is set aside)."""
        self.saver.flush()
        controller, message = load_game(self.dirs.save_file)
        if controller is not None and controller.phase == "match_over":
            controller = None
        return controller, message

    def archive_match(self, match: TableMatch | Controller) -> None:
        """Keep a finished match to replay (in the background), removing the oldest ones
        beyond the number the person keeps; with none kept, nothing is written or removed.
        A match hosted elsewhere is not kept here."""
        if isinstance(match, TableSession):
            match = match.controller
        kept = self.replays_kept()
        if kept == 0 or not isinstance(match, Controller):
            return
        controller = match
        folder = self.dirs.replays
        for old in surplus(folder, kept):
            self.saver.discard(old)
        name = replay_name(controller, datetime.now(UTC))
        self.saver.submit(folder / name, replay_text(controller))

    def follow_reviews(self, session: TableSession, coach: Coach) -> None:
        """Keep the match's finished reviews beside its saved game; once every hand of the
        person's finished match is reviewed, count its points lost per decision. A practice
        hand has no books."""
        if session.practice:
            return
        if (
            session.person_plays
            and session.phase != "match_over"
            and len(session.reviews) != session.reviews_saved
        ):
            session.reviews_saved = len(session.reviews)
            text = reviews_text(session.controller, session.reviews)
            self.saver.submit(self.dirs.reviews_file, text)
        if session is not self._counted or session is self._review_counted:
            return
        found = coach.match_review(session)
        if found is not None:
            self._review_counted = session
            level = match_difficulty(session.bot_names.values())
            self.change_stats(self.stats.with_match_review(found.decisions, found.loss, level))
