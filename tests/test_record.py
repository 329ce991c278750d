"""Game records: round trips, resuming mid-hand, migration, and malformed records refused."""

from __future__ import annotations

import copy
import json
import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from positions import play_randomly

from core import record
from core.cards import mask_texts
from core.controller import Controller
from core.errors import HeartsError, RecordError
from core.files import write_atomically
from core.match import deal_for
from core.record import (
    MAX_RECORD_BYTES,
    RECORD_VERSION,
    dumps_record,
    load_record,
    loads_record,
    record_from_dict,
    record_to_dict,
    save_record,
)
from core.rules import RuleSet
from core.scoresheet import rules_summary, score_sheet
from core.seats import Seat

RULE_VARIANTS = [
    {},
    {"pass_cycle": ["hold"], "end_score": 40},
    {"moon": "subtract", "jack_of_diamonds": True, "no_tricks_bonus": True, "end_score": 60},
    {"moon": "auto", "first_lead": "any_club", "no_points_first_trick": False, "end_score": 50},
]


def new_match(seed: int, steps: int, rules: dict[str, Any] | None = None) -> Controller:
    """Return a match with ``steps`` random legal actions played from ``seed``."""
    controller = Controller()
    assert controller.new_match(rules=rules, seed=seed).ok
    play_randomly(controller, random.Random(seed), steps)
    return controller


def snapshot(controller: Controller) -> dict[str, Any]:
    """Return everything the controller's queries answer, to compare two controllers."""
    view: dict[str, Any] = {
        "phase": controller.phase,
        "hand_number": controller.hand_number,
        "seats": controller.seats,
        "rules": controller.rules,
        "totals": controller.totals,
        "scores": controller.hand_scores,
        "winner": controller.winner,
        "to_act": controller.seats_to_act,
        "redo": controller.redo_actions,
        "direction": controller.pass_direction,
        "tricks": controller.tricks,
        "hearts_broken": controller.hearts_broken,
        "hand_points": controller.hand_points,
    }
    for seat in range(4):
        view[f"hand {seat}"] = controller.hand(seat)
        view[f"legal {seat}"] = controller.legal_cards(seat)
        view[f"pass {seat}"] = controller.pass_choice(seat)
        view[f"observation {seat}"] = controller.observation(seat)
    return view


def round_trip(controller: Controller, path: Path) -> Controller:
    """Save to ``path``, load back, and check the record and every query are the same."""
    save_record(controller, path)
    loaded = load_record(path)
    assert record_to_dict(loaded) == record_to_dict(controller)
    assert json.loads(path.read_text(encoding="utf-8")) == record_to_dict(controller)
    assert snapshot(loaded) == snapshot(controller)
    return loaded


# -- round trips and resuming -----------------------------------------------------------------


@pytest.mark.parametrize("variant", range(len(RULE_VARIANTS)))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_trip_at_many_points_of_a_match(variant: int, seed: int, tmp_path: Path) -> None:
    controller = new_match(seed, 0, RULE_VARIANTS[variant])
    rng = random.Random(seed * 100 + variant)
    round_trip(controller, tmp_path / "start.json")
    for checkpoint in range(25):
        play_randomly(controller, rng, rng.choice((1, 2, 3, 7, 20, 60)))
        if controller.can_undo and rng.random() < 0.3:
            for _ in range(rng.randint(1, 3)):
                controller.undo()
        round_trip(controller, tmp_path / f"point{checkpoint}.json")
        if controller.phase == "match_over":
            break


def test_round_trip_of_a_finished_match(tmp_path: Path) -> None:
    controller = new_match(5, 100_000)
    assert controller.phase == "match_over"
    loaded = round_trip(controller, tmp_path / "done.json")
    assert loaded.winner == controller.winner
    assert not loaded.next_hand().ok


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 4, 5, 17, 30, 56, 57, 90, 130])
def test_a_resumed_match_plays_on_identically(steps: int, tmp_path: Path) -> None:
    original = new_match(11, steps)
    path = tmp_path / "resume.json"
    save_record(original, path)
    resumed = load_record(path)
    play_randomly(original, random.Random(steps), 150)
    play_randomly(resumed, random.Random(steps), 150)
    assert snapshot(resumed) == snapshot(original)
    assert dumps_record(resumed) == dumps_record(original)


