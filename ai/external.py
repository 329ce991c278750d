"""Seats played by external programs that speak the engine protocol (docs/protocol.md).

``ExternalEngineBot`` runs a program, as chess interfaces run UCI engines, and asks it for each
decision: one JSON request line with the seat's view, one JSON reply line with the card or the
pass. The program starts on the first request and again after it crashes or times out. A
misbehaving program — it cannot start, exits, sends garbage or the wrong id, answers with an
error or an illegal card, or is too slow — costs it that move only: the fallback bot moves
instead and the problem is recorded with a clear message, in ``problems`` and with the
decision (``last_decision``). After ``MAX_PROBLEMS_PER_HAND`` problems in one hand the program
is stopped and the fallback bot plays the rest of that hand; the next hand asks it again.

The program runs in a process group of its own; on POSIX a small guard process watches its
owner (the process that started it) and ends that group as soon as the owner is gone, however
it ended (a kill -9, a replaced bot worker), so no engine outlives us.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any, Literal, TypeVar

from ai.bot import Bot, Budget
from ai.easy import EasyBot
from ai.lifetime import close_at_exit
from core.cards import card_text, has_card, mask_texts, parse_card, parse_cards
from core.environment import setting_from_env
from core.errors import CardError
from core.match import MAX_SEED, validate_seed
from core.observation import Observation
from core.text import describe_value, os_reason
from core.view import view_from_observation

#: A seat kind played by an external program is this prefix and the program's command line.
ENGINE_PREFIX = "engine:"
#: A seeded seat's program starts with its seed in this environment variable, so that a program
#: that uses chance (``mdhearts engine`` among them) can repeat a tournament (docs/protocol.md).
SEED_ENV = "MDH_ENGINE_SEED"
DEFAULT_TIMEOUT_MS = 5000.0
#: Extra time the first answer of a freshly started program may take (it is loading).
DEFAULT_STARTUP_MS = 5000.0
#: How long ``close`` waits for the program to quit before it is killed, in seconds.
QUIT_GRACE_SECONDS = 0.5
#: How long the program's process group has after SIGTERM before SIGKILL, in seconds.
TERM_GRACE_SECONDS = 0.1
#: Longest reply line read, in characters; a longer one is garbage.
MAX_REPLY_CHARS = 64 * 1024
#: Unrequested lines kept at most; a program that floods its output loses the rest.
MAX_PENDING_LINES = 64
#: How often a wait for a reply checks whether the decision was cancelled, in seconds.
CANCEL_POLL_SECONDS = 0.05
MAX_NAME_LENGTH = 60
#: Problems in one hand after which the fallback bot plays the rest of the hand.
MAX_PROBLEMS_PER_HAND = 3

Move = TypeVar("Move")


class EngineCommandError(ValueError):
    """An engine command cannot be run: it is empty, badly quoted or names no program."""


#: What kind of misbehaviour a problem is: too slow, no answer at all, or a wrong answer.
ProblemKind = Literal["timeout", "crash", "bad_reply"]


class _Misbehaviour(Exception):
    """The program failed one request; ``restart`` when the conversation cannot go on."""

    def __init__(self, message: str, *, restart: bool, kind: ProblemKind = "bad_reply") -> None:
        super().__init__(message)
        self.restart = restart
        self.kind = kind


def _plural(count: int, one: str, many: str) -> str:
    """Return ``count`` with the singular or plural noun."""
    return f"{count} {one if count == 1 else many}"


@dataclass
class EngineTally:
    """How often an engine program failed: the moves its fallback made, and why.

    ``crashes`` counts programs that could not start or stopped without answering;
    ``bad_replies`` counts answers that were illegal, malformed or an error.
    """

    fallback_moves: int = 0
    timeouts: int = 0
    crashes: int = 0
    bad_replies: int = 0

    def count(self, kind: ProblemKind) -> None:
        """Count one misbehaviour of this kind."""
        if kind == "timeout":
            self.timeouts += 1
        elif kind == "crash":
            self.crashes += 1
        else:
            self.bad_replies += 1

    def add(self, other: EngineTally) -> None:
        """Add another tally's counts to this one."""
        self.fallback_moves += other.fallback_moves
        self.timeouts += other.timeouts
        self.crashes += other.crashes
        self.bad_replies += other.bad_replies

    def describe(self) -> str:
        """Return e.g. ``3 fallback moves (2 timeouts, 1 illegal or malformed reply)``."""
        reasons = [
            _plural(self.timeouts, "timeout", "timeouts"),
            _plural(self.crashes, "crash", "crashes"),
            _plural(self.bad_replies, "illegal or malformed reply", "illegal or malformed replies"),
        ]
        reasons = [reason for reason in reasons if not reason.startswith("0 ")]
        moves = _plural(self.fallback_moves, "fallback move", "fallback moves")
        return f"{moves} ({', '.join(reasons)})" if reasons else moves


