"""A misbehaving external engine for tests: answers like echo_engine, except when it misbehaves.

    bad_engine.py MODE [--on pass|play|any] [--once FLAG_FILE]

MODE is how it misbehaves: ``crash`` (exit 3 without answering), ``garbage`` (not JSON),
``illegal`` (a card it does not hold; a pass listing one card twice), ``unlawful`` (a card
it holds but may not play, or a pass of a card it does not hold), ``slow`` (answers after
a minute), ``hang`` (never answers, ignores SIGTERM and the end of its input: sleeps an
hour), ``wrong_id``, ``error_reply`` (``{"error": ...}``) or ``ignore_quit`` (answers well but
never exits on quit or end of input). It misbehaves on requests of the type given by
``--on`` (default ``any``); with ``--once`` only while FLAG_FILE does not exist, which it then
creates, so a restarted engine behaves.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from typing import Any

from echo_engine import answer

from core.cards import FULL_DECK, card_text, cards_of
from core.view import observation_from_view

MODES = (
    "crash",
    "garbage",
    "illegal",
    "unlawful",
    "slow",
    "hang",
    "wrong_id",
    "error_reply",
    "ignore_quit",
)


def _illegal(request: dict[str, Any], held: bool) -> dict[str, Any]:
    """Return a reply breaking the rules: with a card the seat does not hold unless ``held``."""
    reply = answer(request)
    view = {key: value for key, value in request.items() if key not in ("type", "id")}
    observation = observation_from_view(view)
    not_held = card_text(cards_of(FULL_DECK & ~observation.hand)[0])
    if request["type"] == "pass":
        reply["cards"] = [*reply["cards"][:2], not_held] if held else [reply["cards"][0]] * 3
    else:
        unplayable = cards_of(observation.hand & ~observation.legal_mask())
        reply["card"] = card_text(unplayable[0]) if held and unplayable else not_held
    return reply


def _should_misbehave(request: dict[str, Any], on: str, once: str | None) -> bool:
    if on != "any" and request.get("type") != on:
        return False
    if once is None:
        return True
    if os.path.exists(once):
        return False
    with open(once, "w", encoding="utf-8"):
        pass
    return True


def main() -> int:
    """Serve requests, misbehaving as told."""
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--on", choices=("pass", "play", "any"), default="any")
    parser.add_argument("--once", default=None)
    args = parser.parse_args()
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "quit":
            if args.mode == "ignore_quit":
                continue
            return 0
        reply = answer(request)
        if args.mode != "ignore_quit" and _should_misbehave(request, args.on, args.once):
            if args.mode == "crash":
                return 3
            if args.mode == "slow":
                time.sleep(60)
            elif args.mode == "hang":
                if hasattr(signal, "SIGTERM"):
                    signal.signal(signal.SIGTERM, signal.SIG_IGN)
                time.sleep(3600)
            elif args.mode == "garbage":
                print("thinking... done", flush=True)
                continue
            elif args.mode in ("illegal", "unlawful"):
                reply = _illegal(request, held=args.mode == "unlawful")
            elif args.mode == "wrong_id":
                reply["id"] = request["id"] + 1000
            elif args.mode == "error_reply":
                reply = {"id": request["id"], "error": "I give up"}
        print(json.dumps(reply), flush=True)
    if args.mode == "ignore_quit":
        time.sleep(60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
