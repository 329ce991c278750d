"""Reading the opponents: sampled deals weighed by how well they explain the cards played.

A uniform deal (``ai.sampler``) respects voids and known cards but not behaviour: it puts the Q♠
with a player who just discarded a small heart instead of it as often as anywhere else. Here
every deal of a *pool* is weighed by the likelihood of every other seat's plays so far under a
softened model of play: the rollout policy's card (``ai.search_py``), mixed with a uniformly
random legal card with probability ``exploration``, one per kind of play. Leads say little,
discards more, and a player who could throw the Q♠ safely and does not almost surely lacks it.
The hard bot's model (``DEFAULT_MODEL``) reads each other seat by a mixture of that model and a
learned model of play (``ai.play_model``), each weighed by how well it explains the seat's plays.
Deals are then drawn from the pool in proportion to their weights (importance resampling),
``BLOCK`` at a time from a pool ``POOL_FACTOR`` times larger (or as many times as the reader is
told).

A seat that holds every point taken so far is read once more (``PlayModel.runner``, off unless
asked): the cards of its hand another hand in the deal can beat. Players who take points early
hold hands that run far more often than the plays alone tell.

When the weights collapse onto a few deals (the model is too sure, or wrong), they are tempered:
raised to the largest power in [0, 1] that keeps the pool's effective sample size at least
``BLOCK``. Power 0 is the uniform sampler again.

Deal ``d`` of a decision depends only on the observation, the seed and ``d``: never on the time
taken or on the batch sizes, so a seeded search stays reproducible.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ai.knowledge import Knowledge
from ai.passing import HIGH_SPADES, LOW_SPADES_MASK, spade_guarded
from ai.play_model import load_play_model
from ai.sampler import DealSampler
from ai.search import (
    EVIDENCE_SIZE,
    GUARD_KEYS,
    LOG_UNIT,
    DealPlan,
    History,
    LearnedModel,
    PassRecord,
    PlayMemo,
    deal_plan,
    learned_evidence,
    mixed_evidence,
    pass_evidence,
    play_evidence,
    runner_evidence,
    sample_deals,
    tempered_weights,
)
from core.cards import POINT_CARDS_MASK, QUEEN_OF_SPADES, cards_of, mask_of
from core.observation import Observation
from core.rules import pass_receiver, pass_sender

Deal = tuple[int, int, int, int]

#: Deals resampled together, and how many times more are drawn uniformly to choose them from.
BLOCK = 16
POOL_FACTOR = 4
_SIDE = 14
_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class PlayModel:
    """How often other players stray from the rollout policy, per kind of play (0..1)."""

    lead: float = 0.6
    follow: float = 0.4
    discard: float = 0.3
    queen: float = 0.03
    #: How often a player keeps an unguarded high spade when passing, or passes a guarded one
    #: (None: the pass is not read).
    passing: float | None = 0.1
    #: A learned model of play that reads the plays instead of the four explorations above
    #: (``ai.play_model``; None, the default: not used). The pass is read as above.
    learned: LearnedModel | None = None
    #: With ``learned``, the prior probability (in [0, 1]) that another seat plays by the learned
    #: model rather than by the explorations above: each seat is read by the mixture of the two,
    #: weighed by how well each explains that seat's plays (``mixed_evidence``). None, the
    #: default: the learned model alone.
    mixture: float | None = None
    #: Mix the two models play by play instead of seat by seat.
    mix_per_play: bool = False
    #: How the hand of another seat holding every point taken so far is read: a deal weighs
    #: ``runner[k]`` when ``k`` of that seat's cards can be beaten by a card of another hand
    #: in it (the last entry for ``k`` that large or larger). Such a player often runs for the
    #: moon with a hand stronger than its plays alone tell. None: not read.
    runner: tuple[float, ...] | None = None

    def log_weights(self) -> tuple[int, ...]:
        """Return the kernels' table: log-likelihood of a play by kind, agreement and choices."""
        table = [0] * EVIDENCE_SIZE
        kinds = (self.lead, self.follow, self.discard, self.queen)
        for kind, exploration in enumerate(kinds):
            for choices in range(2, _SIDE):
                stray = exploration / choices
                for agreed, chance in ((0, stray), (1, 1.0 - exploration + stray)):
                    table[(kind * 2 + agreed) * _SIDE + choices] = round(
                        LOG_UNIT * math.log(max(chance, 1e-9))
                    )
        return tuple(table)

    def runner_log_weights(self) -> tuple[int, ...]:
        """Return ``runner`` as the kernels' log-weights (empty when not read)."""
        return tuple(round(LOG_UNIT * math.log(weight)) for weight in self.runner or ())


