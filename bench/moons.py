"""Moon benchmark: how often the hard bot's search foresees a moon, against how often one is shot.

Four hard bots at a fixed number of deals a decision play hands with passing (standard rules).
At each play with a choice searched by rollouts (more than ``EXACT_CARDS`` cards in hand), the
bot's search of every legal card (``HardBot.play_values``) picks the card, and the chosen card's
tallies say in what share of its rollouts the seat shot the moon and another seat did: what the
search foresaw. With ``--true N`` the chosen card is also played out ``N`` times on
the true deal with the same rollouts, which separates what the drawn deals miss from what the
rollouts miss. With ``--losers N``, where another seat holds every point taken, the bot's reader
draws ``N`` deals with and without reading that seat's hand as likely to run
(``PlayModel.runner``), and the cards of that seat another hand can beat are counted on them and
on the true deal. The hand's end says what happened. Decisions are grouped by what the table
shows (``group_of``); the rates shot come with 95% intervals that treat each hand as one sample
(its decisions share one ending).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ai.hard import EXACT_CARDS, LEAF_CARDS, HardBot, goal_of, table_of
from ai.inference import DEFAULT_MODEL, RUNNER_WEIGHTS, deal_reader, runner_seat
from ai.knowledge import read_knowledge
from ai.sampler import DealSampler
from ai.search import TALLY_CONCEDED, TALLY_SHOT, evaluate_detail, runner_evidence
from bench import add_markdown_option, machine_info, publish
from core.cards import cards_of, count
from core.hand import HandState
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet

#: Loser counts shown one by one, the last for that many or more.
LOSERS_SHOWN = 6
DEFAULT_HANDS = 200
DEFAULT_DEALS = 300
#: The groups of decisions, in the order they are listed.
GROUPS = (
    "no seat holds every point taken",
    "another seat holds them, 1–3 points",
    "another seat holds them, 4–12 points",
    "another seat holds them, 13 or more",
    "it holds them, 1–3 points",
    "it holds them, 4–12 points",
    "it holds them, 13 or more",
)


@dataclass(frozen=True)
class Foresight:
    """One decision: its hand and group, the shares of the chosen card's rollouts in which the
    seat and another seat shot the moon (on the drawn deals, and on the true deal when it was
    played out), and what the hand's end said."""

    hand: int
    group: str
    own_foreseen: float
    other_foreseen: float
    own_true: float | None
    other_true: float | None
    own_shot: bool
    other_shot: bool
    #: With ``--losers``, where another seat holds every point: its losers on the true deal,
    #: and the share of drawn deals giving it each count (``LOSERS_SHOWN`` counts, the last
    #: for that many or more), read without and with ``PlayModel.runner``.
    losers_true: int | None = None
    losers_unread: tuple[float, ...] = ()
    losers_read: tuple[float, ...] = ()


def group_of(seat: int, taken_points: Sequence[int]) -> str:
    """Return the group of a decision by ``seat``, from the points each seat has taken."""
    holders = [other for other in range(4) if taken_points[other] > 0]
    if len(holders) != 1:
        return GROUPS[0]
    points = taken_points[holders[0]]
    size = 0 if points < 4 else 1 if points < 13 else 2
    return GROUPS[(4 if holders[0] == seat else 1) + size]


def losers(deals: Sequence[Sequence[int]], seat: int) -> list[int]:
    """Return, per deal, how many of ``seat``'s cards a card of another hand can beat."""
    return runner_evidence(deals, seat, range(14))


def loser_shares(deals: Sequence[Sequence[int]], seat: int) -> tuple[float, ...]:
    """Return the share of ``deals`` giving ``seat`` each count of losers (the last entry:
    ``LOSERS_SHOWN - 1`` or more)."""
    shares = [0.0] * LOSERS_SHOWN
    for found in losers(deals, seat):
        shares[min(found, LOSERS_SHOWN - 1)] += 1 / len(deals)
    return tuple(shares)


def _read_losers(
    observation: Observation, bot: HardBot, true_deal: Sequence[int], draws: int, seed: int
) -> dict[str, Any]:
    """Return the ``Foresight`` fields of ``--losers`` at a decision (none when not asked or no
    other seat holds every point taken)."""
    if not draws:
        return {}
    knowledge = read_knowledge(observation)
    model = replace(bot.reader or DEFAULT_MODEL, runner=RUNNER_WEIGHTS)
    taker = runner_seat(knowledge, model)
    if taker is None:
        return {}
    sampler = DealSampler(knowledge)
    shares = [
        loser_shares(deal_reader(observation, sampler, reading, seed).draw(0, draws), taker)
        for reading in (replace(model, runner=None), model)
    ]
    return {
        "losers_true": losers([true_deal], taker)[0],
        "losers_unread": shares[0],
        "losers_read": shares[1],
    }


