"""Inference benchmark: how much probability the deal sampler puts on the true holder of a card.

Hands are played by a lineup of bots (with passing); at every decision in play, the seat to
move observes. For each card still hidden from it whose holder it does not know, we take the
share of that seat's sampled deals giving the card to its true holder. Uniform sampling
(``DealSampler.probabilities``, exact) is compared with the play-reading sampler
(``ai.inference.DealReader``, as the hard bot draws deals) under one or more play models. The
mean is reported for the Q♠, the A♠, the K♠ and all hidden cards, with a 95% confidence
interval over hands (positions of one hand are not independent). A sampler surer than it should
be can raise that mean, so the Brier score of the same cards (squared distance of the
probabilities per seat to the truth; lower is better) is reported too; a reader's probabilities
come from its drawn deals, which adds up to 0.75 / deals to its score against the exact uniform.
Each reader's row also says how fully it weighed the evidence (the mean tempering power: 1 in
full, 0 not at all). With more than one reader, every sampler's Brier score is also compared
with the first reader's hand by hand, which gives a much narrower interval.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ai.bot import close_bot
from ai.inference import (
    DEFAULT_MODEL,
    MIXTURE_PRIOR,
    POOL_FACTOR,
    DealReader,
    PlayModel,
    pass_record,
    play_history,
)
from ai.knowledge import read_knowledge
from ai.play_model import DEFAULT_PATH, PlayModelError, load_play_model
from ai.registry import make_bot
from ai.sampler import DealSampler
from ai.search import deal_plan
from ai.tournament import mean_and_interval
from bench import add_markdown_option, machine_info, publish
from core.cards import QUEEN_OF_SPADES, SPADES, cards_of, make_card
from core.hand import HandState
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet

DEFAULT_HANDS = 60
DEFAULT_DEALS = 512
DEFAULT_LINEUPS = ("normal", "hard")
#: Samples per decision of the hard bots that play the hands (speed, not strength, matters).
PLAYER_SAMPLES = 150
#: Tally labels of Brier scores end in this word.
BRIER = "Brier"
#: Tally label of the time a reader takes to draw a deal (µs).
COST = "µs a deal"
#: The model name that reads plays with the learned model (``ai.play_model``).
LEARNED = "learned"
#: Model names that read each seat (or each play) by a mixture of the learned model and
#: today's explorations (with the prior ``ai.inference.MIXTURE_PRIOR`` unless named).
MIXED = "mixed"
MIXED_PLAY = "mixed-play"
WATCHED = {
    "Q♠": QUEEN_OF_SPADES,
    "A♠": make_card(12, SPADES),
    "K♠": make_card(11, SPADES),
}


@dataclass
class Tally:
    """Per hand, the probabilities put on true holders: the watched cards and all cards."""

    per_hand: dict[str, list[list[float]]] = field(default_factory=dict)

    def add(self, hand: int, label: str, value: float) -> None:
        """Record one probability for ``label`` in hand number ``hand``."""
        rows = self.per_hand.setdefault(label, [])
        while len(rows) <= hand:
            rows.append([])
        rows[hand].append(value)

    def summary(self, label: str) -> tuple[float, float, int]:
        """Return the mean over hands of the per-hand mean, its 95% interval, and the count."""
        rows = [row for row in self.per_hand.get(label, []) if row]
        if not rows:
            return float("nan"), float("nan"), 0
        mean, interval = mean_and_interval([sum(row) / len(row) for row in rows])
        return mean, interval, sum(len(row) for row in rows)

    def change(self, reference: Tally, label: str) -> tuple[float, float]:
        """Return the mean over hands of this tally's per-hand mean minus ``reference``'s, and
        its 95% interval (both measured on the same positions, so the luck of the hands
        cancels)."""
        pairs = zip(self.per_hand.get(label, []), reference.per_hand.get(label, []), strict=False)
        changes = [sum(a) / len(a) - sum(b) / len(b) for a, b in pairs if a and b]
        if not changes:
            return float("nan"), float("nan")
        return mean_and_interval(changes)


def parse_learned(text: str) -> PlayModel | None:
    """Return, for ``learned[,PASS]``, ``mixed[:PRIOR][,PASS]`` or ``mixed-play[:PRIOR][,PASS]``,
    the play model that reads the pass (with PASS in (0, 1); without it, the pass is not read),
    else None. ``mixed`` reads each seat by a mixture of the learned model (prior PRIOR in
    [0, 1], default ``MIXTURE_PRIOR``) and today's explorations, ``mixed-play`` mixes each
    play instead; the learned model itself is filled in by the caller."""
    head, _, passing = text.strip().partition(",")
    name, colon, prior_text = head.partition(":")
    if name not in (LEARNED, MIXED, MIXED_PLAY):
        return None
    form = (
        f"a learned model is {LEARNED}[,PASS], {MIXED}[:PRIOR][,PASS] or "
        f"{MIXED_PLAY}[:PRIOR][,PASS], as in {LEARNED},PASS with PASS in (0, 1) and PRIOR in "
        f"[0, 1], got {text!r}"
    )
    value = _number(passing) if passing else None
    if value is not None and not 0.0 < value < 1.0:
        raise ValueError(form)
    if name == LEARNED:
        if colon:
            raise ValueError(form)
        return PlayModel(passing=value)
    prior = _number(prior_text) if colon else MIXTURE_PRIOR
    if not 0.0 <= prior <= 1.0:
        raise ValueError(form)
    return PlayModel(passing=value, mixture=prior, mix_per_play=name == MIXED_PLAY)


def _number(text: str) -> float:
    """Return a decimal number, or -1 (out of every range) when it is not one."""
    try:
        value = float(text)
    except ValueError:
        return -1.0
    return value if math.isfinite(value) else -1.0


def learned_name(model: PlayModel) -> str:
    """Return a model that reads with the learned model as its command-line form."""
    if model.mixture is None:
        name = LEARNED
    else:
        kind = MIXED_PLAY if model.mix_per_play else MIXED
        name = kind if model.mixture == MIXTURE_PRIOR else f"{kind}:{model.mixture:g}"
    return name if model.passing is None else f"{name},{model.passing:g}"


def parse_model(text: str) -> PlayModel:
    """Return a play model from ``LEAD,FOLLOW,DISCARD,QUEEN[,PASS]`` explorations (each in
    (0, 1]; without PASS, in (0, 1), the pass is not read)."""
    form = "four numbers in (0, 1], LEAD,FOLLOW,DISCARD,QUEEN, and maybe PASS in (0, 1)"
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"a model is {form}, got {text!r}") from None
    if len(values) not in (4, 5) or not all(0.0 < value <= 1.0 for value in values[:4]):
        raise ValueError(f"a model is {form}, got {text!r}")
    passing = values[4] if len(values) == 5 else None
    if passing is not None and not 0.0 < passing < 1.0:
        raise ValueError(f"a model is {form}, got {text!r}")
    return PlayModel(values[0], values[1], values[2], values[3], passing)


def parse_pool(text: str) -> int:
    """Return a pool size: a whole number of deals drawn per deal kept, 1 to 256."""
    try:
        pool = int(text)
    except ValueError:
        pool = 0
    if not 1 <= pool <= 256:
        raise ValueError(f"a pool is a whole number from 1 to 256, got {text!r}")
    return pool


def model_name(model: PlayModel) -> str:
    """Return a model as its command-line form."""
    if model.learned is not None:
        return learned_name(model)
    name = f"{model.lead:g},{model.follow:g},{model.discard:g},{model.queen:g}"
    return name if model.passing is None else f"{name},{model.passing:g}"


def play_positions(
    lineup: str, hands: int, seed: int
) -> list[list[tuple[Observation, tuple[int, ...]]]]:
    """Play ``hands`` hands with four ``lineup`` bots; return each hand's decisions in play,
    each with the observer's view and the true state."""
    rules = RuleSet()
    found = []
    for number in range(hands):
        bots = [make_bot(lineup, seed + 4 * number + seat) for seat in range(4)]
        for bot in bots:
            if hasattr(bot, "max_samples"):
                bot.max_samples = PLAYER_SAMPLES
        hand = HandState.new(rules, rules.direction_of_hand(number), deal_for(seed, number))
        views = []
        try:
            while hand.phase == "pass":
                for seat in hand.seats_to_pass:
                    hand.submit_pass(
                        seat, bots[seat].choose_pass(hand.observation(seat, (0, 0, 0, 0)))
                    )
            while hand.phase == "play":
                turn = hand.turn
                assert turn is not None
                seat = turn
                observation = hand.observation(seat, (0, 0, 0, 0))
                views.append((observation, tuple(hand.hands)))
                hand.play(seat, bots[seat].choose_play(observation))
        finally:
            for bot in bots:
                close_bot(bot)
        found.append(views)
    return found


