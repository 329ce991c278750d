"""Pure-Python twin of the compiled search kernel ``ai._search``: rollouts, exact endgames, and
the batched evaluation of candidate cards over determinised deals.

Every public function here has a compiled namesake with identical results (tests compare them on
many random positions): the same splitmix64 generator, the same bounded draws and the same order
of iteration. A position is four hand masks plus a ``Table`` (what everyone sees: cards taken,
the trick so far, whose lead, which trick, hearts broken, rule flags).

**Rollout policy** (each seat sees only its own hand and the trick): with probability
``EPSILON / 65536`` a uniformly random legal card; otherwise

- lead: avoid hearts while other suits are allowed and spades while holding the Q♠; among the
  suits left prefer those whose lowest card is below the ten, then the suit shortest in hand,
  then the lowest card; lead the lowest card of that suit;
- follow suit: the highest card that still loses the trick; when every card wins it, the highest
  (last to play) or the lowest (others still to play), keeping the Q♠ whenever possible;
- void: the Q♠, else the highest heart, else the highest-ranked card (spades first on ties).

Moon in rollouts: a seat that holds every point taken so far runs when it has taken at least
``RUN_HEARTS`` hearts, or when at most ``RUN_LOSERS`` of its cards can be beaten by a card left in
another hand (a strong hand runs early, as a player going for the moon does): it plays its
highest-ranked card when it leads or follows, and its lowest plain card when void. While the
runner is winning the trick, the others defend: the highest card of the suit led if it beats the
runner's (else the lowest, to keep stoppers); when void, no point card, or if only point cards
are left, the lowest-ranked one (a high heart kept can still stop the moon).

**Looking ahead** (``evaluate(..., look_ahead=True)``): the searching seat chooses its next
card in a rollout by playing each legal card out once with the policy without random moves, and
keeping the one that leaves it the fewest points against the others (ties: the lowest card);
after that card, and for the others, the policy plays (looking ahead at every later turn too,
the seat would play each as if it saw every hand). A moon counts there as the points taken:
seeing every hand, a seat that steered for the moon would find ways no player could know of,
and take the Q♠ for a moon it cannot make. While it runs for the moon it plays the policy.

**Exact search** is max-n on a determinised deal: every seat, the searching one included, picks
the card that minimises its own points against the others' (``4·p[seat] − Σ p``, the hand's Diff
times three, with the moon added as 26 to the others: a moon conceded and the Q♠ taken cost the
same 8⅔), not its raw points; ties go to the lowest card. Paranoid search would be faster but
makes every opponent a partner against us, which in Hearts plays far too defensively. Positions
at a trick's start are remembered for the whole search (one ``evaluate`` call: every deal and
candidate), by the hands and what the rest of the score depends on (``_summary``), since other
orders of play often leave the same cards; the compiled kernel keeps the last position per slot
of a fixed table, this twin every position.

**Cost** of a final result, lower is better, for the searching seat ``s``: ``4·p[s] − Σ p`` (three
times "own points minus the others' mean"), where ``p`` are the hand points moved by the moon
shift of the shooter (how moon ``add``/``subtract``/``auto`` scores differ from ``add``); plus or
minus ``match_weight`` when the hand ends the match and ``s`` loses or wins it.

**Tallies.** ``evaluate_detail`` also returns each deal's cost per candidate (so that two
candidates can be compared deal by deal, with their paired noise) and counts, per candidate
over the same runs, what the searching seat ends up with: hearts taken, the Q♠ and the J♦
taken, a moon shot or conceded, the trick open at the start won, the no-tricks bonus, the match
won or lost (``TALLY_...``). An exact search carries them along its best line. With ``N`` runs
the cost total splits exactly (``ai.outcomes``) into: the moon, ``-78`` per moon shot and
``+26`` per moon conceded; in the runs without one, ``4·hearts - 13`` and ``52·Q♠ - 13``; under
the J♦ rule ``10 - 40·J♦``; under the no-tricks bonus ``5·others - 15·own``; and the match
weight per match lost, minus it per match won. (The moon's shift by the rules moves every seat
alike and cancels out of the difference.)

A hand stops early once no card left in any hand can change the score. With ``leaf_cards``,
``evaluate`` ends each rollout in the exact search once every hand holds that many cards at a
trick's start.

**Evidence.** ``play_evidence`` replays the hand so far on a sampled deal (each seat's hand then
was its sampled hand plus the cards it has played since) and sums, over every play of another
seat that had a choice, a log-weight from a table: by the kind of play (one where the policy
would throw the Q♠, else a lead, a follow, a discard), by whether the rollout policy would have
played that card, and by the number of legal cards. ``pass_evidence`` weighs the high spades by
where a deal puts them after the pass (``PassRecord``; ``ai.inference.pass_record`` builds it).
``tempered_weights`` turns a pool's summed log-weights into the weights it is resampled by
(``ai.inference``).

**Sampling.** ``deal_plan`` flattens a ``DealSampler`` (the ways to split each card group among
the other seats) into plain numbers; ``sample_deals`` then draws deals from it exactly as the
sampler does: a split per group with probability proportional to the deals through it, then a
uniformly random choice of which cards go where. Draws below ``n`` are exact (Lemire's
multiply-and-reject on 64-bit outputs).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from ai.knowledge import GROUP_COUNT
from ai.sampler import DealSampler
from core.cards import HEARTS_MASK as _HEARTS
from core.cards import JACK_OF_DIAMONDS as _JACK_OF_DIAMONDS
from core.cards import POINT_CARDS_MASK as _POINT_CARDS
from core.cards import QUEEN_OF_SPADES as _QUEEN_OF_SPADES
from core.cards import SUIT_MASKS as _SUIT
from core.kernel_py import MASK64 as _MASK64
from core.kernel_py import TWO_OF_CLUBS_MASK as _TWO_OF_CLUBS
from core.kernel_py import legal_mask, next_random, trick_points
from core.rules import FLAG_JACK_OF_DIAMONDS as _JACK_OF_DIAMONDS_FLAG
from core.rules import FLAG_NO_TRICKS_BONUS as _NO_TRICKS_BONUS
from core.rules import FLAG_QUEEN_BREAKS_HEARTS as _QUEEN_BREAKS_HEARTS
from core.scoring import add_scored

_SPADES = _SUIT[2]
_QUEEN_BIT = 1 << _QUEEN_OF_SPADES
_JACK_OF_DIAMONDS_BIT = 1 << _JACK_OF_DIAMONDS

#: Chance, out of 65536, that a rollout plays a random legal card instead of the policy's.
EPSILON = 13107
#: A lead whose lowest card has this rank (the ten) or higher is a last resort.
HIGH_LEAD_RANK = 8
#: Hearts that make a seat holding every point taken so far run for the moon in rollouts,
#: whatever its hand (the Q♠ alone does not: with a weak hand, rollouts would run with any hand
#: that happened to take it).
RUN_HEARTS = 4
#: A seat holding every point taken so far also runs when at most this many of its cards can be
#: beaten by a card left in another hand (its sure winners carry the rest).
RUN_LOSERS = 2


class Table(NamedTuple):
    """What every seat sees of a hand in play; ``leader`` -1 means the 2♣ holder leads."""

    taken: tuple[int, int, int, int]
    trick: tuple[int, ...]
    leader: int
    trick_index: int
    hearts_broken: bool
    flags: int

    @classmethod
    def opening(cls, flags: int) -> Table:
        """Return the table of a hand before its first lead, where a pass is valued."""
        return cls((0, 0, 0, 0), (), -1, 0, False, flags)


class Goal(NamedTuple):
    """How one seat scores a final result (see the module notes on cost)."""

    seat: int
    scores: tuple[int, int, int, int]
    end_score: int
    match_weight: int
    moon_shift: tuple[int, int, int, int]


class DealPlan(NamedTuple):
    """A ``DealSampler`` as plain numbers for ``sample_deals``.

    ``option_index`` holds, per (group, a, b) at ``((group * 14 + a) * 14 + b) * 2``, the first
    option and the number of options when the first two other seats still take ``a`` and ``b``
    cards;
    ``options`` holds triples (cards to the first other seat, to the second, weight).
    """

    known: tuple[int, int, int, int]
    others: tuple[int, int, int]
    slots: tuple[int, int]
    groups: tuple[tuple[int, ...], ...]
    option_index: tuple[int, ...]
    options: tuple[int, ...]


_SIDE = 14


class History(NamedTuple):
    """The cards played so far this hand, in order, as ``play_evidence`` replays them.

    ``leader`` led the first trick; the plays of ``observer`` are replayed but not weighed.
    """

    leader: int
    cards: tuple[int, ...]
    observer: int
    flags: int


#: Kinds of play weighed by the evidence table: a lead, following suit, a discard, and any play
#: where the policy would throw the Q♠ (whoever holds it almost always does).
LEAD, FOLLOW, DISCARD, QUEEN = 0, 1, 2, 3
#: Entries of an evidence table: ``((kind * 2 + agreed) * 14 + legal_count)``.
EVIDENCE_SIZE = 4 * 2 * _SIDE


class PassRecord(NamedTuple):
    """What the observer's pass tells, as ``pass_evidence`` weighs it on a deal.

    Seat ``m``'s hand before the pass is estimated as its hand in the deal, plus ``added[m]``
    (cards it has played, and the cards it passed to the observer), minus ``removed[m]`` (the
    cards the observer passed it). Its *key* is ``2 · |hand ∩ guard_mask| + holds the Q♠``.
    For watched card ``i`` (``cards[i]``), held before the pass by seat ``j`` whose passer is
    ``k``: ``guarded[i * GUARD_KEYS + key]`` says whether ``j`` (or ``k``, with the card added
    to its hand) would keep the card, and the deal's log-weight gains
    ``log_weights[((i * 4 + j) * 2 + guarded_j) * 2 + guarded_k]`` (``guarded_k`` is 0 when
    ``k`` is the observer).
    """

    observer: int
    passer_of: tuple[int, int, int, int]
    added: tuple[int, int, int, int]
    removed: tuple[int, int, int, int]
    guard_mask: int
    cards: tuple[int, ...]
    guarded: tuple[int, ...]
    log_weights: tuple[int, ...]


#: Keys of a guard table per watched card (see ``PassRecord``).
GUARD_KEYS = 2 * _SIDE

#: What ``evaluate_detail`` counts per candidate, summed over its runs (see "Tallies"): the
#: hearts the searching seat takes; runs where it takes the Q♠, the J♦ (with that rule); where
#: it shoots the moon, another seat does; where it wins the trick open at the start; where it
#: gets the no-tricks bonus, and how many other seats get it; where the hand wins, loses the
#: match for it.
(
    TALLY_HEARTS,
    TALLY_QUEEN,
    TALLY_JACK,
    TALLY_SHOT,
    TALLY_CONCEDED,
    TALLY_TRICK,
    TALLY_BONUS,
    TALLY_OTHERS_BONUS,
    TALLY_MATCH_WON,
    TALLY_MATCH_LOST,
) = range(10)
TALLY_SIZE = 10

#: The end of a run: the points (moon added), the moon shooter or -1, what each seat took
#: (``_outcome``) and the winner of the trick open at the run's start.
_Result = tuple[list[int], int, int, int]


class _Pos:
    """A determinised position; ``trick`` holds the cards of the open trick in play order."""

    __slots__ = ("broken", "hands", "leader", "taken", "trick", "trick_index")

    def __init__(
        self,
        hands: list[int],
        taken: list[int],
        trick: list[int],
        leader: int,
        trick_index: int,
        broken: bool,
    ) -> None:
        self.hands = hands
        self.taken = taken
        self.trick = trick
        self.leader = leader
        self.trick_index = trick_index
        self.broken = broken

    def copy(self) -> _Pos:
        return _Pos(
            list(self.hands),
            list(self.taken),
            list(self.trick),
            self.leader,
            self.trick_index,
            self.broken,
        )


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _nth_card(mask: int, index: int) -> int:
    for _ in range(index):
        mask &= mask - 1
    return _lowest(mask)


def _below(state: int, n: int) -> tuple[int, int]:
    """Return a uniform draw in [0, n) and the generator's new state (no draw when n is 1)."""
    if n == 1:
        return 0, state
    value, state = next_random(state)
    product = value * n
    if product & _MASK64 < n:
        threshold = (_MASK64 + 1 - n) % n
        while product & _MASK64 < threshold:
            value, state = next_random(state)
            product = value * n
    return product >> 64, state


