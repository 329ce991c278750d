"""Search benchmark: the hard bot's kernel (compiled and pure-Python twin) and its decisions.

Measures rollouts (whole hands from the deal, and from positions in mid-hand), sampled deals
(compiled, twin, and ``DealSampler.sample``), exact endgame searches, and the hard bot's
decisions: per second at fixed sample counts, and time and samples at a few think budgets (for
plays and for passes), and what reading the other players costs in deals early in a hand.
All of that runs on one thread (each rate the best of three rounds); ``--threads`` then times
the hard bot's decisions on each thread count given and models more (``bench.search_threads``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import importlib
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType

from ai import search, search_py
from ai.bot import Budget
from ai.hard import (
    DEEP_LEAF_CARDS,
    EXACT_CARDS,
    LEAF_CARDS,
    ROLLOUTS,
    HardBot,
    gather,
    goal_of,
    table_of,
)
from ai.inference import DEFAULT_MODEL, PlayModel
from ai.knowledge import read_knowledge
from ai.passing import expected_pass
from ai.sampler import DealSampler
from ai.search import TALLY_SIZE
from ai.search_py import DealPlan, Goal, Table, deal_plan
from bench import add_markdown_option, best_rate, machine_info, publish
from bench.rules import render_markdown, render_text
from bench.search_threads import thread_tables
from core.cards import cards_of
from core.hand import HandState
from core.observation import Observation
from core.rules import STANDARD_RULES

#: Targets from the issue: compiled rollouts per twin rollout, and decision time over the limit.
TARGET_ROLLOUT_RATIO = 20.0
TARGET_DECISION_SLACK_MS = 50.0
HANDS = 40
#: Positions timed at each think budget (each takes the whole budget).
BUDGET_POSITIONS = 15
TITLE = "MDHearts search benchmark"
#: Deals per decision for the decisions-per-second figures.
SAMPLE_COUNTS = (100, 1_000, 10_000)
GOAL = Goal(0, (0, 0, 0, 0), STANDARD_RULES.end_score, 0, (0, 0, 0, 0))

Position = tuple[list[int], Table]
ResultTable = tuple[str, list[str], list[list[str]]]


@dataclass(frozen=True)
class Workload:
    """Fixed positions from random hands (standard rules, no pass), and the same deals at the
    pass (to the left, right and across in turn)."""

    deals: list[list[int]]
    middles: list[Position]
    endgames: dict[int, list[Position]]
    observations: list[Observation]
    plans: list[DealPlan]
    samplers: list[DealSampler]
    passes: list[Observation]
    #: Early positions (the first two tricks) of the same deals played after a pass.
    early: list[Observation]


def _table(hand: HandState) -> Table:
    """The public part of the position, converted as the hard bot converts it."""
    turn = hand.turn
    assert turn is not None
    observation = hand.observation(turn, (0, 0, 0, 0))
    return table_of(observation, read_knowledge(observation))


def build_workload(seed: int, hands: int = HANDS) -> Workload:
    """Play ``hands`` random hands; keep deals, mid-hand positions, endgames, decisions."""
    rng = random.Random(seed)
    workload = Workload([], [], {3: [], 4: [], 5: []}, [], [], [], [], [])
    for number in range(hands):
        deck = list(range(52))
        rng.shuffle(deck)
        deal = [sum(1 << card for card in deck[seat::4]) for seat in range(4)]
        workload.deals.append(deal)
        direction = ("left", "right", "across")[number % 3]
        workload.passes.append(
            HandState.new(STANDARD_RULES, direction, deal).observation(0, (0, 0, 0, 0))
        )
        # A generator of its own, so the other positions stay those of earlier runs.
        workload.early.append(_early_position(deal, direction, random.Random(f"{seed} {number}")))
        hand = HandState.new(STANDARD_RULES, "hold", deal)
        middle = rng.randrange(4, 36)
        # Keep one position with about 4 and one with about 3 cards in every hand, and the start
        # of the ninth trick (5 cards each).
        endgame = {rng.randrange(36, 40): 4, rng.randrange(40, 44): 3, 32: 5}
        while hand.phase == "play":
            seat = hand.turn
            assert seat is not None
            legal = cards_of(hand.legal_mask(seat))
            played = hand.cards_played
            if played == middle:
                workload.middles.append((list(hand.hands), _table(hand)))
            if played in endgame:
                workload.endgames[endgame[played]].append((list(hand.hands), _table(hand)))
            if len(legal) > 1 and len(workload.observations) < hands and rng.random() < 0.1:
                observation = hand.observation(seat, (0, 0, 0, 0))
                sampler = DealSampler(read_knowledge(observation))
                workload.observations.append(observation)
                workload.samplers.append(sampler)
                workload.plans.append(deal_plan(sampler))
            hand.play(seat, rng.choice(legal))
    return workload


def _early_position(deal: list[int], direction: str, rng: random.Random) -> Observation:
    """Return a position of the first two tricks of ``deal`` after every seat passes its most
    dangerous cards (``ai.passing.expected_pass``), the cards played at random."""
    hand = HandState.new(STANDARD_RULES, direction, deal)
    for giver in range(4):
        hand.submit_pass(giver, expected_pass(deal[giver]))
    for _ in range(rng.randrange(8)):
        player = hand.turn
        assert player is not None
        hand.play(player, rng.choice(cards_of(hand.legal_mask(player))))
    seat = hand.turn
    assert seat is not None
    return hand.observation(seat, (0, 0, 0, 0))


def _deal_rollouts(kernel: ModuleType, deals: list[list[int]]) -> Callable[[int], int]:
    table = Table.opening(STANDARD_RULES.flags)
    next_seed = [0]

    def run_batch(size: int) -> int:
        kernel.evaluate(deals, table, (-1,), size, next_seed[0], 0, 0, GOAL)
        next_seed[0] += size * len(deals)
        return size * len(deals)

    return run_batch


def _middle_rollouts(kernel: ModuleType, positions: list[Position]) -> Callable[[int], int]:
    next_seed = [0]

    def run_batch(size: int) -> int:
        for hands, table in positions:
            goal = GOAL._replace(seat=(table.leader + len(table.trick)) % 4)
            kernel.evaluate([hands], table, (-1,), size, next_seed[0], 0, 0, goal)
            next_seed[0] += size
        return size * len(positions)

    return run_batch


def _samples(sample: Callable[[int, int], object], positions: int) -> Callable[[int], int]:
    """Return a batch runner calling ``sample(index, size)`` at every position."""

    def run_batch(size: int) -> int:
        for index in range(positions):
            sample(index, size)
        return size * positions

    return run_batch


def _kernel_samples(kernel: ModuleType, plans: list[DealPlan]) -> Callable[[int], int]:
    return _samples(
        lambda index, size: kernel.sample_deals(plans[index], size, index, 0), len(plans)
    )


def _sampler_samples(samplers: list[DealSampler]) -> Callable[[int], int]:
    rng = random.Random(1)
    return _samples(
        lambda index, size: [samplers[index].sample(rng) for _ in range(size)], len(samplers)
    )


def _exact(kernel: ModuleType, positions: list[Position]) -> Callable[[int], int]:
    def run_batch(size: int) -> int:
        for _ in range(size):
            for hands, table in positions:
                kernel.exact(hands, table, -1)
        return size * len(positions)

    return run_batch


def _import(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _cells(label: str, rate: float | None, unit: str = "") -> list[str]:
    if rate is None:
        return [label, "not built", "-"]
    per_call = 1e6 / rate
    return [label, f"{rate:,.0f}{unit}", f"{per_call:.3f}" if per_call < 10 else f"{per_call:,.1f}"]


def _ratio(numerator: float | None, denominator: float | None) -> str:
    if numerator is None or denominator is None:
        return "n/a"
    return f"{numerator / denominator:,.1f}×"


def kernel_tables(workload: Workload, seconds: float) -> tuple[list[ResultTable], float | None]:
    """Measure the kernel; return the tables and the compiled / twin ratio of deal rollouts."""
    compiled = _import("ai._search")
    kernels: list[tuple[str, ModuleType | None]] = [
        ("Cython `ai._search`", compiled),
        ("pure Python `ai.search_py`", search_py),
    ]

    def measure(make: Callable[[ModuleType], Callable[[int], int]]) -> list[float | None]:
        return [best_rate(make(kernel), seconds) if kernel else None for _, kernel in kernels]

    deal_rates = measure(lambda kernel: _deal_rollouts(kernel, workload.deals))
    middle_rates = measure(lambda kernel: _middle_rollouts(kernel, workload.middles))
    sample_rates = measure(lambda kernel: _kernel_samples(kernel, workload.plans))
    sampler_rate = best_rate(_sampler_samples(workload.samplers), seconds)
    exact_rates = {
        cards: measure(functools.partial(_exact, positions=workload.endgames[cards]))
        for cards in (3, 4, 5)
    }
    names = [name for name, _ in kernels]
    tables: list[ResultTable] = [
        (
            f"Rollouts of a whole hand from the deal ({len(workload.deals)} deals, one call)",
            ["kernel", "rollouts/s", "µs/rollout"],
            [_cells(name, rate) for name, rate in zip(names, deal_rates, strict=True)],
        ),
        (
            f"Rollouts from mid-hand positions ({len(workload.middles)}, one call per position)",
            ["kernel", "rollouts/s", "µs/rollout"],
            [_cells(name, rate) for name, rate in zip(names, middle_rates, strict=True)],
        ),
        (
            f"Sampled deals consistent with a seat's knowledge ({len(workload.plans)} positions)",
            ["sampler", "deals/s", "µs/deal"],
            [_cells(name, rate) for name, rate in zip(names, sample_rates, strict=True)]
            + [_cells("`ai.sampler.DealSampler.sample`", sampler_rate)],
        ),
        (
            "Exact (max-n) endgame searches, all four hands known",
            ["kernel, cards per hand", "searches/s", "µs/search"],
            [
                _cells(f"{name}, {cards}", rate)
                for cards, rates in exact_rates.items()
                for name, rate in zip(names, rates, strict=True)
            ],
        ),
        (
            "Ratios, Cython / pure Python",
            ["measure", "ratio"],
            [
                ["rollouts from the deal", _ratio(deal_rates[0], deal_rates[1])],
                ["rollouts from mid-hand", _ratio(middle_rates[0], middle_rates[1])],
                ["sampled deals", _ratio(sample_rates[0], sample_rates[1])],
                ["sampled deals, against DealSampler", _ratio(sample_rates[0], sampler_rate)],
                ["exact searches, 4 cards", _ratio(exact_rates[4][0], exact_rates[4][1])],
            ],
        ),
    ]
    ratio = None if deal_rates[0] is None else deal_rates[0] / (deal_rates[1] or 1)
    return tables, ratio


def _evaluations(
    observations: Sequence[Observation], deep: bool, detail: bool, deals_each: int = 8
) -> Callable[[int], int]:
    """Return a batch runner valuing every legal card of each position on ``deals_each``
    sampled deals as the hard bot does (``deep``: rollouts ending at ``DEEP_LEAF_CARDS`` and
    looking ahead), with ``evaluate``, or with ``evaluate_detail`` and its results gathered."""
    rng = random.Random(3)
    prepared = []
    for observation in observations:
        knowledge = read_knowledge(observation)
        sampler = DealSampler(knowledge)
        deals = [sampler.sample(rng) for _ in range(deals_each)]
        legal = cards_of(observation.legal_mask())
        prepared.append((deals, table_of(observation, knowledge), legal, goal_of(observation)))
    leaf = DEEP_LEAF_CARDS if deep else LEAF_CARDS
    next_seed = [0]

    def run_batch(size: int) -> int:
        for _ in range(size):
            for deals, table, legal, goal in prepared:
                arguments = (deals, table, legal, ROLLOUTS, next_seed[0], 0, EXACT_CARDS, goal)
                if detail:
                    by_deal: list[list[int]] = [[] for _ in legal]
                    tallies = [0] * (len(legal) * TALLY_SIZE)
                    costs, counts = search.evaluate_detail(*arguments, leaf, deep)
                    gather(by_deal, tallies, costs, counts, 0)
                else:
                    search.evaluate(*arguments, leaf, deep)
                next_seed[0] += 1
        return size * len(prepared) * deals_each

    return run_batch


def tallies_table(observations: Sequence[Observation], seconds: float) -> ResultTable:
    """Time the hard bot's valuation of every legal card with and without its tallies, side
    by side (the two alternate, best of three rounds each), plain and deep."""
    rows = []
    for deep in (False, True):
        plain = detailed = 0.0
        for _ in range(3):
            plain = max(plain, best_rate(_evaluations(observations, deep, False), seconds, 1))
            detailed = max(detailed, best_rate(_evaluations(observations, deep, True), seconds, 1))
        rows.append(
            [
                "deep (rollouts end at 4 cards, looking ahead)" if deep else "plain",
                f"{plain:,.0f}",
                f"{detailed:,.0f}",
                f"{plain / detailed:.3f}×",
            ]
        )
    return (
        f"Valuing every legal card with its tallies ({len(observations)} positions, "
        f"{search.__name__} {'compiled' if search.COMPILED else 'pure Python'})",
        ["search", "deals/s without", "deals/s with tallies", "time ratio"],
        rows,
    )


def _decide(observation: Observation, bot: HardBot, budget: Budget | None) -> tuple[float, int]:
    start = time.perf_counter()
    if observation.must_pass:
        bot.choose_pass(observation, budget)
    else:
        bot.choose_play(observation, budget)
    return (time.perf_counter() - start) * 1000, int(bot.last_decision["samples"])


def _budget_rows(
    observations: Sequence[Observation],
    budgets_ms: Sequence[float],
    reader: PlayModel | None = DEFAULT_MODEL,
) -> tuple[list[list[str]], list[tuple[float, float]]]:
    """Time the hard bot (reading the others with ``reader``) at each think budget on
    ``observations``: the table's rows and (budget, p95 ms) per budget."""
    rows = []
    p95s = []
    for budget in budgets_ms:
        bot = HardBot(seed=1, reader=reader, threads=1)
        runs = [_decide(observation, bot, Budget.for_ms(budget)) for observation in observations]
        times = sorted(ms for ms, _ in runs)
        p95 = times[min(len(times) - 1, round(0.95 * len(times)))]
        p95s.append((budget, p95))
        rows.append(
            [
                f"{budget:g} ms",
                f"{statistics.median(s for _, s in runs):,.0f}",
                f"{statistics.median(times):.1f} / {p95:.1f} / {times[-1]:.1f}",
            ]
        )
    return rows, p95s


