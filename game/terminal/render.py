"""What the harness prints: the status and the events, as text for people or as JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core import events as ev
from core.actions import Action, PassAction
from core.cards import card_label, card_text, mask_texts, parse_card
from core.controller import Controller, Result
from core.hand import Trick
from core.rules import pass_receiver, pass_sender
from core.seats import seat_texts
from game.terminal.bots import EngineProblem
from game.terminal.commands import Outcome
from game.terminal.seats import viewing_seat
from game.terminal.undo import can_undo


def show_cards(cards: Sequence[str] | None, symbols: bool = False) -> str:
    """Return card texts joined by spaces, with suit symbols if asked, or ``-`` when none."""
    if not cards:
        return "-"
    return " ".join(card_label(parse_card(text)) if symbols else text for text in cards)


def seat_name(seat: int, viewer: int | None) -> str:
    """Return ``you (seat N)`` for the viewing seat, else ``seat N``."""
    return f"you (seat {seat})" if seat == viewer else f"seat {seat}"


def _trick_data(controller: Controller, trick: Trick | None, number: int) -> dict[str, Any] | None:
    return None if trick is None else trick.to_dict(number, controller.rules.flags)


def _texts(cards: Sequence[int] | None) -> list[str] | None:
    return None if cards is None else [card_text(card) for card in sorted(cards)]


def status_data(controller: Controller, seat: int | None) -> dict[str, Any]:
    """Return the status as JSON data, with the private view of ``seat`` (None: no hand)."""
    tricks = controller.tricks
    done = sum(1 for trick in tricks if trick.complete)
    data: dict[str, Any] = {
        "phase": controller.phase,
        "hand_number": controller.hand_number,
        "direction": controller.pass_direction,
        "seats": list(seat_texts(controller.seats)),
        "to_act": controller.seats_to_act,
        "seat": seat,
        "your_turn": seat is not None and seat in controller.seats_to_act,
        "hand": None,
        "passed": None,
        "received": None,
        "legal": [],
        "trick": _trick_data(controller, controller.current_trick, done + 1),
        "last_trick": _trick_data(controller, controller.last_trick, done),
        "hearts_broken": controller.hearts_broken,
        "hand_points": controller.hand_points,
        "totals": list(controller.totals),
        "winner": controller.winner,
        "can_undo": can_undo(controller),
        "can_redo": controller.can_redo,
        "rules": controller.rules.to_dict(),
        # The seed deals every hand: shown only once the match is over, for replays.
        "seed": _seed_when_over(controller, seat),
    }
    if seat is not None:
        view = controller.observation(seat)
        data["hand"] = mask_texts(view.hand)
        data["passed"] = _texts(view.passed)
        data["received"] = _texts(view.received)
        data["legal"] = _texts(controller.legal_cards(seat))
    return data


def _seed_when_over(controller: Controller, seat: int | None) -> int | None:
    """Return the match's seed when a viewing seat may know it: no seat, or the match over."""
    match = controller.match
    if match is None or (seat is not None and controller.phase != "match_over"):
        return None
    return match.seed


def _trick_line(trick: dict[str, Any], viewer: int | None, symbols: bool) -> str:
    plays = [
        f"{seat_name(seat, viewer)} {show_cards([card], symbols)}"
        for seat, card in zip(trick["seats"], trick["cards"], strict=True)
    ]
    if "winner" in trick:
        return (
            f"last trick ({trick['number']}): {', '.join(plays)}; "
            f"{seat_name(trick['winner'], viewer)} took it ({trick['points']} points)"
        )
    if not plays:
        return f"trick {trick['number']}: {seat_name(trick['leader'], viewer)} to lead"
    return f"trick {trick['number']}: {', '.join(plays)}"


def _turn_line(data: dict[str, Any]) -> str:
    phase, viewer, to_act = data["phase"], data["seat"], data["to_act"]
    if phase == "match_over":
        return (
            f"match over: {seat_name(data['winner'], viewer)} won "
            f"(seed {data['seed']} deals these hands again)"
        )
    if phase == "hand_over":
        return "hand over: `mdhearts cli next` deals the next hand"
    if data["your_turn"] and phase == "pass":
        receiver = pass_receiver(viewer, data["direction"])
        return f"your move: pass 3 cards {data['direction']} to seat {receiver}"
    if data["your_turn"]:
        return "your move: play a card"
    waiting = ", ".join(seat_name(seat, viewer) for seat in to_act)
    return f"waiting for {waiting} to {phase}"