def test_redo_list_survives_a_round_trip(tmp_path: Path) -> None:
    original = new_match(4, 30)
    for _ in range(3):
        assert original.undo().ok
    resumed = round_trip(original, tmp_path / "redo.json")
    assert len(resumed.redo_actions) == 3
    for _ in range(3):
        assert resumed.redo().ok
        assert original.redo().ok
    assert snapshot(resumed) == snapshot(original)


def test_dumped_text_is_json_with_one_hand_per_line() -> None:
    controller = new_match(6, 120)
    text = dumps_record(controller)
    assert json.loads(text) == record_to_dict(controller)
    hand_lines = [line for line in text.splitlines() if line.startswith('  {"direction"')]
    assert len(hand_lines) == controller.hand_number
    assert loads_record(text.encode("utf-8")).totals == controller.totals


def test_lowercase_and_ten_cards_load() -> None:
    controller = new_match(8, 40)
    data = record_to_dict(controller)
    for hand in data["hands"]:
        hand["deal"] = [
            [card.lower().replace("t", "10") for card in cards] for cards in hand["deal"]
        ]
    assert snapshot(record_from_dict(data)) == snapshot(controller)


def test_a_utf8_byte_order_mark_is_accepted() -> None:
    controller = new_match(9, 10)
    text = dumps_record(controller)
    assert record_to_dict(loads_record(b"\xef\xbb\xbf" + text.encode())) == record_to_dict(
        controller
    )


def test_saving_without_a_match_is_refused() -> None:
    with pytest.raises(RecordError, match="no match"):
        record_to_dict(Controller())


# -- versions ---------------------------------------------------------------------------------


def version_1(controller: Controller) -> dict[str, Any]:
    """Return the match as a version 1 record: per hand only the list of actions."""
    match = controller.match
    assert match is not None
    return {
        "format": "mdhearts-record",
        "version": 1,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "seats": [str(seat) for seat in match.seats],
        "hands": [
            {"actions": [action.to_dict() for action in hand.actions]} for hand in match.hands
        ],
    }


@pytest.mark.parametrize("steps", [0, 3, 40, 57, 200, 100_000])
def test_version_1_loads_to_the_same_state_as_version_2(steps: int) -> None:
    controller = new_match(13, steps)
    old = version_1(controller)
    kept = copy.deepcopy(old)
    migrated = record_from_dict(old)
    assert old == kept
    assert snapshot(migrated) == snapshot(controller)
    assert record_to_dict(migrated) == record_to_dict(controller)


def test_a_hand_written_version_1_record() -> None:
    seed = 7
    deal = deal_for(seed, 0)
    leader = next(seat for seat in range(4) if deal[seat] & 1)  # the 2C is card 0
    old = {
        "format": "mdhearts-record",
        "version": 1,
        "rules": {"pass_cycle": ["hold"]},
        "seed": seed,
        "seats": ["human", "bot", "bot", "bot:hard"],
        "hands": [{"actions": [{"seat": leader, "play": "2c"}]}],
    }
    controller = record_from_dict(old)
    assert controller.phase == "play"
    assert controller.seats_to_act == [(leader + 1) % 4]
    assert controller.tricks[0].cards == [0]
    upgraded = record_to_dict(controller)
    assert upgraded["version"] == RECORD_VERSION
    assert upgraded["hands"][0]["direction"] == "hold"


