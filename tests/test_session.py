"""The table's session: bots asked without waiting, answers applied in order, undo and redo."""

from __future__ import annotations

from dataclasses import replace

from core.cards import card_text
from core.observation import Observation
from game.table.bot_requests import InlineBots
from game.table.match.port import HUMAN_SEAT, REFUSAL_WORDS, player_message
from game.table.session import TableSession


def settle(session: TableSession, limit: int = 400) -> None:
    """Let the bots move until the person must act or the hand is over."""
    for _ in range(limit):
        session.update()
        if not session.apply_ready() and not session.thinking_seats():
            return


def test_bots_pass_and_play_only_through_apply_ready() -> None:
    session = TableSession.new_match(InlineBots(), ["normal", "easy", "normal"], seed=3)
    assert session.person_must_pass
    session.update()
    assert session.has_ready_move()
    assert session.controller.seats_to_act == [0, 1, 2, 3]  # nothing applied yet
    assert session.apply_ready()
    assert len(session.controller.seats_to_act) == 3
    settle(session)
    assert session.controller.seats_to_act == [HUMAN_SEAT]
    result = session.pass_cards(session.controller.hand(HUMAN_SEAT)[:3])
    assert result.ok
    assert session.phase == "play"


def test_a_whole_hand_with_refusals_worded_for_the_player() -> None:
    session = TableSession.new_match(InlineBots(), ["easy", "easy", "easy"], seed=11)
    settle(session)
    session.pass_cards(session.controller.hand(HUMAN_SEAT)[-3:])
    refusals = 0
    while session.phase == "play":
        settle(session)
        if not session.person_must_play:
            continue
        legal = session.legal_cards()
        illegal = [c for c in session.controller.hand(HUMAN_SEAT) if c not in legal]
        if illegal:
            before = session.controller.hand(HUMAN_SEAT)
            result = session.play_card(illegal[0])
            assert not result.ok and result.error
            assert result.reason in REFUSAL_WORDS, result.reason
            worded = player_message(result, "fallback")
            assert worded != "fallback" and worded[0].isupper()
            # The table words the reason, not the engine's English message.
            assert player_message(replace(result, error="?"), "fallback") == worded
            assert session.controller.hand(HUMAN_SEAT) == before
            refusals += 1
        assert session.play_card(legal[0]).ok
    assert session.phase in ("hand_over", "match_over")
    assert refusals > 0


def test_undo_takes_back_the_bots_moves_after_the_persons_card() -> None:
    session = TableSession.new_match(InlineBots(), ["easy", "easy", "easy"], seed=5)
    settle(session)
    session.pass_cards(session.controller.hand(HUMAN_SEAT)[:3])
    settle(session)
    while not session.person_must_play:
        settle(session)
    hand_before = session.controller.hand(HUMAN_SEAT)
    actions_before = len(session.controller.match.hands[-1].actions)  # type: ignore[union-attr]
    session.play_card(session.legal_cards()[0])
    settle(session)
    assert session.person_must_play or session.phase != "play"
    assert session.undo().ok
    assert session.controller.hand(HUMAN_SEAT) == hand_before
    assert len(session.controller.match.hands[-1].actions) == actions_before  # type: ignore[union-attr]
    assert session.person_must_play
    assert session.redo().ok
    assert len(session.controller.hand(HUMAN_SEAT)) == len(hand_before) - 1


class _Recorder(InlineBots):
    """Inline bots that remember every observation they were asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[Observation] = []

    def submit(
        self, observation: Observation, bot_name: str, seed: int | None, limit_ms: float | None
    ) -> int:
        self.asked.append(observation)
        return super().submit(observation, bot_name, seed, limit_ms)


def test_answers_for_an_undone_position_are_dropped() -> None:
    bots = _Recorder()
    session = TableSession.new_match(bots, ["easy", "easy", "easy"], seed=9)
    settle(session)
    session.pass_cards(session.controller.hand(HUMAN_SEAT)[:3])
    while not session.person_must_play:
        settle(session)
    while True:
        session.play_card(session.legal_cards()[0])
        if session.controller.seats_to_act != [HUMAN_SEAT]:
            break
    session.update()  # the next bot is asked and answers
    assert session.has_ready_move()
    session.undo()  # its answer must not be played
    assert not session.thinking_seats() and not session.has_ready_move()
    session.update()
    assert not session.has_ready_move()
    assert session.person_must_play


def test_bots_are_asked_about_their_own_seat_only() -> None:
    bots = _Recorder()
    session = TableSession.new_match(bots, ["easy", "easy", "easy"], seed=2)
    settle(session)
    assert {observation.seat for observation in bots.asked} == {1, 2, 3}
    assert all(isinstance(observation, Observation) for observation in bots.asked)


def test_hint_comes_back_as_the_persons_legal_move() -> None:
    session = TableSession.new_match(InlineBots(), ["easy", "easy", "easy"], seed=4)
    settle(session)
    assert session.request_hint()
    session.update()
    session.update()
    assert session.hint is not None
    cards = session.hint.action
    assert len(cards) == 3 and all(c in session.controller.hand(HUMAN_SEAT) for c in cards)
    assert session.hint.values, "the analysis lists each candidate's value"
    assert all(isinstance(v, float) for v in session.hint.values.values())
    assert all(len(label.split()) == 3 for label in session.hint.values)
    assert card_text(cards[0]) in " ".join(session.hint.values)


def test_watch_mode_has_bots_at_every_seat() -> None:
    session = TableSession.new_match(InlineBots(), ["easy", "easy", "easy"], seed=8, watch=True)
    assert not session.person_plays
    for _ in range(2000):
        session.update()
        session.apply_ready()
        if session.phase in ("hand_over", "match_over"):
            break
    assert session.phase in ("hand_over", "match_over")
