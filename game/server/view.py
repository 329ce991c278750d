"""What a seat may see of a table: the one function every outgoing table frame is built from.

``seat_frame(table, seat, item)`` turns a snapshot request or a published event into the frame
for ``seat`` (None for a spectator). It reads the table only through what that seat may know:
its own hand, pass and received cards, and what everyone saw. The match's seed, other seats'
hands and other seats' passes are never put in a frame; an event kind it does not know is not
sent at all (fair by construction: one test scans every frame of whole matches).

A seat's ``hand_started`` carries the seat's own dealt cards (``hand``), so a client follows
the game from the events alone and needs a snapshot only to catch up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core import events as ev
from core.cards import card_text, mask_texts
from core.controller import Controller
from core.hand import Trick
from game.server.protocol import frame
from game.server.table import SeatChanged, Table, TableStarted

#: Events everyone may see whole.
_PUBLIC = frozenset(
    {
        ev.HandStarted.kind,
        ev.PassSubmitted.kind,
        ev.CardPlayed.kind,
        ev.HeartsBroken.kind,
        ev.TrickWon.kind,
        ev.HandScored.kind,
        ev.MatchOver.kind,
        SeatChanged.kind,
        TableStarted.kind,
    }
)


#: Public events that tell each seat something of its own too (built per seat).
_PERSONAL = frozenset({ev.HandStarted.kind})


@dataclass(frozen=True)
class Snapshot:
    """Everything the seat may see now, with the counter of the last event published."""


@dataclass(frozen=True)
class Published:
    """An event of the table with its sequence number."""

    seq: int
    event: ev.Event


def seat_frame(table: Table, seat: int | None, item: Snapshot | Published) -> dict[str, Any] | None:
    """Return the frame that tells ``seat`` (None: a spectator) about ``item``, or None when
    there is nothing that seat may be told (an event kind not known to be public)."""
    if isinstance(item, Snapshot):
        return frame("snapshot", seq=table.seq, state=_state(table, seat))
    data = _event(table, item.event, seat)
    if data is None:
        return None
    return frame("event", seq=item.seq, event=data)


def shared_frame(item: Published) -> dict[str, Any] | None:
    """Return the frame of ``item`` when it is the same for every seat and spectator (a
    public event), so it is built and encoded once; None when each seat gets its own."""
    if item.event.kind not in _PUBLIC or item.event.kind in _PERSONAL:
        return None
    return frame("event", seq=item.seq, event=item.event.to_dict())


def _event(table: Table, event: ev.Event, seat: int | None) -> dict[str, Any] | None:
    data = event.to_dict()
    kind = data["type"]
    if isinstance(event, ev.HandStarted):
        if seat is not None:
            data["hand"] = _dealt(table.controller, event.hand_number, seat)
        return data
    if kind in _PUBLIC:
        return data
    if kind == ev.MatchStarted.kind:
        return {"type": kind, "seats": data["seats"]}  # never the seed
    if kind == ev.PassesExchanged.kind:
        known = () if seat is None else ev.passes_known(seat, data["direction"])
        data["passes"] = [cards if s in known else None for s, cards in enumerate(data["passes"])]
        return data
    return None


def _dealt(controller: Controller | None, hand_number: int, seat: int) -> list[str] | None:
    """Return the cards ``seat`` was dealt in hand ``hand_number`` (None if not kept)."""
    match = None if controller is None else controller.match
    if match is None:
        return None
    index = hand_number - match.earlier.count - 1
    return mask_texts(match.hands[index].deal[seat]) if 0 <= index < len(match.hands) else None


def _trick(controller: Controller, trick: Trick | None, number: int) -> dict[str, Any] | None:
    return None if trick is None else trick.to_dict(number, controller.rules.flags)


def _texts(cards: tuple[int, ...] | None) -> list[str] | None:
    return None if cards is None else [card_text(card) for card in sorted(cards)]


def _state(table: Table, seat: int | None) -> dict[str, Any]:
    """Return the table as ``seat`` may see it (the keys of the terminal's status, and more)."""
    players = [table.seat_event(number).to_dict() for number in range(4)]
    for player in players:
        del player["type"]
    data: dict[str, Any] = {
        "code": table.code,
        "started": table.started,
        "players": players,
        "rules": table.rules.to_dict(),
        "seat": seat,
        "seed": None,
        "hand": None,
        "passed": None,
        "received": None,
        "legal": [],
    }
    controller = table.controller
    if controller is None:
        data.update(phase="waiting", to_act=[], your_turn=False)
        return data
    tricks = controller.tricks
    done = sum(1 for trick in tricks if trick.complete)
    data.update(
        phase=controller.phase,
        hand_number=controller.hand_number,
        direction=controller.pass_direction,
        seats=[player["player"] for player in players],
        to_act=controller.seats_to_act,
        your_turn=seat is not None and seat in controller.seats_to_act,
        trick=_trick(controller, controller.current_trick, done + 1),
        last_trick=_trick(controller, controller.last_trick, done),
        tricks=[_trick(controller, trick, n) for n, trick in enumerate(tricks, start=1)],
        hearts_broken=controller.hearts_broken,
        hand_points=controller.hand_points,
        totals=list(controller.totals),
        winner=controller.winner,
        can_undo=False,
        can_redo=False,
    )
    if seat is not None:
        view = controller.observation(seat)
        data["hand"] = mask_texts(view.hand)
        data["passed"] = _texts(view.passed)
        data["received"] = _texts(view.received)
        data["legal"] = [card_text(card) for card in controller.legal_cards(seat)]
    return data
