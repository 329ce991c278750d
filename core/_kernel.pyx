# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled kernel: the rules' hot paths on 52-bit masks (twin of ``core.kernel_py``)."""

from core._bits cimport (
    JACK_OF_DIAMONDS_FLAG,
    MDH_POINT_CARDS,
    MDH_TWO_OF_CLUBS,
    MUST_BREAK_HEARTS,
    NO_TRICKS_BONUS,
    QUEEN_BREAKS_HEARTS,
    QUEEN_OF_SPADES,
    c_legal_mask,
    c_next,
    c_nth_card,
    c_trick_points,
    mdh_popcount,
    u64,
)


cdef int c_random_playout(u64 seed, int flags, int* points) noexcept nogil:
    """Play one random hand into ``points``; return the moon shooter or -1."""
    cdef u64 state = seed
    cdef int deck[52]
    cdef u64 hands[4]
    cdef u64 taken[4]
    cdef int tricks_won[4]
    cdef int i, j, tmp, leader, trick_index, position, seat, led, best, winner, card, shooter
    cdef u64 legal, trick, value
    cdef bint hearts_broken
    for i in range(52):
        deck[i] = i
    for i in range(51, 0, -1):
        value = c_next(&state)
        j = <int>(((value >> 32) * <u64>(i + 1)) >> 32)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    for i in range(4):
        hands[i] = 0
        taken[i] = 0
        tricks_won[i] = 0
        points[i] = 0
    for i in range(52):
        hands[i & 3] |= (<u64>1) << deck[i]
    leader = 0
    while not hands[leader] & MDH_TWO_OF_CLUBS:
        leader += 1
    hearts_broken = not (flags & MUST_BREAK_HEARTS)
    for trick_index in range(13):
        led = -1
        best = -1
        winner = leader
        trick = 0
        for position in range(4):
            seat = (leader + position) & 3
            legal = c_legal_mask(hands[seat], led, trick_index == 0, hearts_broken, flags)
            value = c_next(&state)
            card = c_nth_card(legal, <int>(((value >> 32) * <u64>mdh_popcount(legal)) >> 32))
            hands[seat] ^= (<u64>1) << card
            trick |= (<u64>1) << card
            if position == 0:
                led = card // 13
                best = card
            elif card // 13 == led and card > best:
                best = card
                winner = seat
            if card >= 39 or (card == QUEEN_OF_SPADES and flags & QUEEN_BREAKS_HEARTS):
                hearts_broken = True
        points[winner] += c_trick_points(trick, flags)
        taken[winner] |= trick
        tricks_won[winner] += 1
        leader = winner
    shooter = -1
    for seat in range(4):
        if taken[seat] & MDH_POINT_CARDS == MDH_POINT_CARDS:
            shooter = seat
            for i in range(4):
                points[i] += -26 if i == seat else 26
    if shooter < 0 and flags & NO_TRICKS_BONUS:
        for seat in range(4):
            if tricks_won[seat] == 0:
                points[seat] -= 5
    return shooter


def legal_mask(u64 hand, int led_suit, bint first_trick, bint hearts_broken, int flags):
    """Return the mask of cards in ``hand`` that may be played (led_suit -1 when leading)."""
    return c_legal_mask(hand, led_suit, first_trick, hearts_broken, flags)


def trick_winner_offset(int c0, int c1, int c2, int c3):
    """Return the position (0..3, in play order) of the winning card of a full trick."""
    cdef int led = c0 // 13
    cdef int best = c0
    cdef int offset = 0
    if c1 // 13 == led and c1 > best:
        best = c1
        offset = 1
    if c2 // 13 == led and c2 > best:
        best = c2
        offset = 2
    if c3 // 13 == led and c3 > best:
        offset = 3
    return offset


def trick_points(u64 trick, int flags):
    """Return the points in a mask of taken cards: hearts 1, Q♠ 13, J♦ −10 with that option."""
    return c_trick_points(trick, flags)


def next_random(u64 state):
    """Advance a splitmix64 generator: return (64-bit output, new state)."""
    cdef u64 value = c_next(&state)
    return value, state


def random_playout(u64 seed, int flags):
    """Deal at random and play 13 random legal tricks; return (points, moon shooter or -1)."""
    cdef int points[4]
    cdef int shooter = c_random_playout(seed, flags, points)
    return (points[0], points[1], points[2], points[3]), shooter


def random_playouts(long long count, u64 seed, int flags):
    """Run ``count`` random playouts with seeds seed, seed+1, ...; return point sums and moons."""
    cdef long long index
    cdef long long totals[4]
    cdef int points[4]
    cdef long long moons = 0
    cdef int seat
    for seat in range(4):
        totals[seat] = 0
    with nogil:
        for index in range(count):
            if c_random_playout(seed + <u64>index, flags, points) >= 0:
                moons += 1
            for seat in range(4):
                totals[seat] += points[seat]
    return (totals[0], totals[1], totals[2], totals[3]), moons
