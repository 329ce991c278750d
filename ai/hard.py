"""The hard bot: determinised search (perfect-information Monte Carlo) against the clock.

**Playing.** The bot deals the unseen cards at random among the deals consistent with what it
knows (``ai.sampler``), weighed by how well each explains the other players' cards so far
and the pass (``ai.inference``), and scores every legal card on each deal: the card is played,
then the hand is rolled out to the end ``ROLLOUTS`` times with a fast heuristic policy, or
searched exactly (max-n) once the bot holds at most ``EXACT_CARDS`` cards; a rollout too ends
in an exact search once every hand holds ``LEAF_CARDS`` cards. In every rollout the bot
chooses its own next card by playing each legal card out (``ai.search_py``, "Looking ahead")
rather than by the policy. More time buys a deeper ending: when a decision may take
``DEEP_MS`` or more, rollouts end in an exact search from ``DEEP_LEAF_CARDS`` cards. Every candidate
meets the same deals and the same random numbers, so their differences are measured
precisely. Deals come in batches until the budget expires; the card with the lowest mean cost
wins (ties go to the lower card). In its own decisions (not ``play_values``, nor an exact
search) the cards race (``ai.racing``): at set deal numbers the cards clearly worse than the
best drop out, and the later deals go to the cards still in contention.

**Cost** (``ai.search_py``), lower is better: own hand points minus the mean of the others', so
shooting the moon counts −26 and letting someone else shoot it +8⅔, plus ``MATCH_WEIGHT`` when
the hand ends the match with another seat the winner (minus it when the bot wins). Moon scoring
follows the rules: ``subtract`` and ``auto`` (with the match totals) move the moon's points.

**Passing.** Every 3-card set of the hand is ranked by a danger heuristic (the Q♠ and the A♠ /
K♠ when spades are short, high hearts, emptying a short suit); the best ``PASS_CANDIDATES`` sets,
as many of a second ranking where hearts weigh little (so that keeping the high hearts is
tried), the best one that keeps a high heart to stop a moon, and for a hand strong enough to
shoot the moon its lowest cards, are then played out. Each simulation deals the 39 unseen cards at
random, 13 to each other seat, and every other seat passes as a player would (``expected_pass``:
its three most dangerous cards), so the cards we receive are the ones a passer gets rid of, not
random ones. All sets share the same simulated deals and passes. With ``DEEP_MS`` or more
to decide, the rollouts of a pass end in an exact search from ``PASS_LEAF_CARDS`` cards.

**Cores.** The deals of a batch are shared among ``threads`` threads (``ai.cores``: by
default the cores minus one), which search them at once in the compiled kernel; each deal's
cost depends only on the deal and its number, so the threads change how many deals fit in the
budget, never what a given deal is worth. On two threads or more, fewer than the cores, the
kernel runs on a helper thread while the calling thread draws and weighs the next batch
(``ai.batches.run_batches``); a batch drawn but left unvalued when time runs out is dropped,
and nothing it drew is counted.

With a seed and ``max_samples`` the bot is reproducible: the result depends on the number of
deals, never on the time taken nor on the number of threads.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ai.batches import DrawnT, ValuedT, run_batches
from ai.bot import Budget
from ai.cores import threads_from_env
from ai.inference import DEFAULT_MODEL, PlayModel, deal_reader
from ai.knowledge import Knowledge, read_knowledge
from ai.moon import moon_strength
from ai.outcomes import Outcome
from ai.passing import HEART_DANGER, exchange, expected_pass, pass_danger
from ai.racing import contenders, next_check
from ai.sampler import DealSampler
from ai.search import (
    TALLY_SIZE,
    Goal,
    Table,
    check_threads,
    evaluate_detail,
    policy_card,
)
from core.cards import (
    FULL_DECK,
    HEARTS,
    SUIT_MASKS,
    card_text,
    cards_of,
    count,
    mask_of,
    rank_of,
    suit_of,
)
from core.observation import Observation
from core.rules import MOON_POINTS, pass_receiver
from core.scoring import moon_subtracts

#: Rollouts per deal and candidate card in play (more deals beat more rollouts per deal).
ROLLOUTS = 1
#: Rollouts per simulated deal and pass set (a deal costs more to build when passing).
PASS_ROLLOUTS = 4
#: Search exactly once the bot holds this many cards or fewer.
EXACT_CARDS = 4
#: Rollouts end in an exact search once every hand holds this many cards at a trick's start.
LEAF_CARDS = 3
#: A decision that may take at least this long searches deeper (``is_deep``): its rollouts end
#: in an exact search from ``DEEP_LEAF_CARDS`` cards (about a millisecond a deal for every
#: candidate).
DEEP_MS = 500
DEEP_LEAF_CARDS = 4
#: With a deep budget a pass's rollouts end in an exact search from this many cards: about a
#: quarter of the simulated hands, still thousands a second (with the look-ahead of plays too,
#: a hundredth).
PASS_LEAF_CARDS = 3
#: In an exact search, stop after this many samples per consistent deal.
EXACT_COVERAGE = 4
#: Cost of a match lost this hand (in cost units: 3 per point of Diff).
MATCH_WEIGHT = 150
#: Pass sets played out from each of two rankings by the danger heuristic (a few more join
#: them: see ``pass_candidates``).
PASS_CANDIDATES = 10
#: The second ranking of pass sets weighs hearts lightly (``ai.passing.HEART_DANGER`` is the
#: first's), and so keeps the high hearts.
KEPT_HEART_DANGER = (0.0, 0.5)
#: The lowest heart that counts as a stopper worth keeping (the jack).
STOPPER_RANK = 9
#: How strong for the moon (``ai.moon.moon_strength``) a hand must be to try passing low cards.
MOON_PASS_STRENGTH = 0.3
#: Deals per decision when neither a deadline nor ``max_samples`` bounds the search.
UNTIMED_SAMPLES = 2000


#: What the kernel's ``evaluate_detail`` returns: costs deal by deal, and tallies.
Detail = tuple[list[int], list[int]]


def moon_shifts(observation: Observation) -> tuple[int, int, int, int]:
    """Return, per moon shooter, what to add to every seat's points to turn ``add`` scoring into
    the rules' moon scoring (``subtract`` takes 26 from everyone, relative to ``add``)."""
    shifts = []
    for shooter in range(4):
        added = [0 if seat == shooter else MOON_POINTS for seat in range(4)]
        subtracts = moon_subtracts(observation.rules, observation.scores, added, shooter)
        shifts.append(-MOON_POINTS if subtracts else 0)
    return shifts[0], shifts[1], shifts[2], shifts[3]