#: How a seat holding every point taken is read, by its losers 0, 1, 2, ... (``PlayModel.runner``;
#: measured with ``python -m bench moons --losers N``).
RUNNER_WEIGHTS = (25.0, 5.0, 3.0, 1.5, 1.2, 1.0)

#: The prior probability that another seat plays by the learned model rather than by the
#: explorations, in the hard bot's mixture (``PlayModel.mixture``).
MIXTURE_PRIOR = 0.5

#: The model the hard bot reads plays with: each other seat by the mixture of the learned model
#: fitted to the bot's own plays (``ai/play_model.json``) and the explorations, the pass by its
#: high spades (chosen with ``python -m bench inference`` and ``python -m bench strength``).
DEFAULT_MODEL = PlayModel(learned=load_play_model(), mixture=MIXTURE_PRIOR)


def play_history(observation: Observation) -> History | None:
    """Return the hand's plays for ``play_evidence``, or None when no other seat has played."""
    if not observation.tricks:
        return None
    cards = tuple(card for trick in observation.tricks for card in trick.cards)
    leader = observation.tricks[0].leader
    if not cards or (len(cards) == 1 and leader == observation.seat):
        return None
    return History(leader, cards, observation.seat, observation.rules.flags)


def runner_seat(knowledge: Knowledge, model: PlayModel) -> int | None:
    """Return the other seat holding every point taken so far, or None (no point taken, points
    with several seats or with the observer, or a model that does not read it)."""
    if model.runner is None:
        return None
    holders = [seat for seat in range(4) if knowledge.taken[seat] & POINT_CARDS_MASK]
    if len(holders) != 1 or holders[0] == knowledge.seat:
        return None
    return holders[0]


def pass_record(observation: Observation, model: PlayModel) -> PassRecord | None:
    """Return what the seat's pass tells about the high spades, for ``pass_evidence``, or None
    on a hold hand, before the exchange, or when the model does not read passes.

    Each high spade the seat did not hold before the pass is weighed by how it came to be where
    a deal puts it: a player passes it with probability ``p = 1 − model.passing`` when it is
    unguarded there (``ai.passing``), ``p = model.passing`` when guarded. Relative to passes
    that ignore the card, a card held after the pass by seat ``j`` weighs ``(1 − p_j) + p_k``:
    ``j`` kept it or its passer ``k`` passed it (of 13 cards, 10 kept and 3 received); when
    the seat itself passed to ``j``, only keeping is possible and the card weighs
    ``(1 − p_j) · 13 / 10``. A high spade passed to the seat weighs ``p`` of its passer.
    """
    stray = model.passing
    if stray is None or observation.received is None or observation.passed is None:
        return None
    seat = observation.seat
    direction = observation.direction
    played = observation.played_by
    received = mask_of(observation.received)
    passed = mask_of(observation.passed)
    before = (observation.hand | played[seat] | passed) & ~received
    giver = pass_sender(seat, direction)
    receiver = pass_receiver(seat, direction)
    passer_of = (
        pass_sender(0, direction),
        pass_sender(1, direction),
        pass_sender(2, direction),
        pass_sender(3, direction),
    )
    added = tuple(played[other] | (received if other == giver else 0) for other in range(4))
    removed = tuple(passed if other == receiver else 0 for other in range(4))
    cards = tuple(card for card in HIGH_SPADES if not before >> card & 1)
    low_spades = cards_of(LOW_SPADES_MASK)
    guard_table: list[int] = []
    log_weights: list[int] = []

    def passes(guarded: int) -> float:
        return stray if guarded else 1.0 - stray

    for card in cards:
        for key in range(GUARD_KEYS):
            low, queen = divmod(key, 2)
            hand = mask_of(low_spades[:low]) | queen << QUEEN_OF_SPADES | 1 << card
            guard_table.append(int(spade_guarded(card, hand)))
        for holder in range(4):
            for guarded, passer_guarded in itertools.product((0, 1), repeat=2):
                if received >> card & 1:
                    weight = passes(guarded) if holder == giver else 1.0
                elif passer_of[holder] == seat:
                    weight = (1.0 - passes(guarded)) * 13 / 10
                else:
                    weight = (1.0 - passes(guarded)) + passes(passer_guarded)
                log_weights.append(round(LOG_UNIT * math.log(weight)))
    return PassRecord(
        seat,
        passer_of,
        (added[0], added[1], added[2], added[3]),
        (removed[0], removed[1], removed[2], removed[3]),
        LOW_SPADES_MASK,
        cards,
        tuple(guard_table),
        tuple(log_weights),
    )


