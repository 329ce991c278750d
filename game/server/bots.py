"""The server's bots: decisions asked of the shared bot worker process, never on the loop.

``ServerBots`` submits a request for each seat a bot must play now and hands back, from
``poll``, the settled decisions that are still wanted: a request is dropped when its seat got a
newer request or was answered otherwise (its person came back). The worker
(``game.server.bot_worker``, built on ``ai.worker``) keeps each decision within its think
limit, plays the fallback move for a bot that fails, keeps a bounded number of bots (a table's
are forgotten when ``forget_table`` says it is over), and ends with the server, however it ends.
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.think import Decision
from core.observation import Observation
from game.server.bot_worker import ServerBotWorker


@dataclass(frozen=True)
class BotMove:
    """A settled decision for a seat of a table."""

    table_id: int
    seat: int
    decision: Decision


class ServerBots:
    """Bot decisions for every table, asked of one worker process."""

    def __init__(self, limit_ms: float) -> None:
        self.limit_ms = limit_ms
        self.worker = ServerBotWorker()
        self._requests: dict[int, tuple[int, int]] = {}
        self._latest: dict[tuple[int, int], int] = {}

    def start(self) -> None:
        """Start the worker process now, so the first decision does not wait for it."""
        self.worker.start()

    def close(self) -> None:
        """End the worker process."""
        self.worker.close()

    def pending(self, table_id: int, seat: int) -> bool:
        """Return whether a decision for this seat is being made."""
        return (table_id, seat) in self._latest

    def ask(self, table_id: int, seat: int, observation: Observation, bot: str) -> None:
        """Ask the bot ``bot`` for the seat's decision (a table's bots are its own: the seed)."""
        request = self.worker.submit(
            observation, bot, seed=table_id, limit_ms=self.limit_ms, supersede=False
        )
        self._requests[request] = (table_id, seat)
        self._latest[(table_id, seat)] = request

    def forget(self, table_id: int, seat: int) -> None:
        """Drop the decision being made for this seat (its result will be ignored)."""
        self._latest.pop((table_id, seat), None)

    def forget_table(self, table_id: int) -> None:
        """Drop every decision being made for a table, and the worker's bots for it (they are
        built again if the table asks once more)."""
        for key in [key for key in self._latest if key[0] == table_id]:
            del self._latest[key]
        self.worker.forget_seed(table_id)

    def poll(self) -> list[BotMove]:
        """Return the decisions ready now that are still wanted."""
        moves = []
        for result in self.worker.poll():
            key = self._requests.pop(result.id, None)
            if key is None or self._latest.get(key) != result.id:
                continue
            del self._latest[key]
            moves.append(BotMove(key[0], key[1], result.decision))
        return moves

    @property
    def busy(self) -> bool:
        """Return whether any decision is being made."""
        return bool(self._latest)
