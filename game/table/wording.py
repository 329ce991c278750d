"""How the table words its seats: their compass names, and a seat as the subject of a sentence
("You take", "West (hard) takes")."""

from __future__ import annotations

from core.cards import HEARTS, card_label, suit_of

#: Each seat's compass name, by seat number: the person sits South.
SEAT_NAMES = ("South", "West", "North", "East")
#: The verbs whose plain form is not the third-person form less its ``s``.
_PLAIN_FORMS = {"has": "have", "is": "are", "does": "do", "goes": "go"}


def with_verb(name: str, verb: str) -> str:
    """Return ``name`` then ``verb`` agreeing with it; ``verb`` is given as for a third person.

    The person's default name, "You", takes the plain form: ``with_verb("You", "takes")`` is
    "You take", ``with_verb("West (hard)", "takes")`` is "West (hard) takes".
    """
    if name.casefold() != "you":
        return f"{name} {verb}"
    if verb in _PLAIN_FORMS:
        plain = _PLAIN_FORMS[verb]
    elif verb.endswith(("sses", "shes", "ches", "xes")):
        plain = verb[:-2]
    else:
        plain = verb.removesuffix("s")
    return f"{name} {plain}"


def breaking_hearts(card: int) -> str:
    """Return what the table says when ``card`` breaks hearts: "Hearts are broken", or "The Q♠
    breaks hearts" when a card other than a heart (the Q♠, by the rule that it does) broke them."""
    if suit_of(card) == HEARTS:
        return "Hearts are broken"
    return f"The {card_label(card)} breaks hearts"


def plate_points(taken: int, total: int) -> str:
    """Return a name plate's numbers with what they are: the points taken this hand, if any,
    then the match total before it ("+3 · 12 pts", "1 pt"), with true minus signs.

    >>> plate_points(3, 12), plate_points(0, 1), plate_points(-10, -1)
    ('+3 · 12 pts', '1 pt', '−10 · −1 pt')
    """
    unit = "pt" if abs(total) == 1 else "pts"
    points = f"{'−' if total < 0 else ''}{abs(total)} {unit}"
    if not taken:
        return points
    return f"{'+' if taken > 0 else '−'}{abs(taken)} · {points}"
