"""Game records: a versioned JSON form of a whole match, saved atomically, loaded with checks.

A record holds the rules, the seed, the seat kinds and, per hand, the deal, the pass direction,
every action in order and the points scored. Loading checks every field and replays every action
through the rules, so a malformed, tampered or illegal record is refused with a ``RecordError``
that says what is wrong and where — never half-loaded, never with another exception. Loading
only reads: neither the file nor the data passed in is changed. The format is described in
``docs/record-format.md``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core.actions import Action, PassAction, action_from_dict
from core.cards import mask_of, mask_texts, parse_cards
from core.controller import Controller
from core.errors import HeartsError, RecordError
from core.files import (
    MAX_NUMBER_DIGITS,
    FileContentError,
    StrictJsonError,
    decode_utf8,
    parse_strict_json,
    read_regular_file,
    write_atomically,
)
from core.hand import HandState, validate_deal
from core.match import (
    NO_EARLIER_HANDS,
    EarlierHands,
    HandRecord,
    MatchState,
    deal_for,
    validate_seed,
)
from core.rules import RuleSet
from core.scoring import HandScore, match_winner, totals_unreachable
from core.seats import Seat, parse_seats, seat_texts
from core.text import describe_value, os_reason, short_repr

RECORD_FORMAT = "mdhearts-record"
RECORD_VERSION = 3
#: Most hands a record keeps in full; a longer match folds the hands before into ``earlier``.
MAX_HANDS = 500
#: Most bytes one hand takes in a record (its deal, 64 actions and points; about 1.9 KiB).
MAX_HAND_BYTES = 2304
#: Most bytes a record takes besides its hands (rules, seats, totals, redo, earlier).
MAX_HEADER_BYTES = 32 * 1024
#: Largest record file (and record text) that is read; larger ones are refused unread. Sized
#: from the limits above, so the record of any legal match fits.
MAX_RECORD_BYTES = MAX_HANDS * MAX_HAND_BYTES + MAX_HEADER_BYTES
#: Most hands ``earlier`` may sum up (a match of a person's lifetime, many times over).
MAX_EARLIER_HANDS = 10**9
#: Deepest nesting of lists and objects in a record (a well-formed one needs 6).
MAX_NESTING = 10

#: The field that names a record's format, as ``looks_like_record`` finds it.
_FORMAT_FIELD = re.compile(rb'"format"\s*:\s*"' + RECORD_FORMAT.encode() + rb'"')
_REQUIRED_KEYS = ("format", "version", "rules", "seed", "seats", "hands")
_OPTIONAL_KEYS = ("totals", "redo", "earlier")
_HAND_KEYS = ("direction", "deal", "actions")
_OPTIONAL_HAND_KEYS = ("points",)


# -- saving -----------------------------------------------------------------------------------


def record_to_dict(controller: Controller) -> dict[str, Any]:
    """Return the match of ``controller`` as record data (the current version)."""
    match = controller.match
    if match is None:
        raise RecordError("no match in progress to save")
    scores = controller.hand_scores
    folded = max(0, len(match.hands) - MAX_HANDS)
    earlier = _fold(match.earlier, scores[:folded])
    hands = []
    for index, hand in enumerate(match.hands[folded:], start=folded):
        hands.append(
            {
                "direction": hand.direction,
                "deal": [mask_texts(mask) for mask in hand.deal],
                "actions": [action.to_dict() for action in hand.actions],
                "points": list(scores[index].points) if index < len(scores) else None,
            }
        )
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "seats": list(seat_texts(match.seats)),
        "hands": hands,
        "totals": list(controller.totals),
        "redo": [action.to_dict() for action in controller.redo_actions],
        **(
            {"earlier": {"hands": earlier.count, "totals": list(earlier.totals)}}
            if earlier.count
            else {}
        ),
    }


def _fold(earlier: EarlierHands, scores: Sequence[HandScore]) -> EarlierHands:
    """Return ``earlier`` with these finished hands' scores folded in."""
    totals = list(earlier.totals)
    for score in scores:
        for seat in range(4):
            totals[seat] += score.points[seat]
    return EarlierHands(earlier.count + len(scores), (totals[0], totals[1], totals[2], totals[3]))


