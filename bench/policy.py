"""Policy benchmark: fit a learned model of play to the hard bot's own plays, and measure it.

Hands are played by four hard bots at a fixed number of deals a decision
(``bench.policy_data``; the plays are kept in a deal journal, and a run continues the hands in
it). Every play with a choice gives each legal card's features (``ai.search.card_features``,
from what the seat knew) and the card played; a softmax per kind of play is fitted to four
hands in five (``bench.policy_fit``) and measured on the fifth: how often its likeliest card is
the card played, and the mean log-loss of the card played, against the hand-written rollout
policy as the hard bot reads plays today (its card with probability ``1 − ε + ε/n``, any other
``ε/n``, ``ε`` per kind of play: ``ai.inference.DEFAULT_MODEL``) and against uniform play.
``--write FILE`` writes the fitted weights (``ai.play_model``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from ai.bot import close_bot
from ai.inference import DEFAULT_MODEL
from ai.play_model import KINDS, model_json
from ai.registry import make_bot
from ai.search import LearnedModel, card_features, policy_card
from bench import add_markdown_option, machine_info, publish
from bench.policy_data import HARD, Play, record
from bench.policy_fit import PENALTY, Choice, fit, log_probabilities, predicted
from core.cards import QUEEN_OF_SPADES
from core.files import write_atomically
from core.kernel import legal_mask

DEFAULT_HANDS = 1000
DEFAULT_DEALS = 300
#: Apart from the seeds ``bench inference`` plays its hands with (7 by default).
DEFAULT_SEED = 20261126
#: One hand in this many is held out of the fit.
HELD_OUT = 5


def choice_of(play: Play) -> tuple[Choice, int, float]:
    """Return a play as a choice, with the index of the hand-written policy's card and the ε
    of the kind of play it is read with today."""
    table = play.table
    seat = (table.leader + len(table.trick)) & 3
    hands = tuple(play.hand if other == seat else 0 for other in range(4))
    kind, rows = card_features(hands, table)
    led = table.trick[0] // 13 if table.trick else -1
    legal = legal_mask(play.hand, led, table.trick_index == 0, table.hearts_broken, table.flags)
    cards = [card for card in range(52) if legal >> card & 1]
    policy = policy_card(hands, table)
    kinds = (DEFAULT_MODEL.lead, DEFAULT_MODEL.follow, DEFAULT_MODEL.discard)
    epsilon = DEFAULT_MODEL.queen if policy == QUEEN_OF_SPADES else kinds[kind]
    return Choice(kind, tuple(rows), cards.index(play.card)), cards.index(policy), epsilon


#: Plays as choices, each with the policy's card, its ε and the bot that played it.
Scored = list[tuple[Choice, int, float, str]]


def scores(model: LearnedModel, scored: Scored) -> list[str]:
    """Return the cells of one row: plays, accuracy and log-loss of the learned model, of the
    hand-written policy read with ε, and of uniform play."""
    if not scored:
        return ["0", "—", "—", "—", "—", "—"]
    choices = [choice for choice, _, _, _ in scored]
    learned = -sum(log_probabilities(model, choices)) / len(choices)
    hits = sum(predicted(model, choice) == choice.played for choice in choices) / len(choices)
    policy_hits = sum(policy == choice.played for choice, policy, _, _ in scored) / len(choices)
    policy_loss = 0.0
    for choice, policy, epsilon, _ in scored:
        n = len(choice.rows)
        chance = 1.0 - epsilon + epsilon / n if policy == choice.played else epsilon / n
        policy_loss -= math.log(chance) / len(choices)
    uniform = sum(math.log(len(choice.rows)) for choice in choices) / len(choices)
    return [
        str(len(choices)),
        f"{hits:.3f}",
        f"{policy_hits:.3f}",
        f"{learned:.3f}",
        f"{policy_loss:.3f}",
        f"{uniform:.3f}",
    ]


def render(model: LearnedModel, held_out: Scored, info: dict[str, str]) -> tuple[str, str]:
    """Return the held-out table as plain text and as Markdown."""
    columns = [
        "plays",
        "learned: card played",
        "policy: card played",
        "learned: log-loss",
        "policy with ε: log-loss",
        "uniform: log-loss",
    ]
    lines = ["# Learned model of play", "", "| | |", "| --- | --- |"]
    lines += [f"| {key} | {value} |" for key, value in info.items()]
    lines += ["", "## Held-out hands (log-loss in nats a play, lower is better)", ""]
    lines += ["| kind | " + " | ".join(columns) + " |", "| --- |" + " ---: |" * len(columns)]
    text = ["Held-out hands (log-loss in nats a play, lower is better)"]
    groups = [
        (kind, [row for row in held_out if row[0].kind == index])
        for index, kind in enumerate(KINDS)
    ]
    groups.append(("all", held_out))
    bots = sorted({row[3] for row in held_out})
    if len(bots) > 1:
        groups += [(f"all, {bot} bots", [row for row in held_out if row[3] == bot]) for bot in bots]
    for name, rows in groups:
        cells = scores(model, rows)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
        named = "  ".join(f"{column} {cell}" for column, cell in zip(columns, cells, strict=True))
        text.append(f"{name:8} {named}")
    text.append(f"mix {model.mix:g}")
    lines += ["", f"Mixed with uniform play: {model.mix:g}."]
    return "\n".join(text), "\n".join(lines)


def split(hands: dict[int, tuple[list[Play], str]]) -> tuple[Scored, Scored]:
    """Return the plays of the hands fitted on and of the hands held out (one in HELD_OUT)."""
    fitted: Scored = []
    held_out: Scored = []
    for number in sorted(hands):
        target = held_out if number % HELD_OUT == HELD_OUT - 1 else fitted
        plays, bot = hands[number]
        target.extend((*choice_of(play), bot) for play in plays)
    return fitted, held_out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options to its command."""
    parser.add_argument(
        "--hands",
        type=int,
        default=DEFAULT_HANDS,
        metavar="N",
        help=f"hands of hard bots to fit and measure on (default {DEFAULT_HANDS})",
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=DEFAULT_DEALS,
        metavar="D",
        help=f"deals a decision of the hard bots that play them (default {DEFAULT_DEALS})",
    )
    parser.add_argument(
        "--bots",
        default=HARD,
        metavar="BOT[,BOT]",
        help="bots that play the hands, four of one kind a hand, in turn (default hard)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        required=True,
        metavar="FILE",
        help="file of the plays (a deal journal): hands already in it are not played again",
    )
    parser.add_argument(
        "--write",
        type=Path,
        metavar="FILE",
        help="write the fitted weights to FILE (the program reads ai/play_model.json)",
    )
    parser.add_argument(
        "--penalty",
        type=float,
        default=PENALTY,
        help=f"L2 penalty of the fit (default {PENALTY})",
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"seed of the hands (default {DEFAULT_SEED})"
    )
    add_markdown_option(parser)


