"""The engine protocol: one JSON request answered with one JSON reply, never an exception.

The protocol is stateless: every request describes one seat's view of a hand (docs/protocol.md).
The engine checks the view, then answers with the legal cards, a bot's pass or play, or the
points of a finished hand. A bad request gets ``{"error": ...}`` and the engine keeps serving.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai.bot import Bot, Budget
from ai.review import DEFAULT_SAMPLES, DEFAULT_SEED, MAX_SAMPLES, analyse
from core.cards import card_text, has_card, mask_of, mask_texts
from core.errors import HeartsError
from core.files import StrictJsonError, parse_strict_json
from core.match import MAX_SEED
from core.observation import Observation
from core.text import describe_value
from core.view import (
    SCORE_FIELDS,
    VIEW_FIELDS,
    ViewError,
    observation_from_view,
    pass_cards,
    score_finished_hand,
)

#: Longest request line accepted, in bytes, without its line end.
MAX_LINE_BYTES = 64 * 1024
REQUEST_TYPES = ("legal", "play", "pass", "analyse", "score", "quit")
#: The fields of an ``analyse`` request besides the view's.
ANALYSE_OPTIONS = ("samples", "seed", "include")
#: Decimals of the values an ``analyse`` reply gives.
VALUE_DECIMALS = 3
#: Longest number a request may hold: Python's own limit for reading whole numbers, so any id
#: a client's JSON library writes is echoed as given.
MAX_NUMBER_DIGITS = 4300
MAX_ERROR_LENGTH = 300


class RequestError(HeartsError):
    """A well-formed request that cannot be answered for the position it describes."""


@dataclass(frozen=True)
class Reply:
    """The reply to one request line; ``quit`` tells the server loop to stop after sending it."""

    data: dict[str, Any]
    quit: bool = False


# -- request handlers -------------------------------------------------------------------------


def _require_turn(observation: Observation) -> None:
    """Raise unless it is the observed seat's turn to play."""
    seat = observation.seat
    if observation.must_pass:
        raise RequestError(f"seat {seat} must pass three cards first")
    if observation.direction != "hold" and observation.received is None:
        raise RequestError(f"seat {seat} has passed and waits for the exchange")
    turn = observation.to_play
    if turn is None:
        raise RequestError("the hand is over: all 13 tricks are played")
    if turn != seat:
        raise RequestError(f"it is seat {turn}'s turn, not seat {seat}'s")


def _legal(body: dict[str, Any], bot: Bot, budget: Budget | None) -> dict[str, Any]:
    observation = observation_from_view(body)
    if observation.must_pass:
        return {"cards": mask_texts(observation.hand)}
    _require_turn(observation)
    return {"cards": mask_texts(observation.legal_mask())}


def _play(body: dict[str, Any], bot: Bot, budget: Budget | None) -> dict[str, Any]:
    observation = observation_from_view(body)
    _require_turn(observation)
    card = bot.choose_play(observation, budget)
    if not has_card(observation.legal_mask(), card):
        raise RuntimeError(f"the bot chose an illegal card {card!r}")
    return {"card": card_text(card)}


def _pass(body: dict[str, Any], bot: Bot, budget: Budget | None) -> dict[str, Any]:
    # Said before the view is checked: a hold hand's view without tricks is otherwise refused
    # for its missing current trick, which is not the reason.
    if body.get("direction") == "hold":
        raise RequestError("no cards are passed on a hold hand")
    observation = observation_from_view(body)
    seat = observation.seat
    if observation.passed is not None:
        texts = " ".join(card_text(card) for card in observation.passed)
        raise RequestError(f"seat {seat} has already passed {texts}")
    cards = bot.choose_pass(observation, budget)
    if len(set(cards)) != 3 or not all(has_card(observation.hand, card) for card in cards):
        raise RuntimeError(f"the bot chose an illegal pass {cards!r}")
    return {"cards": [card_text(card) for card in cards]}


def _analyse(body: dict[str, Any], bot: Bot, budget: Budget | None) -> dict[str, Any]:
    """Value every legal card, or the candidate passes, with the hard bot's search."""
    options = {key: body.pop(key) for key in ANALYSE_OPTIONS if body.get(key) is not None}
    samples = _whole_option(options.get("samples", DEFAULT_SAMPLES), "samples", 1, MAX_SAMPLES)
    seed = _whole_option(options.get("seed", DEFAULT_SEED), "seed", 0, MAX_SEED)
    include = pass_cards(options.get("include"), "include")
    if body.get("direction") == "hold" and include is not None:
        raise RequestError("include is for a pass, and no cards are passed on a hold hand")
    observation = observation_from_view(body)
    if observation.must_pass:
        if include is not None and mask_of(include) & ~observation.hand:
            missing = next(card for card in include if not has_card(observation.hand, card))
            raise RequestError(f"include: {card_text(missing)} is not in the hand")
    else:
        _require_turn(observation)
        if include is not None:
            raise RequestError(f"include is for a pass, and seat {observation.seat} plays now")
    analysis = analyse(observation, samples, seed, budget, () if include is None else (include,))
    values = [round(cost, VALUE_DECIMALS) for cost in analysis.costs]
    best = [card_text(card) for card in analysis.candidates[analysis.best]]
    if analysis.kind == "play":
        cards = [card_text(cards[0]) for cards in analysis.candidates]
        return {
            "kind": "play",
            "values": dict(zip(cards, values, strict=True)),
            "best": best[0],
            "samples": analysis.samples,
        }
    passes = [
        {"cards": [card_text(card) for card in cards], "value": value}
        for cards, value in zip(analysis.candidates, values, strict=True)
    ]
    return {"kind": "pass", "passes": passes, "best": best, "samples": analysis.samples}