def goal_of(observation: Observation) -> Goal:
    """Return how the observing seat scores final results."""
    return Goal(
        observation.seat,
        observation.scores,
        observation.rules.end_score,
        MATCH_WEIGHT,
        moon_shifts(observation),
    )


def is_deep(budget: Budget) -> bool:
    """Return whether a decision with this budget searches deeper (``DEEP_MS``)."""
    remaining = budget.remaining_ms()
    return remaining is not None and remaining >= DEEP_MS


def table_of(observation: Observation, knowledge: Knowledge) -> Table:
    """Return the public part of a position in play, as the search kernel takes it."""
    trick = observation.current_trick
    assert trick is not None, "no trick is open"
    return Table(
        knowledge.taken,
        trick.cards,
        trick.leader,
        len(observation.tricks) - 1,
        observation.hearts_broken,
        observation.rules.flags,
    )


def ranked_passes(hand: int, hearts: tuple[float, float]) -> list[tuple[int, int, int]]:
    """Return every 3-card set of ``hand``, most dangerous to keep first (ties: card order).

    A set scores the danger of its cards (``pass_danger`` with ``hearts``), plus a bonus for
    emptying a club or diamond suit of at most three cards (a void lets us discard points
    early).
    """
    danger = {card: pass_danger(card, hand, hearts) for card in cards_of(hand)}

    def score(cards: tuple[int, int, int]) -> float:
        value = sum(danger[card] for card in cards)
        for suit in (0, 1):
            held = hand & SUIT_MASKS[suit]
            if held and count(held) <= 3 and held & ~mask_of(cards) == 0:
                value += 10.0
        return value

    return sorted(itertools.combinations(cards_of(hand), 3), key=lambda s: (-score(s), s))