def decision_tables(
    observations: Sequence[Observation],
    timed: Sequence[Observation],
    budgets_ms: Sequence[float],
    passes: Sequence[Observation] = (),
) -> tuple[list[ResultTable], list[tuple[float, float]]]:
    """Time the hard bot at fixed sample counts on ``observations``, and at think budgets on
    the ``timed`` plays and the ``passes``; return the tables and, per think budget, (budget,
    p95 ms) of the plays, or of the passes where those are slower."""
    by_samples = []
    for samples in SAMPLE_COUNTS:
        bot = HardBot(seed=1, max_samples=samples, threads=1)
        start = time.perf_counter()
        for observation in observations:
            bot.choose_play(observation)
        rate = len(observations) / (time.perf_counter() - start)
        by_samples.append([f"{samples:,} deals", f"{rate:,.1f}", f"{1000 / rate:,.1f}"])
    by_budget, p95s = _budget_rows(timed, budgets_ms)
    tables: list[ResultTable] = [
        (
            f"Hard bot decisions at fixed sample counts ({len(observations)} positions)",
            ["samples", "decisions/s", "ms/decision"],
            by_samples,
        ),
        (
            f"Hard bot decisions at think budgets ({len(timed)} positions)",
            ["budget", "samples (median)", "ms p50 / p95 / max"],
            by_budget,
        ),
    ]
    if passes:
        pass_rows, pass_p95s = _budget_rows(passes, budgets_ms)
        tables.append(
            (
                f"Hard bot passes at think budgets ({len(passes)} hands; samples: simulated "
                "hands for every candidate set)",
                ["budget", "samples (median)", "ms p50 / p95 / max"],
                pass_rows,
            )
        )
        p95s = [
            (budget, max(p95, pass_p95))
            for (budget, p95), (_, pass_p95) in zip(p95s, pass_p95s, strict=True)
        ]
    return tables, p95s


