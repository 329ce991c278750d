"""Card text forms and masks."""

from __future__ import annotations

import pytest

from core.cards import (
    QUEEN_OF_SPADES,
    TWO_OF_CLUBS,
    card_label,
    card_text,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
)
from core.errors import CardError


def test_every_card_round_trips_through_text() -> None:
    texts = {card_text(card) for card in range(52)}
    assert len(texts) == 52
    for card in range(52):
        assert parse_card(card_text(card)) == card
        assert parse_card(card_text(card).lower()) == card


def test_known_cards() -> None:
    assert parse_card("2C") == TWO_OF_CLUBS == 0
    assert parse_card("qs") == QUEEN_OF_SPADES
    assert parse_card("10h") == parse_card("TH")
    assert card_label(parse_card("TH")) == "10♥"


@pytest.mark.parametrize("bad", ["", "Q", "QSS", "1C", "QX", "ZS", " ", "Q S", None, 12, ["QS"]])
def test_bad_cards_are_rejected_with_a_clear_error(bad: object) -> None:
    with pytest.raises(CardError, match="card"):
        parse_card(bad)


def test_parse_cards_accepts_lists_and_strings_and_rejects_duplicates() -> None:
    assert parse_cards("QS, AH KH") == parse_cards(["QS", "AH", "KH"])
    with pytest.raises(CardError, match="twice"):
        parse_cards("QS qs")
    with pytest.raises(CardError):
        parse_cards(5)  # type: ignore[arg-type]


def test_masks_and_sorted_order_alternate_colours() -> None:
    cards = parse_cards("AH 2C QS 5D")
    assert [card_text(card) for card in cards_of(mask_of(cards))] == ["2C", "5D", "QS", "AH"]


def test_a_long_card_argument_is_cut_in_the_message() -> None:
    with pytest.raises(CardError) as caught:
        parse_card("Q" * 100_000)
    message = str(caught.value)
    assert message.startswith("not a card: 'QQQQ") and "...' (expected rank" not in message
    assert len(message) < 120 and "..." in message
    with pytest.raises(CardError) as caught:
        parse_cards(["QS", "X" * 100_000])
    assert len(str(caught.value)) < 120
    with pytest.raises(CardError, match="not a card: 'ZZ' "):
        parse_card("ZZ")
