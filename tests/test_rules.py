"""Every rule of the game as a scripted position or deal written with card strings."""

from __future__ import annotations

import pytest
from positions import masks, position

from core import events as ev
from core.cards import FULL_DECK, parse_card, parse_cards
from core.controller import Controller
from core.errors import IllegalActionError, RulesOptionError
from core.hand import HandState
from core.rules import RuleSet, pass_receiver
from core.scoring import match_winner, score_hand

# A deal where each seat holds one whole suit: seat 0 clubs, 1 diamonds, 2 spades, 3 hearts.
SUIT_DEAL = masks(
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
)


def legal_texts(hand: HandState, seat: int) -> set[str]:
    from core.cards import mask_texts

    return set(mask_texts(hand.legal_mask(seat)))


def refuse(hand: HandState, seat: int, card: str, reason: str) -> None:
    with pytest.raises(IllegalActionError, match=reason):
        hand.verify_play(seat, parse_card(card))
    assert not hand.can_play(seat, parse_card(card))


# -- leading and following ---------------------------------------------------------------------


def test_must_follow_suit() -> None:
    hand = position(["", "3C 9C AH KS", "", ""], leader=0, trick="5C")
    assert legal_texts(hand, 1) == {"3C", "9C"}
    refuse(hand, 1, "AH", "must follow suit: play a club")
    refuse(hand, 1, "KS", "must follow suit: play a club")


def test_void_may_play_anything_after_the_first_trick() -> None:
    hand = position(["", "AH KS 2D", "", ""], leader=0, trick="5C")
    assert legal_texts(hand, 1) == {"AH", "KS", "2D"}


def test_the_two_of_clubs_leads_the_first_trick() -> None:
    hand = position(["2C 9C AD", "", "", ""], leader=0, first_trick=True)
    assert legal_texts(hand, 0) == {"2C"}
    refuse(hand, 0, "9C", "the first trick must be led with the 2C")


def test_any_club_may_lead_with_that_option() -> None:
    rules = RuleSet(first_lead="any_club")
    hand = position(["2C 9C AD", "", "", ""], leader=0, first_trick=True, rules=rules)
    assert legal_texts(hand, 0) == {"2C", "9C"}
    refuse(hand, 0, "AD", "must be led with a club")


def test_no_points_on_the_first_trick() -> None:
    hand = position(["", "AH QS 3D", "", ""], leader=0, trick="2C", first_trick=True)
    assert legal_texts(hand, 1) == {"3D"}
    refuse(hand, 1, "AH", "no points on the first trick")
    refuse(hand, 1, "QS", "no points on the first trick")


def test_points_on_the_first_trick_when_nothing_else_is_held() -> None:
    hand = position(["", "AH QS 3H", "", ""], leader=0, trick="2C", first_trick=True)
    assert legal_texts(hand, 1) == {"AH", "QS", "3H"}


def test_points_on_the_first_trick_with_that_option_off() -> None:
    rules = RuleSet(no_points_first_trick=False)
    hand = position(["", "AH QS 3D", "", ""], leader=0, trick="2C", first_trick=True, rules=rules)
    assert legal_texts(hand, 1) == {"AH", "QS", "3D"}


def test_jack_of_diamonds_is_not_a_point_card_on_the_first_trick() -> None:
    rules = RuleSet(jack_of_diamonds=True)
    hand = position(["", "JD AH", "", ""], leader=0, trick="2C", first_trick=True, rules=rules)
    assert legal_texts(hand, 1) == {"JD"}


def test_hearts_may_not_be_led_until_broken() -> None:
    hand = position(["AH 3H 4C", "", "", ""], leader=0)
    assert legal_texts(hand, 0) == {"4C"}
    refuse(hand, 0, "AH", "hearts are not broken")


def test_hearts_may_be_led_when_only_hearts_are_held() -> None:
    hand = position(["AH 3H", "", "", ""], leader=0)
    assert legal_texts(hand, 0) == {"AH", "3H"}


def test_hearts_may_be_led_once_broken() -> None:
    hand = position(["AH 3H 4C", "", "", ""], leader=0, hearts_broken=True)
    assert legal_texts(hand, 0) == {"AH", "3H", "4C"}


def test_hearts_may_be_led_any_time_without_that_rule() -> None:
    hand = position(["AH 3H 4C", "", "", ""], leader=0, rules=RuleSet(must_break_hearts=False))
    assert legal_texts(hand, 0) == {"AH", "3H", "4C"}


def test_wrong_seat_and_unheld_cards_are_refused() -> None:
    hand = position(["4C", "5C", "6C", "7C"], leader=0)
    refuse(hand, 1, "5C", "it is seat 0's turn, not seat 1's")
    refuse(hand, 0, "9C", "you do not hold 9C")


# -- breaking hearts and winning tricks ----------------------------------------------------------


