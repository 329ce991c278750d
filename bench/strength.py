"""Strength benchmark: the issue's strength targets, each a tournament on duplicate deals.

Every target pits one bot (the first of its lineup) against three copies of another and asks
for its Diff (its points minus the mean of the other three, per hand) to be at most a bound;
some also ask for a share of full matches won, and some are only reported. A lineup whose bots
are not registered (or whose bot cannot be built, e.g. OpenSpiel is missing) is reported as not
available. ``TARGETS`` make the default run; ``EXTRA_TARGETS`` run only when ``--only`` names
them.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ai.cores import available_cores
from ai.deal_journal import JournalError, open_journal
from ai.registry import make_bot
from ai.search_py import MAX_THREADS
from ai.tournament import BotSummary, journal_header, markdown_table, run_tournament
from bench import add_markdown_option, cpu_model, machine_info
from bench.baseline import Baseline, BaselineError, prepare_baseline
from core.files import write_atomically
from core.seats import join_bot_name, split_registry_name

DEFAULT_DEALS = 500
DEFAULT_MATCHES = 200
DEFAULT_SEED = 20261122
#: The ``format`` of the file ``--deals-out`` writes.
DEALS_FORMAT = "mdhearts-strength-deals"
#: A lineup seat played by the baseline commit's hard bot (``--baseline REF``), as an engine.
BASELINE_HARD = "baseline:hard"


def _minus(text: str) -> str:
    """Return a formatted number with a real minus sign (``−1.5``), as the targets are written."""
    return text.replace("-", "−")


@dataclass(frozen=True)
class Target:
    """A named tournament and the result it must reach for its first bot.

    A target without ``max_diff`` is only reported. ``workers`` fixes the worker processes
    (None: ``--workers``, else one per core).
    """

    name: str
    lineup: tuple[str, str, str, str]
    max_diff: float | None
    min_match_win_rate: float | None = None
    workers: int | None = None

    @property
    def subject(self) -> str:
        """Return the bot the target is about."""
        return self.lineup[0]

    def describe(self) -> str:
        """Return the target as text, e.g. ``Diff ≤ −1.5 and match win rate ≥ 40%``."""
        if self.max_diff is None:
            return "Diff reported"
        text = f"Diff ≤ {_minus(f'{self.max_diff:g}')}"
        if self.min_match_win_rate is not None:
            text += f" and match win rate ≥ {100 * self.min_match_win_rate:g}%"
        return text


#: The strength targets, in the order they are run; the hard bot's are those of v3
#: (``docs/strength.md``).
TARGETS = (
    Target("easy-vs-random", ("easy", "random", "random", "random"), -3.0),
    Target("normal-vs-easy", ("normal", "easy", "easy", "easy"), -2.0),
    Target("hard-vs-normal", ("hard", "normal", "normal", "normal"), -3.2, 0.40),
    Target("hard-vs-ismcts", ("hard", "ismcts", "ismcts", "ismcts"), -5.0),
    Target("normal-vs-ismcts", ("normal", "ismcts", "ismcts", "ismcts"), 0.0),
    Target("hard-vs-baseline", ("hard", BASELINE_HARD, BASELINE_HARD, BASELINE_HARD), -0.5),
    Target("hard-time", ("hard@1000ms", "hard@100ms", "hard@100ms", "hard@100ms"), -0.8),
)

#: Search threads of the hard-cores subject: every core of this machine.
ALL_CORES = min(MAX_THREADS, available_cores())

#: Targets run only when ``--only`` names them (each takes many hours at 1000 ms).
EXTRA_TARGETS = (
    # The subject searches on every core; one worker plays the deals, so no other process
    # takes a core from it, and the three others think one at a time on one thread each.
    Target(
        "hard-cores",
        (join_bot_name("hard", threads=ALL_CORES), "hard/1t", "hard/1t", "hard/1t"),
        None,
        workers=1,
    ),
)


@dataclass
class Outcome:
    """One target's tournament: the summaries, or why it could not run."""

    target: Target
    deals: int
    matches: int = 0
    summaries: list[BotSummary] = field(default_factory=list)
    seconds: float = 0.0
    problem: str | None = None
    #: Deals taken from the journal rather than played by this run.
    from_journal: int = 0

    @property
    def subject_summary(self) -> BotSummary | None:
        """Return the summary of the bot the target is about."""
        for summary in self.summaries:
            if summary.name == self.target.subject:
                return summary
        return None

    def measured(self) -> str:
        """Return the measured figures the target is judged on."""
        subject = self.subject_summary
        if subject is None:
            return "-"
        text = f"Diff {_minus(f'{subject.diff:+.2f}')} ± {subject.diff_ci:.2f}"
        rate = subject.match_win_rate
        if self.target.min_match_win_rate is not None and rate is not None:
            text += f", match wins {100 * rate:.1f}%"
        return text

    def status(self) -> str:
        """Return ``met``, ``not met``, ``not measured (…)`` or ``not available (…)``."""
        subject = self.subject_summary
        if self.problem is not None or subject is None:
            return f"not available ({self.problem})"
        if self.target.max_diff is None:
            return "reported"
        if subject.diff > self.target.max_diff:
            return "not met"
        wanted = self.target.min_match_win_rate
        if wanted is None:
            return "met"
        rate = subject.match_win_rate
        if rate is None:
            return "not measured (no matches played: use --matches)"
        return "met" if rate >= wanted else "not met"


