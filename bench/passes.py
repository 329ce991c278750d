"""Pass benchmark: what the hard bot's pass candidates miss.

The hard bot plays out only a few of the 286 ways to pass three cards (``pass_candidates``).
Here, on dealt hands in every pass direction, all 286 are valued on the same simulated deals
(``HardBot.pass_values``); the best candidate and the best sets of all are then valued again,
on fresh deals, so that the winners' luck in the first round does not count. The shortfall of a
hand is how much worse, in points of Diff, the best candidate is than the best of those sets
(0 when a candidate is best); its mean over hands comes with a 95% confidence interval. It
measures the candidates against the bot's own simulation of a pass, not against play: a set
the simulation likes may still play worse, which only a tournament can tell.

With ``--decide N`` the bot also chooses its pass as it does in play, from ``N`` simulated hands
(about what its think budget allows: ``python -m bench search`` times passes); that set is valued
again with the finalists, and its shortfall counts what the bot loses by choosing among its
candidates on few hands as well as what the candidates miss.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import dataclass

from ai.hard import HardBot, pass_candidates
from ai.tournament import mean_and_interval
from bench import add_markdown_option, machine_info, publish
from core.cards import HEARTS, QUEEN_OF_SPADES, SUIT_MASKS, card_text, cards_of, count, mask_of
from core.hand import HandState
from core.match import deal_for
from core.rules import RuleSet

DEFAULT_HANDS = 60
#: Deals on which all 286 sets are valued, and deals on which the finalists are valued again.
DEFAULT_SCREEN = 600
DEFAULT_CHECK = 2000
#: Sets of all 286 valued again besides the best candidate.
FINALISTS = 3
#: Added to a hand's seed for the bot's own decision (apart from the hands' other seeds).
DECISION_SEED = 1_000_003
#: The directions that pass cards, in the rules' order.
DIRECTIONS = tuple(direction for direction in RuleSet().pass_cycle if direction != "hold")


@dataclass(frozen=True)
class PassCheck:
    """One hand: the best candidate, the best set found, and the shortfall between them; with
    the bot's own decision, that set and its shortfall."""

    direction: str
    candidate: tuple[int, int, int]
    best: tuple[int, int, int]
    shortfall: float  # points of Diff; 0 when the best candidate is the best set
    decision: tuple[int, int, int] | None = None
    decision_shortfall: float | None = None


def check_hand(state: HandState, seed: int, screen: int, check: int, decide: int = 0) -> PassCheck:
    """Value every pass of seat 0 of a hand about to pass, then the finalists again (with the
    bot's own choice from ``decide`` simulated hands, when ``decide`` is not 0)."""
    hand = state.hands[0]
    observation = state.observation(0, (0, 0, 0, 0))
    every = list(itertools.combinations(cards_of(hand), 3))
    screened = HardBot(seed=seed, max_samples=screen).pass_values(observation, extra=every)
    own = len(pass_candidates(hand))
    means = [screened.mean(slot) for slot in range(len(screened.candidates))]
    candidate = min(range(own), key=lambda slot: (means[slot], slot))
    ranked = sorted(range(len(means)), key=lambda slot: (means[slot], slot))
    finalists = [candidate, *[slot for slot in ranked[:FINALISTS] if slot != candidate]]
    sets = [tuple(screened.candidates[slot]) for slot in finalists]
    decision = None
    if decide:
        decision = tuple(
            sorted(HardBot(seed=seed + DECISION_SEED, max_samples=decide).choose_pass(observation))
        )
        if decision not in sets:
            sets.append(decision)
    again = HardBot(seed=seed + 1, max_samples=check).pass_values(observation, extra=sets)
    value = {tuple(cards): again.mean(slot) for slot, cards in enumerate(again.candidates)}
    best = min(sets, key=lambda cards: (value[cards], cards))
    chosen = sets[0]
    return PassCheck(
        state.direction,
        (chosen[0], chosen[1], chosen[2]),
        (best[0], best[1], best[2]),
        value[chosen] - value[best],
        None if decision is None else (decision[0], decision[1], decision[2]),
        None if decision is None else value[decision] - value[best],
    )


def measure(hands: int, seed: int, screen: int, check: int, decide: int = 0) -> list[PassCheck]:
    """Check ``hands`` dealt hands, the directions in turn."""
    rules = RuleSet()
    found = []
    for number in range(hands):
        direction = DIRECTIONS[number % len(DIRECTIONS)]
        state = HandState.new(rules, direction, deal_for(seed, number))
        found.append(check_hand(state, seed + 2 * number, screen, check, decide))
    return found