def reading_table(early: Sequence[Observation], budget_ms: float) -> ResultTable:
    """Time the hard bot at ``budget_ms`` on ``early`` positions of hands with a pass, reading
    the plays and the pass, the plays by the explorations alone and the pass, the plays only,
    and nothing (uniform deals)."""
    readers: list[tuple[str, PlayModel | None]] = [
        ("plays and the pass", DEFAULT_MODEL),
        (
            "plays by the explorations alone, and the pass",
            dataclasses.replace(DEFAULT_MODEL, learned=None, mixture=None),
        ),
        ("plays only", dataclasses.replace(DEFAULT_MODEL, passing=None)),
        ("nothing (uniform deals)", None),
    ]
    rows = []
    for label, reader in readers:
        row = _budget_rows(early, [budget_ms], reader)[0][0]
        rows.append([label, *row[1:]])
    return (
        f"Hard bot decisions at {budget_ms:g} ms early in a hand, by what it reads "
        f"({len(early)} positions of the first two tricks after a pass)",
        ["reads", "samples (median)", "ms p50 / p95 / max"],
        rows,
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options to its command."""
    parser.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        metavar="S",
        help="time spent on each kernel measurement (default 1; best of 3 rounds of S/3)",
    )
    parser.add_argument("--seed", type=int, default=20261122, help="seed of the positions")
    parser.add_argument(
        "--budgets",
        default="100,1000",
        metavar="MS,...",
        help="think budgets to time the hard bot at (default 100,1000; empty to skip)",
    )
    parser.add_argument(
        "--threads",
        default="1,2",
        metavar="N,...",
        help="thread counts to time the hard bot's decisions on (default 1,2; empty to skip)",
    )
    add_markdown_option(parser)


def _thread_counts(text: str) -> list[int]:
    """Return the thread counts of ``--threads``; ValueError saying what is wrong."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError("--threads must be whole numbers separated by commas") from None
    if any(not 1 <= threads <= search.MAX_THREADS for threads in counts):
        raise ValueError(f"--threads must be from 1 to {search.MAX_THREADS}")
    return counts


def run(args: argparse.Namespace) -> int:
    """Measure, then print the results (and write Markdown when asked)."""
    try:
        budgets = [float(part) for part in args.budgets.split(",") if part.strip()]
    except ValueError:
        print("--budgets must be numbers separated by commas", file=sys.stderr)
        return 2
    try:
        thread_counts = _thread_counts(args.threads)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    if args.seconds <= 0 or any(budget <= 0 for budget in budgets):
        print("--seconds and --budgets must be positive", file=sys.stderr)
        return 2
    info = machine_info()
    info["ai.search"] = "compiled" if search.COMPILED else "pure Python (not compiled)"
    if thread_counts:
        counts = ", ".join(str(threads) for threads in thread_counts)
        info["cpu"] = info["cpu"].replace("one used", f"one used, then {counts}")
    with contextlib.suppress(AttributeError, OSError):  # no load average on Windows
        load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
        info["load at start"] = f"{load} (1, 5, 15 min)"
    info["command"] = (
        "python -m bench search"
        + ("" if args.seconds == 1.0 else f" --seconds {args.seconds:g}")
        + ("" if args.threads == "1,2" else f" --threads {args.threads}")
    )
    workload = build_workload(args.seed)
    results, ratio = kernel_tables(workload, args.seconds)
    decisions, p95s = decision_tables(
        workload.observations,
        workload.observations[:BUDGET_POSITIONS],
        budgets,
        workload.passes[:BUDGET_POSITIONS],
    )
    results += decisions
    results.append(tallies_table(workload.observations, args.seconds))
    if budgets:
        results.append(reading_table(workload.early[:BUDGET_POSITIONS], budgets[0]))
    threaded: list[tuple[str, float, float]] = []
    if thread_counts:
        tables, threaded = thread_tables(
            workload.observations,
            workload.observations[:BUDGET_POSITIONS],
            budgets,
            thread_counts,
        )
        results += tables
    targets = [
        [
            f"rollouts, Cython ≥ {TARGET_ROLLOUT_RATIO:g}× pure Python",
            "-" if ratio is None else f"{ratio:,.1f}×",
            "not measured"
            if ratio is None
            else "met"
            if ratio >= TARGET_ROLLOUT_RATIO
            else "not met",
        ]
    ]
    for budget, p95 in p95s:
        met = p95 <= budget + TARGET_DECISION_SLACK_MS
        targets.append(
            [
                f"decision p95 ≤ {budget:g} + {TARGET_DECISION_SLACK_MS:g} ms",
                f"{p95:.1f} ms",
                "met" if met else "not met",
            ]
        )
    for label, budget, p95 in threaded:
        met = p95 <= budget + TARGET_DECISION_SLACK_MS
        targets.append(
            [
                f"decision p95 ≤ {budget:g} + {TARGET_DECISION_SLACK_MS:g} ms, {label}",
                f"{p95:.1f} ms",
                "met" if met else "not met",
            ]
        )
    results.append(("Targets", ["target", "measured", "status"], targets))
    text = TITLE + "\n" + render_text(info, results).split("\n", 1)[1]
    publish(args.markdown, text, render_markdown(info, results))
    return 0