def test_a_heart_discard_breaks_hearts() -> None:
    hand = position(["5C", "AH 2D", "6C", "7C"], leader=0)
    hand.play(0, parse_card("5C"))
    events = hand.play(1, parse_card("AH"))
    assert ev.HeartsBroken(1, parse_card("AH")) in events
    assert hand.hearts_broken


@pytest.mark.parametrize("breaks", [True, False])
def test_the_queen_of_spades_breaks_hearts_only_with_that_option(breaks: bool) -> None:
    rules = RuleSet(queen_breaks_hearts=breaks)
    hand = position(["5C", "QS 2D", "6C", "7C"], leader=0, rules=rules)
    hand.play(0, parse_card("5C"))
    hand.play(1, parse_card("QS"))
    assert hand.hearts_broken is breaks


def test_highest_card_of_the_led_suit_takes_the_trick() -> None:
    hand = position(["5C 2D", "AH 3D", "9C 4D", "KS 5D"], leader=0)
    events = []
    for seat, card in enumerate(["5C", "AH", "9C", "KS"]):
        events += hand.play(seat, parse_card(card))
    won = [event for event in events if isinstance(event, ev.TrickWon)]
    assert won == [ev.TrickWon(2, 2, tuple(parse_cards("5C AH 9C KS")), 1)]
    assert hand.turn == 2
    assert hand.taken_points() == [0, 0, 1, 0]


# -- passing ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("direction", "offset"), [("left", 1), ("right", 3), ("across", 2), ("hold", 0)]
)
def test_pass_directions(direction: str, offset: int) -> None:
    assert all(pass_receiver(seat, direction) == (seat + offset) % 4 for seat in range(4))


def test_passes_are_exchanged_when_all_four_are_in_and_the_two_of_clubs_leads() -> None:
    hand = HandState.new(RuleSet(), "left", SUIT_DEAL)
    assert hand.phase == "pass"
    chosen = ["2C 3C 4C", "2D 3D 4D", "2S 3S 4S", "2H 3H 4H"]
    for seat in (3, 1, 0):
        hand.submit_pass(seat, parse_cards(chosen[seat]))
        assert hand.phase == "pass"
    events = hand.submit_pass(2, parse_cards(chosen[2]))
    assert isinstance(events[-1], ev.PassesExchanged)
    assert hand.phase == "play"
    # Seat 1 received the 2C from seat 0 and leads it.
    assert hand.turn == 1
    assert hand.hands[1] & masks("2C 3C 4C")[0]
    assert not hand.hands[0] & masks("2C 3C 4C")[0]


def test_bad_passes_are_refused() -> None:
    hand = HandState.new(RuleSet(), "across", SUIT_DEAL)
    with pytest.raises(IllegalActionError, match="exactly 3"):
        hand.verify_pass(0, parse_cards("2C 3C"))
    with pytest.raises(IllegalActionError, match="do not hold 2D"):
        hand.verify_pass(0, parse_cards("2C 3C 2D"))
    hand.submit_pass(0, parse_cards("2C 3C 4C"))
    with pytest.raises(IllegalActionError, match="already passed"):
        hand.verify_pass(0, parse_cards("5C 6C 7C"))
    with pytest.raises(IllegalActionError, match="pass three cards first"):
        hand.verify_play(0, parse_card("5C"))


def test_hold_hands_skip_passing() -> None:
    hand = HandState.new(RuleSet(), "hold", SUIT_DEAL)
    assert hand.phase == "play" and hand.turn == 0
    with pytest.raises(IllegalActionError, match="not the passing phase"):
        hand.verify_pass(0, parse_cards("2C 3C 4C"))


# -- scoring ---------------------------------------------------------------------------------------


def play_suit_deal(rules: RuleSet) -> HandState:
    """Seat 0 leads every club and takes every trick; the others discard lowest legal first."""
    hand = HandState.new(rules, "hold", SUIT_DEAL)
    while hand.phase == "play":
        seat = hand.turn
        assert seat is not None
        legal = hand.legal_mask(seat)
        hand.play(seat, (legal & -legal).bit_length() - 1)
    return hand


def test_shooting_the_moon_adds_26_to_the_others() -> None:
    hand = play_suit_deal(RuleSet())
    score = hand.score([0, 0, 0, 0])
    assert score.moon_shooter == 0
    assert score.taken_points == (26, 0, 0, 0)
    assert score.points == (0, 26, 26, 26)


def test_shooting_the_moon_subtracts_26_from_the_shooter() -> None:
    score = play_suit_deal(RuleSet(moon="subtract")).score([0, 0, 0, 0])
    assert score.points == (-26, 0, 0, 0)


def test_auto_moon_subtracts_only_when_adding_would_lose_the_match() -> None:
    hand = play_suit_deal(RuleSet(moon="auto"))
    assert hand.score([0, 0, 0, 0]).points == (0, 26, 26, 26)
    # Adding would end the match with seat 2 (46) below the shooter (60).
    assert hand.score([60, 95, 20, 50]).points == (-26, 0, 0, 0)
    # Adding ends the match with the shooter lowest: add.
    assert hand.score([10, 95, 20, 50]).points == (0, 26, 26, 26)


