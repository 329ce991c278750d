"""Bots thinking in a worker process, so a searching bot never freezes the game.

``BotWorker`` owns one process started with the ``spawn`` method, a request queue and a result
queue. Every request carries an id. ``submit`` returns at once and ``poll`` returns the results
that are ready without waiting, so a game loop can ask every frame; ``decide`` is the blocking
convenience for the terminal. A newer request (or ``cancel_all``) supersedes the older ones:
their bots are told to stop through a shared value holding the oldest id still wanted, and
their results are dropped.

Whatever goes wrong, the game goes on with a legal move: a bot that fails or answers illegally,
a worker that dies, or one that does not answer within the time limit plus a grace period, is
answered by the fallback move, computed in this process; a dead or hung worker is replaced,
and the engine programs it started end with it (their guard, see ``ai.external``).
The worker ends as soon as the main process is gone, however it ended (see
``end_with_parent``); multiprocessing's resource tracker, which ``spawn`` always starts, then ends
with it. This module is free of pygame and its process entry point is a top-level function, as
the ``spawn`` method (and a frozen program) needs.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import signal
import threading
import time
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from ai.bot import Bot
from ai.lifetime import close_at_exit
from ai.think import (
    DEFAULT_LIMIT_MS,
    FALLBACKS,
    Decision,
    Report,
    ThinkConfig,
    Thought,
    build_bot,
    decision_kind,
    is_bot_spec,
    settle,
    think,
)
from core.observation import Observation

#: How long past its time limit a bot may take before its worker counts as hung.
GRACE_MS = 250.0
#: How long a new worker may take to start before it counts as broken.
STARTUP_LIMIT_S = 30.0
#: Workers that die before they are ready this many times in a row are not started again.
MAX_FAILED_STARTS = 3
#: How long ``decide`` waits for a message before it checks the worker's health.
POLL_INTERVAL_S = 0.05
#: How long ``close`` waits for a worker to leave before it is killed.
CLOSE_WAIT_S = 1.0


@dataclass(frozen=True)
class WorkerRequest:
    """One decision asked of the worker."""

    id: int
    bot: str
    seed: int | None
    observation: Observation
    limit_ms: float | None
    moon_gates: dict[str, float] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class WorkerResult:
    """The settled decision for one request id."""

    id: int
    decision: Decision


# -- the worker process -----------------------------------------------------------------------


def answer(request: WorkerRequest, bots: MutableMapping[Any, Bot], floor: Any) -> Thought:
    """Run the request's bot (built once per seat, bot, seed and gates); never raises.

    The bot's budget counts as cancelled once ``floor.value`` (the oldest id still wanted)
    has passed the request's id.
    """
    gates = tuple(sorted(request.moon_gates.items()))
    key = (request.observation.seat, request.bot, request.seed, gates)
    try:
        if key not in bots:
            bots[key] = build_bot(request.bot, request.seed, request.moon_gates)
    except ValueError as error:
        return Thought(None, 0.0, False, error=str(error))
    return think(
        bots[key],
        request.observation,
        request.limit_ms,
        cancelled=lambda: floor.value > request.id,
    )


def _exit_when_ready(sentinel: int) -> None:
    """Wait until ``sentinel`` is ready, then end this process at once (a thread's target)."""
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


def end_with_parent() -> None:
    """Make this process end as soon as the process that started it is gone, however it ended.

    A daemon thread waits on the parent's sentinel, the read end of a pipe whose write end
    only the parent holds: it reports the end of the pipe when the parent exits or is killed,
    even while a bot is thinking.
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    threading.Thread(
        target=_exit_when_ready, args=(parent.sentinel,), name="parent watch", daemon=True
    ).start()


def worker_main(requests: Any, results: Any, floor: Any) -> None:
    """The worker process: answer requests until the ``None`` sentinel or its parent's end.

    Messages put on ``results`` are ``(kind, id, thought)``: ``ready`` once, then ``start``
    and ``done`` for every request (``done`` with no thought when it was cancelled unstarted).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    end_with_parent()
    serve_requests(requests, results, floor, {})


def serve_requests(
    requests: Any,
    results: Any,
    floor: Any,
    bots: MutableMapping[Any, Bot],
    other: Callable[[Any], None] | None = None,
) -> None:
    """Answer requests until the ``None`` sentinel or the end of the request channel.

    ``bots`` keeps the bots built so far (see ``answer``); a message that is not a
    ``WorkerRequest`` goes to ``other`` (a worker with messages of its own, like the server's).
    """
    results.put(("ready", 0, None))
    while True:
        try:
            request = requests.get()
        except (EOFError, OSError):  # the main process is gone
            return
        if request is None:
            return
        if not isinstance(request, WorkerRequest):
            if other is not None:
                other(request)
            continue
        if floor.value > request.id:
            results.put(("done", request.id, None))
            continue
        results.put(("start", request.id, None))
        results.put(("done", request.id, answer(request, bots, floor)))


# -- the main side ----------------------------------------------------------------------------


@dataclass
class _Pending:
    request: WorkerRequest
    fallback: str
    submitted: float
    started: float | None = None


def spawn_process(
    context: Any, target: Callable[[Any, Any, Any], None], name: str, floor_id: int
) -> tuple[Any, Any, Any, Any]:
    """Start a worker process running ``target(requests, results, floor)``.

    Returns the process, its request and result queues and the shared floor (the oldest
    request id still wanted), set to ``floor_id``.
    """
    requests = context.Queue()
    results = context.Queue()
    floor = context.RawValue("q", floor_id)
    process = context.Process(
        target=target, args=(requests, results, floor), name=name, daemon=True
    )
    process.start()
    return process, requests, results, floor


def stop_process(process: Any, requests: Any, results: Any, kill: bool) -> None:
    """End a worker process: unless ``kill``, ask it to stop (``None``) and wait a moment;
    then kill it if it still runs, and close both queues without waiting on them."""
    if process is not None:
        if not kill and process.is_alive():
            with contextlib.suppress(ValueError, OSError):
                requests.put(None)
            process.join(CLOSE_WAIT_S)
        if process.is_alive():
            process.kill()
            process.join(CLOSE_WAIT_S)
        with contextlib.suppress(ValueError):
            process.close()
    for channel in (requests, results):
        if channel is not None:
            channel.cancel_join_thread()
            channel.close()


class BotWorker:
    """A bot worker process seen from the main process: submit, poll, decide, cancel, close.

    The process starts on the first request (or ``start``). Results come back settled:
    every ``WorkerResult`` holds a legal move. ``restarts`` counts replaced workers.
    """

    #: The worker process's entry point (a top-level function; tests may swap it).
    process_target: Callable[[Any, Any, Any], None] = staticmethod(worker_main)

    def __init__(
        self, grace_ms: float = GRACE_MS, startup_limit_s: float = STARTUP_LIMIT_S
    ) -> None:
        self.grace_ms = grace_ms
        self.startup_limit_s = startup_limit_s
        self.restarts = 0
        self._context = multiprocessing.get_context("spawn")
        self._process: Any = None
        self._requests: Any = None
        self._results: Any = None
        self._floor: Any = None
        self._floor_id = 0
        self._ids = itertools.count(1)
        self._last_id = 0
        self._pending: dict[int, _Pending] = {}
        self._ready = False
        self._spawned_at = 0.0
        self._channel_failed = False
        self._failed_starts = 0
        close_at_exit(self)

    # -- the process ----------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """Return the worker process id, or None when no worker runs."""
        return None if self._process is None else self._process.pid

    @property
    def broken(self) -> bool:
        """Return whether workers kept dying at start, so fallback moves are played instead."""
        return self._failed_starts >= MAX_FAILED_STARTS

    def start(self) -> None:
        """Start the worker process unless one is running (a dead one is replaced)."""
        if self._process is not None and self._process.is_alive():
            return
        if self._process is not None:
            self._stop(kill=True)
            self.restarts += 1
        if not self.broken:
            self._spawn()

    def _spawn(self) -> None:
        self._process, self._requests, self._results, self._floor = spawn_process(
            self._context, self.process_target, "mdhearts-bot-worker", self._floor_id
        )
        self._ready = False
        self._channel_failed = False
        self._spawned_at = time.perf_counter()

    def _stop(self, kill: bool) -> None:
        process, requests, results = self._process, self._requests, self._results
        self._process = self._requests = self._results = self._floor = None
        self._ready = False
        stop_process(process, requests, results, kill)

    def close(self) -> None:
        """Stop the worker (politely, then by force); later requests start a new one."""
        self._pending.clear()
        self._stop(kill=False)

    def __enter__(self) -> BotWorker:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    # -- requests -------------------------------------------------------------------------

    def submit(
        self,
        observation: Observation,
        bot_name: str,
        *,
        seed: int | None = None,
        limit_ms: float | None = DEFAULT_LIMIT_MS,
        fallback: str = "heuristic",
        moon_gates: Mapping[str, float] | None = None,
        supersede: bool = True,
    ) -> int:
        """Ask for the observed seat's decision and return the request id at once.

        With ``supersede`` (the default) every earlier request is cancelled. Raises
        ValueError when the seat has nothing to decide or the bot or fallback is unknown.
        """
        decision_kind(observation)
        if not is_bot_spec(bot_name):
            raise ValueError(f"unknown bot {bot_name!r}")
        if fallback not in FALLBACKS:
            raise ValueError(f"unknown fallback {fallback!r} (known: {', '.join(FALLBACKS)})")
        request_id = self._last_id = next(self._ids)
        if supersede:
            self._set_floor(request_id)
        request = WorkerRequest(
            request_id, bot_name, seed, observation, limit_ms, dict(moon_gates or {})
        )
        self._pending[request_id] = _Pending(request, fallback, time.perf_counter())
        self.start()
        if self._requests is not None:
            try:
                self._requests.put(request)
            except (ValueError, OSError):
                self._channel_failed = True
        return request_id

    def cancel_all(self) -> None:
        """Cancel every request made so far: their bots stop and their results are dropped."""
        self._set_floor(self._last_id + 1)

    def _set_floor(self, request_id: int) -> None:
        self._floor_id = request_id
        if self._floor is not None:
            self._floor.value = request_id

    def started(self, request_id: int) -> bool:
        """Return whether the worker has begun the request (as far as messages so far tell)."""
        pending = self._pending.get(request_id)
        return pending is not None and pending.started is not None

    def poll(self) -> list[WorkerResult]:
        """Return the results ready now, without waiting; results of cancelled ids are dropped.

        Also notices a dead or hung worker: its live requests get the fallback move and the
        worker is replaced.
        """
        return self._collect(0.0)

    def decide(
        self,
        observation: Observation,
        bot_name: str,
        *,
        seed: int | None = None,
        limit_ms: float | None = DEFAULT_LIMIT_MS,
        fallback: str = "heuristic",
        moon_gates: Mapping[str, float] | None = None,
        timeout: float | None = None,
    ) -> Decision:
        """Submit a request (superseding the others) and wait for its settled decision.

        The wait ends with the fallback move when the bot overruns its limit by the grace
        period, when the worker dies, or after ``timeout`` seconds (None: no such cap).
        """
        request_id = self.submit(
            observation,
            bot_name,
            seed=seed,
            limit_ms=limit_ms,
            fallback=fallback,
            moon_gates=moon_gates,
        )
        give_up = None if timeout is None else time.perf_counter() + timeout
        while True:
            finished = self._collect(POLL_INTERVAL_S)
            if give_up is not None and time.perf_counter() > give_up:
                finished += self._recover("the bot worker did not answer in time", True)
            for result in finished:
                if result.id == request_id:
                    return result.decision

    # -- results --------------------------------------------------------------------------

    def _collect(self, wait: float) -> list[WorkerResult]:
        finished: list[WorkerResult] = []
        for message in self._receive(wait):
            finished.extend(self._handle(message))
        finished.extend(self._check_health())
        return finished

    def _receive(self, wait: float) -> list[Any]:
        messages: list[Any] = []
        if self._results is None:
            return messages
        try:
            if wait > 0:
                messages.append(self._results.get(timeout=wait))
            while True:
                messages.append(self._results.get_nowait())
        except queue.Empty:
            pass
        except (EOFError, OSError, ValueError, pickle.UnpicklingError):
            self._channel_failed = True
        return messages

    def _handle(self, message: Any) -> list[WorkerResult]:
        kind, request_id, thought = message
        if kind == "ready":
            self._ready = True
            self._failed_starts = 0
        elif kind == "start" and request_id in self._pending:
            self._pending[request_id].started = time.perf_counter()
        elif kind == "done":
            pending = self._pending.pop(request_id, None)
            if pending is not None and request_id >= self._floor_id:
                thought = thought or Thought(None, 0.0, False, error="the worker skipped it")
                return [self._settle(pending, thought)]
        return []

    def _settle(self, pending: _Pending, thought: Thought) -> WorkerResult:
        request = pending.request
        decision = settle(
            thought, request.observation, request.bot, request.limit_ms, pending.fallback
        )
        return WorkerResult(request.id, decision)

    def _check_health(self) -> list[WorkerResult]:
        if not self._pending:
            return []
        now = time.perf_counter()
        if self.broken or self._process is None:
            return self._recover("the bot worker cannot start", False)
        if self._channel_failed or not self._process.is_alive():
            return self._recover("the bot worker stopped", False)
        if not self._ready and now - self._spawned_at > self.startup_limit_s:
            return self._recover("the bot worker did not start in time", False)
        for pending in self._pending.values():
            limit = pending.request.limit_ms
            if pending.started is None or limit is None:
                continue
            if now - pending.started > (limit + self.grace_ms) / 1000:
                return self._recover("the bot ran out of time and did not answer", True)
        return []

    def _recover(self, reason: str, timed_out: bool) -> list[WorkerResult]:
        """Answer every live request with the fallback move and replace the worker."""
        now = time.perf_counter()
        finished = []
        for request_id, pending in self._pending.items():
            if request_id >= self._floor_id:
                began = pending.started or pending.submitted
                thought = Thought(None, (now - began) * 1000, timed_out, error=reason)
                finished.append(self._settle(pending, thought))
        self._pending.clear()
        if self._process is not None:
            if not self._ready:
                self._failed_starts += 1
            self._stop(kill=True)
            self.restarts += 1
            if not self.broken:
                self._spawn()
        return finished


class WorkerRunner:
    """A ``BotRunner`` asking a ``BotWorker`` (its own, or a shared one it does not close)."""

    def __init__(
        self,
        config: ThinkConfig | None = None,
        report: Report | None = None,
        worker: BotWorker | None = None,
    ) -> None:
        self.config = config or ThinkConfig()
        self.report = report
        self._own_worker = worker is None
        self.worker = BotWorker() if worker is None else worker

    def decide(self, observation: Observation, bot_name: str, seed: int | None = None) -> Decision:
        """Ask the worker and wait for the settled decision."""
        config = self.config
        decision = self.worker.decide(
            observation,
            bot_name,
            seed=seed,
            limit_ms=config.limit_ms,
            fallback=config.fallback,
            moon_gates=config.moon_gates,
        )
        if self.report is not None:
            self.report(decision)
        return decision

    def cancel_all(self) -> None:
        """Cancel the worker's requests."""
        self.worker.cancel_all()

    def close(self) -> None:
        """Stop the worker if this runner started it."""
        if self._own_worker:
            self.worker.close()
