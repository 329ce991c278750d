"""Tournaments: bots judged on duplicate deals rotated across seats, with confidence intervals.

Every deal is played once per rotation of the lineup (four times), so each bot meets the same
cards from every seat. A bot's **Diff** on a hand is its points minus the mean of the other
three; the unit of measurement is the deal (the mean over its four rotations), which gives
independent samples for the 95% confidence interval.

An engine seat (``engine:COMMAND``) that misbehaves gets moves from its fallback bot; each
engine's summary counts them and why, so a report can say its scores are not all its own.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import signal
import statistics
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ai.autoplay import play_bots, play_hand_bots
from ai.bot import Bot, close_bot
from ai.cores import THREADS_ENV, threads_from_env
from ai.deal_journal import DealJournal, JournalError
from ai.external import EngineTally, ExternalEngineBot
from ai.registry import make_bot
from ai.worker import end_with_parent
from core.controller import Controller
from core.environment import environment
from core.hand import HandState
from core.match import deal_for
from core.rules import RuleSet
from core.scoring import HandScore


@dataclass
class HandOutcome:
    """One hand of a tournament: the score and each seat's decision times in ms."""

    score: HandScore
    decision_ms: list[list[float]]


def play_hand(
    rules: RuleSet,
    direction: str,
    deal: Sequence[int],
    bots: Sequence[Bot],
    scores: Sequence[int] = (0, 0, 0, 0),
) -> HandOutcome:
    """Play one hand with one bot per seat; every bot sees only its own observation."""
    hand = HandState.new(rules, direction, deal)
    times: list[list[float]] = [[], [], [], []]
    play_hand_bots(hand, dict(enumerate(bots)), scores, lambda seat, ms: times[seat].append(ms))
    return HandOutcome(hand.score(scores), times)


def _seed_for(*parts: int) -> int:
    value = 0
    for part in parts:
        value = (value * 1_000_003 + part) % (2**61 - 1)
    return value


@dataclass
class DealResult:
    """The four rotations of one duplicate deal, per lineup slot."""

    points: list[list[int]]  # [slot][rotation]
    moons_shot: list[int]
    moons_conceded: list[int]
    decision_ms: list[list[float]]
    engines: dict[int, EngineTally] = field(default_factory=dict)  # by slot

    def hand_points(self, rotation: int) -> list[int]:
        """Return each lineup slot's points in one rotation's hand."""
        return [self.points[slot][rotation] for slot in range(4)]

    def to_json(self) -> dict[str, Any]:
        """Return the result as a JSON object (decision times rounded to 0.01 ms)."""
        return {
            "points": self.points,
            "moons_shot": self.moons_shot,
            "moons_conceded": self.moons_conceded,
            "decision_ms": [[round(ms, 2) for ms in times] for times in self.decision_ms],
            "engines": {str(slot): vars(tally) for slot, tally in self.engines.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealResult:
        """Return the result ``to_json`` wrote; raise JournalError for anything else."""

        def per_slot(key: str) -> list[Any]:
            value = data.get(key)
            if not isinstance(value, list) or len(value) != 4:
                raise JournalError(f"a deal's {key} is not one entry per slot of the lineup")
            return value

        def numbers(values: object, kind: tuple[type, ...], what: str) -> list[Any]:
            if not isinstance(values, list) or any(type(value) not in kind for value in values):
                raise JournalError(f"a deal's {what} are damaged")
            return values

        points = [numbers(slot, (int,), "points") for slot in per_slot("points")]
        if any(len(slot) != 4 for slot in points):
            raise JournalError("a deal's points are not one per rotation")
        engines = data.get("engines", {})
        tally_fields = {tally_field.name for tally_field in fields(EngineTally)}
        if not isinstance(engines, dict) or any(
            key not in ("0", "1", "2", "3")
            or not isinstance(tally, dict)
            or set(tally) != tally_fields
            or any(type(count) is not int or count < 0 for count in tally.values())
            for key, tally in engines.items()
        ):
            raise JournalError("a deal's engine tallies are damaged")
        return cls(
            points,
            numbers(per_slot("moons_shot"), (int,), "moons"),
            numbers(per_slot("moons_conceded"), (int,), "moons"),
            [
                [float(ms) for ms in numbers(slot, (int, float), "decision times")]
                for slot in per_slot("decision_ms")
            ],
            {int(key): EngineTally(**tally) for key, tally in engines.items()},
        )


def count_engine_trouble(engines: dict[int, EngineTally], slot: int, bot: Bot) -> None:
    """Add an engine bot's tally to its slot's (other bots have none)."""
    if isinstance(bot, ExternalEngineBot):
        engines.setdefault(slot, EngineTally()).add(bot.tally)


def play_duplicate_deal(lineup: Sequence[str], rules: RuleSet, seed: int, index: int) -> DealResult:
    """Play deal ``index`` once per rotation; slot k sits at seat (k - rotation) mod 4."""
    deal = deal_for(seed, index)
    direction = rules.direction_of_hand(index)
    result = DealResult([[] for _ in range(4)], [0] * 4, [0] * 4, [[] for _ in range(4)])
    for rotation in range(4):
        seat_of = [(slot - rotation) % 4 for slot in range(4)]
        bots: list[Bot] = [make_bot("random", 0)] * 4
        for slot in range(4):
            bots[seat_of[slot]] = make_bot(lineup[slot], _seed_for(seed, index, rotation, slot))
        try:
            outcome = play_hand(rules, direction, deal, bots)
        finally:
            for bot in bots:
                close_bot(bot)
        for slot in range(4):
            count_engine_trouble(result.engines, slot, bots[seat_of[slot]])
        shooter = outcome.score.moon_shooter
        for slot in range(4):
            seat = seat_of[slot]
            result.points[slot].append(outcome.score.points[seat])
            result.decision_ms[slot].extend(outcome.decision_ms[seat])
            if shooter is not None:
                if shooter == seat:
                    result.moons_shot[slot] += 1
                else:
                    result.moons_conceded[slot] += 1
    return result


def mean_and_interval(samples: Sequence[float]) -> tuple[float, float]:
    """Return the mean and the half-width of its 95% confidence interval."""
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))