def test_every_older_version_has_a_migration_step() -> None:
    assert sorted(record.MIGRATIONS) == list(range(1, RECORD_VERSION))
    old = version_1(new_match(3, 10))
    upgraded = record.MIGRATIONS[1](old)
    assert upgraded["version"] == 2
    assert old["version"] == 1 and "deal" not in old["hands"][0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.update(deal=[]), "unknown field 'deal'"),
        (lambda data: data["hands"].append(["not", "a", "hand"]), "hand 2 must be an object"),
        (lambda data: data["hands"][0].update(points=[0, 0, 0, 0]), "unknown field 'points'"),
        (lambda data: data["hands"][0].pop("actions"), "hand 1 has no 'actions'"),
        (lambda data: data.update(seed="13"), "seed"),
        (lambda data: data.update(rules={"moon": "sometimes"}), "rules: moon"),
        (lambda data: data.update(hands=[]), "'hands' must be a list of 1"),
        (lambda data: data["hands"][0].update(actions="2C"), "'actions' must be a list"),
    ],
)
def test_a_malformed_version_1_record_is_refused(
    change: Callable[[dict[str, Any]], object], message: str
) -> None:
    old = version_1(new_match(13, 5))
    change(old)
    with pytest.raises(RecordError, match=message):
        record_from_dict(old)


# -- malformed records ------------------------------------------------------------------------


def _mid_match_record() -> dict[str, Any]:
    """Return a record in the middle of hand 2 (hand 1 finished), with a redo list."""
    controller = new_match(21, 0)
    rng = random.Random(21)
    while controller.hand_number < 2 or len(controller.tricks) < 3:
        play_randomly(controller, rng, 1)
    controller.undo()
    return record_to_dict(controller)