@dataclass(frozen=True)
class Reader:
    """One play-reading sampler to measure: a play model and the pool it resamples from."""

    model: PlayModel
    pool_factor: int = POOL_FACTOR

    @property
    def name(self) -> str:
        """Return the model's command-line form, with the pool when it is not the default."""
        name = model_name(self.model)
        return name if self.pool_factor == POOL_FACTOR else f"{name} pool×{self.pool_factor}"


def measure(
    hands: Sequence[list[tuple[Observation, tuple[int, ...]]]],
    readers: Sequence[Reader],
    deals: int,
    seed: int,
) -> dict[str, Tally]:
    """Return a tally per sampler: ``uniform`` and each reader's name."""
    tallies = {"uniform": Tally(), **{reader.name: Tally() for reader in readers}}
    rng = random.Random(seed)
    for number, views in enumerate(hands):
        for observation, true_hands in views:
            knowledge = read_knowledge(observation)
            hidden = cards_of(knowledge.free)
            history = play_history(observation)
            records = [pass_record(observation, reader.model) for reader in readers]
            if not hidden or (history is None and all(r is None for r in records)):
                continue
            holder = {card: seat for seat in range(4) for card in cards_of(true_hands[seat])}
            sampler = DealSampler(knowledge)
            uniform = sampler.probabilities
            plan = deal_plan(sampler)
            drawn = {}
            for reader, record in zip(readers, records, strict=True):
                deal_reader = DealReader(
                    plan, rng.getrandbits(64), history, reader.model, record, reader.pool_factor
                )
                started = time.perf_counter()
                drawn[reader.name] = deal_reader.draw(0, deals)
                spent = time.perf_counter() - started
                tallies[reader.name].add(number, COST, spent / deals * 1e6)
                power = deal_reader.mean_power()
                if power is not None:
                    tallies[reader.name].add(number, "power", power)
            for card in hidden:
                labels = ["all"] + [label for label, c in WATCHED.items() if c == card]
                true = holder[card]
                shares = {"uniform": list(uniform[card])}
                for name, sample in drawn.items():
                    shares[name] = [
                        sum(1 for deal in sample if deal[seat] >> card & 1) / len(sample)
                        for seat in range(4)
                    ]
                for name, share in shares.items():
                    score = brier(share, true)
                    for label in labels:
                        tallies[name].add(number, label, share[true])
                        tallies[name].add(number, f"{label} {BRIER}", score)
    return tallies


