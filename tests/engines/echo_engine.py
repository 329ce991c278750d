"""A tiny external engine for tests: passes its three highest cards, plays its lowest legal card.

It speaks the engine protocol (docs/protocol.md) on stdin/stdout and answers like our
``first`` bot, so a hand it plays can be compared with one that bot plays.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from core.cards import card_text, cards_of
from core.view import observation_from_view


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """Return the reply to one ``pass`` or ``play`` request."""
    reply: dict[str, Any] = {"id": request.get("id")}
    view = {key: value for key, value in request.items() if key not in ("type", "id")}
    observation = observation_from_view(view)
    if request.get("type") == "pass":
        reply["cards"] = [card_text(card) for card in cards_of(observation.hand)[-3:]]
    else:
        reply["card"] = card_text(cards_of(observation.legal_mask())[0])
    return reply


def main() -> int:
    """Answer requests until ``quit`` or the end of input."""
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "quit":
            return 0
        print(json.dumps(answer(request)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
