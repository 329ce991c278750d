"""The table plays a match through ``TableMatch`` only: a tiny match with no controller behind
it is played to the end of a hand by clicks, and the local match keeps the interface's word."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pygame
import pytest
from table_driver import MakeDriver

import game.table
from core import events as ev
from core.actions import PassAction
from core.cards import HEARTS, QUEEN_OF_SPADES, suit_of
from core.controller import Result
from core.rules import pass_receiver, pass_sender
from core.scoring import HandScore
from game.table.app import App
from game.table.bot_requests import InlineBots
from game.table.match.local import SavedMatch
from game.table.match.port import Hint, MatchSheet, ReviewKey, SeatView, TableMatch
from game.table.scenes.match_result import MatchOverScene
from game.table.scenes.pages import REVIEW_WORDS, ScoreSheet
from game.table.scenes.summary import HandSummary
from game.table.scenes.table import TableScene
from game.table.scenes.title import continue_match
from game.table.score_table import MOON_NOTE
from game.table.session import TableSession

#: Polls a fake seat takes to "think" before its move comes.
FAKE_THINK_POLLS = 2


class SuitMatch:
    """A one-hand match with no controller: seat ``s`` is dealt suit ``s`` (clubs, diamonds,
    spades, hearts). With ``direction`` "hold" the person leads clubs and takes every trick (a
    moon); with "left" everyone passes first (the others their three lowest cards). A card must
    follow the led suit when it can; the highest of the led suit takes the trick. The other
    seats play their highest card that may be played, each after ``FAKE_THINK_POLLS`` polls."""

    person_plays = True

    def __init__(self, direction: str = "hold", last: bool = False) -> None:
        self.direction = direction
        #: Whether the hand ends the match (seat 0 then wins it).
        self.last = last
        self.hands = [list(range(13 * suit, 13 * suit + 13)) for suit in range(4)]
        self.bot_names: Mapping[int, str] = {1: "fake", 2: "fake", 3: "fake"}
        self.hint: Hint | None = None
        self.reviews: dict[ReviewKey, Any] = {}
        self.events: list[ev.Event] = [ev.HandStarted(1, direction)]
        self.phase = "play" if direction == "hold" else "pass"
        self.passes: dict[int, tuple[int, ...]] = {}
        self.to_act = 0
        self.trick: list[tuple[int, int]] = []
        self.last_trick: tuple[tuple[int, int], ...] = ()
        self.last_winner: int | None = None
        self.taken = [0, 0, 0, 0]
        self.taken_cards: list[list[int]] = [[], [], [], []]
        self.scores: tuple[HandScore, ...] = ()
        self.totals = (0, 0, 0, 0)
        self.tricks = 0
        self.broken = False
        self.thinking: dict[int, int] = {}
        self.ready: dict[int, tuple[int, ...]] = {}
        self.polls = 0
        self.person_played: list[int] = []

    def sheet(self) -> MatchSheet:
        return MatchSheet(
            started=True,
            hands=self.scores,
            totals=self.totals,
            winner=0 if self.phase == "match_over" else None,
            hand_number=1,
            taken=tuple(tuple(cards) for cards in self.taken_cards),
        )

    def _to_act(self) -> tuple[int, ...]:
        if self.phase == "pass":
            return tuple(seat for seat in range(4) if seat not in self.passes)
        return (self.to_act,) if self.phase == "play" else ()

    def _legal(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        if not self.trick:
            return list(hand)
        led = suit_of(self.trick[0][1])
        return [card for card in hand if suit_of(card) == led] or list(hand)

    def view(self) -> SeatView:
        person_turn = self.phase == "play" and self.to_act == 0
        return SeatView(
            phase=self.phase,
            hand_number=1,
            pass_direction=self.direction,
            hand=tuple(sorted(self.hands[0])),
            counts=tuple(len(hand) for hand in self.hands),
            trick=tuple(self.trick),
            last_trick=self.last_trick,
            last_winner=self.last_winner,
            first_leader=0 if self.phase == "play" else None,
            hand_points=tuple(self.taken),
            totals=self.totals,
            hearts_broken=self.broken,
            seats_to_act=self._to_act(),
            legal=tuple(self._legal(0)) if person_turn else (),
            person_must_pass=self.phase == "pass" and 0 not in self.passes,
            person_must_play=person_turn,
            points_remain=self.phase == "play",
        )

    def thinking_seats(self) -> set[int]:
        return set(self.thinking)

    def pass_cards(self, cards: Iterable[int]) -> Result:
        chosen = tuple(sorted(cards))
        if self.phase != "pass" or 0 in self.passes or len(set(chosen) & set(self.hands[0])) != 3:
            return Result(False, error="no pass", reason="pass_three_cards")
        events = self._pass(0, chosen)
        self.events.extend(events)
        return Result(True, tuple(events))

    def play_card(self, card: int) -> Result:
        if self.phase != "play" or self.to_act != 0 or card not in self._legal(0):
            return Result(False, error="not now", reason="not_your_turn")
        self.person_played.append(card)
        events = self._play(0, card)
        self.events.extend(events)
        return Result(True, tuple(events))

    def undo(self) -> Result:
        return Result(False, error="no undo", reason="nothing_to_undo")

    def redo(self) -> Result:
        return Result(False, error="no redo", reason="nothing_to_redo")

    def next_hand(self) -> Result:
        return Result(False, error="one hand only", reason="hand_over")

    def request_hint(self) -> bool:
        return False

    def take_events(self) -> list[ev.Event]:
        events, self.events = self.events, []
        return events

    def update(self) -> None:
        self.polls += 1
        for seat in self._to_act():
            if seat != 0 and seat not in self.thinking and seat not in self.ready:
                self.thinking[seat] = FAKE_THINK_POLLS
        for seat, left in list(self.thinking.items()):
            if left > 1:
                self.thinking[seat] = left - 1
                continue
            del self.thinking[seat]
            hand = sorted(self.hands[seat])
            self.ready[seat] = (
                tuple(hand[:3]) if self.phase == "pass" else (max(self._legal(seat)),)
            )

    def has_ready_move(self) -> bool:
        return bool(self.ready)

    def apply_ready(self) -> list[ev.Event]:
        seat, cards = self.ready.popitem()
        events = self._pass(seat, cards) if self.phase == "pass" else self._play(seat, cards[0])
        self.events.extend(events)
        return events

    def close(self) -> None:
        self.thinking.clear()
        self.ready.clear()

    def _pass(self, seat: int, cards: tuple[int, ...]) -> list[ev.Event]:
        self.passes[seat] = cards
        events: list[ev.Event] = [ev.PassSubmitted(seat)]
        if len(self.passes) < 4:
            return events
        for giver, given in self.passes.items():
            taker = pass_receiver(giver, self.direction)
            self.hands[giver] = [card for card in self.hands[giver] if card not in given]
            self.hands[taker] += given
        passes = tuple(self.passes[seat] for seat in range(4))
        self.phase, self.to_act = "play", 0
        # as a host would send it to seat 0: the others' passes carry no cards
        exchanged = ev.seen_by(ev.PassesExchanged(self.direction, passes), 0, match_over=False)
        return [*events, exchanged]

    def _play(self, seat: int, card: int) -> list[ev.Event]:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        events: list[ev.Event] = [ev.CardPlayed(seat, card)]
        if suit_of(card) == HEARTS and not self.broken:
            self.broken = True
            events.append(ev.HeartsBroken(seat, card))
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return events
        led = suit_of(self.trick[0][1])
        winner = max((c, s) for s, c in self.trick if suit_of(c) == led)[1]
        cards = tuple(c for _, c in self.trick)
        points = sum(suit_of(c) == HEARTS for c in cards) + 13 * (QUEEN_OF_SPADES in cards)
        self.tricks += 1
        self.taken[winner] += points
        self.taken_cards[winner].extend(cards)
        events.append(ev.TrickWon(winner, self.tricks, cards, points))
        self.last_trick, self.last_winner, self.trick = tuple(self.trick), winner, []
        self.to_act = winner
        if self.tricks == 13:
            shooter = next((s for s in range(4) if self.taken[s] == 26), None)
            scored = [
                (0 if s == shooter else 26) if shooter is not None else self.taken[s]
                for s in range(4)
            ]
            points_by_seat = (scored[0], scored[1], scored[2], scored[3])
            self.totals = points_by_seat
            self.phase = "match_over" if self.last else "hand_over"
            taken = (self.taken[0], self.taken[1], self.taken[2], self.taken[3])
            self.scores = (HandScore(points_by_seat, taken, shooter),)
            events.append(ev.HandScored(points_by_seat, self.totals, shooter))
            if self.last:
                events.append(ev.MatchOver(0, self.totals))
        return events


def test_the_fake_is_a_table_match() -> None:
    match: TableMatch = SuitMatch()  # mypy would refuse a fake that misses a member
    assert match.view().person_must_play


def test_a_whole_hand_is_played_at_the_table_through_the_interface_alone(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No controller behind the match: the table deals, waits for the others by polling,
    takes the person's clicks, shows every trick, the Q♠ and the moon, then the summary."""
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="fast"))
    summaries: list[ev.HandScored] = []
    moments: list[str] = []
    show_moment = TableScene.show_moment

    def seen_moment(self: TableScene, kind: str, *args: Any) -> None:
        moments.append(kind)
        show_moment(self, kind, *args)

    monkeypatch.setattr(TableScene, "show_summary", lambda self, event: summaries.append(event))
    monkeypatch.setattr(TableScene, "show_moment", seen_moment)
    match = SuitMatch()
    table = TableScene(app, match)
    app.show_only(table)
    plates: list[str] = []
    for _ in range(20_000):
        if summaries:
            break
        if driver.ready_for_person():
            plates.append(table.painter.plate_score(0))
            driver.click_card(min(table.view.shown.hand))
        else:
            driver.step()
    assert summaries == [ev.HandScored((0, 26, 26, 26), (0, 26, 26, 26), 0)], driver.describe()
    assert match.person_played == list(range(13)), "each click played the card clicked"
    assert moments == ["queen", "moon"]
    assert match.polls > 13 * 3 * FAKE_THINK_POLLS, "the others were waited for by polling"
    assert table.view.shown.hand == [] and table.view.shown.taken == [26, 0, 0, 0]
    assert plates[0] == "0 pts" and plates[-1] == "+25 · 0 pts"  # 12 tricks taken so far