def dumps_record(controller: Controller) -> str:
    """Return the record of ``controller`` as JSON text: one field per line, one hand per line.

    Raise RecordError if the text would exceed ``MAX_RECORD_BYTES``, since it could not be
    loaded again (the limits make that impossible for a legal match).
    """
    fields = []
    for key, value in record_to_dict(controller).items():
        if key == "hands":
            hands = ",\n  ".join(json.dumps(hand) for hand in value)
            fields.append(f' "hands": [\n  {hands}\n ]')
        else:
            fields.append(f" {json.dumps(key)}: {json.dumps(value)}")
    text = "{\n" + ",\n".join(fields) + "\n}\n"
    # json.dumps escapes every non-ASCII character, so characters and bytes are one to one.
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(
            f"the record would be {len(text) // 1024} KiB, more than the "
            f"{MAX_RECORD_BYTES // 1024} KiB a record may have"
        )
    return text


def save_record(controller: Controller, path: str | os.PathLike[str]) -> None:
    """Save the match of ``controller`` to ``path`` atomically.

    Raise RecordError when there is nothing to save or the record is too large, and OSError
    when the file cannot be written; in both cases an existing file is left unchanged.
    """
    write_atomically(path, dumps_record(controller))


# -- loading ----------------------------------------------------------------------------------


def load_record(path: str | os.PathLike[str]) -> Controller:
    """Load a match from ``path``; raise RecordError with the reason on any problem."""
    target = Path(path)
    try:
        raw = read_regular_file(target, MAX_RECORD_BYTES)
    except FileContentError as error:
        raise RecordError(f"{target} is {error}") from None
    except OSError as error:
        raise RecordError(f"cannot read {target}: {os_reason(error)}") from None
    except ValueError as error:  # e.g. a NUL character in the path
        raise RecordError(f"cannot read {str(target)!r}: {error}") from None
    try:
        return loads_record(raw)
    except RecordError as error:
        raise RecordError(f"{target}: {error}") from None


def looks_like_record(raw: bytes) -> bool:
    """Return whether file bytes claim to be a record, usable or not (damaged, newer).

    A file that does not is someone else's, which no record may silently replace.
    """
    return _FORMAT_FIELD.search(raw) is not None


def loads_record(text: str | bytes) -> Controller:
    """Parse record JSON text (or UTF-8 bytes) into a controller; raise RecordError if wrong."""
    if isinstance(text, str):
        # A character is one to four bytes: count the bytes only when the count could matter.
        size = len(text) if len(text) > MAX_RECORD_BYTES else len(text.encode("utf-8", "replace"))
    else:
        size = len(text)
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES // 1024} KiB")
    try:
        if not isinstance(text, str):
            text = decode_utf8(bytes(text))
        if not text.strip():
            raise RecordError("the record is empty")
        data = parse_strict_json(text, max_depth=MAX_NESTING, max_digits=MAX_NUMBER_DIGITS)
    except StrictJsonError as error:
        hint = " (the text ends too early: was the file cut short?)" if error.cut_short else ""
        raise RecordError(f"the record is not valid JSON: {error}{hint}") from None
    return record_from_dict(data)


def record_from_dict(data: object) -> Controller:
    """Rebuild a controller from record data; raise RecordError on anything wrong.

    The data is only read, never changed; records of older versions are migrated first.
    """
    try:
        return _controller_from(data)
    except RecordError:
        raise
    except HeartsError as error:
        raise RecordError(str(error)) from None