def test_queen_counts_13_and_hearts_one_each() -> None:
    taken = masks("QS 2H 3H", "4H 5H 6H 7H 8H 9H TH JH QH KH AH", "", "2C")
    score = score_hand(RuleSet(), taken, [1, 3, 0, 1], [0, 0, 0, 0])
    assert score.points == (15, 11, 0, 0)
    assert score.moon_shooter is None


def test_jack_of_diamonds_counts_minus_ten_with_that_option() -> None:
    taken = masks("QS JD", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "", "")
    assert score_hand(RuleSet(jack_of_diamonds=True), taken, [1] * 4, [0] * 4).points == (
        3,
        13,
        0,
        0,
    )
    assert score_hand(RuleSet(), taken, [1] * 4, [0] * 4).points == (13, 13, 0, 0)


def test_moon_with_the_jack_of_diamonds_elsewhere() -> None:
    taken = masks("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "JD", "", "")
    score = score_hand(RuleSet(jack_of_diamonds=True), taken, [1] * 4, [0] * 4)
    assert score.moon_shooter == 0
    assert score.points == (0, 16, 26, 26)


def test_no_tricks_bonus_with_that_option() -> None:
    taken = masks("QS 2H 3H", "4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2C", "")
    won = [4, 8, 1, 0]
    assert score_hand(RuleSet(no_tricks_bonus=True), taken, won, [0] * 4).points == (15, 11, 0, -5)
    assert score_hand(RuleSet(), taken, won, [0] * 4).points == (15, 11, 0, 0)


# -- the match -------------------------------------------------------------------------------------


def test_match_ends_at_the_end_score_with_a_single_lowest_total() -> None:
    assert match_winner([99, 0, 0, 0], 100) is None
    assert match_winner([100, 49, 50, 80], 100) == 1
    # A shared lowest total means play goes on.
    assert match_winner([100, 50, 50, 80], 100) is None


def test_a_scripted_match_ends_and_refuses_more_hands() -> None:
    controller = Controller()
    controller.new_match(RuleSet(end_score=20, pass_cycle=("hold",)), seed=3, seats=["bot"] * 4)
    events: list[ev.Event] = []
    while controller.phase == "play":
        seat = controller.seats_to_act[0]
        events += controller.play_card(seat, controller.legal_cards(seat)[0]).events
    assert controller.phase in ("hand_over", "match_over")
    scored = [event for event in events if isinstance(event, ev.HandScored)]
    assert len(scored) == 1 and scored[0].totals == controller.totals
    while controller.phase != "match_over":
        assert controller.next_hand().ok
        while controller.phase == "play":
            seat = controller.seats_to_act[0]
            controller.play_card(seat, controller.legal_cards(seat)[0])
    assert max(controller.totals) >= 20
    assert controller.winner == controller.totals.index(min(controller.totals))
    assert controller.next_hand().error == "the match is over"


def test_unknown_rule_options_are_refused() -> None:
    with pytest.raises(RulesOptionError, match="unknown rule option 'colour'"):
        RuleSet.from_dict({"colour": "red"})
    with pytest.raises(RulesOptionError, match="moon"):
        RuleSet(moon="sideways")
    with pytest.raises(RulesOptionError, match="pass_cycle"):
        RuleSet.from_dict({"pass_cycle": ["up"]})
    with pytest.raises(RulesOptionError, match="end_score"):
        RuleSet.from_dict({"end_score": True})
    assert RuleSet.from_dict(RuleSet(moon="auto").to_dict()) == RuleSet(moon="auto")


def test_an_observation_knows_who_played_each_card() -> None:
    dealt = [sum(1 << card for card in range(seat, 52, 4)) for seat in range(4)]
    hand = HandState.new(RuleSet(), "hold", dealt)
    played: list[int] = [0, 0, 0, 0]
    for _ in range(7):
        seat = hand.turn
        assert seat is not None
        card = min(c for c in range(52) if hand.legal_mask(seat) >> c & 1)
        hand.play(seat, card)
        played[seat] |= 1 << card
    observation = hand.observation(2, (0, 0, 0, 0))
    assert observation.played_by == tuple(played)
    assert observation.played_mask == sum(played)


@pytest.mark.parametrize("moon", ["add", "subtract"])
def test_no_tricks_bonus_counts_only_in_a_hand_without_a_moon(moon: str) -> None:
    rules = RuleSet(no_tricks_bonus=True, moon=moon)
    everything = masks("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")[0]
    taken = [FULL_DECK & ~everything, 0, everything, 0]  # seats 1 and 3 win no trick
    score = score_hand(rules, taken, [12, 0, 1, 0], [0] * 4)
    assert score.moon_shooter == 0
    assert score.points == ((0, 26, 26, 26) if moon == "add" else (-26, 0, 0, 0))