def deal_plan(sampler: DealSampler) -> DealPlan:
    """Flatten a sampler's split table over the states its deals can reach."""
    index = [0] * (GROUP_COUNT * _SIDE * _SIDE * 2)
    options: list[int] = []
    reach = {(sampler.slots[0], sampler.slots[1])}
    for group in range(GROUP_COUNT):
        following = set()
        for a, b in sorted(reach):
            c = sampler._free_from[group] - a - b
            splits = sampler._splits(group, a, b, c)
            key = ((group * _SIDE + a) * _SIDE + b) * 2
            index[key] = len(options) // 3
            index[key + 1] = len(splits)
            for (x, y, _z), here, rest in splits:
                options += (x, y, here * rest)
                following.add((a - x, b - y))
        reach = following
    others = sampler.others
    return DealPlan(
        sampler.knowledge.known,
        (others[0], others[1], others[2]),
        (sampler.slots[0], sampler.slots[1]),
        tuple(tuple(cards) for cards in sampler.group_cards),
        tuple(index),
        tuple(options),
    )


def sample_deals(
    plan: DealPlan, count: int, seed: int, first: int
) -> list[tuple[int, int, int, int]]:
    """Draw ``count`` deals; deal ``d`` uses the generator seeded with ``seed + first + d``."""
    deals = []
    for number in range(count):
        state = (seed + first + number) & _MASK64
        hands = list(plan.known)
        a, b = plan.slots
        for group in range(GROUP_COUNT):
            key = ((group * _SIDE + a) * _SIDE + b) * 2
            start = plan.option_index[key]
            end = start + plan.option_index[key + 1]
            total = 0
            for option in range(start, end):
                total += plan.options[3 * option + 2]
            pick, state = _below(state, total)
            chosen = start
            while pick >= plan.options[3 * chosen + 2]:
                pick -= plan.options[3 * chosen + 2]
                chosen += 1
            x = plan.options[3 * chosen]
            y = plan.options[3 * chosen + 1]
            cards = list(plan.groups[group])
            size = len(cards)
            for i in range(x + y):
                j, state = _below(state, size - i)
                j += i
                cards[i], cards[j] = cards[j], cards[i]
            for i in range(size):
                seat = plan.others[0] if i < x else plan.others[1] if i < x + y else plan.others[2]
                hands[seat] |= 1 << cards[i]
            a -= x
            b -= y
        deals.append((hands[0], hands[1], hands[2], hands[3]))
    return deals


