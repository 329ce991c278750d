"""The reviews of the match in progress, kept beside its saved game so they reopen at once.

The file is versioned JSON: the match it belongs to (a fingerprint of its seed and first deal)
and every review, each decision in full (cards in their text form). Reading never raises for
what the file holds: a file that is not a JSON object is set aside with a message; a file of
a newer version is copied beside it first (``load_json_file``); a file of another match, or a
review that does not fit the match (a hand not finished, a bad card), is left out quietly: the
coach computes it again.
"""

from __future__ import annotations

import hashlib
import math
import os
from typing import Any

from ai.explain import TEMPLATES, Explanation
from ai.outcomes import PARTS, Outcome
from ai.review import DecisionReview, Review
from ai.search import TALLY_SIZE
from core.cards import card_text, mask_texts, parse_card
from core.controller import Controller
from core.errors import HeartsError
from game.table.match.port import ReviewKey
from game.table.store.json_store import json_text, load_json_file

REVIEWS_FORMAT = "mdhearts-reviews"
REVIEWS_VERSION = 1
#: Largest reviews file read (a long match's reviews take well under this).
MAX_REVIEWS_BYTES = 4 << 20
#: What happens instead when the file cannot be used.
RECOMPUTED = "the reviews are computed again"


class ReviewFileError(ValueError):
    """A review in the file does not fit the match or is malformed."""


def match_fingerprint(controller: Controller) -> str:
    """Return a short fingerprint of the match: its seed, its first deal, its seats."""
    match = controller.match
    if match is None:
        return ""
    first = match.hands[0].deal if match.hands else (0, 0, 0, 0)
    text = f"{match.seed}|{match.earlier.count}|{[mask_texts(m) for m in first]}|{match.seats}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _decision_dict(decision: DecisionReview) -> dict[str, Any]:
    return {
        "kind": decision.kind,
        "trick": decision.trick,
        "chosen": [card_text(card) for card in decision.chosen],
        "best": [card_text(card) for card in decision.best],
        "loss": decision.loss,
        "chosen_cost": decision.chosen_cost,
        "best_cost": decision.best_cost,
        "samples": decision.samples,
        "margin": decision.margin,
        "close": [[card_text(card) for card in cards] for cards in decision.close],
        "chosen_outcome": _outcome_dict(decision.chosen_outcome),
        "best_outcome": _outcome_dict(decision.best_outcome),
        "why": None
        if decision.explanation is None
        else {
            "template": decision.explanation.template,
            "part": decision.explanation.part,
            "difference": decision.explanation.difference,
            "text": decision.explanation.text,
        },
    }


def _outcome_dict(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "runs": outcome.runs,
        "tallies": list(outcome.tallies),
        "flags": outcome.flags,
        "match_weight": outcome.match_weight,
    }


def reviews_text(controller: Controller, reviews: dict[ReviewKey, Review]) -> str:
    """Return the reviews of the controller's match as the file's text."""
    entries = [
        {
            "hand": hand,
            "seat": seat,
            "samples": samples,
            "seed": seed,
            "decisions": [_decision_dict(decision) for decision in review.decisions],
        }
        for (hand, seat, samples, seed), review in sorted(reviews.items())
    ]
    return json_text(
        {
            "format": REVIEWS_FORMAT,
            "version": REVIEWS_VERSION,
            "match": match_fingerprint(controller),
            "reviews": entries,
        }
    )