def _controller_from(data: object) -> Controller:
    _check_plain_json(data)
    if not isinstance(data, dict):
        raise RecordError(f"a record must be a JSON object, got {describe_value(data)}")
    if "format" not in data:
        raise RecordError("not an MDHearts record: it has no 'format'")
    if data["format"] != RECORD_FORMAT:
        raise RecordError(
            f"not an MDHearts record: 'format' is {short_repr(data['format'])}, "
            f"expected {RECORD_FORMAT!r}"
        )
    record = _migrate(data)
    _check_keys(record, _REQUIRED_KEYS, _OPTIONAL_KEYS, "the record")
    rules = _parse_rules(record["rules"])
    seed = _parse_seed(record["seed"])
    seats = _parse_seats(record["seats"])
    earlier = _parse_earlier(record.get("earlier"), rules)
    hands = record["hands"]
    if not isinstance(hands, list) or not 1 <= len(hands) <= MAX_HANDS:
        raise RecordError(
            f"'hands' must be a list of 1 to {MAX_HANDS} hands, got {describe_value(hands)}"
        )
    parsed = [
        _parse_hand(earlier.count + index, hand, rules, seed, last=index == len(hands) - 1)
        for index, hand in enumerate(hands)
    ]
    match = MatchState(rules, seed, seats, [hand for hand, _ in parsed], earlier)
    with _context("the play breaks the rules"):
        controller = Controller.from_match(match)
    _check_points(controller, [points for _, points in parsed], record.get("totals"), earlier)
    _restore_redo(controller, record.get("redo", []))
    return controller


# -- versions ---------------------------------------------------------------------------------


def _migrate_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Upgrade a version 1 record, which kept only each hand's actions, to version 2.

    Version 2 writes out what version 1 left to the seed (each hand's deal and pass direction)
    and adds the summaries (points per hand, totals) and the redo list. The summaries are left
    null: they are not part of a version 1 record, so there is nothing to check them against.
    """
    _check_keys(data, ("format", "version", "rules", "seed", "seats", "hands"), (), "the record")
    rules = _parse_rules(data["rules"])
    seed = _parse_seed(data["seed"])
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) > MAX_HANDS:
        raise RecordError(f"'hands' must be a list of at most {MAX_HANDS} hands")
    upgraded = []
    for index, hand in enumerate(hands):
        where = f"hand {index + 1}"
        if not isinstance(hand, dict):
            raise RecordError(f"{where} must be an object, got {describe_value(hand)}")
        _check_keys(hand, ("actions",), (), where)
        upgraded.append(
            {
                "direction": rules.direction_of_hand(index),
                "deal": [mask_texts(mask) for mask in deal_for(seed, index)],
                "actions": hand["actions"],
                "points": None,
            }
        )
    return {**data, "version": 2, "hands": upgraded, "totals": None, "redo": []}


def _migrate_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Upgrade a version 2 record: version 3 only adds the optional ``earlier``."""
    if "earlier" in data:
        raise RecordError("unknown key 'earlier' in a version 2 record")
    return {**data, "version": 3}


#: Migration steps: each takes a record of version N and returns one of version N + 1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _migrate_v1,
    2: _migrate_v2,
}


def _migrate(data: dict[str, Any]) -> dict[str, Any]:
    """Return the record upgraded to the current version; ``data`` itself is never changed."""
    if "version" not in data:
        raise RecordError("the record has no 'version'")
    version = data["version"]
    if not _is_whole(version):
        raise RecordError(f"'version' must be a whole number, got {short_repr(version)}")
    if not 1 <= version <= RECORD_VERSION:
        newer = " (written by a newer MDHearts?)" if version > RECORD_VERSION else ""
        raise RecordError(
            f"record version {version} is not supported{newer}; "
            f"this program reads versions 1 to {RECORD_VERSION}"
        )
    while version < RECORD_VERSION:
        with _context(f"upgrading the record from version {version}"):
            data = MIGRATIONS[version](data)
        version += 1
    return data


# -- fields -----------------------------------------------------------------------------------


def _parse_rules(data: object) -> RuleSet:
    if not isinstance(data, dict):
        raise RecordError(f"'rules' must be an object, got {describe_value(data)}")
    cycle = data.get("pass_cycle")
    if isinstance(cycle, list) and not all(isinstance(direction, str) for direction in cycle):
        raise RecordError("rules: pass_cycle must be a list of direction names")
    with _context("rules"):
        return RuleSet.from_dict(data)


