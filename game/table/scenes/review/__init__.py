"""The review of one hand: the person's decisions judged by the hard bot's search, step by step.

The review is computed by ``app.reviews`` (a worker process at the table) while a progress bar
shows how far it is; Esc cancels it. Then the page steps through the hand: the pass, each
trick with its four cards as they were played and the person's hand before their card, each
decision marked fine, inaccuracy or mistake with the better choice and what it was worth, and
last the points lost to decisions. A finished review is kept with the match (and beside its
saved file, by the app), so reopening it is instant.

The package keeps apart what the page says (``verdicts``: the steps, the words judging a
decision), the page itself (``page``: the steps' strip, the keys, the progress while the
review computes), the end of a hand tried again from it (``practice_over``: the coach's
comparison) and what each step shows (``rows``: the pass, a trick, hindsight, the total).
"""

from game.table.scenes.review.page import HandSource, ReviewPage
from game.table.scenes.review.practice_over import PracticeOver
from game.table.scenes.review.verdicts import Step, cards_text, points, total_line, verdict

__all__ = [
    "HandSource",
    "PracticeOver",
    "ReviewPage",
    "Step",
    "cards_text",
    "points",
    "total_line",
    "verdict",
]
