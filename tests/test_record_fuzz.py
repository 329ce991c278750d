"""Fuzzing the record loader: whatever it is given, it answers with a controller or RecordError.

Malformed input comes three ways: arbitrary JSON values, valid records with fields deleted,
retyped or changed, and record text that is cut, spliced or corrupted. The loader must never
raise anything but ``RecordError`` and must never change what it was given.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings
from positions import play_randomly

from core.cards import RANKS, SUITS
from core.controller import Controller
from core.errors import RecordError
from core.record import (
    RECORD_FORMAT,
    dumps_record,
    loads_record,
    record_from_dict,
    record_to_dict,
)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Fewer examples where generating nested values costs more than loading them.
FUZZ_LIGHT = settings(FUZZ, max_examples=150)

NodePath = list[str | int]
NUDGES = (-1, 1, 13, 52, 2**63)


def _record(
    seed: int, steps: int, rules: dict[str, Any] | None = None, undo: int = 0
) -> dict[str, Any]:
    controller = Controller()
    assert controller.new_match(rules=rules, seed=seed).ok
    play_randomly(controller, random.Random(seed), steps)
    for _ in range(undo):
        controller.undo()
    return record_to_dict(controller)


#: Valid records to mutate: mid-pass, mid-play with a redo list, a hand over, a finished match.
BASES = [
    _record(1, 2),
    _record(2, 75, undo=2),
    _record(3, 113),
    _record(4, 100_000, {"pass_cycle": ["hold", "left"], "end_score": 20}),
]
CARDS = [rank + suit for rank in RANKS for suit in SUITS]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(CARDS)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=6), children, max_size=5)
    ),
    max_leaves=12,
)


def _paths(value: object, prefix: NodePath | None = None) -> list[NodePath]:
    """Return the path of every node of a JSON value, the root first."""
    prefix = prefix or []
    paths = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            paths += _paths(child, [*prefix, key])
    elif isinstance(value, list):
        for index, child in enumerate(value):
            paths += _paths(child, [*prefix, index])
    return paths


def _parent(data: Any, path: NodePath) -> Any:
    for key in path[:-1]:
        data = data[key]
    return data


def _mutate(data: Any, path: NodePath, how: str, value: object, pick: int) -> Any:
    """Apply one change at ``path`` and return the (possibly new) root.

    ``value`` replaces a node; ``pick`` chooses a nudge or a card.
    """
    if not path:
        return value
    parent, key = _parent(data, path), path[-1]
    old = parent[key]
    if how == "delete":
        del parent[key]
    elif how == "replace":
        parent[key] = value
    elif how == "retype":
        parent[key] = [old] if not isinstance(old, list) else json.dumps(old)
    elif how == "stringify":
        parent[key] = str(old)
    elif how == "nudge" and isinstance(old, int):
        parent[key] = old + NUDGES[pick % len(NUDGES)]
    elif how == "card":
        parent[key] = CARDS[pick % len(CARDS)]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(old))
    elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
        other = (key + 1) % len(parent)
        parent[key], parent[other] = parent[other], parent[key]
    else:
        parent[key] = value
    return data


def _load_quietly(data: object) -> Controller | None:
    """Load record data; return None on RecordError (any other exception fails the test)."""
    kept = copy.deepcopy(data)
    try:
        controller = record_from_dict(data)
    except RecordError as error:
        assert str(error)
        controller = None
    assert data == kept, "the loader changed its input"
    return controller


def _loads_quietly(text: str | bytes) -> Controller | None:
    try:
        return loads_record(text)
    except RecordError as error:
        assert str(error)
        return None


@FUZZ_LIGHT
@given(json_values)
def test_arbitrary_json_is_refused(value: object) -> None:
    assert _load_quietly(value) is None
    assert _loads_quietly(json.dumps(value)) is None


@FUZZ_LIGHT
@given(
    st.sampled_from([None, 1, 2, 3, "2"]),
    st.dictionaries(
        st.sampled_from(["rules", "seed", "seats", "hands", "totals", "redo", "deal"]),
        json_values,
    ),
)
def test_record_shaped_objects_are_refused(version: object, fields: dict[str, Any]) -> None:
    data = {"format": RECORD_FORMAT, "version": version, **fields}
    assert _load_quietly(data) is None


@FUZZ
@given(
    st.sampled_from(range(len(BASES))),
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=1, exclude_max=True),
            st.sampled_from(
                ["delete", "replace", "retype", "stringify", "nudge", "card", "duplicate", "swap"]
            ),
            json_values,
            st.integers(min_value=0, max_value=1000),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_mutated_records_load_or_are_refused(
    base: int, changes: list[tuple[float, str, object, int]]
) -> None:
    data: Any = copy.deepcopy(BASES[base])
    for where, how, value, pick in changes:
        paths = _paths(data)
        data = _mutate(data, paths[int(where * len(paths))], how, value, pick)
    controller = _load_quietly(data)
    if controller is not None:
        # Whatever loads is a consistent match that saves and loads again unchanged.
        again = record_to_dict(controller)
        assert record_to_dict(record_from_dict(again)) == again


@FUZZ
@given(
    st.sampled_from(range(len(BASES))),
    st.floats(min_value=0, max_value=1),
    st.floats(min_value=0, max_value=1),
    st.sampled_from(["truncate", "cut", "insert", "overwrite"]),
    st.binary(max_size=6),
)
def test_corrupted_record_text_loads_or_is_refused(
    base: int, start: float, length: float, how: str, junk: bytes
) -> None:
    raw = dumps_record(record_from_dict(BASES[base])).encode("utf-8")
    at = int(start * len(raw))
    if how == "truncate":
        raw = raw[:at]
    elif how == "cut":
        raw = raw[:at] + raw[at + int(length * 200) + 1 :]
    elif how == "insert":
        raw = raw[:at] + junk + raw[at:]
    else:
        raw = raw[:at] + junk + raw[at + len(junk) :]
    _loads_quietly(raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return
    _loads_quietly(text)


@FUZZ
@given(st.binary(max_size=64) | st.text(max_size=64))
def test_random_text_is_refused(text: str | bytes) -> None:
    assert _loads_quietly(text) is None
