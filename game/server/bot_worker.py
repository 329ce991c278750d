"""The server's bot worker process: one process thinks for every table, so its bots are kept
in a bounded cache and a finished table's bots are forgotten.

``ai.worker.worker_main`` keeps every bot it builds (one per seat, bot, seed and gates) for the
life of its process: right for one game at a time, a leak for a server whose tables come and
go (the server's seed is the table's id). ``ServerBotWorker`` runs ``server_worker_main``
instead, the same loop with a ``BotCache`` (least recently used bots leave first) that also
takes two messages of its own: ``ForgetSeed`` (a table is over) and ``CountBots`` (how many
bots are kept, answered as a ``("bots", 0, count)`` message).
"""

from __future__ import annotations

import signal
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ai.bot import Bot
from ai.worker import BotWorker, end_with_parent, serve_requests

#: How many bots the worker keeps at most: four a table, so this many / 4 tables at once
#: think without building their bots again.
CACHE_SIZE = 4096


@dataclass(frozen=True)
class ForgetSeed:
    """A message to the worker: forget every bot built with this seed (a table is over)."""

    seed: int


@dataclass(frozen=True)
class CountBots:
    """A message to the worker: say how many bots it keeps."""


class BotCache(OrderedDict[Any, Bot]):
    """Bots by ``ai.worker.answer``'s key ``(seat, bot, seed, gates)``, at most ``size`` of
    them: the least recently used leaves first."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        super().__init__()
        self.size = max(1, size)

    def __getitem__(self, key: Any) -> Bot:
        self.move_to_end(key)
        return super().__getitem__(key)

    def __setitem__(self, key: Any, bot: Bot) -> None:
        super().__setitem__(key, bot)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)

    def forget_seed(self, seed: int) -> None:
        """Drop every bot built with ``seed``."""
        for key in [key for key in self if key[2] == seed]:
            del self[key]


def server_worker_main(requests: Any, results: Any, floor: Any) -> None:
    """The server's worker process: ``ai.worker.worker_main`` with a ``BotCache`` and the
    ``ForgetSeed`` and ``CountBots`` messages."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    end_with_parent()
    serve_cached_requests(requests, results, floor, BotCache(CACHE_SIZE))


def serve_cached_requests(requests: Any, results: Any, floor: Any, bots: BotCache) -> None:
    """``ai.worker.serve_requests`` with ``bots`` and the server's own two messages."""

    def other(message: Any) -> None:
        if isinstance(message, ForgetSeed):
            bots.forget_seed(message.seed)
        elif isinstance(message, CountBots):
            results.put(("bots", 0, len(bots)))

    serve_requests(requests, results, floor, bots, other)


class ServerBotWorker(BotWorker):
    """A ``BotWorker`` running ``server_worker_main``: it forgets a table's bots when told,
    and says how many bots it keeps (``bot_count``, once ``count_bots`` is answered)."""

    process_target = staticmethod(server_worker_main)

    def __init__(self) -> None:
        super().__init__()
        self.bot_count: int | None = None

    def forget_seed(self, seed: int) -> None:
        """Tell the worker to forget the bots built with ``seed`` (nothing if none runs)."""
        self._tell(ForgetSeed(seed))

    def count_bots(self) -> None:
        """Ask the worker how many bots it keeps; ``poll`` sets ``bot_count`` when it says."""
        self.bot_count = None
        self._tell(CountBots())

    def _tell(self, message: ForgetSeed | CountBots) -> None:
        if self._requests is None:
            return
        try:
            self._requests.put(message)
        except (ValueError, OSError):
            self._channel_failed = True

    def _handle(self, message: Any) -> list[Any]:
        kind, _, value = message
        if kind == "bots":
            self.bot_count = int(value)
            return []
        return super()._handle(message)