def pass_candidates(hand: int, limit: int = PASS_CANDIDATES) -> list[tuple[int, int, int]]:
    """Return the promising 3-card passes, best first: the ``limit`` most dangerous sets
    (``ranked_passes``), the ``limit`` most dangerous when hearts weigh little
    (``KEPT_HEART_DANGER``: sets that keep the high hearts), the most dangerous that keeps our
    highest heart when it is a stopper (the jack or higher: it can take a trick back from a
    player going for the moon), and, for a hand strong enough to shoot the moon, its three
    lowest cards and its three lowest outside hearts.
    """
    chosen: list[tuple[int, int, int]] = []

    def add(cards: Sequence[int]) -> None:
        ordered = tuple(sorted(cards))
        if len(ordered) == 3 and ordered not in chosen:
            chosen.append((ordered[0], ordered[1], ordered[2]))

    ranked = ranked_passes(hand, HEART_DANGER)
    for cards in [*ranked[:limit], *ranked_passes(hand, KEPT_HEART_DANGER)[:limit]]:
        add(cards)
    hearts = hand & SUIT_MASKS[HEARTS]
    if hearts and rank_of(hearts.bit_length() - 1) >= STOPPER_RANK:
        stopper = hearts.bit_length() - 1
        add(next(cards for cards in ranked if stopper not in cards))
    if moon_strength(hand, FULL_DECK & ~hand) >= MOON_PASS_STRENGTH:
        by_rank = sorted(cards_of(hand), key=lambda card: (rank_of(card), card))
        add(by_rank[:3])
        add([card for card in by_rank if suit_of(card) != HEARTS][:3])
    return chosen