def percentile(values: Sequence[float], fraction: float) -> float:
    """Return the value at ``fraction`` (0..1) of the sorted values (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


@dataclass
class BotSummary:
    """One bot's results over a tournament (pooled over the slots it fills)."""

    name: str
    slots: list[int]
    hands: int
    mean_points: float
    mean_points_ci: float
    diff: float
    diff_ci: float
    moons_shot: int
    moons_conceded: int
    decision_p50_ms: float
    decision_p95_ms: float
    decision_max_ms: float
    match_wins: int = 0
    matches: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    #: For an engine seat: its fallback moves and misbehaviours; None for other bots.
    engine: EngineTally | None = None
    #: The bot's Diff on each deal, in deal order (what two runs on the same deals pair up).
    diff_per_deal: list[float] = field(default_factory=list)

    @property
    def match_win_rate(self) -> float | None:
        """Return the share of matches won per instance of this bot (par 25%)."""
        if not self.matches:
            return None
        return self.match_wins / (self.matches * len(self.slots))


def pooled_engine_tally(
    slots: Sequence[int], results: Sequence[dict[int, EngineTally]]
) -> EngineTally | None:
    """Return the slots' engine tallies added up over the results (None: no engine there)."""
    found = [result[slot] for result in results for slot in slots if slot in result]
    if not found:
        return None
    total = EngineTally()
    for tally in found:
        total.add(tally)
    return total


def hand_diff(points: Sequence[int], seat: int) -> float:
    """Return a seat's Diff in one hand: its points minus the mean of the other three's."""
    return points[seat] - statistics.fmean(points[other] for other in range(4) if other != seat)