def test_a_hand_with_a_pass_is_played_at_the_table_through_the_interface_alone(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person chooses three cards by clicks and passes them with the button; the cards
    received are shown raised until the first play; then the hand is played out."""
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="fast"))
    summaries: list[ev.HandScored] = []
    monkeypatch.setattr(TableScene, "show_summary", lambda self, event: summaries.append(event))
    match = SuitMatch("left")
    table = TableScene(app, match)
    app.show_only(table)
    driver.run_until(driver.ready_for_person)
    given = sorted(table.view.shown.hand)[-3:]  # Q♣ K♣ A♣ to the left
    for card in given:
        driver.click_card(card)
    assert sorted(table.selected) == given and table.pass_button_shown()
    flights: list[list[tuple[int, int | None]]] = []

    def exchanged() -> bool:
        flights.append([(seat, face) for _, face, seat, _ in table.view.shown.flying])
        return driver.ready_for_person()

    driver.click(table.bar.pass_button.rect.center)
    driver.run_until(exchanged)
    # the fake sends seat 0's view (the others' passes without cards): every pass but the one
    # received still flies, the person's face up, the others' face down
    flying = max(flights, key=len)
    assert sorted(face or 0 for seat, face in flying if seat == 0) == given
    assert sorted(seat for seat, face in flying if face is None) == [1, 1, 1, 2, 2, 2]
    got = [13 * HEARTS + rank for rank in range(3)]  # the 2, 3 and 4 of hearts from the right
    assert set(table.view.shown.hand) == set(range(10)) | set(got)
    assert table.view.shown.received == set(got), "the cards received are shown raised"
    assert match.hands[1][-3:] == given
    for _ in range(20_000):
        if summaries:
            break
        if driver.ready_for_person():
            driver.click_card(min(table.session.view().legal))
        else:
            driver.step()
    assert len(summaries) == 1 and sum(summaries[0].points) in (26, 78), driver.describe()
    assert len(match.person_played) == 13 and table.view.shown.hand == []
    assert table.view.shown.taken == match.taken


#: The modules of the table that name the ``Controller``, and why: the local match and the
#: files it is kept in. Every screen and every other part plays through ``TableMatch``.
CONTROLLER_MODULES = {
    "session.py": "the local match: a controller and the bot worker",
    "match/books.py": "saves, loads and archives the local match's record",
    "store/saves.py": "the saved match's file",
    "store/replays.py": "the files of finished matches kept to replay",
    "store/review_file.py": "the reviews kept beside the saved match",
    "coach.py": "reviews the local match's hands in the background",
    "hand_story.py": "a hand of a record as the review and replay pages show it",
    "scenes/replays/replay.py": "a finished match read back from its file",
    "match_sheet.py": "the local match's scores as the table shows them",
    "try_again.py": "a reviewed hand set up again from a record, and compared with it",
}


def test_only_the_local_match_and_its_files_name_the_controller() -> None:
    """No screen but the replays and no part of the table but those listed (the local match,
    its files, a hand set up again) imports ``Controller``: the review page reads the match's
    record through ``TableMatch.record``."""
    root = Path(game.table.__file__).resolve().parent
    naming = set()
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module == "core.controller":
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                names = ["Controller" for alias in node.names if alias.name == "core.controller"]
            if "Controller" in names:
                naming.add(path.relative_to(root).as_posix())
    assert naming == set(CONTROLLER_MODULES)


def test_no_part_of_the_table_screen_touches_a_controller() -> None:
    """The table screen, its parts and the pages over it know the match only as
    ``TableMatch``: none reads a ``.controller`` or names the type."""
    root = Path(game.table.__file__).resolve().parent
    parts = [*sorted((root / "scenes").glob("*.py")), *sorted((root / "playing").glob("*.py"))]
    parts += [path for path in sorted((root / "match").glob("*.py")) if path.name != "books.py"]
    names = ("table_view.py", "watch.py", "header.py", "app.py", "loop.py", "score_table.py")
    parts += [root / name for name in (*names, "summary_keys.py")]
    for path in parts:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert "controller" not in read, f"{path.name} reads a controller"
        named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        assert "Controller" not in named, f"{path.name} names the Controller"


def play_to_hand_end(match: TableMatch, check: Callable[[TableMatch], None]) -> None:
    """Play a hand through the interface only: the person passes the first three cards and
    plays the first legal one; the others are waited for by polling."""
    for _ in range(2000):
        seat = match.view()
        check(match)
        if seat.phase != "pass" and seat.phase != "play":
            return
        if seat.person_must_pass:
            assert match.pass_cards(seat.hand[:3]).ok
        elif seat.person_must_play:
            assert match.play_card(seat.legal[0]).ok
        else:
            match.update()
            match.apply_ready()
    raise AssertionError("the hand never ended")


def test_the_local_match_shows_the_person_what_the_controller_holds_and_no_more() -> None:
    session = TableSession.new_match(InlineBots(), ("easy", "easy", "easy"), seed=5)
    controller = session.controller
    seen = 0

    def check(match: TableMatch) -> None:
        nonlocal seen
        seat = match.view()
        assert seat is match.view(), "the view is kept while nothing changes"
        assert seat.hand == tuple(sorted(controller.hand(0)))
        assert seat.counts == tuple(len(controller.hand(s)) for s in range(4))
        assert seat.phase == controller.phase and seat.totals == controller.totals
        assert seat.legal == (tuple(controller.legal_cards(0)) if seat.person_must_play else ())
        assert seat.open_hands is None, "no other hand is shown while a person plays"
        seen += 1

    play_to_hand_end(session, check)
    seat = session.view()
    assert seat.phase == "hand_over" and seen > 13
    finished = seat.finished_hand()
    assert finished is not None and finished.totals == controller.totals
    events = session.take_events()
    assert any(isinstance(e, ev.HandScored) for e in events)


def test_a_watched_match_shows_every_hand() -> None:
    session = TableSession.new_match(InlineBots(), ("easy", "easy", "easy"), seed=5, watch=True)
    seat = session.view()
    assert seat.open_hands is not None
    assert [sorted(hand) for hand in seat.open_hands] == [
        sorted(session.controller.hand(s)) for s in range(4)
    ]


def test_the_summary_the_score_sheet_and_the_result_open_over_a_match_with_no_controller(
    drivers: MakeDriver,
) -> None:
    """The fake's one hand ends the match: its summary shows the cards each seat took, S
    opens the score sheet over it and over the match result, which lists every hand."""
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="fast"))
    table = TableScene(app, SuitMatch(last=True))
    app.show_only(table)
    for _ in range(20_000):
        if driver.summary_shown():
            break
        if driver.ready_for_person():
            driver.click_card(min(table.view.shown.hand))
        else:
            driver.step()
    summary = driver.top
    assert isinstance(summary, HandSummary), driver.describe()
    hearts = [13 * HEARTS + rank for rank in range(13)]
    assert sorted(summary.taken[0]) == sorted([*hearts, QUEEN_OF_SPADES])
    assert summary.taken[1:] == [[], [], []] and summary.hand == 1
    rows = [
        ("Hand", app.settings.player_name, "West", "North", "East"),
        ("1", "0*", "26", "26", "26"),
        ("Total", "0", "26", "26", "26"),
    ]
    driver.key(pygame.K_s)
    sheet = driver.top
    assert isinstance(sheet, ScoreSheet), driver.describe()
    assert sheet.sheet_lines() == [*rows, MOON_NOTE, "", REVIEW_WORDS]
    assert sheet.hands == [1]
    driver.key(pygame.K_ESCAPE)
    assert driver.top is summary
    driver.key(pygame.K_RETURN)
    driver.run_until(lambda: isinstance(driver.top, MatchOverScene))
    result = driver.top
    assert isinstance(result, MatchOverScene)
    assert result.rows() == rows
    driver.step(3)  # drawn
    driver.key(pygame.K_s)
    assert isinstance(driver.top, ScoreSheet), driver.describe()


def hidden_passes(watch: bool) -> tuple[ev.PassesExchanged, tuple[tuple[int, ...], ...]]:
    """Play a local match to its first exchange; return the exchange the table took and the
    passes the controller holds."""
    session = TableSession.new_match(InlineBots(), ("easy",) * 3, seed=5, watch=watch)
    taken: list[ev.Event] = []
    for _ in range(2000):
        taken += session.take_events()
        if session.phase != "pass":
            break
        seat = session.view()
        if seat.person_must_pass:
            assert session.pass_cards(seat.hand[:3]).ok
        else:
            session.update()
            session.apply_ready()
    taken += session.take_events()
    exchanges = [event for event in taken if isinstance(event, ev.PassesExchanged)]
    assert len(exchanges) == 1, taken
    match = session.controller.match
    assert match is not None
    passes = [action for action in match.hands[0].actions[:4] if isinstance(action, PassAction)]
    held = {action.seat: action.cards for action in passes}
    return exchanges[0], tuple(tuple(held[seat]) for seat in range(4))


def test_the_table_gets_its_own_seat_s_view_of_the_exchange() -> None:
    """While the person plays, the events the table takes carry the person's pass and the
    cards received, never the other two passes; watching, every pass is seen."""
    exchange, held = hidden_passes(watch=False)
    assert exchange.direction == "left"
    sender = pass_sender(0, "left")
    assert sorted(exchange.passes[0]) == sorted(held[0])
    assert sorted(exchange.passes[sender]) == sorted(held[sender])
    assert [len(exchange.passes[seat]) for seat in range(4) if seat not in (0, sender)] == [0, 0]
    assert all(len(cards) == 3 for cards in held)
    watched, held = hidden_passes(watch=True)
    assert [sorted(cards) for cards in watched.passes] == [sorted(cards) for cards in held]


class FakeMatches:
    """A factory of fake matches, in place of the local one: what the title asks for."""

    def __init__(self) -> None:
        self.made: list[SuitMatch] = []

    def new(self, watch: bool = False) -> TableMatch:
        self.made.append(SuitMatch())
        return self.made[-1]

    def saved(self, programs_allowed: bool = False) -> SavedMatch:
        self.made.append(SuitMatch())
        return SavedMatch(self.made[-1])


def test_the_title_asks_its_factory_for_the_match_to_continue_or_start(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The title and the match result start and continue matches through ``App.matches``
    alone, so another kind of match can be offered the same way."""
    driver = drivers()
    app = driver.app
    matches = FakeMatches()
    monkeypatch.setattr(app, "matches", matches)
    assert continue_match(app)
    driver.step()
    assert driver.table.session is matches.made[-1] and len(matches.made) == 1
    app.replace_scene("title")
    driver.step()
    app.start_match()
    driver.step()
    assert driver.table.session is matches.made[-1] and len(matches.made) == 2


def test_the_app_leaves_statistics_and_saves_to_the_books() -> None:
    """Screens use ``App.books`` for the statistics and the saved game: no forwards remain."""
    assert not {"stats", "save_game", "load_saved_game"} & set(vars(App))


def test_the_local_match_s_sheet_is_what_its_controller_holds() -> None:
    """The sheet of a local match: the rules, the hands' scores and totals, and the cards each
    seat took in the hand's tricks; made again only when the match changes."""
    session = TableSession.new_match(InlineBots(), ("easy",) * 3, seed=9)
    controller = session.controller
    assert session.sheet().started and session.sheet().hands == ()
    play_to_hand_end(session, lambda match: None)
    sheet = session.sheet()
    assert sheet is session.sheet(), "the sheet is kept while nothing changes"
    assert sheet.hands == tuple(controller.hand_scores) and len(sheet.hands) == 1
    assert sheet.totals == controller.totals and sheet.rules == controller.rules
    assert sheet.first_hand == 1 and sheet.finished_hands == [1] and sheet.person_seated
    for seat in range(4):
        won = [trick.cards for trick in controller.tricks if trick.winner == seat]
        assert sheet.taken[seat] == tuple(card for cards in won for card in cards)
    assert sum(len(cards) for cards in sheet.taken) == 52
    assert session.next_hand().ok
    assert session.sheet().hand_number == 2 and session.sheet().taken == ((), (), (), ())