class HardBot:
    """Searches sampled deals with heuristic rollouts and exact endgames; anytime and seeded.

    ``max_samples`` bounds the deals per decision; without a budget handed in, it also lifts the
    ``think_ms`` deadline, so the decision depends on the seed alone. ``rollouts`` is the number
    of rollouts per deal and candidate card in play. ``threads`` is how many threads search
    the deals of a decision (default: ``MDH_SEARCH_THREADS``, else the cores minus one; see
    ``ai.cores``); it changes no result for a given seed and ``max_samples``. ``play_values``
    and ``pass_values`` give the search's value of every candidate, for a coach or an analysis
    tool.
    """

    def __init__(
        self,
        seed: int | None = None,
        think_ms: float = 1000,
        max_samples: int | None = None,
        rollouts: int = ROLLOUTS,
        reader: PlayModel | None = DEFAULT_MODEL,
        threads: int | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        self.threads = threads_from_env()[0] if threads is None else check_threads(threads)
        self.think_ms = think_ms
        self.max_samples = max_samples
        self.rollouts = rollouts
        self.reader = reader
        self.last_decision: dict[str, Any] = {}

    # -- the anytime loop ---------------------------------------------------------------------

    def _budget(self, budget: Budget | None) -> Budget:
        if budget is not None:
            return budget
        if self.max_samples is not None:
            return Budget.for_ms(None)
        return Budget.for_ms(self.think_ms)

    def _run(
        self,
        budget: Budget,
        draw: Callable[[int, int], DrawnT],
        evaluate: Callable[[DrawnT], ValuedT],
        gather: Callable[[DrawnT, ValuedT], None],
        cap: int | None = None,
        least: int = 0,
        drop: Callable[[DrawnT], None] | None = None,
        barrier: Callable[[int], int] | None = None,
    ) -> int:
        """Value the search's deals in batches (``ai.batches.run_batches``) until
        ``max_samples`` or ``cap`` deals (``UNTIMED_SAMPLES`` when nothing else bounds the
        search) or the budget, but not before ``least`` deals; return how many were valued."""
        limits = [limit for limit in (self.max_samples, cap) if limit is not None]
        if not limits and budget.deadline is None:
            limits.append(UNTIMED_SAMPLES)
        limit = min(limits) if limits else None
        return run_batches(
            budget, self.threads, limit, least, draw, evaluate, gather, drop, barrier
        )

    # -- playing -------------------------------------------------------------------------------

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Return the legal card with the lowest expected cost over sampled deals."""
        budget = self._budget(budget)
        legal = cards_of(observation.legal_mask())
        if not legal:
            raise ValueError("it is not this seat's turn to play")
        exact = count(observation.hand) <= EXACT_CARDS
        if len(legal) == 1:
            self.last_decision = _decision(0, 0, {}, card_text(legal[0]), exact)
            return legal[0]
        values = self._play_values(observation, legal, budget, 0, race=True)
        if values.samples == 0:
            hands = [0, 0, 0, 0]
            hands[observation.seat] = observation.hand
            card = policy_card(hands, table_of(observation, read_knowledge(observation)))
            self.last_decision = _decision(0, 0, {}, card_text(card), exact)
            return card
        best = values.best()
        labels = [card_text(card) for card in legal]
        runs = [values.runs_of(slot) for slot in range(len(legal))]
        self.last_decision = _decision(
            values.samples,
            sum(runs),
            _mean_values(labels, values.totals, runs),
            labels[best],
            exact,
        )
        if values.deals:
            self.last_decision["deals"] = dict(zip(labels, values.deals, strict=True))
        if values.evidence is not None:
            self.last_decision["evidence"] = round(values.evidence, 3)
        return legal[best]

    def play_values(
        self, observation: Observation, budget: Budget | None = None, *, min_samples: int = 0
    ) -> SearchValues:
        """Return the cost of every legal card, all measured on the same sampled deals.

        This is ``choose_play``'s search, for a coach or an analysis tool: it measures a forced
        card too. The budget (default: the bot's own) may stop it, but not before
        ``min_samples`` deals. Raises ValueError when it is not the observed seat's turn.
        """
        legal = cards_of(observation.legal_mask())
        if not legal:
            raise ValueError("it is not this seat's turn to play")
        return self._play_values(observation, legal, self._budget(budget), min_samples)

    def _play_values(
        self,
        observation: Observation,
        legal: Sequence[int],
        budget: Budget,
        least: int,
        race: bool = False,
    ) -> SearchValues:
        exact = count(observation.hand) <= EXACT_CARDS
        race = race and not exact
        knowledge = read_knowledge(observation)
        table = table_of(observation, knowledge)
        goal = goal_of(observation)
        sampler = DealSampler(knowledge)
        reader = deal_reader(observation, sampler, self.reader, self._rng.getrandbits(64))
        seed = self._rng.getrandbits(64)
        width = len(legal)
        by_deal: list[list[int]] = [[] for _ in legal]
        tallies = [0] * (width * TALLY_SIZE)
        leaf = DEEP_LEAF_CARDS if is_deep(budget) else LEAF_CARDS
        # The slots still in contention (all of them unless racing, ``ai.racing``).
        alive = list(range(width))

        def draw(first: int, size: int) -> tuple[int, list[tuple[int, int, int, int]]]:
            return first, reader.draw(first, size)

        def evaluate(
            drawn: tuple[int, list[tuple[int, int, int, int]]],
        ) -> tuple[Detail, list[int]]:
            # The candidates still in contention: a batch ending at a check point is gathered
            # before the next is valued (``_run``'s ``barrier``), so they are its own.
            first, deals = drawn
            slots = list(alive)
            detail = evaluate_detail(
                deals,
                table,
                [legal[slot] for slot in slots],
                self.rollouts,
                seed,
                first,
                EXACT_CARDS,
                goal,
                leaf,
                True,  # the bot looks ahead for its own next card at every budget
                self.threads,
            )
            return detail, slots

        def add(
            drawn: tuple[int, list[tuple[int, int, int, int]]], valued: tuple[Detail, list[int]]
        ) -> None:
            (costs, counts), slots = valued
            gather(by_deal, tallies, costs, counts, 0, slots)
            first, deals = drawn
            if race and first + len(deals) == next_check(first):
                alive[:] = contenders(by_deal, alive)

        # An exact search gives the same answer on the same deal: a few passes over a small
        # set of deals measure it as well as any number of samples.
        cap = EXACT_COVERAGE * sampler.deal_count if exact else None
        samples = self._run(
            budget, draw, evaluate, add, cap, least, barrier=next_check if race else None
        )
        runs = samples * (1 if exact else self.rollouts)
        return SearchValues(
            tuple((card,) for card in legal),
            tuple(sum(costs) for costs in by_deal),
            samples,
            runs,
            exact,
            reader.mean_power(samples),
            tuple(tuple(costs) for costs in by_deal),
            _split(tallies, width),
            table.flags,
            goal.match_weight,
            tuple(len(costs) for costs in by_deal) if race else (),
        )

    # -- passing -------------------------------------------------------------------------------

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Return the candidate pass with the lowest mean cost over simulated hands."""
        budget = self._budget(budget)
        candidates = pass_candidates(observation.hand)
        values = self._pass_values(observation, candidates, budget, 0)
        best = values.best() if values.samples else 0
        labels = [" ".join(card_text(card) for card in passed) for passed in candidates]
        self.last_decision = _decision(
            values.samples,
            values.runs * len(candidates),
            _mean_values(labels, values.totals, [values.runs] * len(labels))
            if values.samples
            else {},
            labels[best],
            False,
        )
        return candidates[best]

    def pass_values(
        self,
        observation: Observation,
        budget: Budget | None = None,
        *,
        extra: Iterable[Iterable[int]] = (),
        min_samples: int = 0,
    ) -> SearchValues:
        """Return the cost of the candidate passes and of ``extra`` sets, on the same hands.

        The candidates are ``choose_pass``'s (``pass_candidates``, each three cards in card
        order); each extra set of three cards of the hand (the pass a player chose, say) is
        added in card order unless it is one of them. The budget (default: the bot's own) may
        stop the search, but not before ``min_samples`` deals. Raises ValueError when the seat
        has no pass to choose or an extra set is not three different cards of its hand.
        """
        if not observation.must_pass:
            raise ValueError("this seat has no pass to choose")
        candidates = pass_candidates(observation.hand)
        for cards in extra:
            ordered = tuple(sorted(set(cards)))
            if len(ordered) != 3 or mask_of(ordered) & ~observation.hand:
                raise ValueError("a pass is three different cards of the hand")
            passed = (ordered[0], ordered[1], ordered[2])
            if passed not in candidates:
                candidates.append(passed)
        return self._pass_values(observation, candidates, self._budget(budget), min_samples)

    def _pass_values(
        self,
        observation: Observation,
        candidates: Sequence[tuple[int, int, int]],
        budget: Budget,
        least: int,
    ) -> SearchValues:
        hand = observation.hand
        seat = observation.seat
        direction = observation.direction
        others = [other for other in range(4) if other != seat]
        unseen = cards_of(FULL_DECK & ~hand)
        table = Table.opening(observation.rules.flags)
        goal = goal_of(observation)
        seed = self._rng.getrandbits(64)
        by_deal: list[list[int]] = [[] for _ in candidates]
        tallies = [0] * (len(candidates) * TALLY_SIZE)

        receiver = pass_receiver(seat, direction)
        passed_masks = [mask_of(passed) for passed in candidates]
        leaf = PASS_LEAF_CARDS if is_deep(budget) else 0

        def draw(first: int, size: int) -> tuple[int, Any, list[list[list[int]]]]:
            # Each deal is exchanged once with the others' passes; each candidate then only
            # moves its own three cards (the same hands ``exchange`` gives with every pass).
            state = self._rng.getstate()
            exchanged = []
            for _ in range(size):
                order = list(unseen)
                self._rng.shuffle(order)
                hands = [0, 0, 0, 0]
                hands[seat] = hand
                for number, other in enumerate(others):
                    hands[other] = mask_of(order[13 * number : 13 * number + 13])
                passes = {other: expected_pass(hands[other]) for other in others}
                exchanged.append(exchange(hands, passes, direction))
            by_pass = []
            for passed in passed_masks:
                deals = []
                for hands in exchanged:
                    deal = list(hands)
                    deal[seat] &= ~passed
                    deal[receiver] |= passed
                    deals.append(deal)
                by_pass.append(deals)
            return first, state, by_pass

        def evaluate(drawn: tuple[int, Any, list[list[list[int]]]]) -> list[Detail]:
            first, _, by_pass = drawn
            return [
                evaluate_detail(
                    deals,
                    table,
                    (-1,),
                    PASS_ROLLOUTS,
                    seed,
                    first,
                    0,
                    goal,
                    leaf,
                    False,
                    self.threads,
                )
                for deals in by_pass
            ]

        def add(_: object, details: list[Detail]) -> None:
            for slot, (costs, counts) in enumerate(details):
                gather(by_deal, tallies, costs, counts, slot)

        def drop(drawn: tuple[int, Any, list[list[list[int]]]]) -> None:
            # The deals drawn ahead are not valued: the bot's random numbers go on as if they
            # had never been drawn.
            self._rng.setstate(drawn[1])

        samples = self._run(budget, draw, evaluate, add, None, least, drop)
        return SearchValues(
            tuple(candidates),
            tuple(sum(costs) for costs in by_deal),
            samples,
            samples * PASS_ROLLOUTS,
            False,
            None,
            tuple(tuple(costs) for costs in by_deal),
            _split(tallies, len(candidates)),
            table.flags,
            goal.match_weight,
        )


@dataclass(frozen=True)
class SearchValues:
    """What one search measured: every candidate's summed cost over the same simulated deals.

    ``candidates`` hold one card each in play, three in a pass; ``totals`` are their summed
    costs in cost units (three to a point of Diff); ``samples`` counts the deals and ``runs``
    the playouts per candidate (0 when nothing was measured); ``exact`` says whether the
    endgame was searched exactly. After a race (``deals`` not empty) a candidate that dropped
    out was measured on the first ``deals[slot]`` deals only, and ``runs_of`` its playouts.
    """

    candidates: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    samples: int
    runs: int
    exact: bool
    #: How much the observed plays weighed the deals: the mean tempering power (1: in full,
    #: 0: not at all), or None when there were no plays to read.
    evidence: float | None = None
    #: Per candidate, its cost on each deal (summed over the deal's runs), in deal order: the
    #: same deals for every candidate, so differences can be taken deal by deal.
    by_deal: tuple[tuple[int, ...], ...] = ()
    #: Per candidate, what its runs led to (``ai.search.TALLY_...``), summed.
    tallies: tuple[tuple[int, ...], ...] = ()
    #: The rules' flags and the match weight the costs were measured with.
    flags: int = 0
    match_weight: int = 0
    #: Per candidate, how many deals measured it (empty: all ``samples``, as without a race).
    deals: tuple[int, ...] = ()

    def runs_of(self, slot: int) -> int:
        """Return how many playouts measured a candidate (``runs`` unless it dropped out)."""
        if not self.deals or self.samples == 0:
            return self.runs
        return self.runs // self.samples * self.deals[slot]

    def best(self) -> int:
        """Return the slot of the lowest total cost among the candidates measured on every
        deal (ties: the earliest candidate)."""
        slots = [slot for slot in range(len(self.totals)) if self.runs_of(slot) == self.runs]
        return min(slots, key=lambda slot: self.totals[slot])

    def outcome(self, slot: int) -> Outcome:
        """Return what a candidate's runs led to (``ai.outcomes``)."""
        return Outcome(self.runs_of(slot), self.tallies[slot], self.flags, self.match_weight)

    def paired(self, slot: int, other: int) -> tuple[float, float]:
        """Return how much more ``slot`` costs than ``other`` on average, in points of Diff,
        and the standard error of that difference, taken deal by deal over the deals both
        were valued on (infinite with fewer than two deals)."""
        if self.runs == 0 or not self.by_deal:
            raise ValueError("nothing was measured deal by deal")
        per_deal = self.runs // self.samples
        # A candidate that dropped out of a race was measured on the first deals only.
        both = min(len(self.by_deal[slot]), len(self.by_deal[other]))
        pairs = zip(self.by_deal[slot][:both], self.by_deal[other][:both], strict=True)
        differences = [a - b for a, b in pairs]
        scale = 3 * per_deal
        count = len(differences)
        mean = sum(differences) / count
        if count < 2:
            return mean / scale, math.inf
        variance = sum((d - mean) ** 2 for d in differences) / (count - 1)
        return mean / scale, math.sqrt(variance / count) / scale

    def mean(self, slot: int) -> float:
        """Return a candidate's mean cost in points of Diff for the hand (lower is better)."""
        if self.runs == 0:
            raise ValueError("nothing was measured")
        return self.totals[slot] / self.runs_of(slot) / 3


def gather(
    by_deal: list[list[int]],
    tallies: list[int],
    costs: Sequence[int],
    counts: Sequence[int],
    first: int,
    slots: Sequence[int] | None = None,
) -> None:
    """Add what ``evaluate_detail`` returned for candidates ``first``.. (or for the candidates
    at ``slots``, in their order) to a search's results: each candidate's costs deal by deal
    to ``by_deal``, its tallies to the flat ``tallies``."""
    width = len(counts) // TALLY_SIZE
    for index in range(width):
        slot = first + index if slots is None else slots[index]
        by_deal[slot] += costs[index::width]
        for offset in range(TALLY_SIZE):
            tallies[slot * TALLY_SIZE + offset] += counts[index * TALLY_SIZE + offset]


def _split(flat: Sequence[int], width: int) -> tuple[tuple[int, ...], ...]:
    """Return a flat list of ``width`` candidates' tallies as one tuple per candidate."""
    return tuple(tuple(flat[slot * TALLY_SIZE : (slot + 1) * TALLY_SIZE]) for slot in range(width))


def _mean_values(
    labels: Sequence[str], totals: Sequence[int], runs: Sequence[int]
) -> dict[str, float]:
    """Return each candidate's mean cost in points of Diff over its own ``runs`` (a cost unit is
    a third of one)."""
    return {
        label: round(total / number / 3, 3)
        for label, total, number in zip(labels, totals, runs, strict=True)
    }


def _decision(
    samples: int, playouts: int, values: dict[str, float], chosen: str, exact: bool
) -> dict[str, Any]:
    return {
        "samples": samples,
        "playouts": playouts,
        "values": values,
        "chosen": chosen,
        "exact": exact,
    }