def _position(hands: Sequence[int], table: Table) -> _Pos:
    leader = table.leader
    if leader < 0:
        leader = 0
        while not hands[leader] & _TWO_OF_CLUBS:
            leader += 1
    return _Pos(
        [hands[0], hands[1], hands[2], hands[3]],
        list(table.taken),
        list(table.trick),
        leader,
        table.trick_index,
        bool(table.hearts_broken),
    )


def _legal(pos: _Pos, flags: int) -> int:
    seat = (pos.leader + len(pos.trick)) & 3
    led = pos.trick[0] // 13 if pos.trick else -1
    return legal_mask(pos.hands[seat], led, pos.trick_index == 0, pos.broken, flags)


def _apply(pos: _Pos, card: int, flags: int) -> None:
    seat = (pos.leader + len(pos.trick)) & 3
    pos.hands[seat] ^= 1 << card
    pos.trick.append(card)
    if card >= 39 or (card == _QUEEN_OF_SPADES and flags & _QUEEN_BREAKS_HEARTS):
        pos.broken = True
    if len(pos.trick) == 4:
        trick = pos.trick
        best = trick[0]
        winner = 0
        mask = 1 << best
        for position in (1, 2, 3):
            card = trick[position]
            mask |= 1 << card
            if card // 13 == best // 13 and card > best:
                best = card
                winner = position
        winner = (pos.leader + winner) & 3
        pos.taken[winner] |= mask
        pos.leader = winner
        pos.trick = []
        pos.trick_index += 1


def _settled(pos: _Pos, flags: int) -> bool:
    """Return whether the rest of the hand cannot change the score (or the hand is over)."""
    if pos.trick:
        return False
    if pos.trick_index >= 13:
        return True
    hands = pos.hands
    relevant = _POINT_CARDS
    if flags & _JACK_OF_DIAMONDS_FLAG:
        relevant |= _JACK_OF_DIAMONDS_BIT
    if (hands[0] | hands[1] | hands[2] | hands[3]) & relevant:
        return False
    if flags & _NO_TRICKS_BONUS:
        taken = pos.taken
        return bool(taken[0] and taken[1] and taken[2] and taken[3])
    return True


def _score(pos: _Pos, flags: int) -> tuple[list[int], int]:
    return add_scored(pos.taken, pos.taken, flags)


def _lead(hand: int, legal: int) -> int:
    allowed = legal
    if allowed & ~_HEARTS:
        allowed &= ~_HEARTS
    if hand & _QUEEN_BIT and allowed & ~_SPADES:
        allowed &= ~_SPADES
    best_key = 1 << 30
    best_card = -1
    for suit in range(4):
        cards = allowed & _SUIT[suit]
        if cards:
            low = _lowest(cards)
            rank = low - 13 * suit
            key = (1024 if rank >= HIGH_LEAD_RANK else 0) + (hand & _SUIT[suit]).bit_count() * 16
            key += rank
            if key < best_key:
                best_key = key
                best_card = low
    return best_card


def _sure_winners(hand: int, others: int) -> int:
    """Return how many cards of ``hand`` no card of ``others`` can beat."""
    winners = 0
    for suit in range(4):
        mine = hand & _SUIT[suit]
        theirs = others & _SUIT[suit]
        if theirs:
            mine &= ~((2 << _highest(theirs)) - 1)
        winners += mine.bit_count()
    return winners


def _runner(pos: _Pos) -> int:
    """Return the seat running for the moon, or -1: it holds every point taken so far, and
    either ``RUN_HEARTS`` hearts or a hand with at most ``RUN_LOSERS`` cards another can beat
    (judged only when the other hands are known)."""
    taken = pos.taken
    runner = -1
    for seat in range(4):
        if taken[seat] & _POINT_CARDS:
            if runner >= 0:
                return -1
            runner = seat
    if runner < 0:
        return -1
    if (taken[runner] & _HEARTS).bit_count() >= RUN_HEARTS:
        return runner
    hand = pos.hands[runner]
    others = 0
    for seat in range(4):
        if seat != runner:
            others |= pos.hands[seat]
    if hand and others and hand.bit_count() - _sure_winners(hand, others) <= RUN_LOSERS:
        return runner
    return -1


def _winning(trick: list[int]) -> tuple[int, int]:
    """Return the card winning an open trick so far and its position in play order."""
    led = trick[0] // 13
    best = trick[0]
    winner = 0
    for position in range(1, len(trick)):
        card = trick[position]
        if card // 13 == led and card > best:
            best = card
            winner = position
    return best, winner


def _follow(best: int, last: bool, legal: int) -> int:
    under = legal & ((1 << best) - 1)
    if under:
        return _highest(under)
    safe = legal & ~_QUEEN_BIT
    if not safe:
        return _QUEEN_OF_SPADES
    return _highest(safe) if last else _lowest(safe)


def _discard(legal: int) -> int:
    if legal & _QUEEN_BIT:
        return _QUEEN_OF_SPADES
    hearts = legal & _HEARTS
    if hearts:
        return _highest(hearts)
    return _top(legal)


def _top(cards: int) -> int:
    """Return the highest-ranked card (hearts, then spades, diamonds, clubs on ties)."""
    best_card = -1
    best_rank = -1
    for suit in (3, 2, 1, 0):
        held = cards & _SUIT[suit]
        if held:
            card = _highest(held)
            if card - 13 * suit > best_rank:
                best_rank = card - 13 * suit
                best_card = card
    return best_card