def play_hand(
    number: int, bots: Sequence[HardBot], seed: int, true_runs: int, loser_draws: int = 0
) -> list[Foresight]:
    """Play hand ``number`` of the run with ``bots``; return its decisions."""
    rules = RuleSet()
    direction = rules.pass_cycle[number % len(rules.pass_cycle)]
    hand = HandState.new(rules, direction, deal_for(seed, number))
    for passer in list(hand.seats_to_pass):
        hand.submit_pass(passer, bots[passer].choose_pass(hand.observation(passer, (0, 0, 0, 0))))
    seen: list[tuple[int, Foresight]] = []
    while (seat := hand.turn) is not None:
        observation = hand.observation(seat, (0, 0, 0, 0))
        legal = cards_of(observation.legal_mask())
        if len(legal) < 2 or count(observation.hand) <= EXACT_CARDS:
            hand.play(seat, bots[seat].choose_play(observation))
            continue
        values = bots[seat].play_values(observation)
        best = values.best()
        tallies, runs = values.tallies[best], values.runs_of(best)
        own_true = other_true = None
        if true_runs:
            table = table_of(observation, read_knowledge(observation))
            _, true = evaluate_detail(
                [list(hand.hands)], table, [legal[best]], true_runs, seed + number, 0,
                EXACT_CARDS, goal_of(observation), LEAF_CARDS, True, 1,
            )  # fmt: skip
            own_true, other_true = true[TALLY_SHOT] / true_runs, true[TALLY_CONCEDED] / true_runs
        where = (seed * 100_003 + number) * 1009 + len(seen)
        read = _read_losers(observation, bots[seat], hand.hands, loser_draws, where)
        foresight = Foresight(
            number, group_of(seat, hand.taken_points()), tallies[TALLY_SHOT] / runs,
            tallies[TALLY_CONCEDED] / runs, own_true, other_true, own_shot=False, other_shot=False,
            **read,
        )  # fmt: skip
        seen.append((seat, foresight))
        hand.play(seat, legal[best])
    shooter = hand.score((0, 0, 0, 0)).moon_shooter
    return [
        replace(row, own_shot=shooter == seat, other_shot=shooter not in (None, seat))
        for seat, row in seen
    ]


def measure(
    hands: int, deals: int, seed: int, true_runs: int = 0, loser_draws: int = 0
) -> list[Foresight]:
    """Play ``hands`` hands with four hard bots at ``deals`` deals a decision."""
    bots = [HardBot(seed=seed * 10 + seat, max_samples=deals, threads=1) for seat in range(4)]
    found: list[Foresight] = []
    for number in range(hands):
        found.extend(play_hand(number, bots, seed, true_runs, loser_draws))
    return found


def rate_and_interval(by_hand: Sequence[tuple[int, float]]) -> tuple[float, float]:
    """Return a rate over decisions and the half-width of its 95% interval, from each hand's
    (decisions, sum) pair: a ratio estimate, its variance taken hand by hand."""
    decisions = sum(n for n, _ in by_hand)
    if decisions == 0:
        return 0.0, math.inf
    rate = sum(total for _, total in by_hand) / decisions
    if len(by_hand) < 2:
        return rate, math.inf
    spread = sum((total - rate * n) ** 2 for n, total in by_hand) * len(by_hand)
    spread /= len(by_hand) - 1
    return rate, 1.96 * math.sqrt(spread) / decisions


def _rate(rows: Sequence[Foresight], value: str) -> tuple[float, float]:
    hands: dict[int, tuple[int, float]] = {}
    for row in rows:
        n, total = hands.get(row.hand, (0, 0.0))
        hands[row.hand] = (n + 1, total + float(getattr(row, value)))
    return rate_and_interval(list(hands.values()))


