"""Two strength runs compared deal by deal: ``python -m bench paired BEFORE AFTER``.

Runs of ``python -m bench strength --deals-out FILE`` with the same seed play the same deals, so
a bot's Diff on deal *d* after a change minus its Diff on deal *d* before it measures the change
with the luck of the cards taken out: the interval of the mean difference is much narrower than
the two runs' own intervals suggest. Every tournament in both files is compared, for each bot
name in both, over the deals both runs played (deal *d* is the same deal in runs of one seed).
Either file may also be a tournament's journal (``bench strength --journal``), finished or not:
a long run is compared over the deals it has played so far. With ``--by-direction`` each bot is
also compared over the deals of each pass direction (left, right, across, hold) on their own:
what a bot gains in the hands without a pass it gains in play alone. With ``--by-outcome`` (two
journals) each bot's change is also split by how its hands ended: its own moon, another seat's
moon, or no moon; the three parts add up to the whole change.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ai.deal_journal import JOURNAL_FORMAT, JournalError, read_journal
from ai.tournament import DealResult, hand_diff, mean_and_interval, summarise
from bench import add_markdown_option, publish
from bench.strength import DEALS_FORMAT
from core.errors import RulesOptionError
from core.files import (
    FileContentError,
    StrictJsonError,
    decode_utf8,
    parse_strict_json,
    read_regular_file,
)
from core.rules import STANDARD_RULES, RuleSet

#: The largest file read (a 100,000-deal run of every tournament fits easily).
MAX_BYTES = 64 * 1024 * 1024

#: How a bot's hand ended, in the order ``--by-outcome`` shows the parts of its change.
OUTCOMES = ("own moon", "another's moon", "no moon")

#: Per tournament, bot and deal: the bot's Diff on the deal split by ``OUTCOMES`` (each hand's
#: share of the deal's Diff counted under how that hand ended).
OutcomeParts = dict[str, dict[str, dict[int, tuple[float, ...]]]]


class RunFileError(ValueError):
    """A deals file that cannot be compared; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Run:
    """One strength run: its seed and, per tournament and bot, the Diff of every deal it played
    (deal index → Diff), and the rules its deals were played under."""

    path: str
    seed: int
    diffs: dict[str, dict[str, dict[int, float]]]
    rules: RuleSet = STANDARD_RULES
    #: Only a journal's run has them (a ``--deals-out`` file keeps no hand's points).
    outcome_parts: OutcomeParts | None = None


@dataclass(frozen=True)
class Pairing:
    """One bot in one tournament of both runs: the deals compared and the mean difference,
    over every deal both played (``part`` empty), over one pass direction's deals, or of the
    part of each deal's Diff from the hands that ended one way (one of ``OUTCOMES``)."""

    tournament: str
    bot: str
    deals: int
    before: float
    after: float
    change: float
    change_ci: float
    part: str = ""


def _diffs(path: str, name: str, value: Any) -> dict[str, dict[int, float]]:
    """Return one tournament's Diffs per deal by bot, or raise RunFileError."""
    per_bot = value.get("diff_per_deal") if isinstance(value, dict) else None
    if not isinstance(per_bot, dict):
        raise RunFileError(f"{path}: tournament {name!r} has no diff_per_deal object")
    result = {}
    for bot, diffs in per_bot.items():
        if not isinstance(diffs, list) or not all(
            isinstance(diff, int | float) and not isinstance(diff, bool) for diff in diffs
        ):
            raise RunFileError(f"{path}: {name} / {bot}: the Diffs are not a list of numbers")
        result[bot] = {deal: float(diff) for deal, diff in enumerate(diffs)}
    return result


