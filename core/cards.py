"""Cards as ints 0..51 (suit * 13 + rank), card sets as 52-bit masks, and their text forms.

Suits are ordered clubs, diamonds, spades, hearts so that a sorted hand alternates colours;
ranks run 2..A. The text form is rank then suit: ``2C``, ``TH``, ``QS``.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.errors import CardError
from core.files import short_repr

RANKS = "23456789TJQKA"
SUITS = "CDSH"
SUIT_NAMES = ("club", "diamond", "spade", "heart")
SUIT_SYMBOLS = "\u2663\u2666\u2660\u2665"
CLUBS, DIAMONDS, SPADES, HEARTS = range(4)

DECK_SIZE = 52
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_MASKS = tuple(0x1FFF << (13 * suit) for suit in range(4))
HEARTS_MASK = SUIT_MASKS[HEARTS]


def make_card(rank: int, suit: int) -> int:
    """Return the card index of a rank (0 = two .. 12 = ace) and a suit (0..3)."""
    return suit * 13 + rank


TWO_OF_CLUBS = make_card(0, CLUBS)
QUEEN_OF_SPADES = make_card(10, SPADES)
JACK_OF_DIAMONDS = make_card(9, DIAMONDS)
POINT_CARDS_MASK = HEARTS_MASK | (1 << QUEEN_OF_SPADES)


def suit_of(card: int) -> int:
    """Return the suit (0..3) of a card."""
    return card // 13


def rank_of(card: int) -> int:
    """Return the rank (0 = two .. 12 = ace) of a card."""
    return card % 13


def card_text(card: int) -> str:
    """Return the two-character text form of a card, e.g. ``QS``."""
    return RANKS[card % 13] + SUITS[card // 13]


def card_label(card: int) -> str:
    """Return a card with its suit symbol, e.g. ``Q♠``, for people to read."""
    return RANKS[card % 13].replace("T", "10") + SUIT_SYMBOLS[card // 13]


def parse_card(text: object) -> int:
    """Parse one card from its text form (case-insensitive, ``10`` accepted for ``T``)."""
    if not isinstance(text, str):
        raise CardError(f"a card must be a string like 'QS', got {type(text).__name__}")
    cleaned = text.strip().upper()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    if len(cleaned) != 2 or cleaned[0] not in RANKS or cleaned[1] not in SUITS:
        raise CardError(
            f"not a card: {short_repr(text)} (expected rank {RANKS} and suit {SUITS}, e.g. 'QS')"
        )
    return make_card(RANKS.index(cleaned[0]), SUITS.index(cleaned[1]))


def parse_cards(cards: str | Iterable[object], *, allow_duplicates: bool = False) -> list[int]:
    """Parse cards from a list of strings or one string separated by spaces or commas."""
    if isinstance(cards, str):
        items: list[object] = [part for part in cards.replace(",", " ").split() if part]
    else:
        try:
            items = list(cards)
        except TypeError:
            raise CardError(f"expected a list of cards, got {short_repr(cards)}") from None
    parsed = [parse_card(item) for item in items]
    if not allow_duplicates and len(set(parsed)) != len(parsed):
        seen: set[int] = set()
        for card in parsed:
            if card in seen:
                raise CardError(f"card {card_text(card)} is listed twice")
            seen.add(card)
    return parsed


def mask_of(cards: Iterable[int]) -> int:
    """Return the mask holding the given card indices."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Return the cards in a mask, lowest index first (clubs 2..A, diamonds, spades, hearts)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def count(mask: int) -> int:
    """Return how many cards a mask holds."""
    return mask.bit_count()


def mask_texts(mask: int) -> list[str]:
    """Return the text forms of the cards in a mask, sorted."""
    return [card_text(card) for card in cards_of(mask)]


def has_card(mask: int, card: int) -> bool:
    """Return whether a mask holds a card."""
    return (mask >> card) & 1 == 1
