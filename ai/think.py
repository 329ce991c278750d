"""How bots think: the think config, one timed decision with its fallback, and bot runners.

A **think config** says which bot plays a seat that names none, how long a decision may take,
what to play when a bot runs out of time or fails (its *fallback*), and the moon gates handed to
bots that read them. It comes from defaults overridden by environment variables; an invalid
value is ignored with one warning.

A decision is made in two steps: ``think`` runs a bot on an observation within its budget and
returns a ``Thought`` (the bot's raw answer, perhaps none), then ``settle`` turns it into a
``Decision`` whose move is always legal: the bot's own, or the fallback's. A **bot runner**
asks bots for decisions; ``DirectRunner`` runs them in this process, ``ai.worker`` in a worker
process, both behind the ``BotRunner`` protocol.
"""

from __future__ import annotations

import json
import math
import numbers
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, cast

from ai.basic import FirstLegalBot
from ai.bot import Bot, Budget, close_bot
from ai.cores import threads_from_env
from ai.external import ENGINE_PREFIX
from ai.normal_params import MOON_GATES
from ai.registry import BOTS, DEFAULT_SEAT_BOT, is_registered, make_bot
from core.cards import DECK_SIZE, cards_of, has_card
from core.environment import environment, ignored
from core.observation import Observation

#: A bot's answer: one card to play, or three cards to pass.
Action = int | tuple[int, int, int]

DIFFICULTY_ENV = "MDH_BOT_DIFFICULTY"
LIMIT_ENV = "MDH_THINK_LIMIT_MS"
FALLBACK_ENV = "MDH_THINK_FALLBACK"
#: Every ``MDH_MOON_<NAME>=<number>`` sets the moon gate ``<name>``.
MOON_ENV_PREFIX = "MDH_MOON_"
#: The gate names those variables may use (``MDH_MOON_CONSIDER`` sets ``consider``).
MOON_GATE_NAMES = tuple(gate.removeprefix("moon_") for gate in MOON_GATES)

FALLBACKS = ("heuristic", "first_legal")
DEFAULT_LIMIT_MS = 1000.0
#: The longest time limit the environment may set (one minute).
MAX_LIMIT_MS = 60_000.0
#: Bots that answer at once without searching: safe to run in the caller's process.
INSTANT_BOTS = frozenset({"first", "random", "easy", "normal"})
#: The bot behind the ``heuristic`` fallback, in order of preference.
HEURISTIC_BOTS = ("normal", "easy")


def default_difficulty() -> str:
    """Return the default tier: the bot of a plain ``bot`` seat."""
    return DEFAULT_SEAT_BOT


@dataclass(frozen=True)
class ThinkConfig:
    """How bots think: tier, time limit per decision, fallback and moon gates.

    ``difficulty`` is a registry name (``ai.registry.BOTS``) for seats that name no bot;
    ``limit_ms`` the time a bot may think per decision; ``fallback`` what is played when it
    runs out of time or fails: ``heuristic`` (the heuristic bot's move) or ``first_legal``
    (the lowest legal card, the three highest cards for a pass). ``moon_gates`` are handed to
    bots that read them (by name, without the ``moon_`` prefix); others ignore them.
    """

    difficulty: str = field(default_factory=default_difficulty)
    limit_ms: float = DEFAULT_LIMIT_MS
    fallback: str = "heuristic"
    moon_gates: dict[str, float] = field(default_factory=dict, hash=False)