def read_run(path: str) -> Run:
    """Read a file written by ``bench strength --deals-out`` or a tournament's journal; raise
    RunFileError."""
    try:
        text = decode_utf8(read_regular_file(path, MAX_BYTES))
        if _is_journal(text):
            return _journal_run(path)
        data = parse_strict_json(text, max_depth=6)
    except FileNotFoundError:
        raise RunFileError(f"{path}: no such file") from None
    except (OSError, FileContentError, StrictJsonError, JournalError) as error:
        raise RunFileError(f"{path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != DEALS_FORMAT:
        raise RunFileError(f"{path}: not a file of `bench strength --deals-out`")
    if data.get("version") != 1:
        raise RunFileError(f"{path}: version {data.get('version')!r} is not known (1 is)")
    seed = data.get("seed")
    tournaments = data.get("tournaments")
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(tournaments, dict):
        raise RunFileError(f"{path}: the seed or the tournaments are missing")
    diffs = {name: _diffs(path, name, value) for name, value in tournaments.items()}
    # ``bench strength`` plays the standard rules, so its deals pass in the standard cycle.
    return Run(path, seed, diffs)


def _is_journal(text: str) -> bool:
    """Whether the text's first line is a journal's header (a deals file's is a lone brace)."""
    try:
        header = parse_strict_json(text.partition("\n")[0], max_depth=6)
    except StrictJsonError:
        return False
    return isinstance(header, dict) and header.get("format") == JOURNAL_FORMAT


def _journal_run(path: str) -> Run:
    """Read a journal's deals so far as a run of its one tournament; raise JournalError."""
    header, deals = read_journal(path)
    lineup, seed, name = header.get("lineup"), header.get("seed"), header.get("tournament")
    if (
        not isinstance(lineup, list)
        or len(lineup) != 4
        or not all(isinstance(bot, str) for bot in lineup)
        or not isinstance(seed, int)
        or isinstance(seed, bool)
        or not isinstance(name, str)
    ):
        raise JournalError("the journal does not name its tournament, lineup and seed")
    try:
        rules = RuleSet.from_dict(header.get("rules"))
    except (RulesOptionError, TypeError) as error:
        raise JournalError(f"the journal's rules are damaged: {error}") from None
    order = sorted(deals)
    results = [DealResult.from_json(deals[deal]) for deal in order]
    per_bot = {
        summary.name: dict(zip(order, summary.diff_per_deal, strict=True))
        for summary in summarise(lineup, results)
    }
    parts = {
        bot: {
            deal: _outcome_parts(lineup, bot, result)
            for deal, result in zip(order, results, strict=True)
        }
        for bot in per_bot
    }
    return Run(path, seed, {name: per_bot}, rules, {name: parts})


def moon_shooter(points: Sequence[int]) -> int | None:
    """Return the seat that shot the moon in a hand of these points, or None.

    Under either moon rule (26 to every other seat, or 26 off the shooter) and with or without
    the no-tricks bonus, a moon leaves three seats level, 26 above the shooter; a hand without
    a moon shares 26 points or fewer and cannot.
    """
    for seat in range(4):
        others = {points[other] for other in range(4) if other != seat}
        if others == {points[seat] + 26}:
            return seat
    return None


def _outcome_parts(lineup: Sequence[str], bot: str, result: DealResult) -> tuple[float, ...]:
    """Return the bot's Diff on one deal split by ``OUTCOMES`` (``summarise``'s mean over the
    bot's hands, each hand counted under how it ended)."""
    slots = [slot for slot in range(4) if lineup[slot] == bot]
    parts = [0.0] * len(OUTCOMES)
    for slot in slots:
        for rotation in range(4):
            points = result.hand_points(rotation)
            shooter = moon_shooter(points)
            outcome = 2 if shooter is None else 0 if shooter == slot else 1
            parts[outcome] += hand_diff(points, slot) / (4 * len(slots))
    return tuple(parts)


def pair_runs(
    before: Run, after: Run, by_direction: bool = False, by_outcome: bool = False
) -> list[Pairing]:
    """Return every bot of every tournament found in both runs, compared deal by deal; with
    ``by_direction`` also over each pass direction's deals, and with ``by_outcome`` also the
    parts of the change by how the hands ended, after the bot's whole row.

    Raise RunFileError when the runs played different deals (different seeds, or for
    ``by_direction`` different pass cycles), or for ``by_outcome`` when a run is not a journal
    or plays the jack of diamonds (whose −10 hides a moon in the points).
    """
    if before.seed != after.seed:
        raise RunFileError(
            f"the runs played different deals: seed {before.seed} in {before.path}, "
            f"{after.seed} in {after.path}"
        )
    rules = before.rules
    if by_direction and after.rules.pass_cycle != rules.pass_cycle:
        raise RunFileError(
            f"the runs pass in different directions: {' '.join(rules.pass_cycle)} in "
            f"{before.path}, {' '.join(after.rules.pass_cycle)} in {after.path}"
        )
    directions = list(dict.fromkeys(rules.pass_cycle)) if by_direction else []
    if by_outcome:
        for run in (before, after):
            if run.outcome_parts is None:
                raise RunFileError(
                    f"{run.path}: --by-outcome needs a journal (`bench strength --journal`): "
                    "a --deals-out file keeps no hand's points"
                )
            if run.rules.jack_of_diamonds:
                raise RunFileError(
                    f"{run.path}: --by-outcome cannot tell a moon from the points when the "
                    "jack of diamonds is played"
                )
    pairings = []
    for tournament, bots in before.diffs.items():
        for bot, old in bots.items():
            new = after.diffs.get(tournament, {}).get(bot, {})
            common = sorted(old.keys() & new.keys())
            if not common:
                continue
            groups = [("", common)] + [
                (direction, [deal for deal in common if rules.direction_of_hand(deal) == direction])
                for direction in directions
            ]
            pairings += [
                _pairing(tournament, bot, direction, old, new, deals)
                for direction, deals in groups
                if deals
            ]
            if by_outcome:
                assert before.outcome_parts is not None and after.outcome_parts is not None
                old_parts = before.outcome_parts[tournament][bot]
                new_parts = after.outcome_parts[tournament][bot]
                pairings += [
                    _pairing(
                        tournament,
                        bot,
                        outcome,
                        {deal: old_parts[deal][index] for deal in common},
                        {deal: new_parts[deal][index] for deal in common},
                        common,
                    )
                    for index, outcome in enumerate(OUTCOMES)
                ]
    return pairings


def _pairing(
    tournament: str,
    bot: str,
    part: str,
    old: dict[int, float],
    new: dict[int, float],
    deals: Sequence[int],
) -> Pairing:
    """Return one bot's comparison over these deals."""
    change, change_ci = mean_and_interval([new[deal] - old[deal] for deal in deals])
    return Pairing(
        tournament,
        bot,
        len(deals),
        math.fsum(old[deal] for deal in deals) / len(deals),
        math.fsum(new[deal] for deal in deals) / len(deals),
        change,
        change_ci,
        part,
    )


def render(pairings: Sequence[Pairing], markdown: bool) -> str:
    """Return the comparison as a table (Markdown or plain text), with a column naming the
    hands compared when any row is a part (a pass direction's, or how the hands ended)."""
    split = any(pairing.part for pairing in pairings)
    header = ("tournament", "bot", *(("hands",) if split else ()), "deals")
    header += ("Diff before", "Diff after", "change (95% CI)")
    rows = [
        (
            pairing.tournament,
            pairing.bot,
            *((pairing.part or "all",) if split else ()),
            f"{pairing.deals:,}",
            f"{pairing.before:+.2f}",
            f"{pairing.after:+.2f}",
            f"{pairing.change:+.2f} ± {pairing.change_ci:.2f}",
        )
        for pairing in pairings
    ]
    if markdown:
        align = ["---"] * (len(header) - 4) + ["---:"] * 4
        lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's arguments."""
    parser.add_argument(
        "before",
        help="a file of `bench strength --deals-out` or a journal of `--journal` (the earlier run)",
    )
    parser.add_argument("after", help="such a file of a later run with the same seed")
    parser.add_argument(
        "--by-direction",
        action="store_true",
        help="also compare each bot over the deals of each pass direction on their own",
    )
    parser.add_argument(
        "--by-outcome",
        action="store_true",
        help="also split each bot's change by how its hands ended (its own moon, another "
        "seat's, or none); both files must be journals",
    )
    add_markdown_option(parser, "the comparison")


def run(args: argparse.Namespace) -> int:
    """Compare the two runs and print the table; 2 when a file cannot be compared."""
    try:
        pairings = pair_runs(
            read_run(args.before), read_run(args.after), args.by_direction, args.by_outcome
        )
    except RunFileError as error:
        print(error, file=sys.stderr)
        return 2
    if not pairings:
        print("the runs have no tournament and bot in common", file=sys.stderr)
        return 2
    publish(args.markdown, render(pairings, False), render(pairings, True))
    return 0
