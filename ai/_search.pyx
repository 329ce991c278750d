# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled search kernel (twin of ``ai.search_py``, whose notes describe the rollout policy,
the exact search, the cost and the sampling): deals, rollouts, exact endgames in C."""

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_for

from libc.math cimport exp, fabs, floor, isfinite, log, log1p
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from core._bits cimport (
    ANY_CLUB_LEAD,
    JACK_OF_DIAMONDS_FLAG,
    MDH_CLUBS,
    MDH_HEARTS,
    MDH_JACK_OF_DIAMONDS_BIT,
    MDH_POINT_CARDS,
    MDH_QUEEN_BIT,
    MDH_SPADES,
    MDH_TWO_OF_CLUBS,
    MUST_BREAK_HEARTS,
    NO_POINTS_FIRST_TRICK,
    NO_TRICKS_BONUS,
    QUEEN_BREAKS_HEARTS,
    QUEEN_OF_SPADES,
    c_legal_mask,
    c_next,
    c_nth_card,
    c_trick_points,
    mdh_ctz,
    mdh_highest,
    mdh_mul,
    mdh_popcount,
    suit_mask,
    u64,
)

ctypedef long long i64

EPSILON = 13107
HIGH_LEAD_RANK = 8
RUN_HEARTS = 4
RUN_LOSERS = 2
cdef int C_EPSILON = EPSILON
cdef int C_HIGH_LEAD_RANK = HIGH_LEAD_RANK
cdef int C_RUN_HEARTS = RUN_HEARTS
cdef int C_RUN_LOSERS = RUN_LOSERS


cdef struct Pos:
    u64 hands[4]
    u64 taken[4]
    int trick[4]
    int count
    int leader
    int trick_index
    int broken


cdef struct Goal:
    int seat
    int scores[4]
    int end_score
    int match_weight
    int moon_shift[4]








cdef inline u64 c_below(u64* state, u64 n) noexcept nogil:
    """Return an exact uniform draw in [0, n) (no draw when n is 1)."""
    cdef u64 high, low, threshold
    if n == 1:
        return 0
    low = mdh_mul(c_next(state), n, &high)
    if low < n:
        threshold = (<u64>0 - n) % n
        while low < threshold:
            low = mdh_mul(c_next(state), n, &high)
    return high




cdef inline u64 c_legal(const Pos* pos, int flags) noexcept nogil:
    cdef int seat = (pos.leader + pos.count) & 3
    cdef int led = pos.trick[0] // 13 if pos.count else -1
    return c_legal_mask(pos.hands[seat], led, pos.trick_index == 0, pos.broken, flags)


cdef inline void c_apply(Pos* pos, int card, int flags) noexcept nogil:
    cdef int seat = (pos.leader + pos.count) & 3
    cdef int best, winner, position, played
    cdef u64 mask
    pos.hands[seat] ^= (<u64>1) << card
    pos.trick[pos.count] = card
    pos.count += 1
    if card >= 39 or (card == QUEEN_OF_SPADES and flags & QUEEN_BREAKS_HEARTS):
        pos.broken = 1
    if pos.count == 4:
        best = pos.trick[0]
        winner = 0
        mask = (<u64>1) << best
        for position in range(1, 4):
            played = pos.trick[position]
            mask |= (<u64>1) << played
            if played // 13 == best // 13 and played > best:
                best = played
                winner = position
        winner = (pos.leader + winner) & 3
        pos.taken[winner] |= mask
        pos.leader = winner
        pos.count = 0
        pos.trick_index += 1


cdef inline bint c_settled(const Pos* pos, int flags) noexcept nogil:
    cdef u64 relevant = MDH_POINT_CARDS
    if pos.count:
        return False
    if pos.trick_index >= 13:
        return True
    if flags & JACK_OF_DIAMONDS_FLAG:
        relevant |= MDH_JACK_OF_DIAMONDS_BIT
    if (pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]) & relevant:
        return False
    if flags & NO_TRICKS_BONUS:
        return pos.taken[0] != 0 and pos.taken[1] != 0 and pos.taken[2] != 0 and pos.taken[3] != 0
    return True


cdef int c_score(const Pos* pos, int flags, int* points) noexcept nogil:
    cdef int seat, other
    cdef int shooter = -1
    for seat in range(4):
        points[seat] = c_trick_points(pos.taken[seat], flags)
    for seat in range(4):
        if pos.taken[seat] & MDH_POINT_CARDS == MDH_POINT_CARDS:
            shooter = seat
            for other in range(4):
                points[other] += -26 if other == seat else 26
    if shooter < 0 and flags & NO_TRICKS_BONUS:
        for seat in range(4):
            if not pos.taken[seat]:
                points[seat] -= 5
    return shooter


cdef int c_lead(u64 hand, u64 legal) noexcept nogil:
    cdef u64 allowed = legal
    cdef u64 cards
    cdef int suit, low, rank, key
    cdef int best_key = 1 << 30
    cdef int best_card = -1
    if allowed & ~MDH_HEARTS:
        allowed &= ~MDH_HEARTS
    if hand & MDH_QUEEN_BIT and allowed & ~MDH_SPADES:
        allowed &= ~MDH_SPADES
    for suit in range(4):
        cards = allowed & suit_mask(suit)
        if cards:
            low = mdh_ctz(cards)
            rank = low - 13 * suit
            key = (1024 if rank >= C_HIGH_LEAD_RANK else 0) + mdh_popcount(hand & suit_mask(suit)) * 16
            key += rank
            if key < best_key:
                best_key = key
                best_card = low
    return best_card


cdef inline int c_sure_winners(u64 hand, u64 others) noexcept nogil:
    cdef u64 mine, theirs
    cdef int suit
    cdef int winners = 0
    for suit in range(4):
        mine = hand & suit_mask(suit)
        theirs = others & suit_mask(suit)
        if theirs:
            mine &= ~(((<u64>2) << mdh_highest(theirs)) - 1)
        winners += mdh_popcount(mine)
    return winners


cdef inline int c_runner(const Pos* pos) noexcept nogil:
    cdef int seat
    cdef int runner = -1
    cdef u64 hand, others
    for seat in range(4):
        if pos.taken[seat] & MDH_POINT_CARDS:
            if runner >= 0:
                return -1
            runner = seat
    if runner < 0:
        return -1
    if mdh_popcount(pos.taken[runner] & MDH_HEARTS) >= C_RUN_HEARTS:
        return runner
    hand = pos.hands[runner]
    others = 0
    for seat in range(4):
        if seat != runner:
            others |= pos.hands[seat]
    if hand and others and mdh_popcount(hand) - c_sure_winners(hand, others) <= C_RUN_LOSERS:
        return runner
    return -1


cdef inline int c_winning(const Pos* pos, int* best) noexcept nogil:
    cdef int led = pos.trick[0] // 13
    cdef int winner = 0
    cdef int position, card
    best[0] = pos.trick[0]
    for position in range(1, pos.count):
        card = pos.trick[position]
        if card // 13 == led and card > best[0]:
            best[0] = card
            winner = position
    return winner


cdef inline int c_follow(int best, bint last, u64 legal) noexcept nogil:
    cdef u64 under = legal & (((<u64>1) << best) - 1)
    cdef u64 safe
    if under:
        return mdh_highest(under)
    safe = legal & ~MDH_QUEEN_BIT
    if not safe:
        return QUEEN_OF_SPADES
    return mdh_highest(safe) if last else mdh_ctz(safe)


cdef inline int c_top(u64 cards) noexcept nogil:
    cdef u64 held
    cdef int suit, card
    cdef int best_card = -1
    cdef int best_rank = -1
    for suit in range(3, -1, -1):
        held = cards & suit_mask(suit)
        if held:
            card = mdh_highest(held)
            if card - 13 * suit > best_rank:
                best_rank = card - 13 * suit
                best_card = card
    return best_card


cdef inline int c_bottom(u64 cards) noexcept nogil:
    cdef u64 held
    cdef int suit, card
    cdef int best_card = -1
    cdef int best_rank = 13
    for suit in range(4):
        held = cards & suit_mask(suit)
        if held:
            card = mdh_ctz(held)
            if card - 13 * suit < best_rank:
                best_rank = card - 13 * suit
                best_card = card
    return best_card


cdef inline int c_discard(u64 legal) noexcept nogil:
    cdef u64 hearts
    if legal & MDH_QUEEN_BIT:
        return QUEEN_OF_SPADES
    hearts = legal & MDH_HEARTS
    if hearts:
        return mdh_highest(hearts)
    return c_top(legal)


cdef int c_policy(const Pos* pos, int flags, u64* state, int epsilon) noexcept nogil:
    cdef u64 legal = c_legal(pos, flags)
    cdef int n = mdh_popcount(legal)
    cdef int seat, runner, best, position
    cdef bint following, defending
    cdef u64 value, plain
    if n == 1:
        return mdh_ctz(legal)
    if epsilon > 0:
        value = c_next(state)
        if <int>(value & 0xFFFF) < epsilon:
            return c_nth_card(legal, <int>(((value >> 32) * <u64>n) >> 32))
    seat = (pos.leader + pos.count) & 3
    runner = c_runner(pos)
    following = pos.count > 0 and (legal & suit_mask(pos.trick[0] // 13)) != 0
    if runner == seat:
        if pos.count == 0 or following:
            return c_top(legal)
        plain = legal & ~MDH_POINT_CARDS
        return c_bottom(plain if plain else legal)
    if pos.count == 0:
        return c_lead(pos.hands[seat], legal)
    position = c_winning(pos, &best)
    defending = runner >= 0 and ((pos.leader + position) & 3) == runner
    if following:
        if defending:
            return mdh_highest(legal) if legal >> best > 1 else mdh_ctz(legal)
        return c_follow(best, pos.count == 3, legal)
    if defending:
        plain = legal & ~MDH_POINT_CARDS
        return c_discard(plain) if plain else c_bottom(legal)
    return c_discard(legal)


cdef inline u64 c_special(int flags) noexcept nogil:
    if flags & JACK_OF_DIAMONDS_FLAG:
        return MDH_QUEEN_BIT | MDH_JACK_OF_DIAMONDS_BIT
    return MDH_QUEEN_BIT


cdef inline int c_margin(const int* points, int seat) noexcept nogil:
    return 4 * points[seat] - (points[0] + points[1] + points[2] + points[3])


cdef enum:
    # Entries of the exact search's table of positions met at a trick's start (a power of 2).
    KNOWN_SIZE = 1 << 15


cdef struct Known:
    u64 hands[4]
    # ``summary`` + 1 (a summary takes 30 bits), valid only while ``stamp`` is its table's.
    unsigned int summary
    unsigned int stamp
    signed char points[4]
    signed char shooter
    # What each seat took at the end of the best line (``c_outcome``).
    unsigned int outcome


cdef inline u64 c_summary(const Pos* pos) noexcept nogil:
    """Pack what the rest of the score depends on besides the hands (see the twin's)."""
    cdef u64 key = <u64>pos.leader
    cdef u64 taken, packed
    cdef int seat
    for seat in range(4):
        taken = pos.taken[seat]
        packed = (
            <u64>mdh_popcount(taken & MDH_HEARTS)
            | ((taken >> QUEEN_OF_SPADES) & 1) << 4
            | ((taken & MDH_JACK_OF_DIAMONDS_BIT) != 0) << 5
            | (taken != 0) << 6
        )
        key |= packed << (2 + 7 * seat)
    return key


cdef inline u64 c_outcome(const Pos* pos) noexcept nogil:
    """Pack what each seat has taken (see the twin's ``_outcome``)."""
    return c_summary(pos) >> 2


cdef struct Memo:
    # A table of exact positions, kept for the next search once one is done: an entry counts
    # only when its ``stamp`` is the table's, so a new search starts with a new ``stamp``
    # instead of clearing ``KNOWN_SIZE`` entries.
    Known* entries
    unsigned int stamp


cdef inline Known* c_slot(const Memo* known, const Pos* pos, u64 summary) noexcept nogil:
    cdef u64 h = summary
    cdef int seat
    for seat in range(4):
        h = (h ^ pos.hands[seat]) * <u64>0x9E3779B97F4A7C15
        h ^= h >> 29
    return &known.entries[h & (KNOWN_SIZE - 1)]


# The tables of exact positions not in use (addresses of ``Memo``): a search takes one for each
# of its threads and gives them back when it is done. (A child process made by a fork starts
# with its own copy of these tables.)
_memos = []


cdef Memo* c_take_memo() noexcept:
    """Return a table of exact positions, empty for this search (``c_give_memo`` it back), or
    NULL when there is no memory for one: it is only a cache."""
    cdef Memo* memo
    if _memos:
        memo = <Memo*><size_t>_memos.pop()
    else:
        memo = <Memo*>calloc(1, sizeof(Memo))
        if memo == NULL:
            return NULL
        memo.entries = <Known*>calloc(KNOWN_SIZE, sizeof(Known))
        if memo.entries == NULL:
            free(memo)
            return NULL
    memo.stamp += 1
    if memo.stamp == 0:
        # Every stamp has been used: clear the entries once and start again.
        memset(memo.entries, 0, KNOWN_SIZE * sizeof(Known))
        memo.stamp = 1
    return memo


cdef void c_give_memo(Memo* memo):
    """Keep a table of exact positions for the next search (``c_take_memo``)."""
    if memo != NULL:
        _memos.append(<size_t>memo)


cdef int c_exact(const Pos* pos, int flags, int* points, const Memo* known, u64* outcome,
                 int* winner, bint track) noexcept nogil:
    """Search the rest of the hand exactly into ``points``; return the moon shooter or -1, with
    the winner of the trick open here in ``winner`` (at a trick's start: the trick just won)
    and, when ``track``, what each seat took in ``outcome`` (one table ``known`` serves
    searches that all track or all do not)."""
    cdef int seat, card, shooter, i, child_winner
    cdef int previous = -1
    cdef int best_shooter = -1
    cdef int best_winner = -1
    cdef bint found = False
    cdef int result[4]
    cdef u64 legal, in_play, special
    cdef u64 child_outcome = 0
    cdef u64 best_outcome = 0
    cdef u64 summary = 0
    cdef Known* entry = NULL
    cdef Pos child
    if c_settled(pos, flags):
        if track:
            outcome[0] = c_outcome(pos)
        winner[0] = pos.leader
        return c_score(pos, flags, points)
    if pos.count == 0 and mdh_popcount(pos.hands[pos.leader]) == 1:
        # The last trick: every card is forced, so play it out without searching.
        child = pos[0]
        for i in range(4):
            c_apply(&child, mdh_ctz(child.hands[(child.leader + child.count) & 3]), flags)
        if track:
            outcome[0] = c_outcome(&child)
        winner[0] = pos.leader
        return c_score(&child, flags, points)
    if known != NULL and pos.count == 0:
        # The same position is met again through other orders of play: look it up.
        summary = c_summary(pos) + 1
        entry = c_slot(known, pos, summary)
        if (
            entry.summary == <unsigned int>summary
            and entry.stamp == known.stamp
            and entry.hands[0] == pos.hands[0]
            and entry.hands[1] == pos.hands[1]
            and entry.hands[2] == pos.hands[2]
            and entry.hands[3] == pos.hands[3]
        ):
            for i in range(4):
                points[i] = entry.points[i]
            outcome[0] = entry.outcome
            winner[0] = pos.leader
            return entry.shooter
    seat = (pos.leader + pos.count) & 3
    legal = c_legal(pos, flags)
    in_play = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
    for i in range(pos.count):
        in_play |= (<u64>1) << pos.trick[i]
    special = c_special(flags)
    while legal:
        card = mdh_ctz(legal)
        legal &= legal - 1
        if (
            previous >= 0
            and card // 13 == previous // 13
            and not in_play & ((((<u64>1) << card)) - (((<u64>2) << previous)))
            and not special & ((((<u64>1) << card)) | (((<u64>1) << previous)))
        ):
            # Next to the card just tried among the cards in play, and worth the same: the
            # same result, and ties go to the lower card anyway.
            previous = card
            continue
        previous = card
        child = pos[0]
        c_apply(&child, card, flags)
        shooter = c_exact(&child, flags, result, known, &child_outcome, &child_winner, track)
        if not found or c_margin(result, seat) < c_margin(points, seat):
            for i in range(4):
                points[i] = result[i]
            best_shooter = shooter
            best_outcome = child_outcome
            best_winner = child_winner
            found = True
    outcome[0] = best_outcome
    winner[0] = pos.leader if pos.count == 0 else best_winner
    if entry != NULL:
        entry.summary = <unsigned int>summary
        entry.stamp = known.stamp
        for i in range(4):
            entry.hands[i] = pos.hands[i]
            entry.points[i] = <signed char>points[i]
        entry.shooter = <signed char>best_shooter
        entry.outcome = <unsigned int>best_outcome
    return best_shooter


cdef i64 c_cost(const int* points, int shooter, const Goal* goal, int* match) noexcept nogil:
    """Return the cost of a final result; ``match`` is 1 when it loses the match, -1 when it
    wins it, else 0."""
    cdef int shift = goal.moon_shift[shooter] if shooter >= 0 else 0
    cdef int final[4]
    cdef int totals[4]
    cdef int seat, top, low, lows
    cdef i64 cost
    for seat in range(4):
        final[seat] = points[seat] + shift
    cost = 4 * final[goal.seat] - (final[0] + final[1] + final[2] + final[3])
    match[0] = 0
    if goal.match_weight:
        top = -(1 << 30)
        low = 1 << 30
        for seat in range(4):
            totals[seat] = goal.scores[seat] + final[seat]
            if totals[seat] > top:
                top = totals[seat]
            if totals[seat] < low:
                low = totals[seat]
        if top >= goal.end_score:
            lows = 0
            for seat in range(4):
                if totals[seat] == low:
                    lows += 1
            if lows == 1:
                match[0] = -1 if totals[goal.seat] == low else 1
                cost += match[0] * goal.match_weight
    return cost


cdef void read_table(object hands, object table, Pos* pos, int* flags) except *:
    taken, trick, leader, trick_index, hearts_broken, table_flags = table
    cdef int seat
    for seat in range(4):
        pos.hands[seat] = hands[seat]
        pos.taken[seat] = taken[seat]
    pos.count = len(trick)
    for seat in range(pos.count):
        pos.trick[seat] = trick[seat]
    pos.leader = leader
    pos.trick_index = trick_index
    pos.broken = 1 if hearts_broken else 0
    flags[0] = table_flags
    if pos.leader < 0:
        pos.leader = 0
        while not pos.hands[pos.leader] & MDH_TWO_OF_CLUBS:
            pos.leader += 1


cdef void read_goal(object goal, Goal* out) except *:
    seat, scores, end_score, match_weight, moon_shift = goal
    cdef int i
    out.seat = seat
    out.end_score = end_score
    out.match_weight = match_weight
    for i in range(4):
        out.scores[i] = scores[i]
        out.moon_shift[i] = moon_shift[i]


cdef int c_look_ahead(const Pos* pos, int flags) noexcept nogil:
    """Return the card of a seat that looks ahead (see the twin's ``_look_ahead``)."""
    cdef u64 legal = c_legal(pos, flags)
    cdef int seat, card, margin, shooter, other
    cdef int best_card = -1
    cdef int best_margin = 0
    cdef int points[4]
    cdef Pos child
    if legal & (legal - 1) == 0:
        return mdh_ctz(legal)
    seat = (pos.leader + pos.count) & 3
    while legal:
        card = mdh_ctz(legal)
        legal &= legal - 1
        child = pos[0]
        c_apply(&child, card, flags)
        shooter = c_play_out(&child, flags, 0, points, NULL, 0, NULL, -1, 0, NULL, NULL)
        if shooter >= 0:
            for other in range(4):
                points[other] -= -26 if other == shooter else 26
        margin = c_margin(points, seat)
        if best_card < 0 or margin < best_margin:
            best_card = card
            best_margin = margin
    return best_card


cdef int c_play_out(Pos* pos, int flags, u64 seed, int* points, int* played, int leaf,
                    const Memo* known, int looker, int epsilon, u64* outcome,
                    int* winner) noexcept nogil:
    """Roll out to the end into ``points``; return the moon shooter or -1.

    When ``played`` is not NULL, it receives the number of cards played, then the cards. From
    a trick's start with at most ``leaf`` cards in each hand (0: never), the rest is searched
    exactly with the table ``known``. The seat ``looker`` (-1: none) looks ahead for its next
    card (see the twin's ``_play_out``). When ``outcome`` is not NULL, it receives what each
    seat took, and ``winner`` the winner of the trick open at the start.
    """
    cdef u64 state = seed
    cdef u64 ignored_outcome
    cdef int ignored_winner
    cdef int card, shooter
    cdef int first_winner = -1 if pos.count else pos.leader
    while not c_settled(pos, flags):
        if leaf > 0 and pos.count == 0 and mdh_popcount(pos.hands[pos.leader]) <= leaf:
            if outcome == NULL:
                return c_exact(
                    pos, flags, points, known, &ignored_outcome, &ignored_winner, False
                )
            shooter = c_exact(pos, flags, points, known, outcome, &ignored_winner, True)
            winner[0] = first_winner
            return shooter
        if ((pos.leader + pos.count) & 3) == looker and c_runner(pos) != looker:
            card = c_look_ahead(pos, flags)
            looker = -1
        else:
            card = c_policy(pos, flags, &state, epsilon)
        if played != NULL:
            played[0] += 1
            played[played[0]] = card
        c_apply(pos, card, flags)
        if first_winner < 0 and pos.count == 0:
            first_winner = pos.leader
    if outcome != NULL:
        outcome[0] = c_outcome(pos)
        winner[0] = first_winner
    return c_score(pos, flags, points)


def rollout(hands, table, int card, u64 seed):
    """Play ``card`` (-1: none) for the seat to move, then roll out; return (points, shooter)."""
    cdef Pos pos
    cdef int flags
    cdef int points[4]
    read_table(hands, table, &pos, &flags)
    if card >= 0:
        c_apply(&pos, card, flags)
    cdef int shooter = c_play_out(
        &pos, flags, seed, points, NULL, 0, NULL, -1, C_EPSILON, NULL, NULL
    )
    return (points[0], points[1], points[2], points[3]), shooter


def rollout_cards(hands, table, int card, u64 seed):
    """Return the cards a rollout plays after ``card``, in order (to check it against the rules)."""
    cdef Pos pos
    cdef int flags
    cdef int points[4]
    cdef int played[53]
    played[0] = 0
    read_table(hands, table, &pos, &flags)
    if card >= 0:
        c_apply(&pos, card, flags)
    c_play_out(&pos, flags, seed, points, played, 0, NULL, -1, C_EPSILON, NULL, NULL)
    return [played[i] for i in range(1, played[0] + 1)]


def exact(hands, table, int card):
    """Play ``card`` (-1: none), then search the rest of the hand exactly (max-n)."""
    cdef Pos pos
    cdef int flags
    cdef int points[4]
    cdef Memo* known = c_take_memo()
    cdef int shooter, winner
    cdef u64 outcome
    try:
        read_table(hands, table, &pos, &flags)
        if card >= 0:
            c_apply(&pos, card, flags)
        shooter = c_exact(&pos, flags, points, known, &outcome, &winner, False)
        return (points[0], points[1], points[2], points[3]), shooter
    finally:
        c_give_memo(known)


def policy_card(hands, table):
    """Return the rollout policy's card (no randomness) for the seat to move (see the twin)."""
    cdef Pos pos
    cdef int flags
    cdef u64 state = 0
    read_table(hands, table, &pos, &flags)
    return c_policy(&pos, flags, &state, 0)


cdef enum:
    # Entries of a candidate's tallies (see the twin's ``TALLY_...``).
    T_HEARTS = 0
    T_QUEEN = 1
    T_JACK = 2
    T_SHOT = 3
    T_CONCEDED = 4
    T_TRICK = 5
    T_BONUS = 6
    T_OTHERS_BONUS = 7
    T_MATCH_WON = 8
    T_MATCH_LOST = 9
    T_SIZE = 10


TALLY_SIZE = T_SIZE


cdef inline void c_tally(i64* tallies, int shooter, u64 outcome, int winner, int match, int seat,
                         int flags) noexcept nogil:
    """Add one run's outcome for ``seat`` to a candidate's tallies (see the twin's)."""
    cdef u64 mine = outcome >> (7 * seat)
    cdef int other
    tallies[T_HEARTS] += <i64>(mine & 15)
    tallies[T_QUEEN] += <i64>((mine >> 4) & 1)
    if flags & JACK_OF_DIAMONDS_FLAG:
        tallies[T_JACK] += <i64>((mine >> 5) & 1)
    if shooter >= 0:
        tallies[T_SHOT if shooter == seat else T_CONCEDED] += 1
    elif flags & NO_TRICKS_BONUS:
        for other in range(4):
            if not (outcome >> (7 * other + 6)) & 1:
                tallies[T_BONUS if other == seat else T_OTHERS_BONUS] += 1
    if winner == seat:
        tallies[T_TRICK] += 1
    if match:
        tallies[T_MATCH_LOST if match > 0 else T_MATCH_WON] += 1


cdef extern from *:
    """
    /* Claim the next deal of an evaluation: an atomic fetch-and-add, portable. */
    #if defined(_MSC_VER)
    #include <intrin.h>
    static long mdh_claim(volatile long* next) { return _InterlockedExchangeAdd(next, 1); }
    #else
    static long mdh_claim(volatile long* next) {
        return __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
    }
    #endif
    """
    long mdh_claim(long* next) noexcept nogil


cdef struct Work:
    # One thread's part of an evaluation: it claims the next deal not yet claimed (``next``,
    # shared by every thread) until there is none left.
    long* next
    const Pos* bases
    const int* cards
    const Goal* goal
    i64* costs
    i64* tallies
    # The thread's own table of exact positions (NULL when no exact search is made, or when
    # there is no memory for one: it is only a cache).
    Memo* known
    int n_deals
    int n_candidates
    int runs
    int rollouts
    int flags
    int leaf_cards
    int looker
    bint searched
    bint detail
    u64 seed
    u64 first_deal


cdef void c_work(Work* work) noexcept nogil:
    """Value every candidate on each deal this thread claims: the cost of deal ``d`` and
    candidate ``c`` goes to ``costs[d * n_candidates + c]`` (each deal's own cell, whichever
    thread values it), the tallies to this thread's own ``tallies``."""
    cdef Pos pos
    cdef int index, slot, number, shooter, match, winner
    cdef int points[4]
    cdef u64 outcome
    cdef u64* want_outcome = &outcome if work.detail else NULL
    cdef int n_candidates = work.n_candidates
    cdef int card
    while True:
        index = <int>mdh_claim(work.next)
        if index >= work.n_deals:
            break
        for slot in range(n_candidates):
            card = work.cards[slot]
            for number in range(work.runs):
                pos = work.bases[index]
                if card >= 0:
                    c_apply(&pos, card, work.flags)
                if work.searched:
                    shooter = c_exact(
                        &pos, work.flags, points, work.known, &outcome, &winner, work.detail
                    )
                else:
                    shooter = c_play_out(
                        &pos,
                        work.flags,
                        work.seed + (work.first_deal + <u64>index) * <u64>work.rollouts
                        + <u64>number,
                        points,
                        NULL,
                        work.leaf_cards,
                        work.known,
                        work.looker,
                        C_EPSILON,
                        want_outcome,
                        &winner,
                    )
                work.costs[index * n_candidates + slot] += c_cost(
                    points, shooter, work.goal, &match
                )
                if work.detail:
                    c_tally(
                        &work.tallies[slot * T_SIZE],
                        shooter,
                        outcome,
                        winner,
                        match,
                        work.goal.seat,
                        work.flags,
                    )


def _work_share(size_t address):
    """Run one thread's part of an evaluation (``c_work``) without the GIL, on a pool thread."""
    with nogil:
        c_work(<Work*>address)


# The threads that help the caller's own with an evaluation, by process: a pool made before a
# fork has no threads in the child, which makes its own.
_pools = {}


def _pool():
    pid = os.getpid()
    pool = _pools.get(pid)
    if pool is None:
        _pools.clear()
        pool = _pools[pid] = ThreadPoolExecutor(
            max_workers=MAX_THREADS, thread_name_prefix="mdh-search"
        )
    return pool


#: The most threads one evaluation may use.
MAX_THREADS = 256


cdef object c_evaluate(deals, table, candidates, int rollouts, u64 seed, u64 first_deal,
                       int exact_cards, goal, int leaf_cards, bint look_ahead, bint detail,
                       int threads):
    """Return the cost per deal and candidate, and the tallies when ``detail`` (see the
    twin's ``_evaluate``), valued by up to ``threads`` threads (the caller's and pool threads).

    Each thread claims deals one at a time until none is left, so a thread the system starts
    late takes fewer (and one not started when the caller is done is called off); each has
    its own table of exact positions (a cache: it changes no result) and tallies (integers,
    summed after). A deal's cost depends only on the deal and its number: the result is the
    same for every number of threads."""
    cdef Goal c_goal
    cdef int flags, slot, index, mover, looker, share
    cdef int n_deals = len(deals)
    cdef int n_candidates = len(candidates)
    cdef int shares
    cdef bint searched
    cdef Pos* bases = NULL
    cdef int* cards = NULL
    cdef i64* costs = NULL
    cdef i64* tallies = NULL
    cdef Work* works = NULL
    cdef long next_deal = 0
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be from 1 to {MAX_THREADS}, not {threads}")
    shares = max(1, min(threads, n_deals))
    futures = []
    try:
        bases = <Pos*>malloc(max(n_deals, 1) * sizeof(Pos))
        cards = <int*>malloc(max(n_candidates, 1) * sizeof(int))
        costs = <i64*>calloc(max(n_deals * n_candidates, 1), sizeof(i64))
        tallies = <i64*>calloc(max(shares * n_candidates * T_SIZE, 1), sizeof(i64))
        works = <Work*>calloc(shares, sizeof(Work))
        if bases == NULL or cards == NULL or costs == NULL or tallies == NULL or works == NULL:
            raise MemoryError()
        read_goal(goal, &c_goal)
        looker = c_goal.seat if look_ahead else -1
        flags = 0
        for index in range(n_deals):
            read_table(deals[index], table, &bases[index], &flags)
        for slot in range(n_candidates):
            cards[slot] = candidates[slot]
        # The seat to move holds as many cards in every deal (the table says how many it played).
        searched = False
        if exact_cards > 0 and n_deals > 0:
            mover = (bases[0].leader + bases[0].count) & 3
            searched = mdh_popcount(bases[0].hands[mover]) <= exact_cards
        for share in range(shares):
            works[share].next = &next_deal
            works[share].bases = bases
            works[share].cards = cards
            works[share].goal = &c_goal
            works[share].costs = costs
            works[share].tallies = &tallies[share * n_candidates * T_SIZE]
            if searched or leaf_cards > 0:
                works[share].known = c_take_memo()
            works[share].n_deals = n_deals
            works[share].n_candidates = n_candidates
            works[share].runs = 1 if searched else rollouts
            works[share].rollouts = rollouts
            works[share].flags = flags
            works[share].leaf_cards = leaf_cards
            works[share].looker = looker
            works[share].searched = searched
            works[share].detail = detail
            works[share].seed = seed
            works[share].first_deal = first_deal
        if shares > 1:
            pool = _pool()
            for share in range(1, shares):
                futures.append(pool.submit(_work_share, <size_t>&works[share]))
        with nogil:
            c_work(&works[0])
        # Every deal is claimed: a helper the system has not started yet has nothing to do.
        for future in futures:
            if not future.cancel():
                future.result()
        futures = []
        for share in range(1, shares):
            for index in range(n_candidates * T_SIZE):
                tallies[index] += tallies[share * n_candidates * T_SIZE + index]
        if not detail:
            for index in range(1, n_deals):
                for slot in range(n_candidates):
                    costs[slot] += costs[index * n_candidates + slot]
            return [costs[slot] for slot in range(n_candidates)]
        return (
            [costs[index] for index in range(n_deals * n_candidates)],
            [tallies[index] for index in range(n_candidates * T_SIZE)],
        )
    finally:
        # The pool's threads write into these arrays: wait for them, whatever happened.
        if futures:
            # Call off the helpers: no deal is left to claim (they only read it).
            next_deal = n_deals
            for future in futures:
                future.cancel()
            wait_for(futures)
        if works != NULL:
            for share in range(shares):
                c_give_memo(works[share].known)
        free(bases)
        free(cards)
        free(costs)
        free(tallies)
        free(works)


def evaluate(deals, table, candidates, int rollouts, u64 seed, u64 first_deal, int exact_cards,
             goal, int leaf_cards=0, bint look_ahead=False, int threads=1):
    """Return, per candidate card, the summed cost over every deal and rollout (see the twin)."""
    return c_evaluate(
        deals, table, candidates, rollouts, seed, first_deal, exact_cards, goal, leaf_cards,
        look_ahead, False, threads,
    )


def evaluate_detail(deals, table, candidates, int rollouts, u64 seed, u64 first_deal,
                    int exact_cards, goal, int leaf_cards=0, bint look_ahead=False,
                    int threads=1):
    """Return the cost per deal and candidate, and each candidate's tallies (see the twin)."""
    return c_evaluate(
        deals, table, candidates, rollouts, seed, first_deal, exact_cards, goal, leaf_cards,
        look_ahead, True, threads,
    )


cdef enum:
    GROUPS = 5
    SIDE = 14


cdef enum:
    GUARD_KEYS = 2 * SIDE
    MAX_WATCHED = 3


cdef inline int guard_key(u64 hand, u64 guard_mask) noexcept nogil:
    return mdh_popcount(hand & guard_mask) * 2 + <int>((hand >> QUEEN_OF_SPADES) & 1)


def pass_evidence(deals, record):
    """Return, per deal, the summed log-weight of the pass record's watched cards (see the
    twin)."""
    observer, passer_of, added, removed, guard_mask, cards, guarded, log_weights = record
    cdef int n_cards = len(cards)
    cdef int n_deals = len(deals)
    cdef int c_observer = observer
    cdef int c_passer_of[4]
    cdef u64 c_added[4]
    cdef u64 c_removed[4]
    cdef u64 c_guard_mask = guard_mask
    cdef int c_cards[MAX_WATCHED]
    cdef char c_guarded[MAX_WATCHED * GUARD_KEYS]
    cdef i64 c_weights[MAX_WATCHED * 16]
    cdef u64 hands[4]
    cdef int keys[4]
    cdef int index, seat, i, holder, passer, kept, passer_kept
    cdef i64 total
    if n_cards > MAX_WATCHED or mdh_popcount(c_guard_mask) >= SIDE:
        raise ValueError("a pass record counts at most 13 guards and watches at most 3 cards")
    for seat in range(4):
        c_passer_of[seat] = passer_of[seat]
        c_added[seat] = added[seat]
        c_removed[seat] = removed[seat]
    for i in range(n_cards):
        c_cards[i] = cards[i]
    for i in range(n_cards * GUARD_KEYS):
        c_guarded[i] = 1 if guarded[i] else 0
    for i in range(n_cards * 16):
        c_weights[i] = log_weights[i]
    results = [0] * n_deals
    for index in range(n_deals):
        deal = deals[index]
        for seat in range(4):
            if seat != c_observer:
                hands[seat] = (<u64>deal[seat] | c_added[seat]) & ~c_removed[seat]
                keys[seat] = guard_key(hands[seat], c_guard_mask)
        total = 0
        for i in range(n_cards):
            holder = -1
            for seat in range(4):
                if seat != c_observer and (hands[seat] >> c_cards[i]) & 1:
                    holder = seat
                    break
            if holder < 0:
                continue
            passer = c_passer_of[holder]
            kept = c_guarded[i * GUARD_KEYS + keys[holder]]
            passer_kept = 0
            if passer != c_observer:
                passer_kept = c_guarded[
                    i * GUARD_KEYS
                    + guard_key(hands[passer] | ((<u64>1) << c_cards[i]), c_guard_mask)
                ]
            total += c_weights[((i * 4 + holder) * 2 + kept) * 2 + passer_kept]
        results[index] = total
    return results


def runner_evidence(deals, int seat, log_weights):
    """Return, per deal, the log-weight of ``seat``'s hand by how many of its cards another hand
    can beat (see the twin)."""
    cdef Py_ssize_t n_weights = len(log_weights)
    cdef Py_ssize_t index, n_deals = len(deals)
    cdef u64 hand, others
    cdef int other, losers
    if n_weights == 0 or seat < 0 or seat > 3:
        raise ValueError("a runner's weights need at least one entry and a seat 0..3")
    weights = list(log_weights)
    results = [0] * n_deals
    for index in range(n_deals):
        deal = deals[index]
        hand = deal[seat]
        others = 0
        for other in range(4):
            if other != seat:
                others |= <u64>deal[other]
        losers = mdh_popcount(hand) - c_sure_winners(hand, others)
        results[index] = weights[min(losers, n_weights - 1)]
    return results


cdef class PlanArrays:
    """A ``DealPlan`` read into C arrays once, for every ``sample_deals`` call on it."""

    cdef object plan
    cdef u64 known[4]
    cdef int others[3]
    cdef int a0, b0
    cdef int cards_of_group[GROUPS][13]
    cdef int sizes[GROUPS]
    cdef int* index
    cdef int* moves
    cdef u64* weights

    def __cinit__(self, plan):
        known, others, slots, groups, index, options = plan
        cdef int n_index = len(index)
        cdef int n_options = len(options) // 3
        cdef int i, group
        self.plan = plan
        self.index = <int*>malloc(max(n_index, 1) * sizeof(int))
        self.moves = <int*>malloc(max(2 * n_options, 1) * sizeof(int))
        self.weights = <u64*>malloc(max(n_options, 1) * sizeof(u64))
        if self.index == NULL or self.moves == NULL or self.weights == NULL:
            raise MemoryError()
        for i in range(4):
            self.known[i] = known[i]
        for i in range(3):
            self.others[i] = others[i]
        self.a0 = slots[0]
        self.b0 = slots[1]
        for group in range(GROUPS):
            self.sizes[group] = len(groups[group])
            for i in range(self.sizes[group]):
                self.cards_of_group[group][i] = groups[group][i]
        for i in range(n_index):
            self.index[i] = index[i]
        for i in range(n_options):
            self.moves[2 * i] = options[3 * i]
            self.moves[2 * i + 1] = options[3 * i + 1]
            self.weights[i] = options[3 * i + 2]

    def __dealloc__(self):
        free(self.index)
        free(self.moves)
        free(self.weights)


# The last plan read (a decision draws many batches from one plan). Only plans made of tuples
# are kept: they cannot change between calls.
cdef PlanArrays last_plan = None


cdef PlanArrays plan_arrays(plan):
    global last_plan
    cdef PlanArrays arrays = last_plan
    if arrays is not None and arrays.plan is plan:
        return arrays
    arrays = PlanArrays(plan)
    if type(plan) is not list and all(type(part) is tuple for part in plan) and all(
        type(cards) is tuple for cards in plan[3]
    ):
        last_plan = arrays
    return arrays


def sample_deals(plan, int count, u64 seed, u64 first):
    """Draw ``count`` deals from a ``DealPlan``; deal ``d`` is seeded with ``seed + first + d``."""
    cdef PlanArrays arrays = plan_arrays(plan)
    cdef int cards[13]
    cdef u64* hands = <u64*>malloc(max(4 * count, 1) * sizeof(u64))
    cdef int number, group, i, j, a, b, x, y, key, start, chosen, tmp, seat
    cdef u64 state, total, pick
    if hands == NULL:
        raise MemoryError()
    try:
        with nogil:
            for number in range(count):
                state = seed + first + <u64>number
                for i in range(4):
                    hands[4 * number + i] = arrays.known[i]
                a = arrays.a0
                b = arrays.b0
                for group in range(GROUPS):
                    key = ((group * SIDE + a) * SIDE + b) * 2
                    start = arrays.index[key]
                    total = 0
                    for i in range(start, start + arrays.index[key + 1]):
                        total += arrays.weights[i]
                    pick = c_below(&state, total)
                    chosen = start
                    while pick >= arrays.weights[chosen]:
                        pick -= arrays.weights[chosen]
                        chosen += 1
                    x = arrays.moves[2 * chosen]
                    y = arrays.moves[2 * chosen + 1]
                    for i in range(arrays.sizes[group]):
                        cards[i] = arrays.cards_of_group[group][i]
                    for i in range(x + y):
                        j = i + <int>c_below(&state, <u64>(arrays.sizes[group] - i))
                        tmp = cards[i]
                        cards[i] = cards[j]
                        cards[j] = tmp
                    for i in range(arrays.sizes[group]):
                        seat = (
                            arrays.others[0] if i < x
                            else arrays.others[1] if i < x + y
                            else arrays.others[2]
                        )
                        hands[4 * number + seat] |= (<u64>1) << cards[i]
                    a -= x
                    b -= y
        return [
            (hands[4 * i], hands[4 * i + 1], hands[4 * i + 2], hands[4 * i + 3])
            for i in range(count)
        ]
    finally:
        free(hands)


# The twin's LOG_UNIT and TEMPER_STEPS.
cdef double LOG_UNIT = 1024.0
cdef int TEMPER_STEPS = 12
# The built-in sum() of floats adds them with Neumaier's compensation from Python 3.12 on.
cdef bint COMPENSATED_SUM = sys.version_info >= (3, 12)
# Log-weights beyond this go to the twin: their differences must convert to doubles exactly.
cdef i64 EXACT_LOG_WEIGHT = 1LL << 51


cdef double c_sum(const double* values, Py_ssize_t n, bint squares) noexcept nogil:
    """Return the values' (or their squares') sum exactly as the built-in ``sum`` adds the
    floats from its start 0: left to right, with Neumaier's compensation when COMPENSATED_SUM."""
    cdef double total = 0.0
    cdef double carry = 0.0
    cdef double value, step
    cdef Py_ssize_t i
    for i in range(n):
        value = values[i] * values[i] if squares else values[i]
        if COMPENSATED_SUM:
            step = total + value
            if fabs(total) >= fabs(value):
                carry += (total - step) + value
            else:
                carry += (value - step) + total
            total = step
        else:
            total += value
    if COMPENSATED_SUM and carry != 0.0 and isfinite(carry):
        total += carry
    return total


cdef double c_effective_size(const double* weights, Py_ssize_t n) noexcept nogil:
    cdef double total = c_sum(weights, n, False)
    cdef double squares = c_sum(weights, n, True)
    return total * total / squares if squares > 0 else 0.0


cdef void c_exp_scaled(const double* scaled, Py_ssize_t n, double power,
                       double* weights) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        weights[i] = exp(power * scaled[i])


cdef list c_float_list(const double* values, Py_ssize_t n):
    cdef list out = []
    cdef Py_ssize_t i
    for i in range(n):
        out.append(values[i])
    return out


def tempered_weights(log_weights, double minimum):
    """Twin of ``ai.search_py.tempered_weights``: the same steps and floats, in C."""
    cdef Py_ssize_t n = len(log_weights)
    cdef Py_ssize_t i
    cdef i64 top
    cdef i64* raw = NULL
    cdef double* scaled = NULL
    cdef double* weights = NULL
    cdef double low = 0.0
    cdef double high = 1.0
    cdef double middle
    cdef int step
    if n == 0:
        raise ValueError("tempered_weights() needs at least one log-weight")
    for value in log_weights:
        if not -EXACT_LOG_WEIGHT <= value <= EXACT_LOG_WEIGHT:
            from ai import search_py

            return search_py.tempered_weights(log_weights, minimum)
    raw = <i64*>malloc(n * sizeof(i64))
    scaled = <double*>malloc(n * sizeof(double))
    weights = <double*>malloc(n * sizeof(double))
    try:
        if raw == NULL or scaled == NULL or weights == NULL:
            raise MemoryError()
        for i in range(n):
            raw[i] = log_weights[i]
        top = raw[0]
        for i in range(1, n):
            if raw[i] > top:
                top = raw[i]
        with nogil:
            for i in range(n):
                scaled[i] = <double>(raw[i] - top) / LOG_UNIT
                weights[i] = exp(scaled[i])
        if c_effective_size(weights, n) >= minimum:
            return c_float_list(weights, n), 1.0
        with nogil:
            for step in range(TEMPER_STEPS):
                middle = (low + high) / 2
                c_exp_scaled(scaled, n, middle, weights)
                if c_effective_size(weights, n) >= minimum:
                    low = middle
                else:
                    high = middle
            c_exp_scaled(scaled, n, low, weights)
        return c_float_list(weights, n), low
    finally:
        free(raw)
        free(scaled)
        free(weights)


# The twin's FEATURE_COUNT and WEIGHT_UNIT (a learned model of play).
cdef enum:
    N_FEATURES = 16
cdef double WEIGHT_UNIT = 1024.0
cdef u64 ALL_CARDS = ((<u64>1) << 52) - 1


cdef int c_card_features(const Pos* pos, u64 legal, int* features) noexcept nogil:
    """Write the features of each legal card, lowest first, ``N_FEATURES`` each, from what the
    seat to move knows; return the kind of play (0 lead, 1 follow, 2 discard)."""
    cdef int seat = (pos.leader + pos.count) & 3
    cdef u64 hand = pos.hands[seat]
    cdef u64 trick_mask = 0
    cdef u64 unseen, suit_cards, below, above
    cdef u64 mask = legal
    cdef int i, card, suit, held, wins
    cdef int kind = 0
    cdef int led = -1
    cdef int best = -1
    cdef int* row = features
    cdef bint queen_unseen, holds_queen
    cdef bint last = pos.count == 3
    for i in range(pos.count):
        trick_mask |= (<u64>1) << pos.trick[i]
    unseen = ALL_CARDS & ~(hand | trick_mask | pos.taken[0] | pos.taken[1] | pos.taken[2]
                           | pos.taken[3])
    queen_unseen = (unseen & MDH_QUEEN_BIT) != 0
    holds_queen = (hand & MDH_QUEEN_BIT) != 0
    if pos.count:
        led = pos.trick[0] // 13
        c_winning(pos, &best)
        kind = 1 if legal & suit_mask(led) else 2
    while mask:
        card = mdh_ctz(mask)
        mask &= mask - 1
        suit = card // 13
        suit_cards = suit_mask(suit)
        below = suit_cards & (((<u64>1) << card) - 1)
        above = suit_cards & ~(((<u64>2) << card) - 1)
        wins = 1 if suit == led and card > best else 0
        held = mdh_popcount(hand & suit_cards)
        row[0] = card - 13 * suit
        row[1] = 1 if suit == 3 else 0
        row[2] = 1 if card == QUEEN_OF_SPADES else 0
        row[3] = 1 if (card == QUEEN_OF_SPADES + 1 or card == QUEEN_OF_SPADES + 2) and queen_unseen else 0
        row[4] = mdh_popcount(hand & above)
        row[5] = mdh_popcount(hand & below)
        row[6] = mdh_popcount(unseen & above)
        row[7] = mdh_popcount(unseen & below)
        row[8] = wins
        row[9] = 1 if wins and last else 0
        # Flags 0: hearts and the Q♠ only, as the model was fitted, whatever the rules.
        row[10] = c_trick_points(trick_mask | ((<u64>1) << card), 0) if wins else 0
        row[11] = 1 if suit == 2 and card != QUEEN_OF_SPADES and holds_queen else 0
        row[12] = 1 if held == 1 else 0
        row[13] = 1 if suit == 2 and card < QUEEN_OF_SPADES and queen_unseen else 0
        row[14] = held
        row[15] = 1 if (unseen & suit_cards) == 0 else 0
        row += N_FEATURES
    return kind


cdef inline i64 c_log_units(double nats) noexcept nogil:
    """Return a log-probability in nats as a whole number of ``1 / LOG_UNIT`` nats, rounded as
    the twin's ``_learned_log_weight`` rounds."""
    return <i64>floor(LOG_UNIT * nats + 0.5)


cdef void c_logits(const Pos* pos, u64 legal, const i64* weights, i64* logits) noexcept nogil:
    """Write the learned logit of each card of ``legal``, lowest first."""
    cdef int features[13 * N_FEATURES]
    cdef int kind = c_card_features(pos, legal, features)
    cdef const i64* w = weights + kind * N_FEATURES
    cdef int row, k
    cdef i64 logit
    for row in range(mdh_popcount(legal)):
        logit = 0
        for k in range(N_FEATURES):
            logit += w[k] * features[row * N_FEATURES + k]
        logits[row] = logit


cdef inline u64 c_memo_index(u64 key, u64 mask) noexcept nogil:
    """Return where an open-addressed table of ``mask + 1`` places looks first for ``key``."""
    return ((key * <u64>0x9E3779B97F4A7C15) >> 32) & mask


cdef struct SuitCache:
    # A play's learned logits of a suit's legal cards (13 a place) by key: the suit, the hand's
    # and the legal cards of it (0: empty; a key never is); one place per key, the last kept.
    u64* keys
    i64* logits


cdef enum:
    # Places of a play's ``SuitCache`` (a power of two).
    SUIT_CACHE_SIZE = 1024


cdef double c_learned_nats(const Pos* pos, u64 legal, int card, const i64* weights,
                           double mix, const SuitCache* suits) noexcept nogil:
    """Return the log-probability of ``card`` among ``legal`` in nats (the twin's
    ``_learned_log``). A lead's or a discard's logits are taken suit by suit from ``suits``
    (when it has its memory) where found: a card's features read of the hand only its own suit (and
    whether the Q♠ is held, for a spade), so the logits of a suit's legal cards depend on the
    hand's and the legal cards of that suit beside what the deals share."""
    cdef i64 logits[13]
    cdef int n = mdh_popcount(legal)
    cdef int row, suit, playable, k
    cdef i64 top
    cdef u64 in_suit, key
    cdef u64 hand = pos.hands[(pos.leader + pos.count) & 3]
    cdef u64 place
    cdef i64* cached
    cdef double total = 0.0
    cdef double chosen = 0.0
    cdef double value, probability
    cdef u64 mask = legal
    if suits.keys != NULL and (pos.count == 0 or (legal & suit_mask(pos.trick[0] // 13)) == 0):
        row = 0
        for suit in range(4):
            in_suit = legal & suit_mask(suit)
            if in_suit == 0:
                continue
            playable = mdh_popcount(in_suit)
            key = (((hand & suit_mask(suit)) >> (13 * suit))
                   | ((in_suit >> (13 * suit)) << 13) | (<u64>(suit + 4) << 26))
            place = c_memo_index(key, SUIT_CACHE_SIZE - 1)
            cached = suits.logits + 13 * place
            if suits.keys[place] != key:
                c_logits(pos, in_suit, weights, cached)
                suits.keys[place] = key
            for k in range(playable):
                logits[row + k] = cached[k]
            row += playable
    else:
        c_logits(pos, legal, weights, logits)
    top = logits[0]
    for row in range(1, n):
        if logits[row] > top:
            top = logits[row]
    for row in range(n):
        value = exp(<double>(logits[row] - top) / WEIGHT_UNIT)
        total += value
        if mdh_ctz(mask) == card:
            chosen = value
        mask &= mask - 1
    probability = (1.0 - mix) * chosen / total + mix / n
    return log(probability)


def card_features(hands, table):
    """Return the kind of play of the seat to move and each legal card's features (see the
    twin)."""
    cdef Pos pos
    cdef int flags
    cdef int features[13 * N_FEATURES]
    cdef int kind, row, k
    cdef u64 legal
    read_table(hands, table, &pos, &flags)
    legal = c_legal(&pos, flags)
    kind = c_card_features(&pos, legal, features)
    return kind, [
        tuple([features[row * N_FEATURES + k] for k in range(N_FEATURES)])
        for row in range(mdh_popcount(legal))
    ]


cdef i64 c_mix_logs(double first, double second, double log_first,
                    double log_second) noexcept nogil:
    """Return log(p e^first + (1 - p) e^second) in 1 / LOG_UNIT nats (the twin's
    ``_mix_logs``)."""
    cdef double a = first + log_first
    cdef double b = second + log_second
    cdef double high, low
    if a >= b:
        high = a
        low = b
    else:
        high = b
        low = a
    return <i64>floor(LOG_UNIT * (high + log1p(exp(low - high))) + 0.5)


cdef enum:
    READ_TABLE = 0
    READ_LEARNED = 1
    READ_SEATS = 2
    READ_PLAYS = 3


cdef struct Reading:
    int mode
    i64 table[4 * 2 * SIDE]
    i64 weights[3 * N_FEATURES]
    double mix
    double log_first
    double log_second


cdef struct MemoSlot:
    u64 key
    double nats
    i64 entry


cdef struct MemoTable:
    # Open-addressed by key (0: empty; a key never is), ``mask + 1`` slots (a power of two),
    # ``stored`` of them used, at most half; NULL until the first play is kept.
    MemoSlot* slots
    u64 mask
    u64 stored
    # The play's learned logits by suit (``c_learned_nats``); NULL until first needed.
    SuitCache suits


cdef enum:
    # A memo table's first and largest number of slots.
    MEMO_FIRST_SLOTS = 64
    MEMO_MOST_SLOTS = 1 << 16


cdef void c_suit_cache(SuitCache* suits) noexcept nogil:
    """Make an empty cache; if the memory is not there both stay NULL, the logits are worked
    out without it, and the next play read tries again."""
    suits.keys = <u64*>calloc(SUIT_CACHE_SIZE, sizeof(u64))
    suits.logits = <i64*>malloc(13 * SUIT_CACHE_SIZE * sizeof(i64))
    if suits.keys == NULL or suits.logits == NULL:
        free(suits.keys)
        free(suits.logits)
        suits.keys = NULL
        suits.logits = NULL


cdef bint c_memo_grow(MemoTable* table) noexcept nogil:
    """Double the table's slots (or make its first ones), keeping what it holds; return False
    if it is at its largest or the memory is not there (the table is then as it was)."""
    cdef u64 size = MEMO_FIRST_SLOTS if table.slots == NULL else 2 * (table.mask + 1)
    cdef MemoSlot* grown
    cdef u64 old, index
    if size > MEMO_MOST_SLOTS:
        return False
    grown = <MemoSlot*>calloc(size, sizeof(MemoSlot))
    if grown == NULL:
        return False
    if table.slots != NULL:
        for old in range(table.mask + 1):
            if table.slots[old].key != 0:
                index = c_memo_index(table.slots[old].key, size - 1)
                while grown[index].key != 0:
                    index = (index + 1) & (size - 1)
                grown[index] = table.slots[old]
        free(table.slots)
    table.slots = grown
    table.mask = size - 1
    return True


cdef const MemoSlot* c_memo_slot(const Pos* pos, u64 legal, int card, int flags,
                                 const Reading* reading, MemoTable* table,
                                 MemoSlot* spare) noexcept nogil:
    """Return what the reading makes of one play of the history: its learned log-probability
    in nats (``nats``, unless ``reading.mode`` is ``READ_TABLE``) and its evidence table
    entry (``entry``, unless it is ``READ_LEARNED``), computed once per distinct key among the
    deals read and kept in the play's ``table``. Beside what all deals share (the tricks so
    far), the learned model reads only the hand of the seat to move, and of a hand that follows
    suit only its cards of the led suit (the features of a card look at its own suit, and at
    the Q♠ only for a spade); the rollout policy behind the table reads that too, and which
    seat is running for the moon (``c_runner``, which looks at the other hands): they are the
    key. A play the table has no room for is computed into ``spare``."""
    cdef u64 hand = pos.hands[(pos.leader + pos.count) & 3]
    cdef u64 key = hand
    cdef u64 index
    cdef u64 state = 0
    cdef MemoSlot* slot = spare
    cdef int choice, kind
    if pos.count and legal & suit_mask(pos.trick[0] // 13):
        key = hand & suit_mask(pos.trick[0] // 13)
    if reading.mode != READ_LEARNED:
        key |= (<u64>(c_runner(pos) + 1)) << 52
    if table.slots != NULL:
        index = c_memo_index(key, table.mask)
        while table.slots[index].key != 0:
            if table.slots[index].key == key:
                return &table.slots[index]
            index = (index + 1) & table.mask
    if (table.slots != NULL and 2 * (table.stored + 1) <= table.mask + 1) or c_memo_grow(table):
        index = c_memo_index(key, table.mask)
        while table.slots[index].key != 0:
            index = (index + 1) & table.mask
        slot = &table.slots[index]
        slot.key = key
        table.stored += 1
    if reading.mode != READ_TABLE:
        if table.suits.keys == NULL:
            c_suit_cache(&table.suits)
        slot.nats = c_learned_nats(pos, legal, card, reading.weights, reading.mix,
                                   &table.suits)
    if reading.mode != READ_LEARNED:
        choice = c_policy(pos, flags, &state, 0)
        if choice == QUEEN_OF_SPADES:
            kind = 3
        elif pos.count == 0:
            kind = 0
        elif legal & suit_mask(pos.trick[0] // 13):
            kind = 1
        else:
            kind = 2
        slot.entry = reading.table[
            (kind * 2 + (1 if choice == card else 0)) * SIDE + mdh_popcount(legal)]
    return slot


cdef class PlayMemo:
    """What the calls of the deal readers given this memo have made of the history's plays, by
    play and by key (``c_memo_slot``): one decision reads many pools of deals on one history,
    and every call after the first finds most of it. It holds one history and one reading;
    given another, it starts again. One thread uses it at a time (the reader runs without the
    GIL)."""

    # Empty when made: a new object's C fields are all zero, and ``held`` None.
    cdef MemoTable tables[52]
    cdef object held

    def __dealloc__(self):
        self.clear()

    cdef void clear(self) noexcept:
        cdef int i
        for i in range(52):
            free(self.tables[i].slots)
            free(self.tables[i].suits.keys)
            free(self.tables[i].suits.logits)
            self.tables[i].slots = NULL
            self.tables[i].suits.keys = NULL
            self.tables[i].suits.logits = NULL
            self.tables[i].mask = 0
            self.tables[i].stored = 0

    cdef void hold(self, object reading) except *:
        """Start again unless the memo already holds ``reading`` (a history and what reads
        it, as values)."""
        if self.held != reading:
            self.clear()
            self.held = reading


cdef list c_read_plays(deals, history, Reading* reading, PlayMemo memo, model, log_weights):
    """Replay the history on every deal and return each deal's summed log-weight of the other
    seats' plays with a choice: by the evidence table, the learned model, or their mixture per
    seat or per play, as ``reading.mode`` says (the twin's ``_choices`` and its callers). What
    it makes of each play is kept in ``memo`` for later calls on the same history with the
    same ``model`` and ``log_weights`` (when given), else for this call only."""
    leader, cards, observer, flags = history
    cdef int n_cards = len(cards)
    cdef int n_deals = len(deals)
    cdef int c_cards[52]
    cdef int players[52]
    cdef i64 learned[4]
    cdef i64 explored[4]
    cdef bint chosen[4]
    cdef u64 played_by[4]
    cdef u64* hands = <u64*>malloc(max(4 * n_deals, 1) * sizeof(u64))
    cdef i64* totals = <i64*>malloc(max(n_deals, 1) * sizeof(i64))
    cdef int mode = reading.mode
    cdef MemoSlot spare
    cdef const MemoSlot* read
    cdef int c_flags = flags
    cdef int c_leader = leader
    cdef int c_observer = observer
    cdef int i, seat, index, n
    cdef i64 total
    cdef u64 legal
    cdef Pos pos
    if hands == NULL or totals == NULL:
        free(hands)
        free(totals)
        raise MemoryError()
    try:
        if n_cards > 52:
            raise ValueError("a history holds at most 52 cards")
        if memo is None:
            memo = PlayMemo()
        else:
            memo.hold((c_leader, tuple(cards), c_observer, c_flags, mode,
                       None if model is None else (tuple(model[0]), model[1]),
                       None if log_weights is None else tuple(log_weights)))
        for i in range(n_cards):
            c_cards[i] = cards[i]
        for index in range(n_deals):
            for seat in range(4):
                hands[4 * index + seat] = deals[index][seat]
        with nogil:
            for seat in range(4):
                pos.hands[seat] = 0
                pos.taken[seat] = 0
                played_by[seat] = 0
            pos.count = 0
            pos.leader = c_leader
            pos.trick_index = 0
            pos.broken = 0
            for i in range(n_cards):
                players[i] = (pos.leader + pos.count) & 3
                played_by[players[i]] |= (<u64>1) << c_cards[i]
                c_apply(&pos, c_cards[i], c_flags)
            for index in range(n_deals):
                for seat in range(4):
                    pos.hands[seat] = hands[4 * index + seat] | played_by[seat]
                    pos.taken[seat] = 0
                    learned[seat] = 0
                    explored[seat] = 0
                    chosen[seat] = 0
                pos.count = 0
                pos.leader = c_leader
                pos.trick_index = 0
                pos.broken = 0
                total = 0
                for i in range(n_cards):
                    seat = players[i]
                    if seat != c_observer:
                        legal = c_legal(&pos, c_flags)
                        n = mdh_popcount(legal)
                        if n > 1:
                            read = c_memo_slot(&pos, legal, c_cards[i], c_flags, reading,
                                               &memo.tables[i], &spare)
                            if mode == READ_TABLE:
                                total += read.entry
                            elif mode == READ_LEARNED:
                                total += c_log_units(read.nats)
                            elif mode == READ_PLAYS:
                                total += c_mix_logs(read.nats, <double>read.entry / LOG_UNIT,
                                                    reading.log_first, reading.log_second)
                            else:
                                learned[seat] += c_log_units(read.nats)
                                explored[seat] += read.entry
                                chosen[seat] = 1
                    c_apply(&pos, c_cards[i], c_flags)
                if mode == READ_SEATS:
                    for seat in range(4):
                        if chosen[seat]:
                            total += c_mix_logs(<double>learned[seat] / LOG_UNIT,
                                                <double>explored[seat] / LOG_UNIT,
                                                reading.log_first, reading.log_second)
                totals[index] = total
        return [totals[index] for index in range(n_deals)]
    finally:
        free(hands)
        free(totals)


cdef void read_evidence_table(log_weights, Reading* reading) except *:
    cdef int i
    for i in range(4 * 2 * SIDE):
        reading.table[i] = log_weights[i]


cdef void read_learned_model(model, Reading* reading) except *:
    from ai.search_py import check_learned_model

    check_learned_model(model)
    weights, mix = model
    cdef int i
    for i in range(3 * N_FEATURES):
        reading.weights[i] = weights[i]
    reading.mix = mix


def play_evidence(deals, history, log_weights):
    """Return, per deal, the summed log-weight of the other seats' plays (see the twin)."""
    cdef Reading reading
    if len(history[1]) > 52 or len(log_weights) != 4 * 2 * SIDE:
        raise ValueError("a history holds at most 52 cards and the table 112 entries")
    reading.mode = READ_TABLE
    read_evidence_table(log_weights, &reading)
    return c_read_plays(deals, history, &reading, None, None, None)


def learned_evidence(deals, history, model, PlayMemo memo=None):
    """Return, per deal, the summed log-probability of the other seats' plays under a learned
    model (see the twin)."""
    cdef Reading reading
    reading.mode = READ_LEARNED
    read_learned_model(model, &reading)
    return c_read_plays(deals, history, &reading, memo, model, None)


def mixed_evidence(deals, history, log_weights, model, double prior, per_play=False,
                   PlayMemo memo=None):
    """Return, per deal, the log-likelihood of the other seats' plays under a mixture of a
    learned model and the evidence table's model, per seat or per play (see the twin)."""
    from ai.search_py import check_mixture

    cdef Reading reading
    read_learned_model(model, &reading)
    reading.log_first, reading.log_second = check_mixture(log_weights, prior)
    reading.mode = READ_PLAYS if per_play else READ_SEATS
    read_evidence_table(log_weights, &reading)
    return c_read_plays(deals, history, &reading, memo, model, log_weights)