def _bottom(cards: int) -> int:
    """Return the lowest-ranked card (clubs, then diamonds, spades, hearts on ties)."""
    best_card = -1
    best_rank = 13
    for suit in range(4):
        held = cards & _SUIT[suit]
        if held:
            card = _lowest(held)
            if card - 13 * suit < best_rank:
                best_rank = card - 13 * suit
                best_card = card
    return best_card


def _policy(pos: _Pos, flags: int, state: int, epsilon: int) -> tuple[int, int]:
    """Return the rollout policy's card for the seat to move, and the generator's new state."""
    legal = _legal(pos, flags)
    n = legal.bit_count()
    if n == 1:
        return _lowest(legal), state
    if epsilon > 0:
        value, state = next_random(state)
        if value & 0xFFFF < epsilon:
            return _nth_card(legal, ((value >> 32) * n) >> 32), state
    trick = pos.trick
    seat = (pos.leader + len(trick)) & 3
    runner = _runner(pos)
    following = bool(trick) and legal & _SUIT[trick[0] // 13] != 0
    if runner == seat:
        # Running: take every trick we can; when void, keep the points for ourselves.
        if not trick or following:
            return _top(legal), state
        plain = legal & ~_POINT_CARDS
        return _bottom(plain if plain else legal), state
    if not trick:
        return _lead(pos.hands[seat], legal), state
    best, position = _winning(trick)
    defending = runner >= 0 and (pos.leader + position) & 3 == runner
    if following:
        if defending:
            # Beat the runner if we can; else keep our high cards to stop it later.
            return (_highest(legal) if legal >> best > 1 else _lowest(legal)), state
        return _follow(best, len(trick) == 3, legal), state
    if defending:
        # Give the runner no points; if we must, the smallest, keeping the high ones to stop it.
        plain = legal & ~_POINT_CARDS
        return (_discard(plain) if plain else _bottom(legal)), state
    return _discard(legal), state


def _look_ahead(pos: _Pos, flags: int) -> int:
    """Return the card of a seat that looks ahead: each legal card is played out by the policy
    without random moves, and the one that leaves the seat the fewest points against the
    others, a moon counted as the points taken, is kept (ties: the lowest card)."""
    legal = _legal(pos, flags)
    if legal & (legal - 1) == 0:
        return _lowest(legal)
    seat = (pos.leader + len(pos.trick)) & 3
    best_card = -1
    best_margin = 0
    while legal:
        card = _lowest(legal)
        legal &= legal - 1
        child = pos.copy()
        _apply(child, card, flags)
        points, shooter, _, _ = _play_out(child, flags, 0, epsilon=0)
        if shooter >= 0:
            # The moon taken back out of the points (``_score`` added it): the points taken.
            for other in range(4):
                points[other] -= -26 if other == shooter else 26
        margin = _margin(points, seat)
        if best_card < 0 or margin < best_margin:
            best_card, best_margin = card, margin
    return best_card


def _play_out(
    pos: _Pos,
    flags: int,
    seed: int,
    played: list[int] | None = None,
    leaf: int = 0,
    known: dict[tuple[int, ...], _Result] | None = None,
    looker: int = -1,
    epsilon: int = EPSILON,
) -> _Result:
    """Roll out to the end; return the points, the moon shooter or -1, the outcome (``_outcome``)
    and the winner of the trick open at the start (cards to ``played``).

    From a trick's start with at most ``leaf`` cards in each hand (0: never), the rest is
    searched exactly, remembering positions in ``known``. The seat ``looker`` (-1: none)
    chooses its next card by ``_look_ahead`` instead of the policy, unless it runs for the
    moon then (it looks ahead at its first turn when it does not).
    """
    state = seed & _MASK64
    winner = -1 if pos.trick else pos.leader
    while not _settled(pos, flags):
        if leaf and not pos.trick and pos.hands[pos.leader].bit_count() <= leaf:
            points, shooter, outcome, _ = _exact(pos, flags, {} if known is None else known)
            return points, shooter, outcome, winner
        if (pos.leader + len(pos.trick)) & 3 == looker and _runner(pos) != looker:
            card = _look_ahead(pos, flags)
            looker = -1
        else:
            card, state = _policy(pos, flags, state, epsilon)
        if played is not None:
            played.append(card)
        _apply(pos, card, flags)
        if winner < 0 and not pos.trick:
            winner = pos.leader
    points, shooter = _score(pos, flags)
    return points, shooter, _outcome(pos), winner


def _special(flags: int) -> int:
    """Return the cards worth more or less than a plain card or a heart under these rules."""
    if flags & _JACK_OF_DIAMONDS_FLAG:
        return _QUEEN_BIT | _JACK_OF_DIAMONDS_BIT
    return _QUEEN_BIT


def _margin(points: list[int], seat: int) -> int:
    """Return what a seat minimises in the exact search: its points against the others'."""
    return 4 * points[seat] - (points[0] + points[1] + points[2] + points[3])


def _outcome(pos: _Pos) -> int:
    """Pack what each seat has taken, as ``_summary`` does (7 bits a seat, seat 0 lowest: its
    hearts, then whether it took the Q♠, the J♦, any trick), without the leader."""
    return _summary(pos) >> 2


def _summary(pos: _Pos) -> int:
    """Pack all that the rest of a hand's score depends on besides the hands, at a trick's start:
    the leader, and per seat its hearts taken, whether it took the Q♠ and the J♦, and whether it
    took any trick. (Within one search, hearts are broken or not by the cards left in hands.)"""
    key = pos.leader
    for seat in range(4):
        taken = pos.taken[seat]
        packed = (
            (taken & _HEARTS).bit_count()
            | (taken >> _QUEEN_OF_SPADES & 1) << 4
            | (taken >> _JACK_OF_DIAMONDS & 1) << 5
            | (taken != 0) << 6
        )
        key |= packed << (2 + 7 * seat)
    return key


def _exact(pos: _Pos, flags: int, known: dict[tuple[int, ...], _Result]) -> _Result:
    """Search the rest of the hand exactly; return what ``_play_out`` returns (the trick open
    here is the one whose winner is given: at a trick's start, the trick just won)."""
    if _settled(pos, flags):
        points, shooter = _score(pos, flags)
        return points, shooter, _outcome(pos), pos.leader
    if not pos.trick and pos.hands[pos.leader].bit_count() == 1:
        # The last trick: every card is forced, so play it out without searching.
        child = pos.copy()
        for _ in range(4):
            _apply(child, _lowest(child.hands[(child.leader + len(child.trick)) & 3]), flags)
        points, shooter = _score(child, flags)
        return points, shooter, _outcome(child), pos.leader
    key: tuple[int, ...] | None = None
    if not pos.trick:
        # The same position is met again through other orders of play: look it up.
        key = (*pos.hands, _summary(pos))
        found = known.get(key)
        if found is not None:
            return found
    seat = (pos.leader + len(pos.trick)) & 3
    legal = _legal(pos, flags)
    hands = pos.hands
    in_play = hands[0] | hands[1] | hands[2] | hands[3]
    for card in pos.trick:
        in_play |= 1 << card
    special = _special(flags)
    previous = -1
    best: _Result | None = None
    while legal:
        card = _lowest(legal)
        legal &= legal - 1
        if (
            previous >= 0
            and card // 13 == previous // 13
            and not in_play & ((1 << card) - (2 << previous))
            and not special & ((1 << card) | (1 << previous))
        ):
            # Next to the card just tried among the cards in play, and worth the same: the
            # same result, and ties go to the lower card anyway.
            previous = card
            continue
        previous = card
        child = pos.copy()
        _apply(child, card, flags)
        result = _exact(child, flags, known)
        if best is None or _margin(result[0], seat) < _margin(best[0], seat):
            best = result
    assert best is not None
    if key is not None:
        best = (best[0], best[1], best[2], pos.leader)
        known[key] = best
    return best


def _cost(points: list[int], shooter: int, goal: Goal) -> tuple[int, int]:
    """Return the cost of a final result, and 1 when it loses the match, -1 when it wins it."""
    shift = goal.moon_shift[shooter] if shooter >= 0 else 0
    final = [points[seat] + shift for seat in range(4)]
    seat = goal.seat
    cost = 4 * final[seat] - (final[0] + final[1] + final[2] + final[3])
    match = 0
    if goal.match_weight:
        totals = [goal.scores[other] + final[other] for other in range(4)]
        if max(totals) >= goal.end_score:
            low = min(totals)
            if totals.count(low) == 1:
                match = -1 if totals[seat] == low else 1
    return cost + match * goal.match_weight, match


def _tally(
    tallies: list[int],
    base: int,
    result: _Result,
    match: int,
    seat: int,
    flags: int,
) -> None:
    """Add one run's outcome for ``seat`` to ``tallies[base : base + TALLY_SIZE]``."""
    _, shooter, outcome, winner = result
    mine = outcome >> (7 * seat)
    tallies[base + TALLY_HEARTS] += mine & 15
    tallies[base + TALLY_QUEEN] += mine >> 4 & 1
    if flags & _JACK_OF_DIAMONDS_FLAG:
        tallies[base + TALLY_JACK] += mine >> 5 & 1
    if shooter >= 0:
        tallies[base + (TALLY_SHOT if shooter == seat else TALLY_CONCEDED)] += 1
    elif flags & _NO_TRICKS_BONUS:
        for other in range(4):
            if not outcome >> (7 * other + 6) & 1:
                tallies[base + (TALLY_BONUS if other == seat else TALLY_OTHERS_BONUS)] += 1
    if winner == seat:
        tallies[base + TALLY_TRICK] += 1
    if match:
        tallies[base + (TALLY_MATCH_LOST if match > 0 else TALLY_MATCH_WON)] += 1


def rollout(
    hands: Sequence[int], table: Table, card: int, seed: int
) -> tuple[tuple[int, int, int, int], int]:
    """Play ``card`` (-1: none) for the seat to move, then roll out with the policy.

    Returns the hand points of the four seats (moon added) and the moon shooter or -1.
    """
    pos = _position(hands, table)
    if card >= 0:
        _apply(pos, card, table.flags)
    points, shooter, _, _ = _play_out(pos, table.flags, seed)
    return (points[0], points[1], points[2], points[3]), shooter


def rollout_cards(hands: Sequence[int], table: Table, card: int, seed: int) -> list[int]:
    """Return the cards a rollout plays after ``card``, in order (to check it against the rules)."""
    pos = _position(hands, table)
    if card >= 0:
        _apply(pos, card, table.flags)
    played: list[int] = []
    _play_out(pos, table.flags, seed, played)
    return played


def exact(hands: Sequence[int], table: Table, card: int) -> tuple[tuple[int, int, int, int], int]:
    """Play ``card`` (-1: none), then search the rest of the hand exactly (max-n)."""
    pos = _position(hands, table)
    if card >= 0:
        _apply(pos, card, table.flags)
    points, shooter, _, _ = _exact(pos, table.flags, {})
    return (points[0], points[1], points[2], points[3]), shooter


def _players(history: History) -> list[int]:
    """Return the seat that played each card of the history."""
    pos = _Pos([0, 0, 0, 0], [0, 0, 0, 0], [], history.leader, 0, False)
    players = []
    for card in history.cards:
        players.append((pos.leader + len(pos.trick)) & 3)
        _apply(pos, card, history.flags)
    return players


def _choices(
    deal: Sequence[int], history: History, players: Sequence[int], played_by: Sequence[int]
) -> Iterator[tuple[int, int, _Pos, int]]:
    """Replay the history on a deal (every seat's current hand; ``played_by`` each seat's
    played cards) and yield each play by another seat that had a choice: its seat, its card,
    the position before it and the legal cards there."""
    pos = _Pos(
        [deal[seat] | played_by[seat] for seat in range(4)],
        [0, 0, 0, 0],
        [],
        history.leader,
        0,
        False,
    )
    for seat, card in zip(players, history.cards, strict=True):
        if seat != history.observer:
            legal = _legal(pos, history.flags)
            if legal.bit_count() > 1:
                yield seat, card, pos, legal
        _apply(pos, card, history.flags)


def _played(history: History) -> tuple[list[int], list[int]]:
    """Return the seat of each card of the history, and each seat's played cards."""
    players = _players(history)
    played_by = [0, 0, 0, 0]
    for seat, card in zip(players, history.cards, strict=True):
        played_by[seat] |= 1 << card
    return players, played_by


def _table_entry(pos: _Pos, legal: int, card: int, log_weights: Sequence[int], flags: int) -> int:
    """Return the evidence table's log-weight of ``card`` played among ``legal``."""
    choice = _policy(pos, flags, 0, 0)[0]
    kind = _epsilon_kind(pos, legal, choice)
    return log_weights[(kind * 2 + (choice == card)) * _SIDE + legal.bit_count()]


def play_evidence(
    deals: Sequence[Sequence[int]], history: History, log_weights: Sequence[int]
) -> list[int]:
    """Return, per deal (every seat's current hand), the summed log-weight of the history's
    plays by the other seats (see the module notes; ``log_weights`` has ``EVIDENCE_SIZE``
    entries)."""
    players, played_by = _played(history)
    return [
        sum(
            _table_entry(pos, legal, card, log_weights, history.flags)
            for _, card, pos, legal in _choices(deal, history, players, played_by)
        )
        for deal in deals
    ]


#: What a learned play model reads of each legal card, in this order (``card_features``).
FEATURES = (
    "rank",
    "heart",
    "Q♠",
    "A♠ or K♠ while the Q♠ is unseen",
    "cards held above it in its suit",
    "cards held below it",
    "cards unseen above it",
    "cards unseen below it",
    "wins the trick so far",
    "wins the trick, last to play",
    "points it would take",
    "spade while holding the Q♠",
    "last card of its suit",
    "spade below the Q♠ while the Q♠ is unseen",
    "cards held in its suit",
    "no card of its suit unseen",
)
FEATURE_COUNT = len(FEATURES)
#: Kinds of play with their own weights in a learned model: a lead, following suit, a discard.
LEARNED_KINDS = 3
#: A learned model's weights are whole numbers of this fraction of a logit.
WEIGHT_UNIT = 1024
_ALL_CARDS = (1 << 52) - 1
_HIGH_SPADES = (_QUEEN_OF_SPADES + 1, _QUEEN_OF_SPADES + 2)


class LearnedModel(NamedTuple):
    """A learned model of play: a softmax over the legal cards of ``weights[kind * FEATURE_COUNT
    + feature] / WEIGHT_UNIT`` times each card's features, mixed with a uniformly random legal
    card with probability ``mix`` (so that no play is impossible)."""

    weights: tuple[int, ...]
    mix: float


def _card_features(pos: _Pos, legal: int) -> tuple[int, list[tuple[int, ...]]]:
    """Return the kind of play (0 lead, 1 follow, 2 discard) and each legal card's features,
    from what the seat to move knows: its own hand, the cards taken and the open trick."""
    seat = (pos.leader + len(pos.trick)) & 3
    hand = pos.hands[seat]
    trick_mask = 0
    for card in pos.trick:
        trick_mask |= 1 << card
    taken = pos.taken
    unseen = _ALL_CARDS & ~(hand | trick_mask | taken[0] | taken[1] | taken[2] | taken[3])
    queen_unseen = unseen >> _QUEEN_OF_SPADES & 1
    holds_queen = hand >> _QUEEN_OF_SPADES & 1
    led = -1
    best = -1
    kind = 0
    if pos.trick:
        led = pos.trick[0] // 13
        best = _winning(pos.trick)[0]
        kind = 1 if legal & _SUIT[led] else 2
    last = len(pos.trick) == 3
    rows: list[tuple[int, ...]] = []
    mask = legal
    while mask:
        card = _lowest(mask)
        mask &= mask - 1
        suit = card // 13
        suit_cards = _SUIT[suit]
        below = suit_cards & ((1 << card) - 1)
        above = suit_cards & ~((2 << card) - 1)
        wins = int(suit == led and card > best)
        held = (hand & suit_cards).bit_count()
        rows.append(
            (
                card - 13 * suit,
                int(suit == 3),
                int(card == _QUEEN_OF_SPADES),
                int(card in _HIGH_SPADES and queen_unseen == 1),
                (hand & above).bit_count(),
                (hand & below).bit_count(),
                (unseen & above).bit_count(),
                (unseen & below).bit_count(),
                wins,
                int(wins == 1 and last),
                # Flags 0: hearts and the Q♠ only, as the model was fitted, whatever the rules.
                trick_points(trick_mask | 1 << card, 0) if wins else 0,
                int(suit == 2 and card != _QUEEN_OF_SPADES and holds_queen == 1),
                int(held == 1),
                int(suit == 2 and card < _QUEEN_OF_SPADES and queen_unseen == 1),
                held,
                int(not unseen & suit_cards),
            )
        )
    return kind, rows


def card_features(hands: Sequence[int], table: Table) -> tuple[int, list[tuple[int, ...]]]:
    """Return the kind of play of the seat to move (0 lead, 1 follow, 2 discard) and the
    ``FEATURES`` of each of its legal cards, lowest card first. Only the seat's own hand is
    read of ``hands``."""
    pos = _position(hands, table)
    return _card_features(pos, _legal(pos, table.flags))


def _learned_log_weight(pos: _Pos, legal: int, card: int, model: LearnedModel) -> int:
    """Return the log-probability (in ``1 / LOG_UNIT`` nats) of ``card`` among ``legal``."""
    return math.floor(LOG_UNIT * _learned_log(pos, legal, card, model) + 0.5)


def _learned_log(pos: _Pos, legal: int, card: int, model: LearnedModel) -> float:
    """Return the log-probability (in nats) of ``card`` among ``legal`` under the model."""
    kind, rows = _card_features(pos, legal)
    weights = model.weights[kind * FEATURE_COUNT : (kind + 1) * FEATURE_COUNT]
    logits = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in rows]
    top = max(logits)
    total = 0.0
    chosen = 0.0
    mask = legal
    for logit in logits:
        value = math.exp((logit - top) / WEIGHT_UNIT)
        total += value
        if _lowest(mask) == card:
            chosen = value
        mask &= mask - 1
    probability = (1.0 - model.mix) * chosen / total + model.mix / len(logits)
    return math.log(probability)