def summarise(lineup: Sequence[str], deals: Sequence[DealResult]) -> list[BotSummary]:
    """Pool the deal results per bot name."""
    summaries = []
    for name in dict.fromkeys(lineup):
        slots = [slot for slot in range(4) if lineup[slot] == name]
        points_per_deal = []
        diff_per_deal = []
        times: list[float] = []
        for deal in deals:
            hand_points = []
            hand_diffs = []
            for slot in slots:
                for rotation in range(4):
                    hand_points.append(deal.points[slot][rotation])
                    hand_diffs.append(hand_diff(deal.hand_points(rotation), slot))
                times.extend(deal.decision_ms[slot])
            points_per_deal.append(statistics.fmean(hand_points))
            diff_per_deal.append(statistics.fmean(hand_diffs))
        mean_points, points_ci = mean_and_interval(points_per_deal)
        diff, diff_ci = mean_and_interval(diff_per_deal)
        summaries.append(
            BotSummary(
                name=name,
                slots=slots,
                hands=4 * len(deals) * len(slots),
                mean_points=mean_points,
                mean_points_ci=points_ci,
                diff=diff,
                diff_ci=diff_ci,
                moons_shot=sum(deal.moons_shot[slot] for deal in deals for slot in slots),
                moons_conceded=sum(deal.moons_conceded[slot] for deal in deals for slot in slots),
                decision_p50_ms=percentile(times, 0.50),
                decision_p95_ms=percentile(times, 0.95),
                decision_max_ms=max(times, default=0.0),
                engine=pooled_engine_tally(slots, [deal.engines for deal in deals]),
                diff_per_deal=diff_per_deal,
            )
        )
    return summaries


@dataclass
class MatchResult:
    """The winning slot of one full match, and the engine tallies by slot."""

    winner: int
    engines: dict[int, EngineTally] = field(default_factory=dict)


def play_match(lineup: Sequence[str], rules: RuleSet, seed: int, index: int) -> MatchResult:
    """Play one full match (lineup rotated by the match index); return its winning slot."""
    rotation = index % 4
    seat_of = [(slot - rotation) % 4 for slot in range(4)]
    slot_at = {seat: slot for slot, seat in enumerate(seat_of)}
    bots = [make_bot(lineup[slot_at[seat]], _seed_for(seed, index, seat)) for seat in range(4)]
    controller = Controller()
    controller.new_match(rules, seed=_seed_for(seed, index), seats=["bot"] * 4)
    try:
        while controller.winner is None:
            if controller.phase == "hand_over":
                controller.next_hand()
            play_bots(controller, dict(enumerate(bots)))
    finally:
        for bot in bots:
            close_bot(bot)
    result = MatchResult(slot_at[controller.winner])
    for seat, bot in enumerate(bots):
        count_engine_trouble(result.engines, slot_at[seat], bot)
    return result


def _run_deal(job: tuple[tuple[str, ...], dict[str, Any], int, int]) -> DealResult:
    lineup, rules, seed, index = job
    return play_duplicate_deal(lineup, RuleSet.from_dict(rules), seed, index)


def _run_match(job: tuple[tuple[str, ...], dict[str, Any], int, int]) -> MatchResult:
    lineup, rules, seed, index = job
    return play_match(lineup, RuleSet.from_dict(rules), seed, index)