def deal_reader(
    observation: Observation, sampler: DealSampler, model: PlayModel | None, seed: int
) -> DealReader:
    """Return the reader of one decision's deals: ``sampler``'s deals resampled by what
    ``model`` reads of the plays, the pass and a seat holding every point; uniform when
    ``model`` is None."""
    return DealReader(
        deal_plan(sampler),
        seed,
        play_history(observation) if model is not None else None,
        model or DEFAULT_MODEL,
        pass_record(observation, model) if model is not None else None,
        runner=runner_seat(sampler.knowledge, model) if model is not None else None,
    )


def resample(
    pool: Sequence[Deal], weights: Sequence[float], count: int, offset: float
) -> list[Deal]:
    """Return ``count`` deals drawn from the pool in proportion to the weights (systematic
    resampling: one offset in [0, 1) places ``count`` evenly spaced pointers)."""
    total = sum(weights)
    step = total / count
    chosen = []
    pointer = offset * step
    running = 0.0
    index = -1
    for _ in range(count):
        while running <= pointer and index + 1 < len(pool):
            index += 1
            running += weights[index]
        chosen.append(pool[index])
        pointer += step
    return chosen


@dataclass
class DealReader:
    """Draws the deals of one decision: uniform without evidence, else resampled by it.

    ``draw(first, count)`` returns deals ``first`` .. ``first + count - 1``. ``powers`` records
    the tempering power of every block drawn (1 when the evidence was used in full), in the
    order drawn, and ``blocks`` their numbers: a search that draws ahead and drops the deals
    it had no time for reads ``mean_power(deals)``, over the blocks of the deals it valued.
    """

    plan: DealPlan
    seed: int
    history: History | None
    model: PlayModel = DEFAULT_MODEL
    passes: PassRecord | None = None
    #: Deals drawn uniformly per deal kept (a larger pool lets the evidence weigh more fully).
    pool_factor: int = POOL_FACTOR
    #: The seat holding every point taken so far (``runner_seat``), read by ``model.runner``.
    runner: int | None = None
    powers: list[float] = field(default_factory=list)
    blocks: list[int] = field(default_factory=list)
    _table: tuple[int, ...] = ()
    _runner_table: tuple[int, ...] = ()
    _block: tuple[int, list[Deal]] | None = None
    #: What the reader made of each play of the history, kept from pool to pool.
    _memo: PlayMemo = field(default_factory=PlayMemo)

    def __post_init__(self) -> None:
        self._table = self.model.log_weights()
        self._runner_table = self.model.runner_log_weights()

    def draw(self, first: int, count: int) -> list[Deal]:
        """Return ``count`` deals starting at deal number ``first`` of the decision."""
        if self.history is None and self.passes is None and self.runner is None:
            return sample_deals(self.plan, count, self.seed, first)
        deals: list[Deal] = []
        number = first
        while number < first + count:
            block, start = divmod(number, BLOCK)
            take = min(BLOCK - start, first + count - number)
            deals += self._resampled(block)[start : start + take]
            number += take
        return deals

    def _resampled(self, block: int) -> list[Deal]:
        if self._block is not None and self._block[0] == block:
            return self._block[1]
        size = BLOCK * self.pool_factor
        pool = sample_deals(self.plan, size, self.seed, block * size)
        log_weights = [0] * size
        learned = self.model.learned
        if self.history is not None and learned is not None and self.model.mixture is not None:
            log_weights = mixed_evidence(
                pool,
                self.history,
                self._table,
                learned,
                self.model.mixture,
                self.model.mix_per_play,
                self._memo,
            )
        elif self.history is not None and learned is not None:
            log_weights = learned_evidence(pool, self.history, learned, self._memo)
        elif self.history is not None:
            log_weights = play_evidence(pool, self.history, self._table)
        if self.passes is not None:
            from_passes = pass_evidence(pool, self.passes)
            log_weights = [a + b for a, b in zip(log_weights, from_passes, strict=True)]
        if self.runner is not None and self._runner_table:
            strength = runner_evidence(pool, self.runner, self._runner_table)
            log_weights = [a + b for a, b in zip(log_weights, strength, strict=True)]
        weights, power = tempered_weights(log_weights, BLOCK)
        self.powers.append(power)
        self.blocks.append(block)
        offset = ((self.seed ^ (block * _GOLDEN)) * _GOLDEN & _MASK64) / 2.0**64
        deals = resample(pool, weights, BLOCK, offset)
        self._block = (block, deals)
        return deals

    def mean_power(self, deals: int | None = None) -> float | None:
        """Return the mean tempering power over the blocks drawn (None: no evidence used), or
        only over the blocks holding deals ``0`` .. ``deals - 1`` when ``deals`` is given."""
        powers = [
            power
            for power, block in zip(self.powers, self.blocks, strict=True)
            if deals is None or block * BLOCK < deals
        ]
        return sum(powers) / len(powers) if powers else None