def _whole_option(value: object, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RequestError(
            f"{name} must be a whole number from {low} to {high}, got {describe_value(value)}"
        )
    return value


def _score(body: dict[str, Any], bot: Bot, budget: Budget | None) -> dict[str, Any]:
    return {"points": list(score_finished_hand(body).points)}


_HANDLERS: dict[str, Callable[[dict[str, Any], Bot, Budget | None], dict[str, Any]]] = {
    "legal": _legal,
    "play": _play,
    "pass": _pass,
    "analyse": _analyse,
    "score": _score,
}


def handle_request(request: object, bot: Bot, think_ms: float | None = None) -> Reply:
    """Answer one parsed request; never raises for any JSON value.

    A ``play``, ``pass`` or ``analyse`` gets a budget of ``think_ms`` from now (None: no
    budget); an ``analyse`` always uses the hard bot's search, whatever ``bot`` is.
    """
    budget = None if think_ms is None else Budget.for_ms(think_ms)
    if not isinstance(request, dict):
        return Reply({"error": f"a request must be a JSON object, got {describe_value(request)}"})
    reply: dict[str, Any] = {}
    if "id" in request:
        request_id = request["id"]
        if isinstance(request_id, (list, dict)):
            return Reply({"error": "id must be a string, a number, true, false or null"})
        reply["id"] = request_id
    try:
        kind = request.get("type")
        if kind is None:
            raise ViewError("missing field 'type' (legal, play, pass, analyse, score or quit)")
        if not isinstance(kind, str) or kind not in REQUEST_TYPES:
            raise ViewError(
                f"unknown request type {describe_value(kind)} (use legal, play, pass, analyse, "
                "score or quit)"
            )
        body = {key: value for key, value in request.items() if key not in ("type", "id")}
        if kind == "quit":
            if body:
                raise ViewError(f"unknown field {describe_value(next(iter(body)))} in quit")
            reply["ok"] = True
            return Reply(reply, quit=True)
        allowed = {"score": SCORE_FIELDS, "analyse": VIEW_FIELDS + ANALYSE_OPTIONS}.get(
            kind, VIEW_FIELDS
        )
        for key in body:
            if key not in allowed:
                raise ViewError(
                    f"unknown field {describe_value(key)} in {kind} (known: type, id, "
                    f"{', '.join(allowed)})"
                )
        reply.update(_HANDLERS[kind](body, bot, budget))
    except HeartsError as error:
        reply["error"] = str(error)[:MAX_ERROR_LENGTH]
    except Exception as error:
        reply["error"] = f"internal error: {type(error).__name__}: {error}"[:MAX_ERROR_LENGTH]
    return Reply(reply)


def handle_line(line: str | bytes, bot: Bot, think_ms: float | None = None) -> Reply | None:
    """Answer one request line; return None for a blank line. Never raises.

    A ``play`` or ``pass`` gives the bot ``think_ms`` to think (None: no budget).
    """
    try:
        if isinstance(line, bytes):
            line = line.rstrip(b"\r\n")
            if len(line) > MAX_LINE_BYTES:
                return Reply({"error": f"line too long: the limit is {MAX_LINE_BYTES} bytes"})
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                return Reply({"error": "not valid JSON: the line is not UTF-8 text"})
        else:
            text = line.rstrip("\r\n")
            if len(text.encode("utf-8", "replace")) > MAX_LINE_BYTES:
                return Reply({"error": f"line too long: the limit is {MAX_LINE_BYTES} bytes"})
        if not text.strip():
            return None
        try:
            request = parse_strict_json(text, max_digits=MAX_NUMBER_DIGITS)
        except StrictJsonError as error:
            return Reply({"error": f"not valid JSON: {error}"[:MAX_ERROR_LENGTH]})
        return handle_request(request, bot, think_ms)
    except Exception as error:
        return Reply({"error": f"internal error: {type(error).__name__}"})


def encode_reply(data: dict[str, Any]) -> str:
    """Return a reply as one line of JSON (without the line end)."""
    try:
        return json.dumps(data, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return json.dumps({"error": "internal error: the reply could not be encoded"})
