"""Why one choice costs more than another, in a plain sentence, from the search's tallies.

``explain`` compares what the chosen action and the better one led to over the same deals
(``ai.outcomes.Outcome``): it names the part of the cost whose difference is largest in the
direction of the loss (``largest_part``) and says it with both numbers, after what the chosen
action does at once (wins the trick or lets it go, empties a suit or keeps it, keeps or passes
the Q♠, gives up a heart stopper). For example: "A♥ wins this trick and keeps your clubs: you
end up taking the Q♠ in 31% of deals (with 8♣: 9%)."

The templates, one per part (``TEMPLATES``): ``queen``, ``hearts``, ``jack``, ``moon_conceded``,
``moon_shot``, ``bonus``, ``match_lost``, ``match_won``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ai.hard import STOPPER_RANK
from ai.outcomes import Outcome
from core.cards import (
    HEARTS,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    card_label,
    rank_of,
)

#: The sentence of each template, with the chosen and the better action's numbers.
TEMPLATES = {
    "queen": "you end up taking the Q♠ in {chosen} of deals (with {better}: {other})",
    "hearts": "you end up taking {chosen} hearts on average (with {better}: {other})",
    "jack": "you end up with the J♦ in only {chosen} of deals (with {better}: {other})",
    "moon_conceded": "another player shoots the moon in {chosen} of deals (with {better}: {other})",
    "moon_shot": "you shoot the moon in only {chosen} of deals (with {better}: {other})",
    "bonus": "you take no trick, for the bonus, in only {chosen} of deals (with {better}: {other})",
    "match_lost": "the hand ends the match with you losing it in {chosen} of deals (with "
    "{better}: {other})",
    "match_won": "the hand ends the match with you winning it in only {chosen} of deals (with "
    "{better}: {other})",
}


@dataclass(frozen=True)
class Explanation:
    """Why the chosen action cost more: the template used, the part of the cost it names,
    that part's difference in points of Diff, and the sentence."""

    template: str
    part: str
    difference: float
    text: str


def largest_part(chosen: Outcome, better: Outcome) -> tuple[str, float]:
    """Return the part of the cost (``ai.outcomes.PARTS``) that the chosen action pays most
    more of than the better one, and by how much in points of Diff (ties: the earlier part)."""
    mine, theirs = chosen.parts(), better.parts()
    differences = {name: mine[name] - theirs[name] for name in mine}
    name = max(differences, key=lambda part: differences[part])
    return name, differences[name]


def template_of(part: str, chosen: Outcome, better: Outcome) -> str:
    """Return the template that says ``part``: the moon and the match split in two, by which
    side of them differs more."""
    if part == "moon":
        conceded = 26 * (chosen.conceded - better.conceded)
        shot = 78 * (better.shot - chosen.shot)
        return "moon_conceded" if conceded >= shot else "moon_shot"
    if part == "match":
        lost = chosen.match_lost - better.match_lost
        return "match_lost" if lost >= better.match_won - chosen.match_won else "match_won"
    return part


def _numbers(template: str, outcome: Outcome) -> str:
    if template == "hearts":
        return f"{outcome.hearts:.1f}"
    rate = {
        "queen": outcome.queen,
        "jack": outcome.jack,
        "moon_conceded": outcome.conceded,
        "moon_shot": outcome.shot,
        "bonus": outcome.no_trick,
        "match_lost": outcome.match_lost,
        "match_won": outcome.match_won,
    }[template]
    return f"{rate:.0%}"


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_label(card) for card in cards)


def play_effects(hand: int, chosen: int, better: int, wins: float, better_wins: float) -> list[str]:
    """Return what playing ``chosen`` rather than ``better`` from ``hand`` does at once: wins
    the trick or lets it go (by the share of deals where each wins it), empties a suit or
    keeps it."""
    effects = []
    if wins >= 0.5 > better_wins:
        effects.append("wins this trick")
    elif better_wins >= 0.5 > wins:
        effects.append("lets this trick go")
    effects += _suit_effects(hand, (chosen,), (better,))
    return effects