class PlayMemo:
    """What one decision's calls of the learned readers keep between them. The compiled kernel
    keeps each play's learned probability and evidence table entry by what of the deal they
    read, and starts again for another history, model or table; this twin computes every play,
    so comparing the two finds a memo that returns a wrong value. One thread uses a memo at a
    time."""


def learned_evidence(
    deals: Sequence[Sequence[int]],
    history: History,
    model: LearnedModel,
    memo: PlayMemo | None = None,
) -> list[int]:
    """Return, per deal (every seat's current hand), the summed log-probability (in
    ``1 / LOG_UNIT`` nats) of the history's plays by the other seats that had a choice, under a
    learned model (``LearnedModel``). Calls on the same history and model may share a
    ``memo`` (``PlayMemo``): the results are the same."""
    check_learned_model(model)
    players, played_by = _played(history)
    return [
        sum(
            _learned_log_weight(pos, legal, card, model)
            for _, card, pos, legal in _choices(deal, history, players, played_by)
        )
        for deal in deals
    ]


#: A learned weight's largest size (so that a logit is exact in the kernels' 64-bit sums).
MAX_LEARNED_WEIGHT = 1 << 30


def check_learned_model(model: LearnedModel) -> None:
    """Raise ValueError unless a learned model has the weights and the mix the kernels take."""
    if len(model.weights) != LEARNED_KINDS * FEATURE_COUNT:
        raise ValueError(f"a learned model has {LEARNED_KINDS * FEATURE_COUNT} weights")
    if not all(abs(weight) <= MAX_LEARNED_WEIGHT for weight in model.weights):
        raise ValueError(f"a learned model's weights are at most {MAX_LEARNED_WEIGHT} in size")
    if not 0.0 < model.mix <= 1.0:
        raise ValueError("a learned model's mix is in (0, 1]")


