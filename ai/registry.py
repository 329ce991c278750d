"""Bots by name, so tournaments, transports and settings can name a seat's player."""

from __future__ import annotations

from collections.abc import Callable

from ai.basic import FirstLegalBot, RandomBot
from ai.bot import Bot
from ai.easy import EasyBot
from ai.normal import NormalBot

BotFactory = Callable[[int | None], Bot]

#: Each bot name with a factory taking a seed.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "first": lambda seed: FirstLegalBot(),
    "easy": EasyBot,
    "normal": NormalBot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Return a new bot of the named kind (seeded when it uses chance); raise ValueError."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})") from None
    return factory(seed)