def run(args: argparse.Namespace) -> int:
    """Play or read the hands, fit the model on four in five, print the held-out table."""
    if args.hands < HELD_OUT or args.deals < 1 or not args.penalty >= 0:
        print(
            f"--hands must be at least {HELD_OUT}, --deals at least 1, --penalty at least 0",
            file=sys.stderr,
        )
        return 2
    started = time.perf_counter()
    try:
        bots = [name.strip() for name in args.bots.split(",") if name.strip()]
        for name in bots:
            close_bot(make_bot(name, 0))
        hands = record(args.data, args.hands, args.seed, args.deals, bots or [HARD])
    except (OSError, ValueError) as error:
        print(f"python -m bench policy: {error}", file=sys.stderr)
        return 2
    fitted, held_out = split(hands)
    model = fit([choice for choice, _, _, _ in fitted], args.penalty)
    info = machine_info()
    info["command"] = (
        f"python -m bench policy --hands {args.hands} --deals {args.deals} "
        f"--bots {args.bots} --data {args.data} --penalty {args.penalty:g} --seed {args.seed}"
    )
    info["plays"] = f"{len(fitted)} fitted on, {len(held_out)} held out"
    info["seconds"] = f"{time.perf_counter() - started:.0f}"
    text, markdown = render(model, held_out, info)
    if args.write is not None:
        fit_info = {
            "hands": args.hands,
            "bots": args.bots,
            "deals": args.deals,
            "seed": args.seed,
            "penalty": args.penalty,
            "plays": len(fitted),
        }
        write_atomically(args.write, model_json(model, fit_info))
    publish(args.markdown, text, markdown)
    return 0
