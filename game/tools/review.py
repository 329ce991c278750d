"""``mdhearts review``: a coach's review of one seat's decisions in a saved match.

Reads any game record (the CLI state file, the table's saved game, a record written by
``save``), reviews a seat's pass and plays with ``ai.review`` and prints what each cost, as
text or as one JSON object with ``--json``. Nothing is written and no program is started.

Exit codes: 0 done, 2 bad input (an option, a file that is not a readable record, a seat or
hand the record cannot review), 70 an internal error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ai.review import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    MAX_SAMPLES,
    DecisionReview,
    Review,
    ReviewError,
    finished_hands,
    hand_numbers,
    review_hands,
)
from core.cards import card_label
from core.controller import Controller
from core.errors import RecordError
from core.match import MAX_SEED
from core.record import load_record
from game.argtypes import whole_number
from game.programs import EXIT_OK, Parser, UsageError, guarded
from game.streams import silence_stdout, tell, write

PROG = "mdhearts review"
#: Longest time per decision ``--think-ms`` accepts: one minute.
MAX_THINK_MS = 60_000
ALL_HANDS = "all"


def _hand_choice(text: str) -> int | str:
    if text == ALL_HANDS:
        return text
    try:
        return whole_number(1, 10**12)(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"must be a hand number (1, 2, ...) or {ALL_HANDS}, got {text!r:.40}"
        ) from None


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of ``mdhearts review``."""
    parser = Parser(
        prog=PROG,
        allow_abbrev=False,
        usage_on_error=False,
        description="Review the pass and the plays of one seat in a saved match: what each "
        "decision cost in points against the best choice the hard bot's search finds, from "
        "what the seat could see at the time (see docs/cli.md).",
    )
    parser.add_argument(
        "record", metavar="RECORD", help="a game record: the CLI state file, a saved game"
    )
    parser.add_argument(
        "--seat",
        type=whole_number(0, 3),
        metavar="S",
        help="the seat to review, 0-3 (default: the record's human seat, else seat 0)",
    )
    parser.add_argument(
        "--hand",
        type=_hand_choice,
        metavar="N",
        help=f"the hand to review, or {ALL_HANDS} for every finished hand "
        "(default: the last finished hand)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--samples",
        type=whole_number(1, MAX_SAMPLES),
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"deals searched per decision (default {DEFAULT_SAMPLES})",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0, MAX_SEED),
        default=DEFAULT_SEED,
        metavar="N",
        help=f"seed of the search (default {DEFAULT_SEED}); the same seed and samples give "
        "the same review",
    )
    parser.add_argument(
        "--think-ms",
        type=whole_number(1, MAX_THINK_MS),
        metavar="N",
        help="also stop each decision's search after N ms (the review may then vary)",
    )
    return parser


# -- what to review ---------------------------------------------------------------------------


def default_seat(controller: Controller) -> int:
    """Return the seat reviewed by default: the first human seat, else seat 0."""
    for number, seat in enumerate(controller.seats):
        if seat.is_human:
            return number
    return 0


def chosen_hands(controller: Controller, hand: int | str | None) -> list[int]:
    """Return the hands to review; raise ReviewError when there are none to review."""
    finished = finished_hands(controller)
    if hand == ALL_HANDS or hand is None:
        if not finished:
            raise ReviewError("no hand of the record is finished yet: there is nothing to review")
        return finished if hand == ALL_HANDS else finished[-1:]
    assert isinstance(hand, int)
    if hand in hand_numbers(controller) and hand not in finished:
        raise ReviewError(f"hand {hand} is not finished yet: only finished hands are reviewed")
    return [hand]


# -- text -------------------------------------------------------------------------------------


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_label(card) for card in cards)


def _points(loss: float) -> str:
    return f"{loss:.2f} point" + ("" if loss == 1 else "s")


def decision_line(decision: DecisionReview, subject: str) -> str:
    """Return one decision as the coach says it, e.g. ``Trick 4: you played K♠ — a mistake:
    9♠ was better by 2.60 points (± 0.40).``"""
    if decision.kind == "pass":
        where, did = "Pass", f"{subject} passed {_cards(decision.chosen)}"
    else:
        where, did = f"Trick {decision.trick}", f"{subject} played {_cards(decision.chosen)}"
    if decision.forced:
        return f"{where}: {did}, the only legal card."
    if decision.best == decision.chosen:
        if decision.close:
            others = " or ".join(_cards(cards) for cards in decision.close)
            return f"{where}: {did} — the best choice found ({others}: too close to call)."
        return f"{where}: {did} — the best choice."
    better = _cards(decision.best)
    grade = decision.grade
    if decision.loss == 0:
        return f"{where}: {did} — as good as {better}."
    noise = "" if decision.margin is None else f" (± {decision.margin:.2f})"
    if decision.too_close:
        return (
            f"{where}: {did} — too close to call: {better} was better by "
            f"{_points(decision.loss)}{noise}, within the search's noise."
        )
    if grade == "fine":
        return f"{where}: {did} — fine ({better} was {_points(decision.loss)} better)."
    article = "an" if grade == "inaccuracy" else "a"
    return (
        f"{where}: {did} — {article} {grade}: {better} was better by "
        f"{_points(decision.loss)}{noise}."
    )