def unavailable(lineup: Sequence[str]) -> str | None:
    """Return why a lineup's bots cannot be built, or None when they all can."""
    for name in dict.fromkeys(lineup):
        try:
            make_bot(name, 0)
        except (ValueError, ImportError) as error:
            return str(error)
    return None


def with_hard_budget(target: Target, think_ms: int | None, deals: int | None = None) -> Target:
    """Return the target with its hard seats given a budget a decision: ``think_ms`` of
    thinking (``hard@Nms``, ``hard/2t`` becomes ``hard@Nms/2t``), or ``deals`` deals searched
    without a time limit (``hard/Nd``; the deals win when both are given).

    Seats that name their own time or deals (``hard@1000ms``) keep them.
    """
    if think_ms is None and deals is None:
        return target

    def timed(name: str) -> str:
        try:
            base, own_ms, threads, own_deals = split_registry_name(name)
        except ValueError:  # not a registry name: a baseline seat
            return name
        if base != "hard" or own_ms is not None or own_deals is not None:
            return name
        if deals is not None:
            return join_bot_name(base, threads=threads, deals=deals)
        return join_bot_name(base, think_ms, threads)

    a, b, c, d = (timed(name) for name in target.lineup)
    return replace(target, lineup=(a, b, c, d))


def baseline_seats(
    target: Target, baseline: Baseline | None, think_ms: int | None, deals: int | None = None
) -> tuple[Target, dict[str, str]]:
    """Return the target with its baseline seats as engine seats, and each engine's label:
    thinking ``think_ms`` a decision, or searching ``deals`` deals a decision seeded by deal
    and seat as the hard seats are (then a run is repeated exactly, and two versions' runs
    differ only where their choices do).

    Without a baseline the target is returned as it is (its baseline seats cannot be played).
    """
    if baseline is None or BASELINE_HARD not in target.lineup:
        return target, {}
    seat = baseline.engine_seat("hard", think_ms, deals)
    a, b, c, d = (seat if name == BASELINE_HARD else name for name in target.lineup)
    return replace(target, lineup=(a, b, c, d)), {seat: baseline.label("hard", think_ms, deals)}


def run_target(
    target: Target,
    deals: int,
    matches: int,
    seed: int,
    workers: int | None = None,
    labels: dict[str, str] | None = None,
    journal: str | None = None,
) -> Outcome:
    """Run one target's tournament; full matches only when the target asks for match wins.

    ``labels`` renames seats in the results (an engine command becomes ``baseline@…``). With a
    ``journal`` folder, the deals already in ``<folder>/<name>.ndjson`` are not played again
    (raises JournalError or OSError when that file cannot be used).
    """
    played_matches = matches if target.min_match_win_rate is not None else 0
    labels = labels or {}
    outcome = Outcome(target, deals, played_matches)
    if BASELINE_HARD in target.lineup:
        outcome.problem = "needs a baseline commit: --baseline REF"
    elif target.lineup.count(target.subject) > 1:
        outcome.problem = f"{target.subject} plays more than one seat: nothing to compare"
    else:
        outcome.problem = unavailable(target.lineup)
    if outcome.problem is None:
        start = time.perf_counter()
        with contextlib.ExitStack() as stack:
            kept = None
            if journal is not None:
                # Seats by label: an engine seat's command names folders of this machine,
                # which a run going on elsewhere would not share.
                named = [labels.get(name, name) for name in target.lineup]
                header = {
                    "tournament": target.name,
                    **journal_header(named, seed),
                    "code": code_fingerprint(),
                }
                Path(journal).mkdir(parents=True, exist_ok=True)
                path = Path(journal) / f"{target.name}.ndjson"
                kept = stack.enter_context(open_journal(path, header))
                outcome.from_journal = sum(1 for index in kept.deals if index < deals)
            outcome.summaries = run_tournament(
                target.lineup, deals, seed, matches=played_matches, workers=workers, journal=kept
            )
        outcome.seconds = time.perf_counter() - start
        for summary in outcome.summaries:
            summary.name = labels.get(summary.name, summary.name)
        if labels:
            a, b, c, d = (labels.get(name, name) for name in target.lineup)
            outcome.target = replace(target, lineup=(a, b, c, d))
    return outcome