MID_MATCH = _mid_match_record()


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """Return a change that sets the field at a dotted path (list indexes as numbers)."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        del target[int(last) if isinstance(target, list) else last]

    return change


def _swap_cards_between_seats(data: dict[str, Any]) -> None:
    deal = data["hands"][0]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]


def _deal_a_card_twice(data: dict[str, Any]) -> None:
    deal = data["hands"][0]["deal"]
    deal[1][0] = deal[0][0]


def _swap_two_plays(data: dict[str, Any]) -> None:
    actions = data["hands"][0]["actions"]
    actions[10], actions[11] = actions[11], actions[10]


def _tamper_points(data: dict[str, Any]) -> None:
    points = data["hands"][0]["points"]
    points[0], points[1] = points[1] + 1, points[0]


def _repeat_a_card_in_a_seat(data: dict[str, Any]) -> None:
    deal = data["hands"][0]["deal"]
    deal[0][1] = deal[0][0]


def _redo_by_another_seat(data: dict[str, Any]) -> None:
    data["redo"][0]["seat"] = (data["redo"][0]["seat"] + 1) % 4


def _one_more_action(data: dict[str, Any]) -> None:
    data["hands"][0]["actions"].append(data["hands"][0]["actions"][-1])


def _nest(depth: int) -> object:
    value: object = "deep"
    for _ in range(depth):
        value = [value]
    return value


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("format missing", _delete("format"), "no 'format'"),
    ("format wrong", _set("format", "chess-pgn"), "not an MDHearts record"),
    ("format a list", _set("format", ["mdhearts-record"]), "not an MDHearts record"),
    ("version missing", _delete("version"), "no 'version'"),
    ("version 0", _set("version", 0), "version 0 is not supported"),
    ("version 4", _set("version", 4), "newer MDHearts"),
    ("version text", _set("version", "2"), "'version' must be a whole number"),
    ("version float", _set("version", 2.0), "'version' must be a whole number"),
    ("version bool", _set("version", True), "'version' must be a whole number"),
    ("unknown field", _set("comment", "hi"), "unknown field 'comment'"),
    ("rules missing", _delete("rules"), "no 'rules'"),
    ("rules a list", _set("rules", []), "'rules' must be an object"),
    ("rules unknown option", _set("rules.speed", 3), "unknown rule option 'speed'"),
    ("rules bad moon", _set("rules.moon", "never"), "rules: moon"),
    ("rules cycle of lists", _set("rules.pass_cycle", [["left"]]), "pass_cycle"),
    ("rules cycle a string", _set("rules.pass_cycle", "left"), "pass_cycle"),
    ("rules changed", _set("rules.pass_cycle", ["hold"]), "the rules make it 'hold'"),
    ("rules end score", _set("rules.end_score", 1.5), "end_score"),
    ("seed missing", _delete("seed"), "no 'seed'"),
    ("seed text", _set("seed", "21"), "seed must be a whole number"),
    ("seed float", _set("seed", 21.0), "seed must be a whole number"),
    ("seed bool", _set("seed", True), "seed must be a whole number"),
    ("seed negative", _set("seed", -1), "seed must be a whole number"),
    ("seed too large", _set("seed", 2**63), "seed must be a whole number"),
    ("seed absurd", _set("seed", 10**40), "more than 30 digits"),
    ("seed null", _set("seed", None), "seed must be a whole number"),
    ("seed changed", _set("seed", 22), "hand 1: the deal is not the one the seed gives"),
    ("seats a string", _set("seats", "human"), "'seats' must be a list of four"),
    ("three seats", _set("seats", ["human", "bot", "bot"]), "'seats' must be a list of four"),
    ("seat a number", _set("seats.1", 5), "seat 1"),
    ("seat unknown", _set("seats.2", "alien"), "seat 2: unknown seat 'alien'"),
    ("seat empty", _set("seats.3", ""), "seat 3"),
    ("seat too long", _set("seats.3", "bot:" + "x" * 600), "seat 3"),
    ("hands missing", _delete("hands"), "no 'hands'"),
    ("hands an object", _set("hands", {}), "'hands' must be a list"),
    ("no hands", _set("hands", []), "'hands' must be a list of 1"),
    ("hand a list", _set("hands.0", []), "hand 1 must be an object"),
    ("hand without deal", _delete("hands.0.deal"), "hand 1 has no 'deal'"),
    ("hand unknown field", _set("hands.1.note", 1), "hand 2 has an unknown field 'note'"),
    ("direction wrong", _set("hands.0.direction", "right"), "hand 1: the pass direction"),
    ("direction a list", _set("hands.0.direction", []), "hand 1: the pass direction"),
    ("direction null", _set("hands.1.direction", None), "hand 2: the pass direction"),
    ("deal a string", _set("hands.0.deal", "2C 3C"), "'deal' must be a list of four"),
    ("deal of three", _delete("hands.0.deal.3"), "'deal' must be a list of four"),
    ("twelve cards", _delete("hands.0.deal.2.5"), "seat 2 must be dealt a list of 13"),
    ("fourteen cards", _set("hands.0.deal.2", ["2C"] * 14), "seat 2 must be dealt a list of 13"),
    ("seat cards a string", _set("hands.0.deal.1", "AS" * 13), "seat 1 must be dealt"),
    ("card not a card", _set("hands.0.deal.1.4", "ZZ"), "seat 1: not a card: 'ZZ'"),
    ("card a number", _set("hands.0.deal.1.4", 12), "seat 1: a card must be a string"),
    ("card twice in a seat", _repeat_a_card_in_a_seat, "seat 0: card .. is listed twice"),
    ("card dealt to two seats", _deal_a_card_twice, "hand 1: a card is dealt to two seats"),
    ("cards swapped between seats", _swap_cards_between_seats, "not the one the seed gives"),
    ("actions a string", _set("hands.0.actions", "2C"), "'actions' must be a list"),
    ("action a list", _set("hands.1.actions.0", ["seat", 0]), "hand 2, action 1"),
    ("action seat 4", _set("hands.1.actions.0.seat", 4), "action seat must be"),
    ("action seat text", _set("hands.1.actions.0.seat", "0"), "action seat must be"),
    ("action seat bool", _set("hands.1.actions.0.seat", False), "action seat must be"),
    ("action both kinds", _set("hands.1.actions.0.play", "2C"), "either 'pass' or 'play'"),
    ("pass of two", _delete("hands.1.actions.0.pass.2"), "exactly three cards"),
    ("pass a string", _set("hands.1.actions.0.pass", "2C 3C 4C"), "exactly three cards"),
    ("play not a card", _set("hands.0.actions.20.play", "1X"), "hand 1, action 21: not a card"),
    ("plays out of turn", _swap_two_plays, "breaks the rules: hand 1, action 11: it is seat"),
    ("action after the hand", _one_more_action, "hand 1 has 57 actions"),
    ("hand not finished", _delete("hands.0.actions.30"), "hand 1 is not finished"),
    ("points tampered", _tamper_points, "hand 1: the recorded points"),
    ("points of three", _delete("hands.0.points.3"), "'points' must be four whole numbers"),
    ("points text", _set("hands.0.points.0", "5"), "'points' must be four whole numbers"),
    ("points bool", _set("hands.0.points", [True, 0, 0, 0]), "'points' must be four whole"),
    ("points on an open hand", _set("hands.1.points", [0, 0, 0, 0]), "hand 2 is not finished"),
    ("totals tampered", _set("totals.2", 99), "the recorded totals"),
    ("totals a number", _set("totals", 26), "'totals' must be four whole numbers"),
    ("redo an object", _set("redo", {}), "'redo' must be a list"),
    ("redo too long", _set("redo", [{"seat": 0, "play": "2C"}] * 57), "'redo' must be a list"),
    ("redo not a card", _set("redo.0.play", "QQ"), "redo action 1: not a card"),
    ("redo illegal", _redo_by_another_seat, "redo action 1 cannot follow the play: it is seat"),
    ("too deep", _set("rules.pass_cycle", _nest(20)), "nested more than"),
    ("tuple", _set("seats", ("human", "bot", "bot", "bot")), "tuple, which is not JSON"),
    ("python object", _set("seed", 1j), "complex, which is not JSON"),
    ("key not a string", _set("hands.0.deal", {1: "AS"}), "key of a record object"),
]


@pytest.mark.parametrize(
    ("change", "message"),
    [case[1:] for case in MALFORMED],
    ids=[case[0] for case in MALFORMED],
)
def test_a_malformed_record_is_refused_with_a_clear_error(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    data = copy.deepcopy(MID_MATCH)
    change(data)
    kept = copy.deepcopy(data)
    with pytest.raises(RecordError, match=message):
        record_from_dict(data)
    assert data == kept  # the loader only reads


def test_the_unchanged_record_of_the_malformed_cases_loads() -> None:
    assert record_to_dict(record_from_dict(copy.deepcopy(MID_MATCH))) == MID_MATCH


@pytest.mark.parametrize("value", [None, [], "mdhearts-record", 2, 2.5, True, [MID_MATCH]])
def test_a_record_that_is_not_an_object_is_refused(value: object) -> None:
    with pytest.raises(RecordError, match="must be a JSON object"):
        record_from_dict(value)


def test_hands_after_the_end_of_the_match_are_refused() -> None:
    controller = new_match(5, 100_000)
    assert controller.phase == "match_over"
    data = record_to_dict(controller)
    index = len(data["hands"])
    data["hands"].append(
        {
            "direction": controller.rules.direction_of_hand(index),
            "deal": [mask_texts(mask) for mask in deal_for(5, index)],
            "actions": [],
        }
    )
    with pytest.raises(RecordError, match=f"hand {index + 1} cannot be dealt: the match is over"):
        record_from_dict(data)


def test_an_action_after_a_finished_final_hand_is_refused() -> None:
    controller = new_match(30, 0, {"pass_cycle": ["hold"], "end_score": 1000})
    while controller.phase != "hand_over":
        play_randomly(controller, random.Random(30), 1)
    data = record_to_dict(controller)
    assert len(data["hands"]) == 1
    data["hands"][0]["actions"].append({"seat": 0, "play": "2C"})
    with pytest.raises(RecordError, match="hand 1 has 53 actions; a hold hand has 52"):
        record_from_dict(data)


# -- record text ------------------------------------------------------------------------------


def _valid_text() -> str:
    return dumps_record(record_from_dict(MID_MATCH))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        (b"", "empty"),
        ("  \n\t ", "empty"),
        (b'{"format": "\xc3\x28"}', "not UTF-8 text"),
        (b"\xff\xfe{\x00}\x00", "not UTF-8 text"),
        ("{", "not valid JSON"),
        ('{"format": "mdhearts-rec', "cut short"),
        ("[" * 100_000 + "]" * 100_000, "nested more than"),
        ("[" * 20 + "]" * 20, "nested more than"),
        ('{"format": NaN}', "NaN is not allowed"),
        ('{"seed": Infinity}', "Infinity is not allowed"),
        ('{"seed": 1' + "0" * 5000 + "}", "more than 30 digits"),
        ('{"format": "mdhearts-record", "format": "mdhearts-record"}', "appears twice"),
        ("null", "must be a JSON object"),
        ('"mdhearts-record"', "must be a JSON object"),
        ("{} {}", "not valid JSON"),
        (" " * (MAX_RECORD_BYTES + 1), "larger than"),
        (b" " * (MAX_RECORD_BYTES + 1), "larger than"),
        ("é" * (MAX_RECORD_BYTES // 2 + 1), "larger than"),
    ],
    ids=lambda value: repr(value)[:30],
)
def test_malformed_record_text_is_refused(text: str | bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads_record(text)


def test_every_truncation_of_a_record_is_refused() -> None:
    text = _valid_text()
    for end in range(0, len(text) - 2, 97):
        with pytest.raises(RecordError):
            loads_record(text[:end])


# -- files ------------------------------------------------------------------------------------


def _unchanged_after(path: Path, load: Callable[[], object], message: str) -> None:
    """Check a failing load raises RecordError and leaves the file as it was."""
    before = (path.read_bytes(), path.stat().st_mtime_ns) if path.is_file() else None
    with pytest.raises(RecordError, match=message):
        load()
    after = (path.read_bytes(), path.stat().st_mtime_ns) if path.is_file() else None
    assert after == before


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    _unchanged_after(path, lambda: load_record(path), "No such file")
    assert not path.exists()


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="is a folder"):
        load_record(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(RecordError, match="not a regular file"):
        load_record(pipe)


def test_a_path_with_a_nul_character_is_refused() -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record("bad\0name.json")


def test_a_file_over_the_size_cap_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as stream:
        stream.truncate(MAX_RECORD_BYTES + 1)
    _unchanged_after(path, lambda: load_record(path), "larger than")


def test_an_unreadable_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "locked.json"
    path.write_text(_valid_text(), encoding="utf-8")

    real_open = os.open

    def refuse(target: object, *args: object, **kwargs: object) -> int:
        if Path(str(target)) == path:
            raise PermissionError(13, "Permission denied")
        return real_open(target, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(RecordError, match=r"cannot read .*Permission denied"):
        load_record(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"\x80\x81", "not UTF-8"),
        (b'{"format": "mdhearts-record", "version": 9}', "version 9"),
        (b'{"format": "mdhearts-record", "version": 2, "rules": {}', "cut short"),
    ],
)
def test_a_bad_file_names_itself_and_stays_unchanged(
    content: bytes, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    _unchanged_after(path, lambda: load_record(path), f"bad.json: .*{message}")


def test_a_tampered_file_stays_unchanged(tmp_path: Path) -> None:
    data = copy.deepcopy(MID_MATCH)
    _tamper_points(data)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    _unchanged_after(path, lambda: load_record(path), "recorded points")


# -- saving -----------------------------------------------------------------------------------


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, bytes, Controller]:
    """Return a saved record's path and bytes, and a controller that has played on since."""
    controller = new_match(40, 20)
    path = tmp_path / "match.json"
    save_record(controller, path)
    play_randomly(controller, random.Random(40), 20)
    return path, path.read_bytes(), controller