def _parse_seed(data: object) -> int:
    with _context():
        return validate_seed(data)


def _parse_seats(data: object) -> tuple[Seat, Seat, Seat, Seat]:
    if not isinstance(data, list) or len(data) != 4:
        raise RecordError(f"'seats' must be a list of four seats, got {describe_value(data)}")
    with _context():
        return parse_seats(data)


def _parse_earlier(data: object, rules: RuleSet) -> EarlierHands:
    """Check the summary of the hands a long match folded; none when absent.

    The totals must be ones that many hands can give under ``rules``, and ones after which
    the match goes on (hands follow them).
    """
    if data is None:
        return NO_EARLIER_HANDS
    where = "'earlier'"
    if not isinstance(data, dict):
        raise RecordError(f"{where} must be an object, got {describe_value(data)}")
    _check_keys(data, ("hands", "totals"), (), where)
    count = data["hands"]
    if not _is_whole(count) or not 1 <= count <= MAX_EARLIER_HANDS:
        raise RecordError(f"{where}: 'hands' must be a whole number from 1 to {MAX_EARLIER_HANDS}")
    totals = data["totals"]
    _check_four_whole(totals, f"{where}: 'totals'")
    why = totals_unreachable(rules, count, totals)
    if why is not None:
        raise RecordError(f"{where}: {count} hands cannot give the totals {totals}: {why}")
    if match_winner(totals, rules.end_score) is not None:
        raise RecordError(
            f"{where}: the totals {totals} end the match after hand {count}, yet more hands follow"
        )
    return EarlierHands(count, (totals[0], totals[1], totals[2], totals[3]))


def _parse_hand(
    index: int, data: object, rules: RuleSet, seed: int, *, last: bool
) -> tuple[HandRecord, list[int] | None]:
    """Check one hand's fields against the rules and the seed; return it and its points."""
    where = f"hand {index + 1}"
    if not isinstance(data, dict):
        raise RecordError(f"{where} must be an object, got {describe_value(data)}")
    _check_keys(data, _HAND_KEYS, _OPTIONAL_HAND_KEYS, where)
    direction = rules.direction_of_hand(index)
    if data["direction"] != direction:
        raise RecordError(
            f"{where}: the pass direction is {short_repr(data['direction'])}, "
            f"but the rules make it {direction!r}"
        )
    deal = _parse_deal(where, data["deal"])
    if deal != deal_for(seed, index):
        raise RecordError(f"{where}: the deal is not the one the seed gives")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"{where}: 'actions' must be a list, got {describe_value(actions)}")
    full = _actions_in_hand(direction)
    if len(actions) > full:
        raise RecordError(f"{where} has {len(actions)} actions; a {direction} hand has {full}")
    if not last and len(actions) < full:
        raise RecordError(
            f"{where} is not finished ({len(actions)} of {full} actions), "
            "yet another hand follows it"
        )
    parsed = []
    for number, action in enumerate(actions, start=1):
        with _context(f"{where}, action {number}"):
            parsed.append(action_from_dict(action))
    points = data.get("points")
    if points is not None:
        _check_four_whole(points, f"{where}: 'points'")
    return HandRecord(deal, direction, parsed), points


def _parse_deal(where: str, data: object) -> tuple[int, int, int, int]:
    if not isinstance(data, list) or len(data) != 4:
        raise RecordError(f"{where}: 'deal' must be a list of four seats' cards")
    masks = []
    for seat, cards in enumerate(data):
        if not isinstance(cards, list) or len(cards) != 13:
            raise RecordError(f"{where}: seat {seat} must be dealt a list of 13 cards")
        with _context(f"{where}, cards dealt to seat {seat}"):
            masks.append(mask_of(parse_cards(cards)))
    with _context(where):
        validate_deal(masks)
    return masks[0], masks[1], masks[2], masks[3]


