"""Game records: a versioned JSON form of a whole match, saved atomically, loaded with checks.

A record holds the rules, the seed, the seat kinds and, per hand, the deal, the pass direction,
every action in order and the points scored. Loading replays every action through the rules, so
a tampered or illegal record is refused with a clear message, never half-loaded.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.actions import action_from_dict
from core.cards import mask_of, mask_texts, parse_cards
from core.controller import Controller
from core.errors import HeartsError, RecordError
from core.match import HandRecord, MatchState, deal_for
from core.rules import PASS_OFFSETS, RuleSet

RECORD_FORMAT = "mdhearts-record"
RECORD_VERSION = 2
MAX_RECORD_BYTES = 2 * 1024 * 1024


def record_to_dict(controller: Controller) -> dict[str, Any]:
    """Return the match of ``controller`` as record data (the current version)."""
    match = controller.match
    if match is None:
        raise RecordError("no match in progress to save")
    scores = controller.hand_scores
    hands = []
    for index, hand in enumerate(match.hands):
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
        "seats": list(match.seats),
        "hands": hands,
        "totals": list(controller.totals),
        "redo": [action.to_dict() for action in controller.redo_actions],
    }


def _migrate_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 kept only the actions of each hand; deals and directions came from the seed."""
    rules = RuleSet.from_dict(data.get("rules"))
    seed = data.get("seed")
    hands = data.get("hands")
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(hands, list):
        raise RecordError("version 1 record needs a whole-number seed and a list of hands")
    migrated = []
    for index, hand in enumerate(hands):
        if not isinstance(hand, dict):
            raise RecordError(f"hand {index + 1} must be an object")
        migrated.append(
            {
                "direction": rules.direction_of_hand(index),
                "deal": [mask_texts(mask) for mask in deal_for(seed, index)],
                "actions": hand.get("actions"),
                "points": None,
            }
        )
    upgraded = dict(data)
    upgraded["version"] = 2
    upgraded["hands"] = migrated
    upgraded["totals"] = None
    return upgraded


#: Migration steps: each takes a record of version N and returns one of version N + 1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _migrate_v1}


def _migrate(data: dict[str, Any]) -> dict[str, Any]:
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError("the record has no whole-number 'version'")
    if version > RECORD_VERSION or version < 1:
        raise RecordError(
            f"record version {version} is not supported (this program reads 1 to {RECORD_VERSION})"
        )
    while version < RECORD_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
    return data


def _parse_hand(index: int, hand: object) -> tuple[HandRecord, list[int] | None]:
    where = f"hand {index + 1}"
    if not isinstance(hand, dict):
        raise RecordError(f"{where} must be an object")
    direction = hand.get("direction")
    if direction not in PASS_OFFSETS:
        raise RecordError(f"{where}: unknown pass direction {direction!r:.20}")
    deal = hand.get("deal")
    if not isinstance(deal, list) or len(deal) != 4:
        raise RecordError(f"{where}: 'deal' must list four hands")
    masks = []
    for seat, cards in enumerate(deal):
        if not isinstance(cards, list) or len(cards) != 13:
            raise RecordError(f"{where}: seat {seat} must be dealt 13 cards")
        masks.append(mask_of(parse_cards(cards)))
    actions = hand.get("actions")
    if not isinstance(actions, list) or len(actions) > 56:
        raise RecordError(f"{where}: 'actions' must be a list of at most 56 actions")
    points = hand.get("points")
    if points is not None and (
        not isinstance(points, list)
        or len(points) != 4
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
    ):
        raise RecordError(f"{where}: 'points' must be four whole numbers or null")
    record = HandRecord(
        (masks[0], masks[1], masks[2], masks[3]),
        str(direction),
        [action_from_dict(action) for action in actions],
    )
    return record, points


def record_from_dict(data: object) -> Controller:
    """Rebuild a controller from record data; raise RecordError on anything wrong."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not an MDHearts record (format must be {RECORD_FORMAT!r})")
    data = _migrate(data)
    try:
        rules = RuleSet.from_dict(data.get("rules"))
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != 4:
            raise RecordError("'seats' must list four seat kinds")
        hands = data.get("hands")
        if not isinstance(hands, list) or not hands or len(hands) > 1000:
            raise RecordError("'hands' must be a non-empty list")
        parsed = [_parse_hand(index, hand) for index, hand in enumerate(hands)]
        seed = data.get("seed")
        match = MatchState(rules, seed, tuple(seats), [record for record, _ in parsed])  # type: ignore[arg-type]
        for index, (record, _) in enumerate(parsed):
            if isinstance(seed, int) and record.deal != deal_for(seed, index):
                raise RecordError(f"hand {index + 1}: the deal does not match the seed")
        controller = Controller.from_match(match)
    except RecordError:
        raise
    except HeartsError as error:
        raise RecordError(str(error)) from None
    scores = controller.hand_scores
    for index, (_, points) in enumerate(parsed):
        if points is not None and (index >= len(scores) or list(scores[index].points) != points):
            raise RecordError(f"hand {index + 1}: the recorded points do not match the play")
    totals = data.get("totals")
    if totals is not None and totals != list(controller.totals):
        raise RecordError("the recorded totals do not match the play")
    redo = data.get("redo", [])
    if not isinstance(redo, list) or len(redo) > 56:
        raise RecordError("'redo' must be a list of at most 56 actions")
    controller.set_redo_actions([action_from_dict(action) for action in redo])
    return controller


def dumps_record(controller: Controller) -> str:
    """Return the record of ``controller`` as JSON text."""
    return json.dumps(record_to_dict(controller), indent=1) + "\n"


def loads_record(text: str | bytes) -> Controller:
    """Parse record JSON text into a controller; raise RecordError on anything wrong."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES // 1024} KiB")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"the record is not valid JSON ({error})") from None
    return record_from_dict(data)


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write text to ``path`` through a temporary file and a rename, so it is never half-written."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def save_record(controller: Controller, path: str | os.PathLike[str]) -> None:
    """Save the match of ``controller`` to ``path`` atomically."""
    write_atomically(path, dumps_record(controller))


def load_record(path: str | os.PathLike[str]) -> Controller:
    """Load a match from ``path``; raise RecordError with the reason on any problem."""
    target = Path(path)
    try:
        size = target.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{target}: larger than {MAX_RECORD_BYTES // 1024} KiB")
        raw = target.read_bytes()
    except OSError as error:
        raise RecordError(f"cannot read {target}: {error.strerror or error}") from None
    try:
        return loads_record(raw)
    except RecordError as error:
        raise RecordError(f"{target}: {error}") from None
