"""Bots by name, so tournaments, transports and settings can name a seat's player."""

from __future__ import annotations

from collections.abc import Callable

from ai.basic import FirstLegalBot, RandomBot
from ai.bot import Bot
from ai.easy import EasyBot
from ai.external import ENGINE_PREFIX, make_engine_bot
from ai.hard import HardBot
from ai.normal import NormalBot

BotFactory = Callable[[int | None], Bot]

#: Each bot name with a factory taking a seed.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "first": lambda seed: FirstLegalBot(),
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
    "ismcts": lambda seed: _ismcts(seed),
}


def _ismcts(seed: int | None) -> Bot:
    """OpenSpiel's ISMCTS, a yardstick seat (needs the optional open-spiel package)."""
    from ai.ismcts import IsmctsBot

    try:
        return IsmctsBot(seed)
    except ImportError as error:
        raise ValueError(f"the ismcts bot is not available: {error}") from None


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Return a new bot by name or ``engine:COMMAND`` (seeded when it uses chance).

    Raises ValueError for an unknown name or an unusable engine command.
    """
    if name.startswith(ENGINE_PREFIX):
        return make_engine_bot(name, seed)
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})") from None
    return factory(seed)