def _only_file(path: Path) -> None:
    assert [entry.name for entry in path.parent.iterdir()] == [path.name]


def test_saving_replaces_the_old_record(saved: tuple[Path, bytes, Controller]) -> None:
    path, old, controller = saved
    save_record(controller, path)
    assert path.read_bytes() != old
    assert record_to_dict(load_record(path)) == record_to_dict(controller)
    _only_file(path)


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_failed_save_keeps_the_old_record(
    failing: str, saved: tuple[Path, bytes, Controller], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, old, controller = saved

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(record.os, failing, fail)
    with pytest.raises(OSError, match="No space left"):
        save_record(controller, path)
    monkeypatch.undo()
    assert path.read_bytes() == old
    _only_file(path)


def test_a_save_failing_while_encoding_keeps_the_old_record(
    saved: tuple[Path, bytes, Controller], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, old, controller = saved

    def fail(*args: object, **kwargs: object) -> str:
        raise ValueError("cannot encode")

    monkeypatch.setattr(record.json, "dumps", fail)
    with pytest.raises(ValueError, match="cannot encode"):
        save_record(controller, path)
    monkeypatch.undo()
    assert path.read_bytes() == old
    _only_file(path)


def test_a_record_over_the_cap_is_not_saved(
    saved: tuple[Path, bytes, Controller], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, old, controller = saved
    monkeypatch.setattr(record, "MAX_RECORD_BYTES", 1000)
    with pytest.raises(RecordError, match=r"more than the .* a record may have"):
        save_record(controller, path)
    assert path.read_bytes() == old


def test_write_atomically_makes_folders_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "record.json"
    write_atomically(path, "first", make_folders=True)
    write_atomically(path, "second")
    assert path.read_text(encoding="utf-8") == "second"
    _only_file(path)


def test_saving_onto_a_folder_fails_and_leaves_it(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "inside.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(OSError):
        save_record(new_match(1, 5), folder)
    assert (folder / "inside.txt").read_text(encoding="utf-8") == "keep"
    assert [entry.name for entry in tmp_path.iterdir()] == ["folder"]


def test_rules_of_a_record_round_trip() -> None:
    rules = RuleSet(pass_cycle=("across", "hold"), moon="auto", end_score=77)
    controller = Controller()
    assert controller.new_match(rules=rules, seed=3, seats=["bot:easy"] * 4).ok
    loaded = record_from_dict(record_to_dict(controller))
    assert loaded.rules == rules
    assert loaded.seats == (Seat.parse("bot:easy"),) * 4


# -- score sheet ------------------------------------------------------------------------------


def _sheet_table(sheet: str) -> tuple[list[str], list[str], list[str]]:
    """Return a score sheet's table lines: the header and dash rule, the hand rows, the rest."""
    lines = sheet.splitlines()
    rules = [index for index, line in enumerate(lines) if line.startswith("-----")]
    assert len(rules) == 2
    return lines[rules[0] - 1 : rules[0] + 1], lines[rules[0] + 1 : rules[1]], lines[rules[1] :]


def _match_with_a_moon() -> Controller:
    for seed in range(200):
        controller = new_match(seed, 100_000)
        if any(score.moon_shooter is not None for score in controller.hand_scores):
            return controller
    pytest.fail("no random match with a moon shot in 200 seeds")


def test_score_sheet_of_a_finished_match() -> None:
    controller = _match_with_a_moon()
    match = controller.match
    assert match is not None
    sheet = score_sheet(controller)
    lines = sheet.splitlines()
    assert lines[:3] == [
        "MDHearts score sheet",
        f"Seed:  {match.seed}",
        "Seats: Seat 0 human, Seat 1 bot, Seat 2 bot, Seat 3 bot",
    ]
    assert lines[3] == "Rules: " + rules_summary(match.rules)
    (header, _), rows, rest = _sheet_table(sheet)
    assert header.split() == ["Hand", "Pass", "Seat", "0", "Seat", "1", "Seat", "2", "Seat", "3"]
    assert len(rows) == len(controller.hand_scores) == controller.hand_number
    for number, (row, score) in enumerate(zip(rows, controller.hand_scores, strict=True), 1):
        points = [
            f"{p}{'*' if s == score.moon_shooter else ''}" for s, p in enumerate(score.points)
        ]
        assert row.split() == [str(number), match.hands[number - 1].direction, *points]
    assert rest[1].split() == ["Total", *(str(total) for total in controller.totals)]
    winner = controller.winner
    assert winner is not None
    assert rest[2:] == [
        "* shot the moon",
        f"Winner: Seat {winner} ({match.seats[winner]}) with {controller.totals[winner]} points",
    ]
    assert sheet.endswith("\n")


def test_score_sheet_marks_the_moon_shooter_only() -> None:
    controller = _match_with_a_moon()
    _, rows, _ = _sheet_table(score_sheet(controller))
    for row, score in zip(rows, controller.hand_scores, strict=True):
        marked = [cell for cell in row.split()[2:] if cell.endswith("*")]
        if score.moon_shooter is None:
            assert not marked
        else:
            assert marked == [f"{score.points[score.moon_shooter]}*"]


def test_score_sheet_columns_line_up() -> None:
    controller = _match_with_a_moon()
    (header, rule), rows, rest = _sheet_table(score_sheet(controller))
    ends = [dashes.end() - 1 for dashes in re.finditer("-+", rule)]
    assert len(ends) == 6
    for line in (header, *rows, rest[1]):
        padded = line.ljust(len(rule))
        for end in ends[2:]:  # each seat column: a digit, then the moon mark or a space
            assert padded[end - 1].isdigit() and padded[end] in " *", line


def test_score_sheet_in_the_middle_of_a_match() -> None:
    controller = new_match(3, 130, {"moon": "subtract", "jack_of_diamonds": True})
    assert controller.phase in ("pass", "play") and controller.hand_number > 1
    sheet = score_sheet(controller)
    _, rows, rest = _sheet_table(sheet)
    assert len(rows) == controller.hand_number - 1
    assert rest[1].split() == ["Total", *(str(total) for total in controller.totals)]
    assert rest[-1] == f"Hand {controller.hand_number} is being played."
    assert "Winner" not in sheet
    assert "the moon takes 26 from the shooter; JD scores -10" in sheet


def test_score_sheet_before_the_first_hand_is_over() -> None:
    controller = new_match(2, 0)
    _, rows, rest = _sheet_table(score_sheet(controller))
    assert rows == []
    assert rest[1].split() == ["Total", "0", "0", "0", "0"]


def test_score_sheet_of_a_loaded_record_is_the_same(tmp_path: Path) -> None:
    controller = new_match(12, 300)
    loaded = round_trip(controller, tmp_path / "sheet.json")
    assert score_sheet(loaded) == score_sheet(controller)


def test_score_sheet_needs_a_match() -> None:
    with pytest.raises(HeartsError, match="no match"):
        score_sheet(Controller())


def test_rules_summary_names_every_option() -> None:
    assert rules_summary(RuleSet()) == (
        "pass left, right, across, hold; 2C leads; no points on the first trick; "
        "hearts must be broken; QS breaks hearts; the moon adds 26 to the others; game to 100"
    )
    variant = RuleSet(
        pass_cycle=("hold",),
        first_lead="any_club",
        no_points_first_trick=False,
        must_break_hearts=False,
        queen_breaks_hearts=False,
        moon="auto",
        jack_of_diamonds=True,
        no_tricks_bonus=True,
        end_score=50,
    )
    assert rules_summary(variant) == (
        "pass hold; any club leads; the moon adds 26 to the others, or takes it from the shooter "
        "when adding would lose the match; JD scores -10; no tricks scores -5; game to 50"
    )