def _progress(done: int, total: int) -> None:
    if total and sys.stderr is not None and sys.stderr.isatty():
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _map(
    function: Callable[[Any], Any],
    jobs: list[Any],
    workers: int,
    on_result: Callable[[int, Any], None] | None = None,
) -> list[Any]:
    """Return ``function`` of every job, in order, using at most one process per job;
    ``on_result(number, result)`` is called as each result arrives, in order."""
    results: list[Any] = []

    def arrived(result: Any) -> None:
        if on_result is not None:
            on_result(len(results), result)
        results.append(result)
        _progress(len(results), len(jobs))

    processes = min(workers, len(jobs))
    if processes <= 1:
        with _one_thread_unless_told():
            for job in jobs:
                arrived(function(job))
        return results
    # Chunks of up to four jobs, but at least as many chunks as processes.
    chunksize = max(1, min(4, len(jobs) // processes))
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes, initializer=_start_pool_worker) as pool:
        for result in pool.imap(function, jobs, chunksize=chunksize):
            arrived(result)
    return results


def _start_pool_worker() -> None:
    """Set up a pool worker: it ends as soon as the main process is gone, however that ended
    (a killed run would otherwise leave its workers playing); Ctrl-C is ignored (the main
    process stops the pool and says so once); and the hard bot searches on one thread unless
    ``MDH_SEARCH_THREADS`` says otherwise, since the pool already keeps every core busy."""
    end_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault(THREADS_ENV, "1")


@contextlib.contextmanager
def _one_thread_unless_told() -> Iterator[None]:
    """Within the block, a hard bot that names no threads searches on one thread unless
    ``MDH_SEARCH_THREADS`` says otherwise, as in a pool worker; the environment is restored."""
    if THREADS_ENV in os.environ:
        yield
        return
    os.environ[THREADS_ENV] = "1"
    try:
        yield
    finally:
        os.environ.pop(THREADS_ENV, None)


def unnamed_seat_threads(environ: Mapping[str, str] | None = None) -> int:
    """Return the search threads of a tournament's bots whose names set none (``hard``, not
    ``hard/2t``): ``MDH_SEARCH_THREADS``, else one, in every worker."""
    return threads_from_env({THREADS_ENV: "1", **environment(environ)})[0]


def journal_header(
    lineup: Sequence[str], seed: int, rules: RuleSet | None = None
) -> dict[str, Any]:
    """Return what names a tournament's deals in a journal: its lineup (with any thread
    counts the names set, ``hard@1000ms/2t``), the threads of the bots whose names set none,
    its rules and seed."""
    return {
        "lineup": list(lineup),
        "threads": unnamed_seat_threads(),
        "rules": (rules or RuleSet()).to_dict(),
        "seed": seed,
    }


def run_tournament(
    lineup: Sequence[str],
    deals: int,
    seed: int,
    rules: RuleSet | None = None,
    matches: int = 0,
    workers: int | None = None,
    journal: DealJournal | None = None,
) -> list[BotSummary]:
    """Run duplicate deals (and optionally full matches) and return a summary per bot.

    ``workers`` processes (default: one per core) share the work, never more than its jobs.
    Deals the ``journal`` holds are not played again, and every deal played is added to it
    (see ``ai.deal_journal``). Raises JournalError when a deal in the journal is damaged.
    """
    if len(lineup) != 4:
        raise ValueError("a lineup names four bots")
    for name in lineup:
        close_bot(make_bot(name, 0))
    rule_set = rules or RuleSet()
    worker_count = workers or os.cpu_count() or 1
    key = (tuple(lineup), rule_set.to_dict(), seed)
    done = {}
    if journal is not None:
        done = {
            index: DealResult.from_json(data)
            for index, data in journal.deals.items()
            if index < deals
        }
    missing = [index for index in range(deals) if index not in done]

    def keep(number: int, result: DealResult) -> None:
        done[missing[number]] = result
        if journal is not None:
            journal.add(missing[number], result.to_json())

    _map(_run_deal, [(*key, index) for index in missing], worker_count, keep)
    deal_results = [done[index] for index in range(deals)]
    summaries = summarise(lineup, deal_results)
    if matches:
        results = _map(_run_match, [(*key, index) for index in range(matches)], worker_count)
        for summary in summaries:
            summary.matches = matches
            summary.match_wins = sum(1 for result in results if result.winner in summary.slots)
            in_matches = pooled_engine_tally(summary.slots, [result.engines for result in results])
            if summary.engine is not None and in_matches is not None:
                summary.engine.add(in_matches)
    return summaries


def engine_notes(summaries: Sequence[BotSummary]) -> list[str]:
    """Return one line per engine whose fallback bot moved for it, then a warning about them."""
    notes = [
        f"{s.name}: {s.engine.describe()}"
        for s in summaries
        if s.engine is not None and s.engine.fallback_moves
    ]
    if notes:
        notes.append(
            "Warning: the scores of these engines include the moves their fallback bot made "
            "for them."
        )
    return notes


def markdown_table(summaries: Sequence[BotSummary]) -> str:
    """Return the summaries as a markdown table."""
    lines = [
        "| bot | hands | mean points (95% CI) | Diff (95% CI) | match wins | moons shot / conceded "
        "| decision ms p50 / p95 / max |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for s in summaries:
        rate = s.match_win_rate
        wins = "—" if rate is None else f"{100 * rate:.1f}% of {s.matches}"
        lines.append(
            f"| {s.name} ×{len(s.slots)} | {s.hands} "
            f"| {s.mean_points:.2f} ± {s.mean_points_ci:.2f} "
            f"| {s.diff:+.2f} ± {s.diff_ci:.2f} | {wins} | {s.moons_shot} / {s.moons_conceded} "
            f"| {s.decision_p50_ms:.2f} / {s.decision_p95_ms:.2f} / {s.decision_max_ms:.2f} |"
        )
    return "\n".join(lines) + "\n"