def render(rows: Sequence[Foresight], info: dict[str, str]) -> tuple[str, str]:
    """Return the results as plain text and as Markdown."""
    true = all(row.other_true is not None for row in rows)
    lines = ["# Moons", "", "| | |", "| --- | --- |"]
    lines += [f"| {key} | {value} |" for key, value in info.items()]
    lines += [
        "",
        "| at the decision | decisions (hands) | its own moon: foreseen | shot (95% CI) "
        "| another seat's moon: foreseen |"
        + (" on the true deal |" if true else "")
        + " shot (95% CI) |",
        "| --- | ---: | ---: | ---: | ---: |" + (" ---: |" if true else "") + " ---: |",
    ]
    text = []
    for group in GROUPS:
        chosen = [row for row in rows if row.group == group]
        if not chosen:
            continue
        own, own_ci = _rate(chosen, "own_shot")
        other, other_ci = _rate(chosen, "other_shot")
        cells = [
            group,
            f"{len(chosen)} ({len({row.hand for row in chosen})})",
            f"{_rate(chosen, 'own_foreseen')[0]:.3f}",
            f"{own:.3f} ± {own_ci:.3f}",
            f"{_rate(chosen, 'other_foreseen')[0]:.3f}",
        ]
        if true:
            cells.append(f"{_rate(chosen, 'other_true')[0]:.3f}")
        cells.append(f"{other:.3f} ± {other_ci:.3f}")
        lines.append("| " + " | ".join(cells) + " |")
        text.append(
            f"{group:38} {cells[1]:>12}  own moon foreseen {cells[2]} shot {cells[3]}"
            f"  another's foreseen {cells[4]}"
            + (f" on the true deal {cells[5]}" if true else "")
            + f" shot {cells[-1]}"
        )
    read = [row for row in rows if row.losers_true is not None]
    if read:
        losers_text, losers_lines = _render_losers(read)
        text += losers_text
        lines += losers_lines
    return "\n".join(text), "\n".join(lines)


def _render_losers(rows: Sequence[Foresight]) -> tuple[list[str], list[str]]:
    """Return the ``--losers`` table: per count of losers of the seat holding every point,
    the share of decisions with it on the true deal and on the drawn deals, and how often the
    seat shot with it."""
    hands = len({row.hand for row in rows})
    lines = [
        "",
        f"Another seat holds every point taken: {len(rows)} decisions ({hands} hands).",
        "",
        "| its losers | true deal | drawn, not read | drawn, read | shot, by the true count |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    text = ["", f"another seat holds every point taken: {len(rows)} decisions ({hands} hands)"]
    for index in range(LOSERS_SHOWN):
        label = f"{index}+" if index == LOSERS_SHOWN - 1 else str(index)
        true = [row for row in rows if min(row.losers_true or 0, LOSERS_SHOWN - 1) == index]
        unread = sum(row.losers_unread[index] for row in rows) / len(rows)
        read = sum(row.losers_read[index] for row in rows) / len(rows)
        shot = f"{sum(row.other_shot for row in true) / len(true):.2f}" if true else "—"
        cells = [label, f"{len(true) / len(rows):.3f}", f"{unread:.3f}", f"{read:.3f}", shot]
        lines.append("| " + " | ".join(cells) + " |")
        text.append(
            f"losers {label:>2}: true {cells[1]}  drawn, not read {cells[2]}  read {cells[3]}"
            f"  shot {shot}"
        )
    return text, lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options to its command."""
    parser.add_argument(
        "--hands", type=int, default=DEFAULT_HANDS, metavar="N",
        help=f"hands played, the pass directions in turn (default {DEFAULT_HANDS})",
    )  # fmt: skip
    parser.add_argument(
        "--deals", type=int, default=DEFAULT_DEALS, metavar="D",
        help=f"deals a decision of every hard bot (default {DEFAULT_DEALS})",
    )  # fmt: skip
    parser.add_argument(
        "--true", type=int, default=0, metavar="N",
        help="also play the chosen card out N times on the true deal (default 0: not)",
    )  # fmt: skip
    parser.add_argument(
        "--losers", type=int, default=0, metavar="N",
        help="where another seat holds every point, count its losers on N drawn deals "
        "(default 0: not)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=3, help="seed of the hands and the bots")
    add_markdown_option(parser)


def run(args: argparse.Namespace) -> int:
    """Play the hands and print the table."""
    if min(args.hands, args.deals) < 1 or min(args.true, args.losers) < 0:
        print(
            "--hands and --deals must be at least 1, --true and --losers at least 0",
            file=sys.stderr,
        )
        return 2
    info = machine_info()
    info["command"] = (
        f"python -m bench moons --hands {args.hands} --deals {args.deals} --seed {args.seed}"
        + (f" --true {args.true}" if args.true else "")
        + (f" --losers {args.losers}" if args.losers else "")
    )
    rows = measure(args.hands, args.deals, args.seed, args.true, args.losers)
    info["hands with a moon"] = str(
        len({row.hand for row in rows if row.own_shot or row.other_shot})
    )
    text, markdown = render(rows, info)
    publish(args.markdown, text, markdown)
    return 0