def _parse_limit(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("not a number of milliseconds") from None
    if not math.isfinite(value) or not 0 < value <= MAX_LIMIT_MS:
        raise ValueError(f"must be more than 0 and at most {MAX_LIMIT_MS:.0f} milliseconds")
    return value


def _parse_gate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("not a number") from None
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


def _parse_choice(text: str, choices: tuple[str, ...] | list[str]) -> str:
    value = text.strip().lower()
    if value not in choices:
        raise ValueError(f"must be one of {', '.join(choices)}")
    return value


def think_config_from_env(
    environ: Mapping[str, str] | None = None, base: ThinkConfig | None = None
) -> tuple[ThinkConfig, list[str]]:
    """Return ``base`` overridden by the environment, and one warning per invalid variable.

    Reads ``MDH_BOT_DIFFICULTY``, ``MDH_THINK_LIMIT_MS``, ``MDH_THINK_FALLBACK`` and every
    ``MDH_MOON_<NAME>``, and checks ``MDH_SEARCH_THREADS`` (``ai.cores``). An invalid value
    is ignored (the base value stays); the caller shows each warning once.

    >>> config, warnings = think_config_from_env({"MDH_THINK_LIMIT_MS": "250"})
    >>> config.limit_ms, warnings
    (250.0, [])
    >>> think_config_from_env({"MDH_THINK_FALLBACK": "pray"})[1]
    ["ignoring MDH_THINK_FALLBACK='pray': must be one of heuristic, first_legal"]
    """
    env = environment(environ)
    config = base or ThinkConfig()
    warnings: list[str] = []
    updates: dict[str, Any] = {}
    gates = dict(config.moon_gates)
    parsers: dict[str, tuple[str, Callable[[str], Any]]] = {
        DIFFICULTY_ENV: ("difficulty", lambda text: _parse_choice(text, sorted(BOTS))),
        LIMIT_ENV: ("limit_ms", _parse_limit),
        FALLBACK_ENV: ("fallback", lambda text: _parse_choice(text, FALLBACKS)),
    }
    for name in sorted(env):
        text = env[name]
        try:
            if name in parsers:
                key, parse = parsers[name]
                updates[key] = parse(text)
            elif name.startswith(MOON_ENV_PREFIX):
                gate = name[len(MOON_ENV_PREFIX) :].lower()
                if gate not in MOON_GATE_NAMES:
                    raise ValueError(
                        f"no moon gate is named {gate!r:.30} (known: {', '.join(MOON_GATE_NAMES)})"
                    )
                gates[gate] = _parse_gate(text)
        except ValueError as error:
            warnings.append(ignored(name, text, str(error)))
    # The hard bot reads its search threads itself (``ai.cores``); a bad value is shown here.
    warnings += threads_from_env(env)[1]
    return replace(config, **updates, moon_gates=gates), warnings


# -- one decision -----------------------------------------------------------------------------


def decision_kind(observation: Observation) -> str:
    """Return ``pass`` or ``play``: what the observed seat must decide; ValueError if nothing."""
    if observation.must_pass:
        return "pass"
    if observation.legal_mask():
        return "play"
    raise ValueError(f"seat {observation.seat} has nothing to decide now")


def _holds(mask: int, card: object) -> bool:
    return type(card) is int and 0 <= card < DECK_SIZE and has_card(mask, card)


def is_legal(observation: Observation, action: object) -> bool:
    """Return whether ``action`` is a legal answer to the decision the observation asks for."""
    if decision_kind(observation) == "play":
        return _holds(observation.legal_mask(), action)
    if not isinstance(action, tuple | list) or len(action) != 3:
        return False
    return all(_holds(observation.hand, card) for card in action) and len(set(action)) == 3


def _as_card(value: object) -> int | None:
    """Return an integer-like card as an int (numpy integers too), else None."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return None


def _as_action(answer: object) -> Any:
    """Return a bot's answer as an int or a tuple of ints, or None if it is neither."""
    if isinstance(answer, tuple | list):
        cards = tuple(_as_card(card) for card in answer)
        return None if None in cards else cards
    return _as_card(answer)


def json_safe(value: object) -> Any:
    """Return ``value`` as plain JSON data (tuples become lists, odd values their text)."""
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError):
        return str(value)


@dataclass(frozen=True)
class Thought:
    """A bot's raw answer: its action (None if it failed), how long it took, what it left.

    ``error`` says why there is no usable action; ``facts`` are the bot's ``last_decision``.
    """

    action: Any
    elapsed_ms: float
    timed_out: bool
    facts: dict[str, Any] = field(default_factory=dict, hash=False)
    error: str | None = None


def think(
    bot: Bot,
    observation: Observation,
    limit_ms: float | None,
    cancelled: Callable[[], bool] | None = None,
) -> Thought:
    """Ask ``bot`` for its decision within ``limit_ms``; never raises for a failing bot."""
    budget = Budget.for_ms(limit_ms, cancelled)
    started = time.perf_counter()
    answer: object
    try:
        if decision_kind(observation) == "pass":
            answer = bot.choose_pass(observation, budget)
        else:
            answer = bot.choose_play(observation, budget)
        action = _as_action(answer)
        error = None if action is not None else f"the bot answered {answer!r:.60}, not cards"
    except Exception as failure:  # a bot's bug must not stop the game
        action, error = None, f"the bot failed: {type(failure).__name__}: {failure}"
    ended = time.perf_counter()
    timed_out = budget.deadline is not None and ended >= budget.deadline
    facts = json_safe(getattr(bot, "last_decision", None) or {})
    if not isinstance(facts, dict):
        facts = {"last_decision": facts}
    return Thought(action, (ended - started) * 1000, timed_out, facts, error)


def fallback_bot(fallback: str) -> Bot:
    """Return the bot behind a fallback name (``heuristic`` or ``first_legal``)."""
    if fallback == "heuristic":
        return make_bot(next(name for name in HEURISTIC_BOTS if name in BOTS))
    return FirstLegalBot()


_fallback_bots: dict[str, Bot] = {}


