"""Pure-Python twin of the compiled kernel ``core._kernel``: the rules' hot paths on masks.

Every function here has a compiled namesake with identical results (tests compare them on many
random positions). Cards are ints 0..51 (suit * 13 + rank), hands are 52-bit masks, and rule
options come as the bit flags of ``RuleSet.flags``.
"""

from __future__ import annotations

from core.cards import HEARTS_MASK as _HEARTS
from core.cards import JACK_OF_DIAMONDS as _JACK_OF_DIAMONDS
from core.cards import POINT_CARDS_MASK as _POINT_CARDS
from core.cards import QUEEN_OF_SPADES as _QUEEN_OF_SPADES
from core.cards import SUIT_MASKS as _SUIT
from core.rules import FLAG_ANY_CLUB_LEAD as _ANY_CLUB_LEAD
from core.rules import FLAG_JACK_OF_DIAMONDS as _JACK_OF_DIAMONDS_FLAG
from core.rules import FLAG_MUST_BREAK_HEARTS as _MUST_BREAK_HEARTS
from core.rules import FLAG_NO_POINTS_FIRST_TRICK as _NO_POINTS_FIRST_TRICK
from core.rules import FLAG_NO_TRICKS_BONUS as _NO_TRICKS_BONUS
from core.rules import FLAG_QUEEN_BREAKS_HEARTS as _QUEEN_BREAKS_HEARTS

_CLUBS = _SUIT[0]
#: The mask of the 2♣ (card 0).
TWO_OF_CLUBS_MASK = 1
#: The 64 bits of the generator's state.
MASK64 = (1 << 64) - 1
_TWO_OF_CLUBS = TWO_OF_CLUBS_MASK
_MASK64 = MASK64


def legal_mask(hand: int, led_suit: int, first_trick: bool, hearts_broken: bool, flags: int) -> int:
    """Return the mask of cards in ``hand`` that may be played.

    ``led_suit`` is the suit led in the current trick, or -1 when this seat leads.
    """
    if led_suit >= 0:
        # Follow suit when you can.
        follow = hand & _SUIT[led_suit]
        if follow:
            return follow
        # Void on the first trick: no hearts and no Q♠ unless nothing else is held.
        if first_trick and flags & _NO_POINTS_FIRST_TRICK:
            safe = hand & ~_POINT_CARDS
            if safe:
                return safe
        return hand
    # The first lead of the hand is the 2♣ (or any club with that option).
    if first_trick:
        if flags & _ANY_CLUB_LEAD:
            return hand & _CLUBS
        return hand & _TWO_OF_CLUBS
    # Hearts may not be led until broken, unless the leader holds only hearts.
    if not hearts_broken and flags & _MUST_BREAK_HEARTS:
        others = hand & ~_HEARTS
        if others:
            return others
    return hand


def trick_winner_offset(c0: int, c1: int, c2: int, c3: int) -> int:
    """Return the position (0..3, in play order) of the winning card of a full trick."""
    led = c0 // 13
    best = c0
    offset = 0
    for position, card in ((1, c1), (2, c2), (3, c3)):
        if card // 13 == led and card > best:
            best = card
            offset = position
    return offset


def trick_points(trick: int, flags: int) -> int:
    """Return the points in a mask of taken cards: hearts 1, Q♠ 13, J♦ −10 with that option."""
    points = (trick & _HEARTS).bit_count()
    if trick >> _QUEEN_OF_SPADES & 1:
        points += 13
    if flags & _JACK_OF_DIAMONDS_FLAG and trick >> _JACK_OF_DIAMONDS & 1:
        points -= 10
    return points


def next_random(state: int) -> tuple[int, int]:
    """Advance a splitmix64 generator: return (64-bit output, new state)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31), state


def _nth_card(mask: int, index: int) -> int:
    for _ in range(index):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def random_playout(seed: int, flags: int) -> tuple[tuple[int, int, int, int], int]:
    """Deal at random, play 13 tricks of uniformly random legal cards.

    Returns the hand points of the four seats and the seat that shot the moon (-1 if none).
    Moon scoring adds 26 to the others; the no-tricks bonus applies when its flag is set.
    """
    state = seed & _MASK64
    deck = list(range(52))
    for i in range(51, 0, -1):
        value, state = next_random(state)
        j = ((value >> 32) * (i + 1)) >> 32
        deck[i], deck[j] = deck[j], deck[i]
    hands = [0, 0, 0, 0]
    for i, card in enumerate(deck):
        hands[i & 3] |= 1 << card
    leader = 0
    while not hands[leader] & _TWO_OF_CLUBS:
        leader += 1
    hearts_broken = not flags & _MUST_BREAK_HEARTS
    points = [0, 0, 0, 0]
    taken = [0, 0, 0, 0]
    tricks_won = [0, 0, 0, 0]
    for trick_index in range(13):
        led = -1
        best = -1
        winner = leader
        trick = 0
        for position in range(4):
            seat = (leader + position) & 3
            legal = legal_mask(hands[seat], led, trick_index == 0, hearts_broken, flags)
            value, state = next_random(state)
            card = _nth_card(legal, ((value >> 32) * legal.bit_count()) >> 32)
            hands[seat] ^= 1 << card
            trick |= 1 << card
            if position == 0:
                led = card // 13
                best = card
            elif card // 13 == led and card > best:
                best = card
                winner = seat
            if card >= 39 or (card == _QUEEN_OF_SPADES and flags & _QUEEN_BREAKS_HEARTS):
                hearts_broken = True
        points[winner] += trick_points(trick, flags)
        taken[winner] |= trick
        tricks_won[winner] += 1
        leader = winner
    shooter = -1
    for seat in range(4):
        if taken[seat] & _POINT_CARDS == _POINT_CARDS:
            shooter = seat
            for other in range(4):
                points[other] += -26 if other == seat else 26
    if shooter < 0 and flags & _NO_TRICKS_BONUS:
        for seat in range(4):
            if tricks_won[seat] == 0:
                points[seat] -= 5
    return (points[0], points[1], points[2], points[3]), shooter


def random_playouts(count: int, seed: int, flags: int) -> tuple[tuple[int, int, int, int], int]:
    """Run ``count`` random playouts with seeds seed, seed+1, ...; return point sums and moons."""
    totals = [0, 0, 0, 0]
    moons = 0
    for index in range(count):
        points, shooter = random_playout(seed + index, flags)
        for seat in range(4):
            totals[seat] += points[seat]
        if shooter >= 0:
            moons += 1
    return (totals[0], totals[1], totals[2], totals[3]), moons