def status_text(data: dict[str, Any], symbols: bool = False) -> str:
    """Return the status for people to read, from ``status_data``."""
    viewer = data["seat"]
    seats = ", ".join(
        f"{seat_name(seat, viewer)} {kind}" for seat, kind in enumerate(data["seats"])
    )
    lines = [
        f"hand {data['hand_number']}, pass {data['direction']}, phase {data['phase']}",
        f"seats: {seats}",
        _turn_line(data),
    ]
    if data["hand"] is not None:
        lines.append(f"your hand: {show_cards(data['hand'], symbols)}")
    if data["passed"] is not None:
        line = f"you passed: {show_cards(data['passed'], symbols)}"
        if data["received"] is not None:
            sender = pass_sender(viewer, data["direction"])
            line += f"; received from seat {sender}: {show_cards(data['received'], symbols)}"
        lines.append(line)
    for key in ("trick", "last_trick"):
        if data[key] is not None:
            lines.append(_trick_line(data[key], viewer, symbols))
    lines.append(f"hearts broken: {'yes' if data['hearts_broken'] else 'no'}")
    lines.append(f"points this hand (seats 0-3): {' '.join(map(str, data['hand_points']))}")
    lines.append(f"totals (seats 0-3): {' '.join(map(str, data['totals']))}")
    if data["your_turn"] and data["phase"] == "play":
        lines.append(f"legal: {show_cards(data['legal'], symbols)}")
    return "\n".join(lines) + "\n"


def _action_text(action: Action, viewer: int | None, symbols: bool) -> str:
    if isinstance(action, PassAction):
        cards = f" {show_cards(_texts(action.cards), symbols)}" if action.seat == viewer else ""
        return f"{seat_name(action.seat, viewer)} passed{cards}"
    return f"{seat_name(action.seat, viewer)} played {show_cards([action.text], symbols)}"


def describe_event(event: ev.Event, viewer: int | None, symbols: bool = False) -> str:
    """Return one line saying what an event means, keeping other seats' passes private."""
    if isinstance(event, ev.MatchStarted):
        # The seed deals every hand: a seat sees it only once the match is over (status).
        seed = f" (seed {event.seed})" if viewer is None else ""
        return f"new match{seed}, seats: {', '.join(event.seats)}"
    if isinstance(event, ev.HandStarted):
        passing = "no passing" if event.direction == "hold" else f"pass {event.direction}"
        return f"hand {event.hand_number} dealt, {passing}"
    if isinstance(event, ev.PassSubmitted):
        return f"{seat_name(event.seat, viewer)} chose a pass"
    if isinstance(event, ev.PassesExchanged):
        return f"cards passed {event.direction}"
    if isinstance(event, ev.CardPlayed):
        card = show_cards([card_text(event.card)], symbols)
        return f"{seat_name(event.seat, viewer)} played {card}"
    if isinstance(event, ev.HeartsBroken):
        return "hearts are broken"
    if isinstance(event, ev.TrickWon):
        return (
            f"{seat_name(event.seat, viewer)} took trick {event.trick_number} "
            f"({event.points} points)"
        )
    if isinstance(event, ev.HandScored):
        moon = "" if event.moon_shooter is None else f"; seat {event.moon_shooter} shot the moon"
        points = " ".join(map(str, event.points))
        totals = " ".join(map(str, event.totals))
        return f"hand scored: points {points}; totals {totals}{moon}"
    if isinstance(event, ev.MatchOver):
        return f"match over: {seat_name(event.winner, viewer)} won"
    if isinstance(event, ev.ActionUndone):
        return f"undone: {_action_text(event.action, viewer, symbols)}"
    if isinstance(event, EngineProblem):
        line = f"{seat_name(event.seat, viewer)}: {event.problem}; its fallback bot moved"
        return line if event.rest_of_hand is None else f"{line}\n{event.rest_of_hand}"
    return event.kind.replace("_", " ")


def render(outcome: Outcome, as_json: bool, symbols: bool) -> str:
    """Return the output of a command that succeeded."""
    controller = outcome.controller
    seat = outcome.seat if outcome.seat is not None else viewing_seat(controller, None)
    if as_json:
        data = Result(True, tuple(outcome.events)).to_dict()
        over = controller.phase == "match_over"
        data["events"] = [ev.seat_view(event, seat, match_over=over) for event in data["events"]]
        data.update(status_data(controller, seat))
        data.update(outcome.extra)
        return json.dumps(data) + "\n"
    lines = [describe_event(event, seat, symbols) + "\n" for event in outcome.events]
    text = "".join(lines) + outcome.message
    if outcome.show_status:
        text += status_text(status_data(controller, seat), symbols)
    return text