def _whole(value: object, least: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise ReviewFileError(f"expected a whole number from {least} to {most}")
    return value


def _cost(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ReviewFileError("a cost must be a finite number")
    return float(value)


def _cards(value: object, count: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != count:
        raise ReviewFileError(f"expected {count} card(s)")
    return tuple(parse_card(text) for text in value)


def _decision(data: object, hand: int, seat: int) -> DecisionReview:
    if not isinstance(data, dict):
        raise ReviewFileError("a decision must be an object")
    kind = data.get("kind")
    if kind not in ("pass", "play"):
        raise ReviewFileError("a decision is a pass or a play")
    count = 3 if kind == "pass" else 1
    trick = None if kind == "pass" else _whole(data.get("trick"), 1, 13)
    if kind == "pass" and data.get("trick") is not None:
        raise ReviewFileError("a pass has no trick")
    loss = _cost(data.get("loss"))
    if loss is None or loss < 0:
        raise ReviewFileError("a loss must be a number of at least 0")
    margin = _cost(data.get("margin"))
    if margin is not None and margin < 0:
        raise ReviewFileError("a margin must be a number of at least 0")
    close = data.get("close", [])
    if not isinstance(close, list) or len(close) > 60:
        raise ReviewFileError("the choices within the noise must be a list")
    return DecisionReview(
        hand,
        seat,
        kind,
        trick,
        _cards(data.get("chosen"), count),
        _cards(data.get("best"), count),
        loss,
        _cost(data.get("chosen_cost")),
        _cost(data.get("best_cost")),
        _whole(data.get("samples"), 0, 10**9),
        margin,
        tuple(_cards(cards, count) for cards in close),
        _outcome(data.get("chosen_outcome")),
        _outcome(data.get("best_outcome")),
        _explanation(data.get("why")),
    )


def _outcome(data: object) -> Outcome | None:
    """Return an outcome kept in the file (None for none; reviews from before they were kept
    have none)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ReviewFileError("an outcome must be an object")
    tallies = data.get("tallies")
    if not isinstance(tallies, list) or len(tallies) != TALLY_SIZE:
        raise ReviewFileError(f"an outcome has {TALLY_SIZE} tallies")
    return Outcome(
        _whole(data.get("runs"), 0, 10**9),
        tuple(_whole(number, 0, 13 * 10**9) for number in tallies),
        _whole(data.get("flags"), 0, 2**31),
        _whole(data.get("match_weight"), 0, 10**6),
    )


def _explanation(data: object) -> Explanation | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ReviewFileError("an explanation must be an object")
    template, part, text = data.get("template"), data.get("part"), data.get("text")
    difference = _cost(data.get("difference"))
    if template not in TEMPLATES or part not in PARTS or difference is None:
        raise ReviewFileError("an explanation names a template and a part")
    if not isinstance(text, str) or len(text) > 500:
        raise ReviewFileError("an explanation's text must be a short string")
    return Explanation(str(template), str(part), difference, text)


def _entry(data: object, finished: set[int]) -> tuple[ReviewKey, Review]:
    if not isinstance(data, dict):
        raise ReviewFileError("a review must be an object")
    hand = _whole(data.get("hand"), 1, 10**9)
    if hand not in finished:
        raise ReviewFileError(f"hand {hand} is not a finished hand of the match")
    seat = _whole(data.get("seat"), 0, 3)
    key = (hand, seat, _whole(data.get("samples"), 1, 10**9), _whole(data.get("seed"), 0, 2**63))
    decisions = data.get("decisions")
    if not isinstance(decisions, list) or not 1 <= len(decisions) <= 14:
        raise ReviewFileError("a review holds 1 to 14 decisions")
    return key, Review(tuple(_decision(item, hand, seat) for item in decisions))


def load_reviews(
    path: str | os.PathLike[str], controller: Controller, finished: list[int]
) -> tuple[dict[ReviewKey, Review], str | None]:
    """Return the reviews kept for the controller's match (of its ``finished`` hands) and a
    message when the file was set aside, or copied beside it because it is of a newer version.
    Never raises for what the file holds."""

    def build(data: dict[str, Any]) -> tuple[dict[ReviewKey, Review], list[str]]:
        return _matching_reviews(data, controller, finished), []

    none: dict[ReviewKey, Review] = {}
    reviews, messages = load_json_file(
        path,
        build,
        none,
        max_bytes=MAX_REVIEWS_BYTES,
        fallback=RECOMPUTED,
        version=REVIEWS_VERSION,
    )
    return reviews, "; ".join(messages) or None


def _matching_reviews(
    data: dict[str, Any], controller: Controller, finished: list[int]
) -> dict[ReviewKey, Review]:
    """Return the reviews in the file's ``data`` that fit the controller's match."""
    if (
        data.get("format") != REVIEWS_FORMAT
        or data.get("version") != REVIEWS_VERSION
        or data.get("match") != match_fingerprint(controller)
        or not isinstance(data.get("reviews"), list)
    ):
        return {}
    reviews: dict[ReviewKey, Review] = {}
    hands = set(finished)
    for item in data["reviews"]:
        try:
            key, review = _entry(item, hands)
        except (ReviewFileError, HeartsError, ValueError, TypeError):
            continue
        reviews[key] = review
    return reviews
