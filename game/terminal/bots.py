"""The players of a match's seats that are not people: built-in bots and engine programs.

The terminal harness (one-shot commands and the interactive session) lets the other seats
answer after each command. ``BotSeats`` holds what that needs: the think config, the telemetry
log, the runner that asks the bots (in this process for bots that answer at once, in the shared
worker process for bots that search, or always when asked to) and the engine programs of
``engine:`` seats, run in this process, started on first use and ended by ``close``. An engine
seat's decisions keep to the think limit and go to telemetry like the bots'; each problem of
its program is reported as an ``EngineProblem`` event among the moves. Whether a record's engine
seats may start at all is decided before (``ai.registry.check_seats``): the person must have
agreed.
(The table asks its bots without waiting, through ``game.table.bot_requests``.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from ai.autoplay import BotError, play_bots
from ai.bot import Bot, Budget
from ai.registry import DEFAULT_SEAT_BOT, check_seats, seat_bot_names
from ai.telemetry import TelemetryLog, telemetry_from_env
from ai.think import (
    INSTANT_BOTS,
    BotRunner,
    Decision,
    DirectRunner,
    ThinkConfig,
    think_config_from_env,
)
from ai.worker import BotWorker, WorkerRunner
from core import events as ev
from core.controller import Controller
from core.environment import environment
from core.observation import Observation
from core.seats import Seat

__all__ = [
    "DEFAULT_SEAT_BOT",
    "BotError",
    "BotSeats",
    "EngineProblem",
    "RunnerBot",
    "play_bots",
    "shared_worker",
]


class RunnerBot:
    """A seat's bot that asks a runner for every move, so ``play_bots`` can drive it.

    The runner decides how long the bot thinks and what happens when it fails; the move it
    returns is always legal. ``decision`` is the last settled decision.
    """

    def __init__(self, runner: BotRunner, name: str, seed: int | None = None) -> None:
        self.runner = runner
        self.name = name
        self.seed = seed
        self.decision: Decision | None = None
        self.last_decision: dict[str, Any] = {}

    def _decide(self, observation: Observation) -> Any:
        self.decision = self.runner.decide(observation, self.name, self.seed)
        self.last_decision = dict(self.decision.facts)
        return self.decision.action

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Return the runner's pass for this seat."""
        return cast(tuple[int, int, int], self._decide(observation))

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Return the runner's card for this seat."""
        return cast(int, self._decide(observation))


@dataclass(frozen=True)
class EngineProblem(ev.Event):
    """An engine seat's program misbehaved; its fallback bot made the move that follows.

    ``problem`` says what went wrong; ``rest_of_hand`` is set once, when that problem was one
    too many for this hand and the fallback bot plays the rest of it.
    """

    kind: ClassVar[str] = "engine_problem"
    seat: int
    problem: str
    rest_of_hand: str | None = None


def engine_problem(seat: int, decision: Decision | None) -> list[ev.Event]:
    """Return the event reporting the problem of an engine seat's decision, if it had one."""
    facts = {} if decision is None else decision.facts
    problem = facts.get("problem")
    if not isinstance(problem, str):
        return []
    benched = facts.get("benched")
    return [EngineProblem(seat, problem, benched if isinstance(benched, str) else None)]


_shared_worker: BotWorker | None = None


def shared_worker() -> BotWorker:
    """Return this program's bot worker, shared by its sessions (its process starts lazily)."""
    global _shared_worker
    if _shared_worker is None:
        _shared_worker = BotWorker()
    return _shared_worker


class BotSeats:
    """The bots of a transport's seats: think config, telemetry and the runner asking them.

    ``use_worker`` None runs the bots of ``INSTANT_BOTS`` in this process and the others in
    the shared worker; True sends every bot to the worker; False runs all in this process.
    Plain ``bot`` seats are played by ``config.difficulty``. ``allow_engines`` says whether
    the person agreed that ``engine:`` seats start their programs; without it none starts.
    """

    #: Whether engine seats may start their programs (the person's consent).
    allow_engines = False

    def __init__(
        self,
        config: ThinkConfig | None = None,
        telemetry: TelemetryLog | None = None,
        use_worker: bool | None = None,
    ) -> None:
        self.config = config or ThinkConfig()
        self.telemetry = telemetry
        self.use_worker = use_worker
        self._direct: DirectRunner | None = None
        self._worker: WorkerRunner | None = None
        self._engines: DirectRunner | None = None

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        base: ThinkConfig | None = None,
        telemetry_name: str | None = None,
        use_worker: bool | None = None,
    ) -> tuple[BotSeats, list[str]]:
        """Return bot seats configured by the environment, and one warning per bad variable."""
        env = environment(environ)
        config, warnings = think_config_from_env(env, base)
        telemetry, telemetry_warnings = telemetry_from_env(env, telemetry_name)
        return cls(config, telemetry, use_worker), warnings + telemetry_warnings

    def names(self, seats: Sequence[Seat]) -> dict[int, str]:
        """Return the bot name of every built-in bot seat (plain ``bot`` seats: the config's)."""
        return seat_bot_names(seats, self.config.difficulty)

    def engine(self, number: int, seat: Seat) -> RunnerBot:
        """Return the player of engine seat ``number``: its program (started on first use) in
        this process, asked within the think limit, its decisions reported to telemetry.

        Raises SeatRefused, starting nothing, unless the person agreed (``allow_engines``).
        """
        check_seats([seat], allow_engines=self.allow_engines, first_number=number)
        if self._engines is None:
            report = None if self.telemetry is None else self.telemetry.record
            self._engines = DirectRunner(self.config, report)
        return RunnerBot(self._engines, str(seat))

    def runner(self, names: Iterable[str]) -> BotRunner:
        """Return the runner for bots of these names (made on first use, then kept)."""
        worker = self.use_worker
        if worker is None:
            worker = any(name not in INSTANT_BOTS for name in names)
        report = None if self.telemetry is None else self.telemetry.record
        if worker:
            if self._worker is None:
                self._worker = WorkerRunner(self.config, report, shared_worker())
            return self._worker
        if self._direct is None:
            self._direct = DirectRunner(self.config, report)
        return self._direct

    def play(self, controller: Controller) -> list[ev.Event]:
        """Let the bot seats move until a person must act or the hand is over.

        Raises BotError only for a bug (the runners always answer with a legal move).
        """
        names = self.names(controller.seats)
        bots: dict[int, Bot] = {}
        if names:
            runner = self.runner(names.values())
            bots = {seat: RunnerBot(runner, name) for seat, name in names.items()}
        engines = {
            number: self.engine(number, seat)
            for number, seat in enumerate(controller.seats)
            if seat.is_engine
        }
        bots.update(engines)

        def notes(seat: int) -> list[ev.Event]:
            engine = engines.get(seat)
            return [] if engine is None else engine_problem(seat, engine.decision)

        return play_bots(controller, bots, notes=notes) if bots else []

    def cancel(self) -> None:
        """Drop the decisions in progress (a move was undone or a new match began)."""
        for runner in (self._direct, self._worker):
            if runner is not None:
                runner.cancel_all()

    def close(self) -> None:
        """Release the runners (the shared worker stays for the program's next session)."""
        for runner in (self._direct, self._worker, self._engines):
            if runner is not None:
                runner.close()
        self._direct = self._worker = self._engines = None
