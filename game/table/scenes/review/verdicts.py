"""What the review page says: its steps, and the words and colours judging a decision."""

from __future__ import annotations

from dataclasses import dataclass

from ai.review import DecisionReview, Review
from core.cards import card_label
from game.table import theme

#: The colour of each class of decision.
GRADE_COLOURS = {"fine": theme.GOOD, "inaccuracy": theme.ACCENT, "mistake": theme.DANGER}
#: How each class is named on the page.
GRADE_WORDS = {"fine": "Fine", "inaccuracy": "Inaccuracy", "mistake": "Mistake"}


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


def verdict(decision: DecisionReview) -> str:
    """Return the sentence judging one decision, e.g. ``A♦ was better by 1.18 points``."""
    chosen, best = cards_text(decision.chosen), cards_text(decision.best)
    if decision.forced:
        return f"{chosen} was your only legal card"
    if decision.best == decision.chosen or decision.loss == 0:
        return f"{chosen} was the best choice found"
    if decision.kind == "pass":
        best = f"Passing {best}"
    if decision.grade == "fine":
        return f"{best} was a little better, by {points(decision.loss)}: within the search's noise"
    return f"{best} was better by {points(decision.loss)}"


def total_line(review: Review) -> str:
    """Return the last step's sentence: the points lost and the count of flagged decisions."""
    grades = [decision.grade for decision in review.decisions]
    mistakes, slips = grades.count("mistake"), grades.count("inaccuracy")
    counts = (
        f"{mistakes} mistake{'s' if mistakes != 1 else ''}, "
        f"{slips} inaccurac{'ies' if slips != 1 else 'y'}"
    )
    return f"Points lost to decisions: {review.total_loss:.2f} ({counts})"