def pass_effects(hand: int, chosen: Sequence[int], better: Sequence[int]) -> list[str]:
    """Return what passing ``chosen`` rather than ``better`` does to ``hand``: keeps or passes
    the Q♠ (and how guarded it stays), empties a suit, gives up a heart stopper, keeps a
    suit."""
    effects = []
    queen = 1 << QUEEN_OF_SPADES
    if hand & queen:
        if QUEEN_OF_SPADES in better and QUEEN_OF_SPADES not in chosen:
            guards = _left(hand, chosen) & SUIT_MASKS[SPADES] & ~queen
            count = guards.bit_count()
            effects.append(
                "keeps the Q♠ unguarded"
                if count == 0
                else f"keeps the Q♠ with {count} other spade" + ("" if count == 1 else "s")
            )
        elif QUEEN_OF_SPADES in chosen and QUEEN_OF_SPADES not in better:
            effects.append("passes the Q♠")
    suits = _suit_effects(hand, chosen, better)
    emptied = [effect for effect in suits if effect.startswith("empties")]
    effects += emptied
    stopper = _stopper(hand)
    if stopper >= 0 and stopper in chosen and stopper not in better:
        effects.append(f"gives up your {card_label(stopper)}, a stopper against the moon")
    return effects + suits[len(emptied) :]


def _left(hand: int, cards: Sequence[int]) -> int:
    for card in cards:
        hand &= ~(1 << card)
    return hand


def _stopper(hand: int) -> int:
    hearts = hand & SUIT_MASKS[HEARTS]
    if hearts and rank_of(hearts.bit_length() - 1) >= STOPPER_RANK:
        return hearts.bit_length() - 1
    return -1


def _suit_effects(hand: int, chosen: Sequence[int], better: Sequence[int]) -> list[str]:
    """Return the suits the chosen action empties and the better one keeps, then the suits it
    keeps and the better one empties."""
    mine, theirs = _left(hand, chosen), _left(hand, better)
    emptied, kept = [], []
    for suit in range(4):
        if not hand & SUIT_MASKS[suit]:
            continue
        if not mine & SUIT_MASKS[suit] and theirs & SUIT_MASKS[suit]:
            emptied.append(f"empties your {SUIT_NAMES[suit]}s")
        elif mine & SUIT_MASKS[suit] and not theirs & SUIT_MASKS[suit]:
            kept.append(f"keeps your {SUIT_NAMES[suit]}s")
    return emptied + kept


def explain(
    kind: str,
    hand: int,
    chosen: Sequence[int],
    better: Sequence[int],
    chosen_outcome: Outcome,
    better_outcome: Outcome,
) -> Explanation:
    """Return why ``chosen`` (one card, or a pass of three) cost more than ``better`` from
    ``hand``, in one sentence (see the module notes)."""
    part, difference = largest_part(chosen_outcome, better_outcome)
    template = template_of(part, chosen_outcome, better_outcome)
    consequence = TEMPLATES[template].format(
        chosen=_numbers(template, chosen_outcome),
        better=_cards(better),
        other=_numbers(template, better_outcome),
    )
    if kind == "pass":
        effects = pass_effects(hand, chosen, better)
    else:
        effects = play_effects(
            hand, chosen[0], better[0], chosen_outcome.trick, better_outcome.trick
        )
    if effects:
        subject = _cards(chosen) if kind == "play" else f"Passing {_cards(chosen)}"
        text = f"{subject} {' and '.join(effects[:2])}: {consequence}."
    elif kind == "play":
        text = f"With {_cards(chosen)}, {consequence}."
    else:
        text = f"After passing {_cards(chosen)}, {consequence}."
    return Explanation(template, part, round(difference, 2), text)