def code_fingerprint() -> str:
    """Return a hash of the source of the rules and the bots (``core/`` and ``ai/``): a journal
    is only continued by the code that began it."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for folder in ("core", "ai"):
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".py", ".pyx", ".pxd") and path.is_file():
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def render_outcome(outcome: Outcome) -> str:
    """Return one tournament's section as Markdown: lineup, target, table and status."""
    target = outcome.target
    lines = [
        f"## {target.name}",
        "",
        f"Lineup: {', '.join(target.lineup)}. Target for {target.subject}: {target.describe()}.",
    ]
    if outcome.problem is None:
        extras = f", {outcome.matches} full matches" if outcome.matches else ""
        if target.workers is not None:
            extras += f", {target.workers} worker process{'es' * (target.workers > 1)}"
        kept = (
            f" ({outcome.from_journal:,} of them from the journal)" if outcome.from_journal else ""
        )
        lines += [
            f"{outcome.deals:,} duplicate deals ({4 * outcome.deals:,} hands){kept}{extras}, "
            f"{outcome.seconds:,.1f} s.",
            "",
            markdown_table(outcome.summaries).rstrip("\n"),
        ]
    lines += ["", f"**Status: {outcome.status()}**"]
    return "\n".join(lines)


def render_report(info: dict[str, str], outcomes: Sequence[Outcome]) -> str:
    """Return the whole report as Markdown: the machine, a summary, then each tournament."""
    lines = ["# Strength", "", "| | |", "| --- | --- |"]
    lines += [f"| {key} | {value} |" for key, value in info.items()]
    lines += [
        "",
        "| tournament | lineup | target | measured | status |",
        "| --- | --- | --- | --- | --- |",
    ]
    for outcome in outcomes:
        target = outcome.target
        lines.append(
            f"| {target.name} | {', '.join(target.lineup)} | {target.describe()} "
            f"| {outcome.measured()} | {outcome.status()} |"
        )
    for outcome in outcomes:
        lines += ["", render_outcome(outcome)]
    return "\n".join(lines) + "\n"


