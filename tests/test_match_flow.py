"""The match flow apart from the picture: counted once, saved after progress, moments queued
before the dialogs that follow them; importable and runnable with no pygame at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from core import events as ev
from core.cards import QUEEN_OF_SPADES
from game.table.bot_requests import InlineBots
from game.table.match.flow import MatchFlow
from game.table.match.port import TableMatch
from game.table.session import TableSession

ROOT = Path(__file__).resolve().parent.parent


class Books:
    """The person's books, as calls written down."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def count_hand(
        self, points: tuple[int, ...], shooter: int | None, seat: int, levels: list[str]
    ) -> None:
        self.calls.append(f"hand {points} {shooter}")

    def count_match(self, match: TableMatch, won: bool, points: int, levels: list[str]) -> None:
        self.calls.append(f"match {won} {points}")

    def save_match(self, match: TableMatch) -> None:
        self.calls.append("save")

    def archive_match(self, match: TableMatch) -> None:
        self.calls.append("archive")


class Stage:
    """The table, as what it was asked to show; moments end when the test says so."""

    def __init__(self, moments: bool = True) -> None:
        self.moments = moments
        self.shown: list[str] = []
        self.ends: list[Callable[[], None]] = []

    def moments_on(self) -> bool:
        return self.moments

    def show_moment(
        self,
        kind: str,
        title: str,
        subtitle: str,
        ended: Callable[[], None],
        follows: bool,
        shaded: bool,
    ) -> None:
        words = f"moment {kind}: {title}" + (f" / {subtitle}" if subtitle else "")
        self.shown.append(words + (" (shaded)" if shaded else ""))
        self.ends.append(ended)

    def show_summary(self, event: ev.HandScored) -> None:
        self.shown.append("summary")

    def show_result(self) -> None:
        self.shown.append("result")

    def seat_name(self, seat: int) -> str:
        return ["You", "West", "North", "East"][seat]

    def say(self, text: str) -> None:
        self.shown.append(f"say {text}")


def a_match() -> TableSession:
    return TableSession.new_match(InlineBots(), ("easy", "easy", "easy"), seed=3)


def test_the_queen_on_the_last_trick_then_a_moon_then_the_summary() -> None:
    stage, books = Stage(), Books()
    flow = MatchFlow(a_match(), books, stage)
    words = flow.queen_taken(ev.TrickWon(2, 13, (QUEEN_OF_SPADES, 1, 2, 3), 13))
    assert words == "North takes the Q♠"
    scored = ev.HandScored((26, 26, 0, 26), (26, 26, 0, 26), 2)
    flow.hand_scored(scored, 1)
    assert stage.shown == ["moment queen: North takes the Q♠"], "the moon waits for the queen"
    stage.ends.pop(0)()
    moon = "moment moon: North shot the moon! / Everyone else takes 26 points (shaded)"
    assert stage.shown[-1] == moon, "the moon follows the queen, over its shade"
    stage.ends.pop(0)()
    assert stage.shown[-1] == "summary", "the summary follows the moon"
    flow.hand_scored(scored, 1)  # the same hand shown again (a resumed game)
    assert books.calls == ["hand (26, 26, 0, 26) 2"], "a hand is counted once"


def test_without_moments_the_summary_and_the_result_come_at_once() -> None:
    stage, books = Stage(moments=False), Books()
    match = a_match()
    flow = MatchFlow(match, books, stage)
    flow.hand_scored(ev.HandScored((0, 0, 0, 26), (0, 0, 0, 26), 3), 1)
    assert stage.shown == ["summary"]
    flow.match_over(ev.MatchOver(0, (10, 100, 100, 100)))
    assert books.calls[-2:] == ["archive", "match True 10"]


def test_the_match_is_saved_after_a_trick_or_an_exchange_only() -> None:
    books = Books()
    flow = MatchFlow(a_match(), books, Stage())
    flow.progressed([ev.CardPlayed(1, 5)])
    assert books.calls == []
    flow.progressed([ev.CardPlayed(1, 5), ev.TrickWon(1, 1, (5, 6, 7, 8), 0)])
    flow.progressed([ev.PassesExchanged("left", ((1, 2, 3),) * 4)])
    assert books.calls == ["save", "save"]


NO_PYGAME = """
import json, sys, tempfile
from pathlib import Path
sys.modules["pygame"] = None  # importing pygame now fails
from core import events as ev
from core.files import UserDirs
from game.table.bot_requests import InlineBots
from game.table.coach import Coach
from game.table.match.books import MatchBooks
from game.table.match.flow import MatchFlow
from game.table.review_requests import InlineReviews
from game.table.session import TableSession
from game.table.store.saves import BackgroundSaver

home = Path(tempfile.mkdtemp())
dirs = UserDirs(home / "c", home / "d", home / "s", home / "l")
saver = BackgroundSaver()
books = MatchBooks(dirs, saver, lambda: 5)
shown = []

class Stage:
    def moments_on(self): return True
    def show_moment(self, kind, title, subtitle, ended, follows, shaded):
        shown.append(kind); ended()
    def show_summary(self, event): shown.append("summary")
    def show_result(self): shown.append("result")
    def seat_name(self, seat): return "You" if seat == 0 else f"Seat {seat}"
    def say(self, text): pass

match = TableSession.new_match(InlineBots(), ("easy", "easy", "easy"), seed=11)
flow = MatchFlow(match, books, Stage())
for _ in range(3000):
    events = match.take_events()
    flow.progressed(events)
    for event in events:
        if isinstance(event, ev.HandScored):
            flow.hand_scored(event, match.view().hand_number)
    seat = match.view()
    if seat.phase == "hand_over":
        break
    if seat.person_must_pass:
        match.pass_cards(seat.hand[:3])
    elif seat.person_must_play:
        match.play_card(seat.legal[0])
    else:
        match.update()
        match.apply_ready()
books.follow_reviews(match, Coach(InlineReviews()))
saver.flush()
print(json.dumps({
    "pygame": sys.modules["pygame"] is None,
    "shown": shown,
    "hands": books.stats.hands_played,
    "saved": dirs.save_file.exists(),
}))
"""


def test_the_match_flow_runs_a_hand_with_no_pygame() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", NO_PYGAME], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["pygame"] and found["hands"] == 1 and found["saved"]
    assert found["shown"][-1] == "summary"