def brier(shares: Sequence[float], true: int) -> float:
    """Return the Brier score of a card's probabilities per seat: the squared distance to
    certainty on its true holder (0 is perfect; unlike the probability on the true holder, it
    never rewards a sampler for being surer than it should be)."""
    return sum((share - (seat == true)) ** 2 for seat, share in enumerate(shares))


def render(tallies_by_lineup: dict[str, dict[str, Tally]], info: dict[str, str]) -> tuple[str, str]:
    """Return the results as plain text and as Markdown: the probability on the true holder
    (with how fully each reader weighed the evidence), the Brier score, and with more than one
    reader every other sampler's Brier score against the first reader's."""
    labels = ["Q♠", "A♠", "K♠", "all"]
    lines = ["# Inference", "", "| | |", "| --- | --- |"]
    lines += [f"| {key} | {value} |" for key, value in info.items()]
    text = []

    def add_table(title: str, columns: list[str], rows: list[tuple[str, str, list[str]]]) -> None:
        lines.extend(
            ["", f"## {title}", "", "| opponents | sampler | " + " | ".join(columns) + " |"]
        )
        lines.append("| --- | --- |" + " ---: |" * len(columns))
        text.append(title)
        for lineup, name, cells in rows:
            lines.append(f"| {lineup} | {name} | " + " | ".join(cells) + " |")
            named = [f"{column} {cell}" for column, cell in zip(columns, cells, strict=True)]
            text.append(f"{lineup:8} {name:24} " + "  ".join(named))

    def cells(tally: Tally, suffix: str, digits: int) -> list[str]:
        found = []
        for label in labels:
            mean, interval, count = tally.summary(label + suffix)
            found.append(f"{mean:.{digits}f} ± {interval:.{digits}f} (n={count})")
        return found

    def evidence(tally: Tally) -> str:
        power, _, weighed = tally.summary("power")
        return f"{power:.2f}" if weighed else "—"

    def cost(tally: Tally) -> str:
        spent, _, timed = tally.summary(COST)
        return f"{spent:.0f}" if timed else "—"

    everything = [
        (lineup, name, tally)
        for lineup, tallies in tallies_by_lineup.items()
        for name, tally in tallies.items()
    ]
    add_table(
        "Probability on the true holder (higher is better)",
        [*labels, "evidence weighed", COST],
        [
            (lineup, name, [*cells(tally, "", 3), evidence(tally), cost(tally)])
            for lineup, name, tally in everything
        ],
    )
    add_table(
        "Brier score (lower is better)",
        labels,
        [(lineup, name, cells(tally, f" {BRIER}", 4)) for lineup, name, tally in everything],
    )
    first = next(iter(tallies_by_lineup.values()), {})
    if len(first) > 2:
        reference = list(first)[1]
        rows = []
        for lineup, name, tally in everything:
            if name != reference:
                changes = [
                    tally.change(tallies_by_lineup[lineup][reference], f"{label} {BRIER}")
                    for label in labels
                ]
                rows.append((lineup, name, [f"{mean:+.4f} ± {ci:.4f}" for mean, ci in changes]))
        add_table(f"Brier score against {reference}, hand by hand (lower is better)", labels, rows)
    return "\n".join(text), "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options to its command."""
    parser.add_argument(
        "--hands",
        type=int,
        default=DEFAULT_HANDS,
        metavar="N",
        help=f"hands played per lineup (default {DEFAULT_HANDS})",
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=DEFAULT_DEALS,
        metavar="D",
        help=f"deals drawn per position and model (default {DEFAULT_DEALS})",
    )
    parser.add_argument(
        "--lineups",
        default=",".join(DEFAULT_LINEUPS),
        metavar="BOT[,BOT]",
        help="bots that play the hands, four of one kind per lineup "
        f"(default {','.join(DEFAULT_LINEUPS)}; hard bots use {PLAYER_SAMPLES} deals a decision)",
    )
    parser.add_argument(
        "--models",
        default=model_name(DEFAULT_MODEL),
        metavar="L,F,D,Q[,P][;...]",
        help="play models to compare: exploration of leads, follows, discards, plays "
        "where the Q♠ could be thrown and (if given) passes that keep an unguarded high spade "
        f"(default: the hard bot's, {model_name(DEFAULT_MODEL)}); or {LEARNED}[,PASS], the "
        f"learned model of play (--play-model); or {MIXED}[:PRIOR][,PASS] "
        f"({MIXED_PLAY}[:PRIOR][,PASS]), each seat's (each play's) mixture of the learned model, "
        f"with prior PRIOR (default {MIXTURE_PRIOR:g}), and today's explorations",
    )
    parser.add_argument(
        "--play-model",
        type=Path,
        default=DEFAULT_PATH,
        metavar="FILE",
        help=f"weights of the learned model of play (default {DEFAULT_PATH.name} in ai/)",
    )
    parser.add_argument(
        "--pools",
        default=str(POOL_FACTOR),
        metavar="N[,N]",
        help="pool sizes to compare, in deals drawn uniformly per deal kept "
        f"(default {POOL_FACTOR}, the hard bot's)",
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals and samples")
    add_markdown_option(parser)


def run(args: argparse.Namespace) -> int:
    """Play the hands, measure every sampler on the same positions, print the table."""
    try:
        texts = [text for text in args.models.split(";") if text.strip()]
        learned = [parse_learned(text) for text in texts]
        models = [
            parse_model(text) if found is None else found
            for text, found in zip(texts, learned, strict=True)
        ]
        play_model = None
        if any(found is not None for found in learned):
            play_model = load_play_model(args.play_model)
        pools = [parse_pool(text) for text in args.pools.split(",") if text.strip()]
        lineups = [name.strip() for name in args.lineups.split(",") if name.strip()]
        for name in lineups:
            close_bot(make_bot(name, 0))
    except (ValueError, PlayModelError) as error:
        print(error, file=sys.stderr)
        return 2
    if args.hands < 1 or args.deals < 1 or not models or not pools or not lineups:
        print(
            "--hands and --deals must be at least 1, with a model, a pool and a lineup",
            file=sys.stderr,
        )
        return 2
    readers = [
        Reader(replace(model, learned=play_model) if found is not None else model, pool)
        for model, found in zip(models, learned, strict=True)
        for pool in pools
    ]
    info = machine_info()
    info["command"] = (
        f"python -m bench inference --hands {args.hands} --deals {args.deals} "
        f"--lineups {','.join(lineups)} --models '{args.models}' --pools {args.pools} "
        f"--seed {args.seed}"
    )
    if play_model is not None:
        info["command"] += f" --play-model {args.play_model}"
    results = {}
    for lineup in lineups:
        hands = play_positions(lineup, args.hands, args.seed)
        results[lineup] = measure(hands, readers, args.deals, args.seed)
    text, markdown = render(results, info)
    publish(args.markdown, text, markdown)
    return 0