def why_line(decision: DecisionReview) -> str | None:
    """Return why a listed decision cost what it did (``ai.explain``), or None."""
    if decision.explanation is None or (decision.grade == "fine" and not decision.too_close):
        return None
    return f"Why: {decision.explanation.text}"


def total_line(review: Review) -> str:
    """Return the points lost, and the parts that add up to them: the mistakes, the
    inaccuracies, the losses too close to call, and the small slips."""
    summary = review.summary()
    parts = []
    groups = (
        ("mistake", "mistakes", [d for d in summary.listed if d.grade == "mistake"]),
        ("inaccuracy", "inaccuracies", [d for d in summary.listed if d.grade == "inaccuracy"]),
        ("too close to call", "too close to call", [d for d in summary.listed if d.too_close]),
    )
    for one, many, decisions in groups:
        if decisions:
            lost = Review(tuple(decisions)).total_loss
            parts.append(f"{_count(len(decisions), one, many)}: {lost:.2f}")
    if summary.slips:
        parts.append(
            f"{_count(summary.slips, 'small slip', 'small slips')}: {summary.slips_loss:.2f}"
        )
    tally = "; ".join(parts) or "no inaccuracy or mistake"
    return f"Points lost to decisions: {summary.total:.2f} ({tally})."


def review_text(review: Review, controller: Controller, seat: int, samples: int, seed: int) -> str:
    """Return the review as a coach's text: a line per decision (and why, for the ones that
    count), then the points lost and what they add up from."""
    player = controller.seats[seat]
    subject = "you" if player.is_human else f"seat {seat}"
    first = hand_numbers(controller).start
    match = controller.match
    assert match is not None
    lines = [
        f"Review of seat {seat} ({player}): {samples} deals searched per decision, seed {seed}."
    ]
    hands = sorted({decision.hand for decision in review.decisions})
    for hand in hands:
        direction = match.hands[hand - first].direction
        passing = "no pass" if direction == "hold" else f"pass {direction}"
        mine = [decision for decision in review.decisions if decision.hand == hand]
        lines += ["", f"Hand {hand} ({passing}):"]
        for decision in mine:
            lines.append(f"  {decision_line(decision, subject)}")
            why = why_line(decision)
            if why is not None:
                lines.append(f"    {why}")
        if len(hands) > 1:
            lost = Review(tuple(mine)).total_loss
            lines.append(f"  Lost in hand {hand}: {_points(lost)}.")
    lines += ["", total_line(review)]
    return "\n".join(lines) + "\n"


def _count(number: int, one: str, many: str) -> str:
    if number == 0:
        return ""
    return f"1 {one}" if number == 1 else f"{number} {many}"


# -- the command ------------------------------------------------------------------------------


def _progress(done: int, total: int) -> None:
    """Show how far the review is, on a terminal only."""
    text = f"reviewing decision {done} of {total}"
    tell(f"\r{text}" + (f"\r{' ' * len(text)}\r" if done == total else ""))


def run(argv: list[str]) -> str:
    """Return the output of ``mdhearts review`` for these arguments; raise UsageError."""
    args = build_parser().parse_args(argv)
    try:
        controller = load_record(args.record)
    except RecordError as error:
        raise UsageError(str(error)) from None
    seat = default_seat(controller) if args.seat is None else args.seat
    try:
        hands = chosen_hands(controller, args.hand)
        interactive = sys.stderr is not None and sys.stderr.isatty() and not args.json
        review = review_hands(
            controller,
            seat,
            hands,
            args.samples,
            args.seed,
            args.think_ms,
            _progress if interactive else None,
        )
    except ReviewError as error:
        raise UsageError(str(error)) from None
    if args.json:
        return json.dumps(review.to_dict()) + "\n"
    return review_text(review, controller, seat, args.samples, args.seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mdhearts review`` with these arguments and return the exit status; never raises."""
    return guarded(PROG, lambda: _run_and_write(list(sys.argv[1:] if argv is None else argv)))


def _run_and_write(args: list[str]) -> int:
    """Run the review and write its output; a reader that went away (``| head``) is no error."""
    output = run(args)
    try:
        write(sys.stdout, output)
        sys.stdout.flush()
    except (OSError, ValueError):
        silence_stdout()
    return EXIT_OK