def fallback_action(observation: Observation, fallback: str) -> Action:
    """Return the fallback's move for the observation; always legal."""
    bot = _fallback_bots.get(fallback)
    if bot is None:
        bot = _fallback_bots[fallback] = fallback_bot(fallback)
    thought = think(bot, observation, 0)
    if thought.error is None and is_legal(observation, thought.action):
        return cast(Action, thought.action)
    if decision_kind(observation) == "pass":
        return FirstLegalBot().choose_pass(observation)
    return cards_of(observation.legal_mask())[0]


@dataclass(frozen=True)
class Decision:
    """A settled decision of one seat: a legal action and the facts telemetry records.

    ``fallback`` is None when the bot's own move is played, else why the fallback was used.
    """

    seat: int
    bot: str
    kind: str
    action: Action
    elapsed_ms: float
    limit_ms: float | None
    timed_out: bool
    fallback: str | None = None
    facts: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def fallback_used(self) -> bool:
        """Return whether the fallback's move was played instead of the bot's."""
        return self.fallback is not None


def settle(
    thought: Thought,
    observation: Observation,
    bot_name: str,
    limit_ms: float | None,
    fallback: str,
) -> Decision:
    """Return the decision: the bot's action if it is legal, else the fallback's move.

    A bot with a fallback of its own (an engine seat's) that played that fallback's move says
    why as ``fallback_reason`` in its facts; the decision then names that reason too.
    """
    kind = decision_kind(observation)
    action, reason = thought.action, thought.error
    if reason is None and not is_legal(observation, action):
        reason = f"the bot chose an illegal {kind}: {action!r:.60}"
    if reason is not None:
        action = fallback_action(observation, fallback)
    else:
        own = thought.facts.get("fallback_reason")
        reason = own if isinstance(own, str) else None
    return Decision(
        observation.seat,
        bot_name,
        kind,
        action,
        thought.elapsed_ms,
        limit_ms,
        thought.timed_out,
        reason,
        thought.facts,
    )


# -- building bots ----------------------------------------------------------------------------


def is_bot_spec(name: str) -> bool:
    """Return whether ``name`` may name a bot.

    That is a registry name (with an optional ``@MSms`` think time) or ``engine:COMMAND``.
    """
    return is_registered(name) or name.startswith(ENGINE_PREFIX)


def build_bot(name: str, seed: int | None, moon_gates: Mapping[str, float]) -> Bot:
    """Return a new bot from a bot name (see ``is_bot_spec``), with the moon gates.

    Raises ValueError for a name that gives no bot.
    """
    bot = make_bot(name, seed)
    apply_moon_gates(bot, moon_gates)
    return bot


def apply_moon_gates(bot: Bot, gates: Mapping[str, float]) -> None:
    """Hand the moon gates to a bot whose ``params`` take them (``params.with_gates``)."""
    params = getattr(bot, "params", None)
    with_gates = getattr(params, "with_gates", None)
    if gates and callable(with_gates):
        bot.params = with_gates(gates)  # type: ignore[attr-defined]


# -- runners ----------------------------------------------------------------------------------

#: Called with every decision a runner settles (telemetry).
Report = Callable[[Decision], None]


class BotRunner(Protocol):
    """Asks bots for decisions; how (in this process or a worker) is the runner's business."""

    def decide(self, observation: Observation, bot_name: str, seed: int | None = None) -> Decision:
        """Return the named bot's settled decision for the observed seat (always legal)."""
        ...

    def cancel_all(self) -> None:
        """Drop every decision in progress (a new game began or a move was undone)."""
        ...

    def close(self) -> None:
        """Release what the runner holds."""
        ...


class DirectRunner:
    """Runs bots in this process, one per (seat, bot, seed), kept across decisions."""

    def __init__(self, config: ThinkConfig | None = None, report: Report | None = None) -> None:
        self.config = config or ThinkConfig()
        self.report = report
        self._bots: dict[tuple[int, str, int | None], Bot] = {}

    def decide(self, observation: Observation, bot_name: str, seed: int | None = None) -> Decision:
        """Run the bot now and return its settled decision."""
        config = self.config
        key = (observation.seat, bot_name, seed)
        try:
            if key not in self._bots:
                self._bots[key] = build_bot(bot_name, seed, config.moon_gates)
        except ValueError as error:
            thought = Thought(None, 0.0, False, error=str(error))
        else:
            thought = think(self._bots[key], observation, config.limit_ms)
        decision = settle(thought, observation, bot_name, config.limit_ms, config.fallback)
        if self.report is not None:
            self.report(decision)
        return decision

    def cancel_all(self) -> None:
        """Nothing runs in the background: nothing to cancel."""

    def close(self) -> None:
        """Release the bots (ending an engine seat's program) and forget them."""
        for bot in self._bots.values():
            close_bot(bot)
        self._bots.clear()