def deals_json(info: dict[str, str], seed: int, outcomes: Sequence[Outcome]) -> str:
    """Return the runs' Diffs per deal as JSON text (the format ``bench.paired`` reads)."""
    tournaments = {
        outcome.target.name: {
            "lineup": list(outcome.target.lineup),
            "diff_per_deal": {
                summary.name: [round(diff, 6) for diff in summary.diff_per_deal]
                for summary in outcome.summaries
            },
        }
        for outcome in outcomes
        if outcome.problem is None
    }
    data = {
        "format": DEALS_FORMAT,
        "version": 1,
        "seed": seed,
        "command": info.get("command", ""),
        "date": info.get("date", ""),
        "tournaments": tournaments,
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def select_targets(only: str | None) -> list[Target]:
    """Return the targets named in a comma-separated list (``TARGETS`` when None); raise
    ValueError."""
    if only is None:
        return list(TARGETS)
    by_name = {target.name: target for target in (*TARGETS, *EXTRA_TARGETS)}
    names = [name.strip() for name in only.split(",") if name.strip()]
    unknown = [name for name in names if name not in by_name]
    if unknown or not names:
        raise ValueError(
            f"unknown tournament {', '.join(unknown) or repr(only)} (known: {', '.join(by_name)})"
        )
    return [by_name[name] for name in dict.fromkeys(names)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options to its command."""
    parser.add_argument(
        "--only",
        metavar="NAME[,NAME]",
        help=f"run only these tournaments ({', '.join(target.name for target in TARGETS)}; "
        f"and, only when named, {', '.join(target.name for target in EXTRA_TARGETS)})",
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=DEFAULT_DEALS,
        metavar="N",
        help=f"duplicate deals per tournament, 4 hands each (default {DEFAULT_DEALS})",
    )
    parser.add_argument(
        "--matches",
        type=int,
        default=DEFAULT_MATCHES,
        metavar="M",
        help="full matches for the targets on match wins (default "
        f"{DEFAULT_MATCHES}; 0 skips them)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the deals")
    parser.add_argument(
        "--hard-think-ms",
        type=int,
        metavar="MS",
        help="think time per decision of the hard bot (default: its own, 1000 ms)",
    )
    parser.add_argument(
        "--hard-deals",
        type=int,
        metavar="N",
        help="deals a decision of the hard bot, searched without a time limit, instead of a "
        "think time, the baseline seats' too: its decisions then depend on the deal and seed "
        "alone, never on the machine's load, so two versions' runs pair closely (see "
        "docs/strength.md)",
    )
    parser.add_argument(
        "--workers", type=int, metavar="W", help="worker processes (default: one per core)"
    )
    parser.add_argument(
        "--baseline",
        metavar="REF",
        help="the commit whose hard bot plays the baseline seats (built from a git worktree "
        "into build/baseline/, and played as an external engine)",
    )
    parser.add_argument(
        "--journal",
        metavar="FOLDER",
        help="keep each tournament's finished deals in FOLDER/<name>.ndjson; run again with "
        "the same folder to play only the deals still missing (a long run can stop and go on)",
    )
    parser.add_argument(
        "--deals-out",
        metavar="FILE",
        help="also write every bot's Diff per deal as JSON, for `python -m bench paired`",
    )
    add_markdown_option(parser, "the report")


def _command(args: argparse.Namespace) -> str:
    """Return the command line that reproduces this run."""
    parts = ["python -m bench strength"]
    if args.only is not None:
        parts.append(f"--only {args.only}")
    for option, default in (
        ("deals", DEFAULT_DEALS),
        ("matches", DEFAULT_MATCHES),
        ("seed", DEFAULT_SEED),
        ("hard_think_ms", None),
        ("hard_deals", None),
        ("workers", None),
        ("baseline", None),
        ("journal", None),
    ):
        value = getattr(args, option)
        if value != default:
            parts.append(f"--{option.replace('_', '-')} {value}")
    return " ".join(parts)


def run(args: argparse.Namespace) -> int:
    """Run the chosen tournaments, print each as it ends, and write Markdown when asked."""
    try:
        targets = select_targets(args.only)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    if (
        args.deals < 1
        or args.matches < 0
        or (args.workers is not None and args.workers < 1)
        or (args.hard_think_ms is not None and args.hard_think_ms < 1)
        or (args.hard_deals is not None and args.hard_deals < 1)
    ):
        print(
            "--deals, --workers, --hard-think-ms and --hard-deals must be at least 1, "
            "--matches at least 0",
            file=sys.stderr,
        )
        return 2
    if args.hard_deals is not None and args.hard_think_ms is not None:
        print(
            "--hard-deals replaces the hard bot's think time: it does not go with --hard-think-ms",
            file=sys.stderr,
        )
        return 2
    baseline = None
    if args.baseline is not None:
        try:
            baseline = prepare_baseline(args.baseline)
        except BaselineError as error:
            print(error, file=sys.stderr)
            return 2
    workers = args.workers or os.cpu_count() or 1
    info = machine_info()
    info["cpu"] = f"{cpu_model()} ({os.cpu_count()} logical cores, {workers} workers)"
    info["command"] = _command(args)
    if baseline is not None:
        info["baseline"] = f"commit {baseline.commit}, played as an external engine"
    outcomes = []
    for target in targets:
        target = with_hard_budget(target, args.hard_think_ms, args.hard_deals)
        target, labels = baseline_seats(target, baseline, args.hard_think_ms, args.hard_deals)
        try:
            outcome = run_target(
                target,
                args.deals,
                args.matches,
                args.seed,
                target.workers or workers,
                labels,
                args.journal,
            )
        except (JournalError, OSError) as error:
            print(f"the journal of {target.name} cannot be used: {error}", file=sys.stderr)
            return 2
        outcomes.append(outcome)
        if args.markdown != "-":
            print(render_outcome(outcome) + "\n", flush=True)
    if args.deals_out is not None:
        try:
            write_atomically(args.deals_out, deals_json(info, args.seed, outcomes))
        except OSError as error:
            print(f"could not write {args.deals_out}: {error}", file=sys.stderr)
            return 1
    report = render_report(info, outcomes)
    if args.markdown == "-":
        print(report, end="")
    elif args.markdown is not None:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(report)
    return 0
