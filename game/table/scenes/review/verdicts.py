"""What the review page says: its steps, and the words and colours judging a decision.

The words follow ``mdhearts review`` (``docs/cli.md``): a loss comes with its margin
(``± 0.69``), a loss of an inaccuracy's size within its margin is "too close to call", a listed
decision says why it cost more (``ai.explain``), and the total is the sum of the listed losses
and the small slips grouped (``ai.review.Review.summary``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.review import DecisionReview, Review
from core.cards import card_label
from game.table import theme
from game.tools.review import total_line as review_total_line
from game.tools.review import why_line

#: The colour of each class of decision.
GRADE_COLOURS = {"fine": theme.GOOD, "inaccuracy": theme.ACCENT, "mistake": theme.DANGER}
#: How each class is named on the page.
GRADE_WORDS = {"fine": "Fine", "inaccuracy": "Inaccuracy", "mistake": "Mistake"}
#: The heading and colour of a loss too close to call.
TOO_CLOSE = "Too close to call"
TOO_CLOSE_COLOUR = theme.TEXT


@dataclass(frozen=True)
class Step:
    """One step of the page: ``pass``, ``trick`` (with its number) or ``total``."""

    kind: str
    trick: int = 0

    @property
    def short(self) -> str:
        """Return the step's name on its button in the strip."""
        return {"pass": "Pass", "total": "Total"}.get(self.kind, str(self.trick))


def points(value: float) -> str:
    """Return a number of points as the page writes it: ``1.18 points``, ``1 point``."""
    return "1 point" if value == 1 else f"{value:.2f} points"


def cards_text(cards: tuple[int, ...]) -> str:
    """Return cards written with their suit symbols, separated by spaces."""
    return " ".join(card_label(card) for card in cards)


def heading(decision: DecisionReview) -> str:
    """Return the word that judges a decision: Forced, Too close to call, or its class."""
    if decision.forced:
        return "Forced"
    return TOO_CLOSE if decision.too_close else GRADE_WORDS[decision.grade]


def colour_of(decision: DecisionReview) -> tuple[int, int, int]:
    """Return the colour of a decision's heading."""
    if decision.forced:
        return theme.TEXT_DIM
    return TOO_CLOSE_COLOUR if decision.too_close else GRADE_COLOURS[decision.grade]


def _margin(decision: DecisionReview) -> str:
    return "" if decision.margin is None else f" (± {decision.margin:.2f})"


def verdict(decision: DecisionReview) -> str:
    """Return the sentence judging one decision, e.g. ``A♦ was better by 1.18 points
    (± 0.40)``."""
    chosen, best = cards_text(decision.chosen), cards_text(decision.best)
    if decision.forced:
        return f"{chosen} was your only legal card"
    if decision.best == decision.chosen:
        if decision.close:
            others = " or ".join(cards_text(cards) for cards in decision.close)
            return f"{chosen} was the best choice found ({others}: too close to call)"
        return f"{chosen} was the best choice found"
    if decision.loss == 0:
        return f"{chosen} was as good as {best}"
    if decision.kind == "pass":
        best = f"Passing {best}"
    by = f"{points(decision.loss)}{_margin(decision)}"
    if decision.too_close:
        return f"{best} was better by {by}, within the search's noise"
    if decision.grade == "fine":
        return f"{best} was a little better, by {points(decision.loss)}: a small slip"
    return f"{best} was better by {by}"


def where(decision: DecisionReview) -> str:
    """Return where a decision was made: ``Pass`` or ``Trick 7``."""
    return "Pass" if decision.kind == "pass" else f"Trick {decision.trick}"


def summary_entry(decision: DecisionReview) -> str:
    """Return a listed decision as the total step lists it."""
    did = "passed" if decision.kind == "pass" else "played"
    text = verdict(decision)
    if decision.kind == "pass":
        text = text.replace("Passing", "passing", 1)
    doing = f"you {did} {cards_text(decision.chosen)}"
    return f"{where(decision)}: {heading(decision).lower()}, {doing}; {text}"


def slips_line(review: Review) -> str | None:
    """Return the small slips grouped (``12 small slips: 0.51``), or None without any."""
    summary = review.summary()
    if not summary.slips:
        return None
    many = "small slip" if summary.slips == 1 else "small slips"
    return f"{summary.slips} {many}: {summary.slips_loss:.2f}"


def total_line(review: Review) -> str:
    """Return the last step's sentence, as ``mdhearts review`` ends: the points lost and the
    parts that add up to them (the mistakes, the inaccuracies, the losses too close to call
    and the small slips)."""
    return review_total_line(review)


def why(decision: DecisionReview) -> str | None:
    """Return why a listed decision cost more (``Why: …``), as ``mdhearts review`` says it,
    or None."""
    return why_line(decision)
