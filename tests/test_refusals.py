"""Every refusal carries a reason code and its data, so front ends word it without parsing."""

from __future__ import annotations

from typing import Any

import pytest
from positions import position

from core.cards import card_text, parse_card, suit_of
from core.controller import Controller, Result
from core.errors import REFUSAL_REASONS, IllegalActionError
from core.rules import RuleSet

SEEN: set[str] = set()


def expect(result: Result, reason: str, **details: Any) -> None:
    """Check a refused result's reason and data, and note the reason as covered."""
    assert not result.ok and result.error
    assert result.reason == reason, (result.reason, result.error)
    for key, value in details.items():
        assert result.details[key] == value
    assert result.to_dict()["reason"] == reason
    SEEN.add(reason)


def expect_play(hand: Any, seat: int, played: str, reason: str, **details: Any) -> None:
    """Check the rules engine refuses a play for ``reason``."""
    with pytest.raises(IllegalActionError) as refused:
        hand.verify_play(seat, parse_card(played))
    assert refused.value.reason == reason and refused.value.details == details
    SEEN.add(reason)


def finish_hand(controller: Controller) -> None:
    """Play every seat's first legal choice until the hand is over."""
    while controller.phase in ("pass", "play"):
        seat = controller.seats_to_act[0]
        if controller.phase == "pass":
            assert controller.submit_pass(seat, controller.hand(seat)[:3]).ok
        else:
            assert controller.play_card(seat, controller.legal_cards(seat)[0]).ok


def test_commands_are_refused_with_their_reason() -> None:
    expect(Controller().play_card(0, "2C"), "no_match")
    expect(Controller().undo(), "no_match")
    controller = Controller()
    assert controller.new_match(seed=3, rules={"end_score": 1}).ok
    expect(controller.play_card(0, "ZZ"), "bad_input")
    expect(controller.undo(), "nothing_to_undo")
    expect(controller.redo(), "nothing_to_redo")
    expect(controller.next_hand(), "hand_not_over")
    hand = controller.hand(0)
    expect(controller.submit_pass(0, hand[:2]), "pass_three_cards")
    expect(controller.submit_pass(7, hand[:3]), "no_such_seat", seat=7)
    missing = next(card for card in range(52) if card not in hand)
    expect(controller.submit_pass(0, [*hand[:2], missing]), "card_not_held", card=missing)
    expect(controller.play_card(0, hand[0]), "must_pass_first")
    assert controller.submit_pass(0, hand[:3]).ok
    expect(controller.submit_pass(0, hand[3:6]), "already_passed", seat=0)
    for seat in (1, 2, 3):
        assert controller.submit_pass(seat, controller.hand(seat)[:3]).ok
    expect(controller.submit_pass(0, controller.hand(0)[:3]), "not_passing")
    leader = controller.seats_to_act[0]
    other = (leader + 1) % 4
    expect(controller.play_card(other, controller.hand(other)[0]), "not_your_turn", turn=leader)
    not_two = next(card for card in controller.hand(leader) if card_text(card) != "2C")
    expect(controller.play_card(leader, not_two), "first_lead_two_of_clubs")
    finish_hand(controller)
    expect(controller.play_card(0, "2C"), "hand_over")
    expect(controller.next_hand(), "match_over")


def test_plays_are_refused_with_the_rule_broken() -> None:
    following = position(["", "3C 9C AH KS", "", ""], leader=0, trick="5C")
    expect_play(following, 1, "AH", "must_follow_suit", suit=suit_of(parse_card("5C")))
    first = position(["", "AH QS 2D", "", ""], leader=0, trick="2C", first_trick=True)
    expect_play(first, 1, "AH", "no_points_first_trick")
    leading = position(["2C 9C AD", "", "", ""], leader=0, first_trick=True)
    expect_play(leading, 0, "9C", "first_lead_two_of_clubs")
    any_club = RuleSet(first_lead="any_club")
    club = position(["2C 9C AD", "", "", ""], leader=0, first_trick=True, rules=any_club)
    expect_play(club, 0, "AD", "first_lead_club")
    hearts = position(["AH 3D", "", "", ""], leader=0)
    expect_play(hearts, 0, "AH", "hearts_not_broken")
    expect_play(hearts, 0, "KS", "card_not_held", card=parse_card("KS"))


def test_every_reason_is_produced_by_some_refusal() -> None:
    SEEN.clear()
    test_commands_are_refused_with_their_reason()
    test_plays_are_refused_with_the_rule_broken()
    assert set(REFUSAL_REASONS) == SEEN


def test_an_unknown_reason_is_a_bug() -> None:
    with pytest.raises(ValueError, match="unknown refusal reason"):
        IllegalActionError("no", "because")