def _check_points(
    controller: Controller,
    points: Sequence[list[int] | None],
    totals: object,
    earlier: EarlierHands,
) -> None:
    """Check the recorded points per hand and totals, where present, against the replay."""
    scores = controller.hand_scores
    for index, recorded in enumerate(points):
        number = earlier.count + index + 1
        if recorded is None:
            continue
        if index >= len(scores):
            raise RecordError(f"hand {number} is not finished, so its 'points' must be null")
        played = list(scores[index].points)
        if recorded != played:
            raise RecordError(
                f"hand {number}: the recorded points {recorded} do not match the play {played}"
            )
    if totals is not None:
        _check_four_whole(totals, "'totals'")
        if totals != list(controller.totals):
            raise RecordError(
                f"the recorded totals {totals} do not match the play {list(controller.totals)}"
            )


def _restore_redo(controller: Controller, data: object) -> None:
    """Check the saved redo list is a legal continuation of the last hand, then restore it."""
    if not isinstance(data, list) or len(data) > _actions_in_hand("left"):
        raise RecordError(f"'redo' must be a list of at most {_actions_in_hand('left')} actions")
    actions = []
    for number, action in enumerate(data, start=1):
        with _context(f"redo action {number}"):
            actions.append(action_from_dict(action))
    if actions:
        match = controller.match
        assert match is not None
        last = match.hands[-1]
        hand = HandState.new(match.rules, last.direction, last.deal)
        for action in last.actions:
            _apply(hand, action)
        for number, action in enumerate(reversed(actions), start=1):
            with _context(f"redo action {len(actions) - number + 1} cannot follow the play"):
                _apply(hand, action)
    controller.set_redo_actions(actions)


def _apply(hand: HandState, action: Action) -> None:
    if isinstance(action, PassAction):
        hand.submit_pass(action.seat, action.cards)
    else:
        hand.play(action.seat, action.card)


# -- checks -----------------------------------------------------------------------------------


@contextmanager
def _context(where: str = "") -> Iterator[None]:
    """Turn any rules-engine error raised inside into a RecordError that says where it was."""
    try:
        yield
    except HeartsError as error:
        raise RecordError(f"{where}: {error}" if where else str(error)) from None


def _check_plain_json(data: object) -> None:
    """Raise unless ``data`` is plain JSON data, shallow enough and with bounded numbers.

    This runs first, so later checks may safely compare, hash and print any part of it.
    """
    limit = 10**MAX_NUMBER_DIGITS
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_NESTING:
                raise RecordError(f"the record is nested more than {MAX_NESTING} levels deep")
            if isinstance(value, dict):
                if not all(isinstance(key, str) for key in value):
                    raise RecordError("every key of a record object must be a string")
                stack.extend((child, depth + 1) for child in value.values())
            else:
                stack.extend((child, depth + 1) for child in value)
        elif isinstance(value, int) and not -limit < value < limit:
            raise RecordError(f"a number in the record has more than {MAX_NUMBER_DIGITS} digits")
        elif value is not None and not isinstance(value, (str, int, float)):
            raise RecordError(f"the record holds a {type(value).__name__}, which is not JSON data")


def _check_keys(
    data: dict[str, Any], required: Sequence[str], optional: Sequence[str], where: str
) -> None:
    missing = [key for key in required if key not in data]
    if missing:
        raise RecordError(f"{where} has no {missing[0]!r}")
    unknown = sorted(key for key in data if key not in required and key not in optional)
    if unknown:
        raise RecordError(f"{where} has an unknown field {short_repr(unknown[0])}")


def _check_four_whole(data: object, what: str) -> None:
    if not (isinstance(data, list) and len(data) == 4 and all(map(_is_whole, data))):
        raise RecordError(f"{what} must be four whole numbers or null, got {short_repr(data)}")


def _actions_in_hand(direction: str) -> int:
    """Return how many actions a finished hand has: four passes (unless held) and 52 plays."""
    return 52 + (0 if direction == "hold" else 4)


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