def _epsilon_kind(pos: _Pos, legal: int, choice: int) -> int:
    """Return the kind of play of the evidence table for the policy's ``choice``."""
    if choice == _QUEEN_OF_SPADES:
        return QUEEN
    if not pos.trick:
        return LEAD
    return FOLLOW if legal & _SUIT[pos.trick[0] // 13] else DISCARD


def _mix_logs(first: float, second: float, log_first: float, log_second: float) -> int:
    """Return ``log(p · e^first + (1 − p) · e^second)`` in ``1 / LOG_UNIT`` nats, rounded,
    for natural logs ``first``, ``second`` and ``log_first = log p``, ``log_second =
    log(1 − p)``. With ``p`` 1 (or 0) it is exactly ``first`` (or ``second``) rounded."""
    a = first + log_first
    b = second + log_second
    if a >= b:
        high = a
        low = b
    else:
        high = b
        low = a
    return math.floor(LOG_UNIT * (high + math.log1p(math.exp(low - high))) + 0.5)


def seat_evidence(
    deal: Sequence[int],
    history: History,
    log_weights: Sequence[int],
    model: LearnedModel,
) -> tuple[list[int], list[int]]:
    """Return, for one deal, each seat's summed log-probability (in ``1 / LOG_UNIT`` nats) of
    its plays under the learned model and under the evidence table (the observer's and plays
    without a choice count 0): the two halves that ``mixed_evidence`` weighs per seat. Their
    sums over the seats are ``learned_evidence`` and ``play_evidence``."""
    check_learned_model(model)
    check_mixture(log_weights, 0.0)
    players, played_by = _played(history)
    learned = [0, 0, 0, 0]
    explored = [0, 0, 0, 0]
    for seat, card, pos, legal in _choices(deal, history, players, played_by):
        learned[seat] += _learned_log_weight(pos, legal, card, model)
        explored[seat] += _table_entry(pos, legal, card, log_weights, history.flags)
    return learned, explored


def mixed_evidence(
    deals: Sequence[Sequence[int]],
    history: History,
    log_weights: Sequence[int],
    model: LearnedModel,
    prior: float,
    per_play: bool = False,
    memo: PlayMemo | None = None,
) -> list[int]:
    """Return, per deal (every seat's current hand), the log-likelihood (in ``1 / LOG_UNIT``
    nats) of the other seats' plays under a mixture of the learned model (``model``, with
    probability ``prior``) and the evidence table's model (``log_weights``, as in
    ``play_evidence``). Calls may share a ``memo`` as in ``learned_evidence``.

    Per seat (the default), each other seat ``s`` plays by one model throughout the hand: its
    term is ``log(prior · e^A + (1 − prior) · e^B)`` (``_mix_logs``), ``A`` and ``B`` its
    plays' summed log-probabilities under each model (``seat_evidence``), so a seat the table
    explains better is read mostly by it, and vice versa. ``per_play`` mixes each play's
    probability instead: ``prior · P_learned + (1 − prior) · P_table``. Each seat's (or play's)
    term is rounded to a whole number of ``1 / LOG_UNIT`` nats, then summed.
    """
    check_learned_model(model)
    log_first, log_second = check_mixture(log_weights, prior)
    players, played_by = _played(history)
    results = []
    for deal in deals:
        learned = [0, 0, 0, 0]
        explored = [0, 0, 0, 0]
        chosen = [False, False, False, False]
        total = 0
        for seat, card, pos, legal in _choices(deal, history, players, played_by):
            entry = _table_entry(pos, legal, card, log_weights, history.flags)
            if per_play:
                first = _learned_log(pos, legal, card, model)
                total += _mix_logs(first, entry / LOG_UNIT, log_first, log_second)
            else:
                learned[seat] += _learned_log_weight(pos, legal, card, model)
                explored[seat] += entry
                chosen[seat] = True
        for seat in range(4):
            if chosen[seat]:
                total += _mix_logs(
                    learned[seat] / LOG_UNIT, explored[seat] / LOG_UNIT, log_first, log_second
                )
        results.append(total)
    return results


def check_mixture(log_weights: Sequence[int], prior: float) -> tuple[float, float]:
    """Raise ValueError unless a mixture has an evidence table of ``EVIDENCE_SIZE`` entries and
    a prior in [0, 1]; return the natural logs of ``prior`` and ``1 − prior`` (minus infinity
    for 0)."""
    if len(log_weights) != EVIDENCE_SIZE:
        raise ValueError(f"an evidence table has {EVIDENCE_SIZE} entries")
    if not 0.0 <= prior <= 1.0:
        raise ValueError("a mixture's prior is in [0, 1]")
    rest = 1.0 - prior
    return (
        math.log(prior) if prior > 0.0 else -math.inf,
        math.log(rest) if rest > 0.0 else -math.inf,
    )


def pass_evidence(deals: Sequence[Sequence[int]], record: PassRecord) -> list[int]:
    """Return, per deal (every seat's current hand), the summed log-weight of the record's
    watched cards (see ``PassRecord``)."""
    observer = record.observer
    if record.guard_mask.bit_count() >= _SIDE or len(record.cards) > 3:
        raise ValueError("a pass record counts at most 13 guards and watches at most 3 cards")
    others = [seat for seat in range(4) if seat != observer]
    results = []
    for deal in deals:
        hands = [0, 0, 0, 0]
        keys = [0, 0, 0, 0]
        for seat in others:
            hand = (deal[seat] | record.added[seat]) & ~record.removed[seat]
            hands[seat] = hand
            keys[seat] = _guard_key(hand, record.guard_mask)
        total = 0
        for index, card in enumerate(record.cards):
            holder = next((seat for seat in others if hands[seat] >> card & 1), -1)
            if holder < 0:
                continue
            passer = record.passer_of[holder]
            guarded = record.guarded[index * GUARD_KEYS + keys[holder]]
            passer_guarded = 0
            if passer != observer:
                key = _guard_key(hands[passer] | 1 << card, record.guard_mask)
                passer_guarded = record.guarded[index * GUARD_KEYS + key]
            total += record.log_weights[((index * 4 + holder) * 2 + guarded) * 2 + passer_guarded]
        results.append(total)
    return results


def runner_evidence(
    deals: Sequence[Sequence[int]], seat: int, log_weights: Sequence[int]
) -> list[int]:
    """Return, per deal (every seat's current hand), the log-weight of ``seat``'s hand by how
    many of its cards another hand in the deal can beat: ``log_weights[losers]``, the last entry
    for that many or more (see ``ai.inference.PlayModel.runner``)."""
    if not log_weights or not 0 <= seat < 4:
        raise ValueError("a runner's weights need at least one entry and a seat 0..3")
    last = len(log_weights) - 1
    results = []
    for deal in deals:
        hand = deal[seat]
        others = 0
        for other in range(4):
            if other != seat:
                others |= deal[other]
        losers = hand.bit_count() - _sure_winners(hand, others)
        results.append(log_weights[min(losers, last)])
    return results


#: Log-weights are whole numbers of this fraction of a nat (the kernels add integers).
LOG_UNIT = 1024
#: Halvings of the interval of the tempering power (``tempered_weights``).
TEMPER_STEPS = 12


def effective_size(weights: Sequence[float]) -> float:
    """Return the effective sample size of importance weights, (Σw)² / Σw²."""
    total = sum(weights)
    squares = sum(weight * weight for weight in weights)
    return total * total / squares if squares > 0 else 0.0


def tempered_weights(log_weights: Sequence[int], minimum: float) -> tuple[list[float], float]:
    """Return weights from log-weights (in ``1 / LOG_UNIT`` nats), tempered so their effective
    size is at least ``minimum`` (when the pool allows), and the power used (1: untempered,
    0: uniform).

    The power is found by ``TEMPER_STEPS`` bisection steps in [0, 1], keeping the lower end
    (a power whose weights still have the effective size wanted). The compiled twin adds the
    weights as the built-in ``sum`` does on this Python, so both give the same floats.
    """
    if not log_weights:
        raise ValueError("tempered_weights() needs at least one log-weight")
    top = max(log_weights)
    scaled = [(value - top) / LOG_UNIT for value in log_weights]
    weights = [math.exp(value) for value in scaled]
    if effective_size(weights) >= minimum:
        return weights, 1.0
    low, high = 0.0, 1.0
    for _ in range(TEMPER_STEPS):
        middle = (low + high) / 2
        if effective_size([math.exp(middle * value) for value in scaled]) >= minimum:
            low = middle
        else:
            high = middle
    return [math.exp(low * value) for value in scaled], low


def _guard_key(hand: int, guard_mask: int) -> int:
    return (hand & guard_mask).bit_count() * 2 + (hand >> _QUEEN_OF_SPADES & 1)


def policy_card(hands: Sequence[int], table: Table) -> int:
    """Return the rollout policy's card (no randomness) for the seat to move, given every
    seat's hand (0 for hands not known: then a seat runs for the moon only on hearts taken)."""
    pos = _position(hands, table)
    return _policy(pos, table.flags, 0, 0)[0]


#: The most threads one evaluation may use.
MAX_THREADS = 256


def check_threads(threads: object) -> int:
    """Return ``threads`` if it is a number of threads an evaluation may use; else ValueError."""
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise ValueError(f"threads must be a whole number, not {threads!r:.40}")
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be from 1 to {MAX_THREADS}, not {threads}")
    return threads


def evaluate(
    deals: Sequence[Sequence[int]],
    table: Table,
    candidates: Sequence[int],
    rollouts: int,
    seed: int,
    first_deal: int,
    exact_cards: int,
    goal: Goal,
    leaf_cards: int = 0,
    look_ahead: bool = False,
    threads: int = 1,
) -> list[int]:
    """Return, per candidate card, the summed cost over every deal and rollout.

    Deal ``d`` of the batch is deal number ``first_deal + d`` of the decision: its rollout ``r``
    uses the seed ``seed + (first_deal + d) * rollouts + r`` for every candidate, so candidates
    are compared on the same random numbers. When the seat to move holds at most
    ``exact_cards`` cards, each deal is searched exactly once per candidate instead; with
    ``leaf_cards``, each rollout ends in an exact search once every hand holds at most that
    many cards at a trick's start. With ``look_ahead``, the searching seat (``goal.seat``)
    chooses its next card in a rollout by playing each out once (``_look_ahead``).

    ``threads`` (1 to ``MAX_THREADS``) is how many threads the compiled kernel shares the deals
    among; the result is the same for every number (each deal's cost depends only on the deal
    and its number), so this twin checks the number and runs on one.
    """
    check_threads(threads)
    deal_costs, _ = _evaluate(
        deals,
        table,
        candidates,
        rollouts,
        seed,
        first_deal,
        exact_cards,
        goal,
        leaf_cards,
        look_ahead,
        False,
    )
    return [sum(deal_costs[slot :: len(candidates)]) for slot in range(len(candidates))]


def evaluate_detail(
    deals: Sequence[Sequence[int]],
    table: Table,
    candidates: Sequence[int],
    rollouts: int,
    seed: int,
    first_deal: int,
    exact_cards: int,
    goal: Goal,
    leaf_cards: int = 0,
    look_ahead: bool = False,
    threads: int = 1,
) -> tuple[list[int], list[int]]:
    """``evaluate``, with the cost of every deal and what makes it up (see "Tallies").

    Returns the cost of candidate ``c`` on deal ``d`` (summed over its rollouts) at
    ``d * len(candidates) + c``, and candidate ``c``'s tallies, summed over every deal and
    rollout, at ``c * TALLY_SIZE + TALLY_...``. ``threads`` as for ``evaluate``.
    """
    check_threads(threads)
    return _evaluate(
        deals,
        table,
        candidates,
        rollouts,
        seed,
        first_deal,
        exact_cards,
        goal,
        leaf_cards,
        look_ahead,
        True,
    )


def _evaluate(
    deals: Sequence[Sequence[int]],
    table: Table,
    candidates: Sequence[int],
    rollouts: int,
    seed: int,
    first_deal: int,
    exact_cards: int,
    goal: Goal,
    leaf_cards: int,
    look_ahead: bool,
    detail: bool,
) -> tuple[list[int], list[int]]:
    looker = goal.seat if look_ahead else -1
    flags = table.flags
    width = len(candidates)
    deal_costs = [0] * (len(deals) * width)
    tallies = [0] * (width * TALLY_SIZE if detail else 0)
    known: dict[tuple[int, ...], _Result] = {}
    # The seat to move holds as many cards in every deal (the table says how many it played).
    searched = False
    if exact_cards > 0 and deals:
        first = _position(deals[0], table)
        searched = first.hands[(first.leader + len(first.trick)) & 3].bit_count() <= exact_cards
    for index, deal in enumerate(deals):
        base = _position(deal, table)
        for slot, card in enumerate(candidates):
            for number in range(1 if searched else rollouts):
                pos = base.copy()
                if card >= 0:
                    _apply(pos, card, flags)
                if searched:
                    result = _exact(pos, flags, known)
                else:
                    seed_here = seed + (first_deal + index) * rollouts + number
                    result = _play_out(pos, flags, seed_here, None, leaf_cards, known, looker)
                cost, match = _cost(result[0], result[1], goal)
                deal_costs[index * width + slot] += cost
                if detail:
                    _tally(tallies, slot * TALLY_SIZE, result, match, goal.seat, flags)
    return deal_costs, tallies
