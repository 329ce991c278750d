"""Fuzzing the engine protocol: any line or JSON value gets one reply and never a traceback."""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.basic import FirstLegalBot
from core.cards import RANKS, SUITS, card_text, has_card, parse_card
from core.controller import Controller
from core.errors import HeartsError
from core.rules import RuleSet
from core.view import observation_from_view, view_from_observation
from game.engine.protocol import handle_line, handle_request

BOT = FirstLegalBot()
FUZZ = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CARD_TEXTS = [rank + suit for suit in SUITS for rank in RANKS]
FIELDS = ["type", "id", "seat", "hand", "direction", "passed", "received", "tricks", "scores"]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from([*CARD_TEXTS, "left", "right", "across", "hold", "legal", "play", "pass"])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=25,
)


@functools.cache
def _sample_views() -> list[dict[str, Any]]:
    """Views of every seat at a spread of points of a few random hands, as JSON data."""
    views: list[dict[str, Any]] = []
    for seed, rules in enumerate([RuleSet(), RuleSet(moon="auto", first_lead="any_club")]):
        rng = random.Random(seed)
        controller = Controller()
        controller.new_match(rules=rules, seed=seed, seats=["bot"] * 4)
        for _hand in range(2):
            step = 0
            while controller.phase in ("pass", "play"):
                if step % 5 == 0 or controller.phase == "pass":
                    views.extend(view_from_observation(controller.observation(s)) for s in range(4))
                step += 1
                if controller.phase == "pass":
                    for seat in controller.seats_to_act:
                        controller.submit_pass(seat, rng.sample(controller.hand(seat), 3))
                else:
                    seat = controller.seats_to_act[0]
                    controller.play_card(seat, rng.choice(controller.legal_cards(seat)))
            views.extend(view_from_observation(controller.observation(s)) for s in range(4))
            controller.next_hand()
    return views


def _card_lists(view: dict[str, Any]) -> list[list[Any]]:
    lists = [view[key] for key in ("hand", "passed", "received") if isinstance(view.get(key), list)]
    tricks = view.get("tricks")
    if isinstance(tricks, list):
        lists.extend(
            trick["cards"]
            for trick in tricks
            if isinstance(trick, dict) and isinstance(trick.get("cards"), list)
        )
    return [cards for cards in lists if cards]


@st.composite
def mutated_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A valid request of some type with a few random changes."""
    views = _sample_views()
    view = copy.deepcopy(views[draw(st.integers(0, len(views) - 1))])
    kind = draw(st.sampled_from(["legal", "play", "pass", "score"]))
    request: dict[str, Any] = {"type": kind, "id": draw(json_scalars), **view}
    if kind == "score":
        request = {"type": kind, "tricks": view["tricks"], "rules": view["rules"]}
    for _ in range(draw(st.integers(0, 3))):
        mutation = draw(st.integers(0, 6))
        lists = _card_lists(request)
        if mutation == 0:
            request[draw(st.sampled_from(FIELDS))] = draw(json_values)
        elif mutation == 1 and request:
            del request[draw(st.sampled_from(sorted(request)))]
        elif mutation == 2 and lists:
            cards = draw(st.sampled_from(lists))
            cards[draw(st.integers(0, len(cards) - 1))] = draw(st.sampled_from(CARD_TEXTS))
        elif mutation == 3 and lists:
            cards = draw(st.sampled_from(lists))
            del cards[draw(st.integers(0, len(cards) - 1))]
        elif mutation == 4 and isinstance(request.get("tricks"), list) and request["tricks"]:
            trick = draw(st.sampled_from(request["tricks"]))
            if isinstance(trick, dict):
                trick["leader"] = draw(st.integers(-1, 4))
        elif mutation == 5 and isinstance(request.get("tricks"), list):
            request["tricks"] = request["tricks"][: draw(st.integers(0, 13))]
        elif mutation == 6 and isinstance(request.get("rules"), dict):
            request["rules"][draw(st.sampled_from(sorted(request["rules"])))] = draw(json_values)
    return request


def _check_reply(request: object, data: dict[str, Any]) -> None:
    json.dumps(data, allow_nan=False)
    if isinstance(request, dict) and "id" in request and not isinstance(request["id"], list | dict):
        assert data["id"] == request["id"]
    if "error" in data:
        assert isinstance(data["error"], str) and data["error"]
        assert not data["error"].startswith("internal error"), data["error"]
        return
    assert isinstance(request, dict)
    kind = request["type"]
    if kind == "score":
        assert len(data["points"]) == 4
        return
    body = {key: value for key, value in request.items() if key not in ("type", "id")}
    observation = observation_from_view(body)
    assert observation_from_view(view_from_observation(observation)) == observation
    if kind == "play":
        assert has_card(observation.legal_mask(), parse_card(data["card"]))
    elif kind == "pass":
        assert len({parse_card(card) for card in data["cards"]}) == 3
        assert all(has_card(observation.hand, parse_card(card)) for card in data["cards"])
    elif kind == "legal":
        expected = observation.hand if observation.must_pass else observation.legal_mask()
        assert data["cards"] == [card_text(c) for c in range(52) if has_card(expected, c)]


@settings(FUZZ, max_examples=500)
@given(mutated_requests())
def test_mutated_requests_get_a_sound_reply(request: dict[str, Any]) -> None:
    reply = handle_request(request, BOT)
    _check_reply(request, reply.data)
    line_reply = handle_line(json.dumps(request), BOT)
    assert line_reply is not None and line_reply.data == reply.data


@FUZZ
@given(json_values)
def test_any_json_value_gets_a_reply(value: object) -> None:
    reply = handle_line(json.dumps(value), BOT)
    assert reply is not None
    _check_reply(value, reply.data)


@settings(FUZZ, max_examples=120)
@given(st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6))
def test_any_request_shaped_object_gets_a_reply(request: dict[str, Any]) -> None:
    _check_reply(request, handle_request(request, BOT).data)


@FUZZ
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_line_gets_one_reply_or_is_blank(line: bytes) -> None:
    reply = handle_line(line, BOT)
    if reply is None:
        assert not line.decode("utf-8", "replace").strip()
        return
    json.dumps(reply.data, allow_nan=False)
    if "error" in reply.data:
        assert not reply.data["error"].startswith("internal error")


def test_a_view_with_a_card_changed_is_refused_or_round_trips() -> None:
    rng = random.Random(9)
    views = _sample_views()
    outcomes = {"refused": 0, "accepted": 0}
    for _ in range(2000):
        view = copy.deepcopy(rng.choice(views))
        lists = _card_lists(view)
        if not lists:
            continue
        cards = rng.choice(lists)
        cards[rng.randrange(len(cards))] = rng.choice(CARD_TEXTS)
        try:
            observation = observation_from_view(view)
        except HeartsError as error:
            assert str(error)
            outcomes["refused"] += 1
            continue
        assert observation_from_view(view_from_observation(observation)) == observation
        outcomes["accepted"] += 1
    assert outcomes["refused"] > 1000 and outcomes["accepted"] > 20, outcomes
