"""Two strength runs compared deal by deal: ``python -m bench paired BEFORE AFTER``.

Runs of ``python -m bench strength --deals-out FILE`` with the same seed play the same deals, so
a bot's Diff on deal *d* after a change minus its Diff on deal *d* before it measures the change
with the luck of the cards taken out: the interval of the mean difference is much narrower than
the two runs' own intervals suggest. Every tournament in both files is compared, for each bot
name in both, over the deals both runs played (deal *d* is the same deal in runs of one seed).
Either file may also be a tournament's journal (``bench strength --journal``), finished or not:
a long run is compared over the deals it has played so far. With ``--by-direction`` each bot is
also compared over the deals of each pass direction (left, right, across, hold) on their own:
what a bot gains in the hands without a pass it gains in play alone.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ai.deal_journal import JOURNAL_FORMAT, JournalError, read_journal
from ai.tournament import DealResult, mean_and_interval, summarise
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


@dataclass(frozen=True)
class Pairing:
    """One bot in one tournament of both runs: the deals compared and the mean difference,
    over every deal both played (``direction`` empty) or over one pass direction's."""

    tournament: str
    bot: str
    deals: int
    before: float
    after: float
    change: float
    change_ci: float
    direction: str = ""


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
    return Run(path, seed, {name: per_bot}, rules)


def pair_runs(before: Run, after: Run, by_direction: bool = False) -> list[Pairing]:
    """Return every bot of every tournament found in both runs, compared deal by deal, and
    with ``by_direction`` also over each pass direction's deals, after the bot's whole row.

    Raise RunFileError when the runs played different deals (different seeds, or for
    ``by_direction`` different pass cycles).
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
    return pairings


def _pairing(
    tournament: str,
    bot: str,
    direction: str,
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
        direction,
    )


def render(pairings: Sequence[Pairing], markdown: bool) -> str:
    """Return the comparison as a table (Markdown or plain text), with a column of the pass
    direction when any row is one direction's."""
    split = any(pairing.direction for pairing in pairings)
    header = ("tournament", "bot", *(("pass",) if split else ()), "deals")
    header += ("Diff before", "Diff after", "change (95% CI)")
    rows = [
        (
            pairing.tournament,
            pairing.bot,
            *((pairing.direction or "all",) if split else ()),
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
    add_markdown_option(parser, "the comparison")


def run(args: argparse.Namespace) -> int:
    """Compare the two runs and print the table; 2 when a file cannot be compared."""
    try:
        pairings = pair_runs(read_run(args.before), read_run(args.after), args.by_direction)
    except RunFileError as error:
        print(error, file=sys.stderr)
        return 2
    if not pairings:
        print("the runs have no tournament and bot in common", file=sys.stderr)
        return 2
    publish(args.markdown, render(pairings, False), render(pairings, True))
    return 0