def render(checks: list[PassCheck], info: dict[str, str]) -> tuple[str, str]:
    """Return the results as plain text and as Markdown."""
    lines = ["# Passes", "", "| | |", "| --- | --- |"]
    lines += [f"| {key} | {value} |" for key, value in info.items()]
    decided = all(c.decision_shortfall is not None for c in checks)
    lines += [
        "",
        "| direction | hands | shortfall of the candidates (95% CI) | a candidate is best "
        "| hearts passed, candidate / best | Q♠ passed, candidate / best |"
        + (" shortfall of the decision (95% CI) |" if decided else ""),
        "| --- | ---: | ---: | ---: | ---: | ---: |" + (" ---: |" if decided else ""),
    ]
    text = []
    for direction in [*DIRECTIONS, "all"]:
        rows = [c for c in checks if direction in ("all", c.direction)]
        if not rows:
            continue
        mean, interval = mean_and_interval([c.shortfall for c in rows])
        best = sum(c.shortfall == 0 for c in rows)
        hearts = [
            sum(count(mask_of(c.candidate) & SUIT_MASKS[HEARTS]) for c in rows),
            sum(count(mask_of(c.best) & SUIT_MASKS[HEARTS]) for c in rows),
        ]
        queens = [
            sum(QUEEN_OF_SPADES in c.candidate for c in rows),
            sum(QUEEN_OF_SPADES in c.best for c in rows),
        ]
        cells = [
            direction,
            str(len(rows)),
            f"{mean:.2f} ± {interval:.2f}",
            f"{best} of {len(rows)}",
            f"{hearts[0]} / {hearts[1]}",
            f"{queens[0]} / {queens[1]}",
        ]
        line = (
            f"{direction:7} {len(rows):4} hands  shortfall {cells[2]}  candidate best {cells[3]}"
            f"  hearts {cells[4]}  Q♠ {cells[5]}"
        )
        if decided:
            lost = [c.decision_shortfall for c in rows if c.decision_shortfall is not None]
            mean, interval = mean_and_interval(lost)
            cells.append(f"{mean:.2f} ± {interval:.2f}")
            line += f"  decision {cells[-1]}"
        lines.append("| " + " | ".join(cells) + " |")
        text.append(line)
    worst = sorted(checks, key=lambda c: -c.shortfall)[:5]
    lines += ["", "Largest shortfalls (candidate → best set):", ""]
    for c in worst:
        pair = " ".join(map(card_text, c.candidate)), " ".join(map(card_text, c.best))
        lines.append(f"- {c.direction}: {pair[0]} → {pair[1]}, {c.shortfall:.2f}")
    return "\n".join(text), "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options to its command."""
    parser.add_argument(
        "--hands",
        type=int,
        default=DEFAULT_HANDS,
        metavar="N",
        help=f"hands dealt, the pass directions in turn (default {DEFAULT_HANDS})",
    )
    parser.add_argument(
        "--screen",
        type=int,
        default=DEFAULT_SCREEN,
        metavar="D",
        help=f"simulated deals valuing all 286 sets (default {DEFAULT_SCREEN})",
    )
    parser.add_argument(
        "--check",
        type=int,
        default=DEFAULT_CHECK,
        metavar="D",
        help=f"fresh deals valuing the finalists again (default {DEFAULT_CHECK})",
    )
    parser.add_argument(
        "--decide",
        type=int,
        default=0,
        metavar="D",
        help="also value the bot's own pass, chosen from D simulated hands (default 0: not)",
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the hands and the deals")
    add_markdown_option(parser)


def run(args: argparse.Namespace) -> int:
    """Check the hands and print the table."""
    if min(args.hands, args.screen, args.check) < 1 or args.decide < 0:
        print(
            "--hands, --screen and --check must be at least 1, --decide at least 0", file=sys.stderr
        )
        return 2
    info = machine_info()
    info["command"] = (
        f"python -m bench passes --hands {args.hands} --screen {args.screen} "
        f"--check {args.check} --seed {args.seed}"
        + (f" --decide {args.decide}" if args.decide else "")
    )
    checks = measure(args.hands, args.seed, args.screen, args.check, args.decide)
    text, markdown = render(checks, info)
    publish(args.markdown, text, markdown)
    return 0
