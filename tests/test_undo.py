"""Undo back to a seat's last decision: the one loop every front end uses."""

from __future__ import annotations

from core.controller import Controller


def started(seed: int = 8) -> Controller:
    """Return a match in play after all four passes."""
    controller = Controller()
    assert controller.new_match(seed=seed).ok
    for seat in range(4):
        assert controller.submit_pass(seat, controller.hand(seat)[:3]).ok
    return controller


def play(controller: Controller, moves: int) -> None:
    """Play the first legal card of the seat to move, ``moves`` times."""
    for _ in range(moves):
        seat = controller.seats_to_act[0]
        assert controller.play_card(seat, controller.legal_cards(seat)[0]).ok


def actions(controller: Controller) -> list[tuple[int, str]]:
    """Return the current hand's actions as (seat, text)."""
    match = controller.match
    assert match is not None
    return [(action.seat, action.text) for action in match.hands[-1].actions]


def test_undo_until_takes_back_the_seats_last_move_and_everything_after() -> None:
    controller = started()
    play(controller, 6)
    before = actions(controller)
    last_of_seat_0 = max(index for index, (seat, _) in enumerate(before) if seat == 0)
    result = controller.undo_until([0])
    assert result.ok and len(result.events) == len(before) - last_of_seat_0
    assert actions(controller) == before[:last_of_seat_0]
    assert [action.text for action in controller.redo_actions][::-1] == [
        text for _, text in before[last_of_seat_0:]
    ]


def test_undo_until_without_seats_takes_back_the_whole_hand() -> None:
    controller = started()
    play(controller, 5)
    assert controller.undo_until([]).ok
    assert actions(controller) == []


def test_undo_until_is_refused_when_the_seats_have_not_moved() -> None:
    controller = Controller()
    assert controller.new_match(seed=8).ok
    assert controller.submit_pass(1, controller.hand(1)[:3]).ok
    before = actions(controller)
    result = controller.undo_until([0])
    assert not result.ok and result.reason == "nothing_to_undo"
    assert actions(controller) == before


def test_redo_until_applies_the_moves_again_up_to_the_seats_next_decision() -> None:
    controller = started()
    play(controller, 9)
    before = actions(controller)
    assert controller.undo_until([0]).ok
    undone = actions(controller)
    result = controller.redo_until([0])
    redone = actions(controller)
    assert result.ok and redone == before[: len(redone)]
    # Seat 0's move and the others' after it came back, up to seat 0's next turn.
    assert len(redone) > len(undone) + 1
    assert controller.seats_to_act == [0] or not controller.can_redo


def test_redo_until_stops_at_the_seats_next_turn_with_more_left_to_redo() -> None:
    controller = started()
    play(controller, 12)  # three tricks: seat 0 plays in each
    before = actions(controller)
    assert controller.undo_until([]).ok  # no seat: the whole hand
    assert actions(controller) == []
    assert controller.redo_until([0]).ok
    assert controller.seats_to_act == [0] and controller.can_redo
    assert actions(controller) == before[: len(actions(controller))]
    assert controller.redo_until([]).ok  # no seat: everything left
    assert actions(controller) == before and not controller.can_redo


def test_redo_until_is_refused_with_nothing_to_redo() -> None:
    controller = started()
    result = controller.redo_until([0])
    assert not result.ok and result.reason == "nothing_to_redo"


def test_undo_until_never_takes_back_a_pass_once_the_cards_are_exchanged() -> None:
    controller = started()
    before = actions(controller)
    result = controller.undo_until([0])
    assert not result.ok and result.reason == "nothing_to_undo"
    assert result.details.get("exchanged") is True
    assert "exchanged" in (result.error or "")
    assert not controller.can_undo_until([0])
    assert actions(controller) == before
    while controller.seats_to_act != [0]:
        play(controller, 1)
    card = controller.legal_cards(0)[0]
    assert controller.play_card(0, card).ok
    assert controller.can_undo_until([0])
    assert controller.undo_until([0]).ok
    assert card in controller.hand(0)
    assert not controller.undo_until([0]).ok  # and no further than the exchange
    assert controller.undo_until([]).ok  # the whole hand, for no seat in particular
    assert actions(controller) == []


def test_undo_until_takes_back_a_pass_before_the_exchange() -> None:
    controller = Controller()
    assert controller.new_match(seed=8).ok
    assert controller.submit_pass(0, controller.hand(0)[:3]).ok
    assert controller.submit_pass(1, controller.hand(1)[:3]).ok
    assert controller.can_undo_until([0])
    assert controller.undo_until([0]).ok
    assert actions(controller) == []
