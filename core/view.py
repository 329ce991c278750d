"""One seat's view of a hand as JSON data, checked against the rules, and back again.

A *view* is how the engine protocol describes a position (docs/protocol.md): ``seat``, ``hand``,
``direction``, ``passed``/``received``, ``tricks`` (the completed ones, then the current one),
``scores`` and ``rules``. ``observation_from_view`` parses a view and replays its history, so a
position that cannot happen is refused with the reason; ``view_from_observation`` is its
inverse. ``score_finished_hand`` scores the thirteen tricks of a hand that is over.

What the observer cannot see is checked as far as it can be known: another seat's card must not
be held, passed elsewhere or already played, and a seat that showed a void (or showed that it
held only hearts, or only point cards) cannot later play a card it was shown not to hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from core.cards import (
    CLUBS,
    FULL_DECK,
    TWO_OF_CLUBS,
    card_text,
    cards_of,
    count,
    has_card,
    mask_of,
    mask_texts,
    parse_card,
    suit_of,
)
from core.deductions import Exclusion, revealed_by_play
from core.errors import CardError, HeartsError, RulesOptionError
from core.hand import illegal_play
from core.kernel import legal_mask
from core.observation import Observation, TrickView
from core.rules import PASS_OFFSETS, RuleSet, pass_receiver
from core.scoring import HandScore, score_hand
from core.text import describe_value as describe_value  # ai.external finds it here

#: The fields of a view; ``seat``, ``hand`` and ``direction`` are required.
VIEW_FIELDS = ("seat", "hand", "direction", "passed", "received", "tricks", "scores", "rules")
#: The fields of a finished hand to score; ``tricks`` is required.
SCORE_FIELDS = ("tricks", "scores", "rules")
MAX_TOTAL = 1_000_000_000
HAND_SIZE = 13
PASS_SIZE = 3


class ViewError(HeartsError):
    """A view is malformed or describes a position that cannot happen; the message says why."""


# -- parsing ----------------------------------------------------------------------------------


def _fields(data: object, allowed: Sequence[str], required: Sequence[str]) -> dict[str, Any]:
    """Return the fields of a JSON object; null counts as absent."""
    if not isinstance(data, dict):
        raise ViewError(f"expected a JSON object, got {describe_value(data)}")
    for key in data:
        if key not in allowed:
            raise ViewError(f"unknown field {describe_value(key)} (known: {', '.join(allowed)})")
    present = {key: value for key, value in data.items() if value is not None}
    for key in required:
        if key not in present:
            raise ViewError(f"missing field {key!r}")
    return present


def _whole(value: object, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ViewError(
            f"{name} must be a whole number from {low} to {high}, got {describe_value(value)}"
        )
    return value


def _card(value: object, where: str) -> int:
    if not isinstance(value, str) or len(value) > 4:
        raise ViewError(f"{where}: a card is a string like 'QS', got {describe_value(value)}")
    try:
        return parse_card(value)
    except CardError as error:
        raise ViewError(f"{where}: {error}") from None


def _cards(value: object, where: str) -> list[int]:
    if not isinstance(value, list):
        raise ViewError(
            f"{where} must be a list of cards like ['QS', 'TH'], got {describe_value(value)}"
        )
    if len(value) > HAND_SIZE:
        raise ViewError(f"{where} lists {len(value)} cards; at most {HAND_SIZE} are possible")
    cards = [_card(item, where) for item in value]
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise ViewError(f"{where}: {card_text(card)} is listed twice")
        seen.add(card)
    return cards


def pass_cards(value: object, name: str) -> tuple[int, ...] | None:
    """Parse the field ``name`` as three different cards, sorted (None stays None)."""
    if value is None:
        return None
    cards = _cards(value, name)
    if len(cards) != PASS_SIZE:
        raise ViewError(f"{name} must list exactly {PASS_SIZE} cards, got {len(cards)}")
    return tuple(sorted(cards))


def _rules(value: object) -> RuleSet:
    try:
        return RuleSet.from_dict(value)
    except RulesOptionError as error:
        raise ViewError(f"rules: {error}") from None
    except TypeError:
        raise ViewError("rules: an option has a value of the wrong type") from None


def _direction(value: object, rules: RuleSet) -> str:
    if not isinstance(value, str) or value not in PASS_OFFSETS:
        raise ViewError(
            f"direction must be left, right, across or hold, got {describe_value(value)}"
        )
    if value not in rules.pass_cycle:
        raise ViewError(
            f"direction {value!r} is not in the rules' pass_cycle ({', '.join(rules.pass_cycle)})"
        )
    return value


def _scores(value: object) -> tuple[int, int, int, int]:
    if value is None:
        return 0, 0, 0, 0
    if not isinstance(value, list) or len(value) != 4:
        raise ViewError(f"scores must list the four match totals, got {describe_value(value)}")
    totals = [_whole(total, "a score", -MAX_TOTAL, MAX_TOTAL) for total in value]
    return totals[0], totals[1], totals[2], totals[3]


def _tricks(value: object) -> tuple[TrickView, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ViewError(
            f"tricks must be a list of {{leader, cards}} objects, got {describe_value(value)}"
        )
    if len(value) > HAND_SIZE:
        raise ViewError(f"a hand has at most {HAND_SIZE} tricks, got {len(value)}")
    tricks = []
    for number, item in enumerate(value, start=1):
        where = f"trick {number}"
        if not isinstance(item, dict):
            raise ViewError(
                f"{where} must be an object with leader and cards, got {describe_value(item)}"
            )
        for key in item:
            if key not in ("leader", "cards"):
                raise ViewError(
                    f"{where}: unknown field {describe_value(key)} (known: leader, cards)"
                )
        for key in ("leader", "cards"):
            if item.get(key) is None:
                raise ViewError(f"{where}: missing field {key!r}")
        leader = _whole(item["leader"], f"{where} leader", 0, 3)
        cards = _cards(item["cards"], f"{where} cards")
        if len(cards) > 4:
            raise ViewError(f"{where} lists {len(cards)} cards; a trick has at most 4")
        tricks.append(TrickView(leader, tuple(cards)))
    return tuple(tricks)


# -- consistency ------------------------------------------------------------------------------


def _check_trick_sequence(tricks: Sequence[TrickView]) -> None:
    """Raise unless the cards are distinct, only the last trick is open and leaders chain."""
    played_in: dict[int, int] = {}
    for index, trick in enumerate(tricks):
        number = index + 1
        for card in trick.cards:
            if card in played_in:
                raise ViewError(
                    f"{card_text(card)} is played twice (tricks {played_in[card]} and {number})"
                )
            played_in[card] = number
        if index + 1 == len(tricks):
            break
        if len(trick.cards) < 4:
            raise ViewError(
                f"trick {number} has {len(trick.cards)} cards but is not the last; "
                "only the current trick may be incomplete"
            )
        winner = trick.winner()
        following = tricks[index + 1]
        if following.leader != winner:
            raise ViewError(
                f"trick {number + 1} is led by seat {following.leader}, but seat "
                f"{winner} won trick {number}"
            )


def _replay(
    tricks: Sequence[TrickView],
    rules: RuleSet,
    hands: list[int | None],
    exclusions: list[Exclusion],
) -> None:
    """Replay the plays; raise ViewError at the first one that cannot happen.

    ``hands[s]`` is seat s's hand when play began if it is known (it is used up as the replay
    goes), else None; ``exclusions`` grows with what the plays of hidden hands reveal.
    """
    flags = rules.flags
    hearts_broken = False
    for index, trick in enumerate(tricks):
        number = index + 1
        first_trick = index == 0
        led_suit = -1
        for position, card in enumerate(trick.cards):
            seat = (trick.leader + position) % 4
            where = f"trick {number}: seat {seat} cannot play {card_text(card)}"
            hand = hands[seat]
            if hand is not None:
                if not has_card(hand, card):
                    raise ViewError(f"{where}: it does not hold it")
                if not has_card(
                    legal_mask(hand, led_suit, first_trick, hearts_broken, flags), card
                ):
                    raise ViewError(f"{where}: {illegal_play(hand, led_suit, first_trick, rules)}")
                hands[seat] = hand & ~(1 << card)
            else:
                for exclusion in exclusions:
                    if exclusion.seat == seat and has_card(exclusion.mask, card):
                        raise ViewError(f"{where}: {exclusion.reason}")
                if first_trick and position == 0:
                    if rules.first_lead == "any_club" and suit_of(card) != CLUBS:
                        raise ViewError(f"{where}: the first trick must be led with a club")
                    if rules.first_lead == "two_of_clubs" and card != TWO_OF_CLUBS:
                        raise ViewError(f"{where}: the first trick must be led with the 2C")
                exclusions.extend(
                    revealed_by_play(seat, card, led_suit, number, hearts_broken, rules)
                )
            if position == 0:
                led_suit = suit_of(card)
            hearts_broken = hearts_broken or rules.breaks_hearts(card)


def _check_unseen(
    seat: int, hand: int, tricks: Sequence[TrickView], exclusions: Sequence[Exclusion]
) -> None:
    """Raise unless the unseen cards can be shared among the other seats as the plays allow."""
    played = 0
    remaining = [HAND_SIZE] * 4
    for trick in tricks:
        for position, card in enumerate(trick.cards):
            played |= 1 << card
            remaining[(trick.leader + position) % 4] -= 1
    unseen = FULL_DECK & ~hand & ~played
    others = [other for other in range(4) if other != seat]
    room = {other: unseen for other in others}
    for exclusion in exclusions:
        room[exclusion.seat] &= ~exclusion.mask
    for card in cards_of(unseen):
        if not any(has_card(room[other], card) for other in others):
            reasons = []
            for other in others:
                reason = next(
                    e.reason for e in exclusions if e.seat == other and has_card(e.mask, card)
                )
                reasons.append(reason)
            raise ViewError(f"no seat can hold the unseen {card_text(card)}: {'; '.join(reasons)}")
    for size in (1, 2):
        for group in combinations(others, size):
            needed = sum(remaining[other] for other in group)
            space = 0
            for other in group:
                space |= room[other]
            if count(space) < needed:
                if size == 1:
                    raise ViewError(
                        f"seat {group[0]} must still hold {needed} cards, but only "
                        f"{count(space)} unseen cards can be in its hand"
                    )
                raise ViewError(
                    f"seats {group[0]} and {group[1]} must still hold {needed} cards "
                    f"between them, but only {count(space)} unseen cards can be in "
                    "their hands"
                )


def _check_before_exchange(hand: int, passed: tuple[int, ...] | None) -> None:
    if count(hand) != HAND_SIZE:
        raise ViewError(f"before the exchange the hand holds {HAND_SIZE} cards, got {count(hand)}")
    for card in passed or ():
        if not has_card(hand, card):
            raise ViewError(
                f"passed card {card_text(card)} is not in the hand; until the "
                "exchange the hand still holds the cards it passes"
            )


def _check_play(
    seat: int,
    rules: RuleSet,
    direction: str,
    hand: int,
    passed: tuple[int, ...] | None,
    received: tuple[int, ...] | None,
    tricks: Sequence[TrickView],
) -> None:
    """Raise unless a view of a hand in play (or over) can happen."""
    played_by = [0, 0, 0, 0]
    for trick in tricks:
        for position, card in enumerate(trick.cards):
            played_by[(trick.leader + position) % 4] |= 1 << card
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    if hand & played:
        raise ViewError(f"{card_text(cards_of(hand & played)[0])} is both held and played")
    own = hand | played_by[seat]
    if count(own) != HAND_SIZE:
        done = count(played_by[seat])
        raise ViewError(
            f"seat {seat} has played {done} cards, so it must hold "
            f"{HAND_SIZE - done}, got {count(hand)}"
        )
    exclusions: list[Exclusion] = []
    leader = tricks[0].leader
    if passed is not None and received is not None:
        receiver = pass_receiver(seat, direction)
        both = mask_of(passed) & mask_of(received)
        if both:
            raise ViewError(f"{card_text(cards_of(both)[0])} is both passed and received")
        for card in received:
            if not has_card(own, card):
                raise ViewError(
                    f"received card {card_text(card)} is neither held nor played by seat {seat}"
                )
        for card in passed:
            if has_card(hand, card):
                raise ViewError(
                    f"passed card {card_text(card)} went to seat {receiver}, but it "
                    "is still in the hand"
                )
            if has_card(played_by[seat], card):
                raise ViewError(
                    f"passed card {card_text(card)} went to seat {receiver}, but "
                    f"seat {seat} played it"
                )
        if TWO_OF_CLUBS in passed and leader != receiver:
            raise ViewError(
                f"seat {seat} passed the 2C to seat {receiver}, so seat {receiver} "
                f"leads the first trick, not seat {leader}"
            )
        exclusions.extend(
            Exclusion(other, mask_of(passed), f"seat {seat} passed it to seat {receiver}")
            for other in range(4)
            if other not in (seat, receiver)
        )
    if has_card(own, TWO_OF_CLUBS) and leader != seat:
        raise ViewError(
            f"seat {seat} held the 2C when play began, so it leads the first trick, "
            f"not seat {leader}"
        )
    if leader == seat and not has_card(own, TWO_OF_CLUBS):
        raise ViewError(f"seat {seat} leads the first trick, so it must have held the 2C")
    exclusions.extend(
        Exclusion(
            other, 1 << TWO_OF_CLUBS, f"seat {leader} leads the first trick, so it holds the 2C"
        )
        for other in range(4)
        if other not in (seat, leader)
    )
    hands: list[int | None] = [None, None, None, None]
    hands[seat] = own
    _replay(tricks, rules, hands, exclusions)
    _check_unseen(seat, hand, tricks, exclusions)


# -- public -----------------------------------------------------------------------------------


def observation_from_view(view: object) -> Observation:
    """Parse one seat's view (JSON data) and check that it can happen; raise ViewError if not.

    ``passed`` and ``received`` come back sorted, as the controller keeps them.
    """
    data = _fields(view, VIEW_FIELDS, ("seat", "hand", "direction"))
    rules = _rules(data.get("rules"))
    seat = _whole(data["seat"], "seat", 0, 3)
    direction = _direction(data["direction"], rules)
    hand = mask_of(_cards(data["hand"], "hand"))
    passed = pass_cards(data.get("passed"), "passed")
    received = pass_cards(data.get("received"), "received")
    tricks = _tricks(data.get("tricks"))
    scores = _scores(data.get("scores"))
    if direction == "hold" and (passed is not None or received is not None):
        raise ViewError("no cards are passed on a hold hand: leave out passed and received")
    if received is not None and passed is None:
        raise ViewError("received without passed: a seat receives cards only after it passes")
    _check_trick_sequence(tricks)
    if direction != "hold" and received is None:
        if tricks:
            raise ViewError(
                "no card is played before the passes are exchanged: tricks must be "
                "empty until received is given"
            )
        _check_before_exchange(hand, passed)
    else:
        if not tricks:
            raise ViewError(
                "the hand is in play, so tricks must include the current trick "
                "(its leader and the cards played to it so far)"
            )
        last = tricks[-1]
        if len(last.cards) == 4 and len(tricks) < HAND_SIZE:
            raise ViewError(
                f"trick {len(tricks)} is complete, so tricks must go on with trick "
                f"{len(tricks) + 1}, led by its winner seat {last.winner()}, with "
                "no cards yet"
            )
        _check_play(seat, rules, direction, hand, passed, received, tricks)
    return Observation(
        seat=seat,
        rules=rules,
        direction=direction,
        hand=hand,
        passed=passed,
        received=received,
        tricks=tricks,
        scores=scores,
    )


def view_from_observation(observation: Observation) -> dict[str, Any]:
    """Return the view (JSON data) of an observation; ``observation_from_view`` reverses it."""
    view: dict[str, Any] = {
        "seat": observation.seat,
        "hand": mask_texts(observation.hand),
        "direction": observation.direction,
    }
    if observation.passed is not None:
        view["passed"] = [card_text(card) for card in observation.passed]
    if observation.received is not None:
        view["received"] = [card_text(card) for card in observation.received]
    view["tricks"] = [
        {"leader": trick.leader, "cards": [card_text(card) for card in trick.cards]}
        for trick in observation.tricks
    ]
    view["scores"] = list(observation.scores)
    view["rules"] = observation.rules.to_dict()
    return view


def score_finished_hand(data: object) -> HandScore:
    """Score a finished hand given as ``{"tricks": [13 tricks], "scores"?, "rules"?}``.

    Every play is replayed through the rules (all four hands are known once every card is
    played); ``scores``, the totals before the hand, matter only for moon mode ``auto``.
    """
    fields = _fields(data, SCORE_FIELDS, ("tricks",))
    rules = _rules(fields.get("rules"))
    tricks = _tricks(fields["tricks"])
    scores = _scores(fields.get("scores"))
    if len(tricks) != HAND_SIZE:
        raise ViewError(f"a finished hand has {HAND_SIZE} tricks, got {len(tricks)}")
    for number, trick in enumerate(tricks, start=1):
        if len(trick.cards) != 4:
            raise ViewError(
                f"trick {number} has {len(trick.cards)} cards; a finished hand's tricks have 4 each"
            )
    _check_trick_sequence(tricks)
    hands = [0, 0, 0, 0]
    for trick in tricks:
        for position, card in enumerate(trick.cards):
            hands[(trick.leader + position) % 4] |= 1 << card
    holder = next(seat for seat in range(4) if has_card(hands[seat], TWO_OF_CLUBS))
    if tricks[0].leader != holder:
        raise ViewError(
            f"seat {holder} held the 2C, so it leads the first trick, not seat {tricks[0].leader}"
        )
    known: list[int | None] = list(hands)
    _replay(tricks, rules, known, [])
    taken = [0, 0, 0, 0]
    won = [0, 0, 0, 0]
    for trick in tricks:
        winner = trick.winner()
        assert winner is not None
        taken[winner] |= mask_of(trick.cards)
        won[winner] += 1
    return score_hand(rules, taken, won, scores)