class _Cancelled(Exception):
    """The decision was cancelled while the program was thinking."""


def split_command(command: str) -> list[str]:
    """Split an engine command line into its words; raise EngineCommandError if it cannot run.

    The first word must name a program on PATH or a path to an executable file.
    """
    if not isinstance(command, str):
        raise EngineCommandError(f"an engine command is a string, got {describe_value(command)}")
    if "\0" in command:
        raise EngineCommandError("an engine command cannot contain a NUL character")
    posix = os.name != "nt"
    try:
        words = shlex.split(command, posix=posix)
    except ValueError as error:
        raise EngineCommandError(
            f"cannot split the engine command {command!r:.{MAX_NAME_LENGTH}}: {str(error).lower()}"
        ) from None
    if not posix:
        words = [
            word[1:-1] if len(word) > 1 and word[0] == word[-1] == '"' else word for word in words
        ]
    if not words:
        raise EngineCommandError(
            "an engine seat needs a command after 'engine:', e.g. 'engine:myengine --fast'"
        )
    if shutil.which(words[0]) is None:
        raise EngineCommandError(
            f"engine program {words[0]!r:.{MAX_NAME_LENGTH}} not found: give the path to an "
            "executable file or the name of a program on PATH"
        )
    return words


def _display_name(words: list[str]) -> str:
    """Return a short name of a command for messages: the program's file name and arguments."""
    name = " ".join([os.path.basename(words[0]), *words[1:]])
    return name if len(name) <= MAX_NAME_LENGTH else name[: MAX_NAME_LENGTH - 3] + "..."


def _excerpt(value: object) -> str:
    """Return a short quoted excerpt of what a program sent."""
    text = value if isinstance(value, str) else json.dumps(value)
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _read_lines(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Queue every line a program writes, then None at the end of its output (a thread)."""
    try:
        while line := stream.readline(MAX_REPLY_CHARS + 1):
            if lines.qsize() < MAX_PENDING_LINES:
                lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def _reply_object(line: str, request_id: int) -> dict[str, Any]:
    """Return a reply line as a JSON object answering ``request_id``, or raise _Misbehaviour."""
    if len(line.rstrip("\r\n")) > MAX_REPLY_CHARS:
        raise _Misbehaviour(f"sent a line longer than {MAX_REPLY_CHARS} characters", restart=True)
    text = line.strip()
    try:
        reply = json.loads(text)
    except (ValueError, RecursionError):
        raise _Misbehaviour(
            f"sent a line that is not JSON: {_excerpt(text)}", restart=True
        ) from None
    if not isinstance(reply, dict):
        raise _Misbehaviour(f"sent {describe_value(reply)} instead of a JSON object", restart=True)
    answered = reply.get("id")
    if type(answered) is not int or answered != request_id:
        got = "no id" if "id" not in reply else f"id {describe_value(answered)}"
        raise _Misbehaviour(f"answered request {request_id} with {got}", restart=True)
    if "error" in reply:
        raise _Misbehaviour(f"answered with an error: {_excerpt(reply['error'])}", restart=False)
    return reply


def _card_value(value: object) -> str:
    """Return a reply's card text, or raise _Misbehaviour unless it is a short string."""
    if not isinstance(value, str) or len(value) > 4:
        raise _Misbehaviour(
            f"sent {describe_value(value)} where a card like 'QS' belongs", restart=False
        )
    return value


def _play_from_reply(reply: dict[str, Any], observation: Observation) -> int:
    """Return the legal card a ``play`` reply names, or raise _Misbehaviour saying why not."""
    if "card" not in reply:
        raise _Misbehaviour("answered a play request without a 'card'", restart=False)
    text = _card_value(reply["card"])
    try:
        card = parse_card(text)
    except CardError as error:
        raise _Misbehaviour(f"sent an invalid card: {error}", restart=False) from None
    if not has_card(observation.hand, card):
        raise _Misbehaviour(
            f"sent an illegal card {card_text(card)!r}: it does not hold {card_text(card)}",
            restart=False,
        )
    legal = observation.legal_mask()
    if not has_card(legal, card):
        raise _Misbehaviour(
            f"sent an illegal card {card_text(card)!r}: the legal cards were "
            f"{' '.join(mask_texts(legal))}",
            restart=False,
        )
    return card


def _pass_from_reply(reply: dict[str, Any], observation: Observation) -> tuple[int, int, int]:
    """Return the three held cards a ``pass`` reply names, or raise _Misbehaviour."""
    value = reply.get("cards")
    if not isinstance(value, list) or len(value) != 3:
        raise _Misbehaviour(
            f"sent an illegal pass: 'cards' must list three cards, got {describe_value(value)}",
            restart=False,
        )
    try:
        cards = parse_cards([_card_value(item) for item in value])
    except CardError as error:
        raise _Misbehaviour(f"sent an illegal pass: {error}", restart=False) from None
    for card in cards:
        if not has_card(observation.hand, card):
            raise _Misbehaviour(
                f"sent an illegal pass: it does not hold {card_text(card)}", restart=False
            )
    return cards[0], cards[1], cards[2]


def _own_group_options() -> dict[str, Any]:
    """Return the Popen options starting a program in a process group of its own.

    Whatever it starts (a wrapper script's helpers) joins that group, so it can be ended as a
    whole. Should this process be killed instead, the program sees the end of its stdin: a
    program following the protocol then exits.
    """
    if sys.platform == "win32":
        return {"creationflags": subprocess.CREATE_NO_WINDOW | subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


def _group_running(group: int) -> bool:
    """Return whether any process of the process group is left (POSIX)."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a member changed its user: it still runs
        return True
    return True


def _signal_group(group: int, number: int) -> None:
    """Send a signal to every process of the process group (POSIX); an empty group is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, number)


def end_process_group(process: subprocess.Popen[str]) -> int:
    """End a program started in its own group and all its group: return the program's status.

    On POSIX the group gets SIGTERM, then SIGKILL if anything is left after a short grace;
    on Windows the program's process tree is killed.
    """
    if sys.platform == "win32":
        if process.poll() is None:
            subprocess.run(
                ["taskkill", "/F", "/T", "/PID", str(process.pid)],
                capture_output=True,
                creationflags=subprocess.CREATE_NO_WINDOW,
                check=False,
            )
            process.kill()
        return process.wait()
    group = process.pid
    _signal_group(group, signal.SIGTERM)
    give_up = time.perf_counter() + TERM_GRACE_SECONDS
    while _group_running(group):
        process.poll()  # reap the program, so its zombie does not count as running
        if time.perf_counter() > give_up:
            _signal_group(group, signal.SIGKILL)
            break
        time.sleep(0.005)
    return process.wait()


#: The guard of an engine's process group (POSIX shell). It is started before the engine and
#: first reads the group's number from a pipe whose other end only the engine's owner holds;
#: then it waits for the end of that pipe: when the owner is gone, however it ended, the pipe
#: ends and the guard ends the group (TERM, then KILL). The owner dismisses the guard before
#: the group ends, so the guard never signals a group that has ended (whose number may have
#: been reused); an owner gone before it named the group leaves nothing to end.
_GUARD_SCRIPT = (
    "read group || exit 0\n"
    'case "$group" in ""|*[!0-9]*) exit 0;; esac\n'
    "read line\n"
    'kill -TERM -"$group" 2>/dev/null || exit 0\n'
    "sleep 0.2 2>/dev/null || sleep 1\n"
    'kill -KILL -"$group" 2>/dev/null\n'
)
_GUARD_SHELL = "/bin/sh"


@dataclass
class _Guard:
    """A running guard process and the end of its pipe that keeps it waiting."""

    process: subprocess.Popen[bytes]
    pipe: int

    def watch(self, group: int) -> None:
        """Name the process group to end when this process is gone."""
        with contextlib.suppress(OSError):
            os.write(self.pipe, f"{group}\n".encode())

    def dismiss(self) -> None:
        """End the guard without letting it signal anything, and close its pipe."""
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            self.process.wait()
        with contextlib.suppress(OSError):
            os.close(self.pipe)


def _start_guard() -> _Guard | None:
    """Start a guard, which ends the process group it is then told to ``watch`` when this
    process is gone (POSIX).

    Return None where there is no guard (Windows, no shell, the guard cannot start): the
    engine then still sees the end of its input when we are gone.
    """
    if sys.platform == "win32" or not os.path.exists(_GUARD_SHELL):
        return None
    read_end, write_end = os.pipe()  # neither end is inherited by programs started later
    try:
        process = subprocess.Popen(
            [_GUARD_SHELL, "-c", _GUARD_SCRIPT, "mdhearts-engine-guard"],
            stdin=read_end,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not ended by a Ctrl-C meant for us
        )
    except (OSError, ValueError, subprocess.SubprocessError):
        os.close(write_end)
        return None
    finally:
        os.close(read_end)
    return _Guard(process, write_end)


def _hand_key(observation: Observation) -> tuple[object, ...]:
    """Return what tells one hand of a match from another in a seat's view.

    The match totals before the hand change every hand; the dealt cards tell apart the rest.
    """
    dealt = observation.hand | observation.played_by[observation.seat]
    for card in observation.passed or ():
        dealt |= 1 << card
    for card in observation.received or ():
        dealt &= ~(1 << card)
    return observation.scores, observation.direction, dealt


class ExternalEngineBot:
    """A seat played by an external program speaking the engine protocol, with a fallback bot.

    ``timeout_ms`` bounds each answer; the first answer of a freshly started program may take
    ``startup_ms`` longer; a budget's deadline bounds the whole wait, start included. A
    ``seed`` is handed to the program in ``SEED_ENV`` each time it starts.
    ``problems`` lists every misbehaviour, ``tally`` counts them and the fallback's moves.
    ``last_decision`` says how the last decision went: ``problem`` what went wrong with it,
    ``benched`` when that was the hand's ``MAX_PROBLEMS_PER_HAND``-th problem (the fallback
    plays the rest of the hand), and ``fallback_reason`` why the fallback bot moved whenever
    it moved for the program. Use as a context manager, or call ``close`` when done.
    """

    def __init__(
        self,
        command: str,
        *,
        timeout_ms: float = DEFAULT_TIMEOUT_MS,
        startup_ms: float = DEFAULT_STARTUP_MS,
        fallback: Bot | None = None,
        seed: int | None = None,
    ) -> None:
        self._process: subprocess.Popen[str] | None = None
        self._guard: _Guard | None = None
        self._hand: tuple[object, ...] | None = None
        self._hand_problems = 0
        self._lines: queue.Queue[str | None] | None = None
        self._reader: threading.Thread | None = None
        self._answered = False
        self._next_id = 1
        self.command = command
        self.words = split_command(command)
        self.name = _display_name(self.words)
        for label, value, low in (("timeout_ms", timeout_ms, 1), ("startup_ms", startup_ms, 0)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{label} must be a number of milliseconds, got {value!r:.40}")
            if not (math.isfinite(value) and value >= low):
                raise ValueError(f"{label} must be at least {low} ms, got {value!r:.40}")
        self.timeout_ms = float(timeout_ms)
        self.startup_ms = float(startup_ms)
        self.seed = None if seed is None else validate_seed(seed)
        self.fallback: Bot = fallback if fallback is not None else EasyBot()
        self.problems: list[str] = []
        self.tally = EngineTally()
        self.last_decision: dict[str, Any] = {}
        close_at_exit(self)

    # -- the Bot protocol ---------------------------------------------------------------------

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Return the program's pass, or the fallback bot's if the program misbehaves."""
        cards = self._consult("pass", observation, budget, _pass_from_reply)
        if cards is None:
            cards = self.fallback.choose_pass(observation, budget)
            self.last_decision["fallback"] = dict(self.fallback.last_decision)
            self.tally.fallback_moves += 1
        return cards

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Return the program's card, or the fallback bot's if the program misbehaves."""
        card = self._consult("play", observation, budget, _play_from_reply)
        if card is None:
            card = self.fallback.choose_play(observation, budget)
            self.last_decision["fallback"] = dict(self.fallback.last_decision)
            self.tally.fallback_moves += 1
        return card

    # -- the program's life -------------------------------------------------------------------

    @property
    def process_id(self) -> int | None:
        """Return the running program's process id, or None when none is running."""
        return None if self._process is None else self._process.pid

    def close(self) -> int | None:
        """Ask the program to quit, kill it if it lingers; return its exit status (None: none).

        The bot stays usable: the next request starts the program again.
        """
        return self._stop(graceful=True)

    def __enter__(self) -> ExternalEngineBot:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._stop(graceful=True)

    def _start(self) -> None:
        """Start the program and the thread reading its output, or raise _Misbehaviour."""
        # The guard starts first, so that the engine is watched from the moment it exists.
        guard = _start_guard()
        try:
            process = subprocess.Popen(
                self.words,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                env=None if self.seed is None else {**os.environ, SEED_ENV: str(self.seed)},
                **_own_group_options(),
            )
        except (OSError, ValueError, subprocess.SubprocessError) as error:
            if guard is not None:
                guard.dismiss()
            reason = os_reason(error)
            raise _Misbehaviour(f"could not start: {reason}", restart=False, kind="crash") from None
        if guard is not None:
            guard.watch(process.pid)
        assert process.stdout is not None
        lines: queue.Queue[str | None] = queue.Queue()
        reader = threading.Thread(
            target=_read_lines,
            args=(process.stdout, lines),
            name=f"engine reader {process.pid}",
            daemon=True,
        )
        reader.start()
        self._process, self._lines, self._reader = process, lines, reader
        self._guard = guard
        self._answered = False

    def _stop(self, *, graceful: bool) -> int | None:
        """End the program and its process group (asking it to quit first if ``graceful``).

        Return the program's exit status.
        """
        process, reader, guard = self._process, self._reader, self._guard
        self._process = self._lines = self._reader = self._guard = None
        if guard is not None:
            guard.dismiss()
        if process is None:
            return None
        stdin = process.stdin
        if graceful and process.poll() is None and stdin is not None:
            try:
                stdin.write(json.dumps({"type": "quit"}) + "\n")
                stdin.flush()
            except (OSError, ValueError):
                pass
        try:
            if stdin is not None:
                stdin.close()
        except (OSError, ValueError):
            pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=QUIT_GRACE_SECONDS if graceful else 0)
        status = end_process_group(process)
        if reader is not None:
            reader.join(timeout=QUIT_GRACE_SECONDS)
            if not reader.is_alive() and process.stdout is not None:
                process.stdout.close()
        return status

    def _ensure_running(self) -> None:
        """Start the program unless it is running; drop lines nobody asked for."""
        if self._process is not None and self._lines is not None:
            ended = self._process.poll() is not None
            while not ended:
                try:
                    ended = self._lines.get_nowait() is None
                except queue.Empty:
                    break
            if ended:
                # It stopped after its last answer: start it again, this costs it nothing.
                self._stop(graceful=False)
        if self._process is None:
            self._start()

    def _exit_problem(self, still_running: str) -> _Misbehaviour:
        """Describe a program that stopped talking before it answered.

        ``still_running`` says what it did if it has not exited.
        """
        assert self._process is not None
        try:
            status = self._process.wait(timeout=QUIT_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            status = None
        if status is None:
            message = f"{still_running} without answering"
        elif status < 0:
            message = f"was killed by signal {-status} before answering"
        else:
            message = f"exited with status {status} without answering"
        return _Misbehaviour(message, restart=True, kind="crash")

    # -- one request --------------------------------------------------------------------------

    def _exchange(self, request: str, limit_ms: float, budget: Budget | None) -> str:
        """Send one request line and return the reply line, or raise _Misbehaviour/_Cancelled.

        The wait is ``limit_ms``, plus ``startup_ms`` for a fresh program unless the budget's
        deadline comes first.
        """
        self._ensure_running()
        process, lines = self._process, self._lines
        assert process is not None and process.stdin is not None and lines is not None
        startup_ms = 0.0 if self._answered else self.startup_ms
        wait_ms = limit_ms + startup_ms
        remaining = None if budget is None else budget.remaining_ms()
        if remaining is not None and remaining < wait_ms:
            wait_ms = remaining
            startup_ms = max(0.0, wait_ms - limit_ms)
        try:
            process.stdin.write(request + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            raise self._exit_problem("stopped reading its input") from None
        deadline = time.perf_counter() + wait_ms / 1000
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                waited = f"{wait_ms:.0f} ms"
                if startup_ms:
                    waited += f" (including {startup_ms:.0f} ms to start)"
                raise _Misbehaviour(f"timed out after {waited}", restart=True, kind="timeout")
            if budget is not None and budget.cancelled():
                raise _Cancelled
            try:
                line = lines.get(timeout=left if budget is None else min(left, CANCEL_POLL_SECONDS))
            except queue.Empty:
                continue
            if line is None:
                raise self._exit_problem("closed its output")
            if line.strip():
                self._answered = True
                return line

    def _consult(
        self,
        kind: str,
        observation: Observation,
        budget: Budget | None,
        read: Callable[[dict[str, Any], Observation], Move],
    ) -> Move | None:
        """Ask the program for a move; return it, or None after recording why there is none."""
        start = time.perf_counter()
        hand = _hand_key(observation)
        if hand != self._hand:
            self._hand, self._hand_problems = hand, 0
        if self._hand_problems >= MAX_PROBLEMS_PER_HAND:
            self.last_decision = {
                "engine": self.name,
                "sitting_out": True,
                "fallback_reason": f"engine {self.name!r} sits out the rest of the hand after "
                f"{_plural(self._hand_problems, 'problem', 'problems')}",
            }
            return None
        limit_ms = self.timeout_ms
        remaining = None if budget is None else budget.remaining_ms()
        if remaining is not None:
            limit_ms = min(limit_ms, remaining)
        if budget is not None and budget.cancelled():
            self.last_decision = {"engine": self.name, "cancelled": True}
            return None
        if limit_ms <= 0:
            self.last_decision = {
                "engine": self.name,
                "skipped": "no time left to ask it",
                "fallback_reason": f"engine {self.name!r} was not asked: no time left",
            }
            return None
        request_id = self._next_id
        self._next_id += 1
        request = json.dumps({"type": kind, "id": request_id, **view_from_observation(observation)})
        try:
            move = read(
                _reply_object(self._exchange(request, limit_ms, budget), request_id), observation
            )
        except _Cancelled:
            self._stop(graceful=False)
            self.last_decision = {"engine": self.name, "cancelled": True}
            return None
        except _Misbehaviour as problem:
            if problem.restart:
                self._stop(graceful=False)
            message = f"engine {self.name!r} {problem}"
            self.problems.append(message)
            self.tally.count(problem.kind)
            self._hand_problems += 1
            self.last_decision = {"engine": self.name, "problem": message}
            self.last_decision["fallback_reason"] = message
            if self._hand_problems >= MAX_PROBLEMS_PER_HAND:
                # Not asked again this hand: stopped now rather than restarted at each move.
                self._stop(graceful=not problem.restart)
                self.last_decision["benched"] = (
                    f"engine {self.name!r} had {self._hand_problems} problems this hand: "
                    "its fallback bot plays the rest of the hand"
                )
            return None
        elapsed_ms = (time.perf_counter() - start) * 1000
        self.last_decision = {"engine": self.name, "elapsed_ms": elapsed_ms}
        return move


def make_engine_bot(kind: str, seed: int | None = None) -> ExternalEngineBot:
    """Return a bot for the seat kind ``engine:COMMAND``, its program and its fallback (the easy
    bot) seeded with ``seed``.

    Raise EngineCommandError (a ValueError) when the kind is not an engine seat or its command
    cannot run.
    """
    if not isinstance(kind, str) or not kind.startswith(ENGINE_PREFIX):
        raise EngineCommandError(
            f"an engine seat kind is 'engine:COMMAND', got {describe_value(kind)}"
        )
    return ExternalEngineBot(kind.removeprefix(ENGINE_PREFIX), fallback=EasyBot(seed), seed=seed)


def seed_from_env(environ: Mapping[str, str] | None = None) -> tuple[int | None, list[str]]:
    """Return the seed ``SEED_ENV`` gives an engine program (None when unset), and a warning
    when its value is invalid (then ignored).

    >>> seed_from_env({"MDH_ENGINE_SEED": "12"})
    (12, [])
    >>> seed_from_env({"MDH_ENGINE_SEED": "-1"})[1]
    ["ignoring MDH_ENGINE_SEED='-1': must be a whole number from 0 to 9223372036854775807"]
    """
    return setting_from_env(environ, SEED_ENV, _parse_engine_seed, None)


def _parse_engine_seed(text: str) -> int:
    digits = text.strip()
    if digits.isascii() and digits.isdigit():
        # The range is the match seed's (``validate_seed``); a number too long to read is not.
        with contextlib.suppress(ValueError):
            return validate_seed(int(digits))
    raise ValueError(f"must be a whole number from 0 to {MAX_SEED}")
