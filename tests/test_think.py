"""The think config from the environment, one decision with its fallback, the direct runner."""

from __future__ import annotations

from typing import Any

import pytest

from ai.autoplay import play_bots
from ai.basic import FirstLegalBot
from ai.bot import Budget
from ai.registry import BOTS
from ai.think import (
    DirectRunner,
    ThinkConfig,
    build_bot,
    decision_kind,
    default_difficulty,
    fallback_action,
    is_bot_spec,
    is_legal,
    settle,
    think,
    think_config_from_env,
)
from core.cards import cards_of
from core.controller import Controller
from core.observation import Observation
from core.seats import parse_seats
from game.terminal.bots import BotSeats, RunnerBot


class Raiser(FirstLegalBot):
    """A bot with a bug."""

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        raise ZeroDivisionError("oops")


class Cheater(FirstLegalBot):
    """A bot that plays a card it may not play and passes cards it does not hold."""

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        return next(card for card in range(52) if not observation.legal_mask() >> card & 1)

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        first, second, third = [card for card in range(52) if not observation.hand >> card & 1][:3]
        return first, second, third


def observations() -> tuple[Observation, Observation]:
    """Return a seat that must pass and a seat that must play."""
    passing = Controller()
    passing.new_match(seed=5)
    playing = Controller()
    playing.new_match(seed=5, rules={"pass_cycle": ["hold"]})
    return passing.observation(1), playing.observation(playing.seats_to_act[0])


# -- the config -------------------------------------------------------------------------------


def test_defaults() -> None:
    config = ThinkConfig()
    assert config.limit_ms <= 1000 and config.fallback == "heuristic"
    assert config.difficulty == default_difficulty() and config.difficulty in BOTS
    assert config.moon_gates == {}
    assert think_config_from_env({}) == (config, [])


def test_valid_environment_overrides_the_base() -> None:
    env = {
        "MDH_BOT_DIFFICULTY": " Easy ",
        "MDH_THINK_LIMIT_MS": "250",
        "MDH_THINK_FALLBACK": "first_legal",
        "MDH_MOON_CONSIDER": "0.5",
        "MDH_MOON_DEFEND_POINTS": "12",
        "PATH": "/bin",
    }
    base = ThinkConfig(difficulty="first", limit_ms=900, moon_gates={"commit": 0.8})
    config, warnings = think_config_from_env(env, base)
    assert warnings == []
    assert config == ThinkConfig(
        "easy", 250.0, "first_legal", {"commit": 0.8, "consider": 0.5, "defend_points": 12.0}
    )


def test_each_invalid_variable_is_ignored_with_one_warning() -> None:
    env = {
        "MDH_BOT_DIFFICULTY": "godlike",
        "MDH_THINK_LIMIT_MS": "nan",
        "MDH_THINK_FALLBACK": "pray",
        "MDH_MOON_COMMIT": "high",
        "MDH_MOON_PASS": "inf",
        "MDH_MOON_": "1",
        "MDH_MOON_CONSIDER": "0.7",
    }
    base = ThinkConfig(difficulty="first")
    config, warnings = think_config_from_env(env, base)
    assert config == ThinkConfig(difficulty="first", moon_gates={"consider": 0.7})
    assert len(warnings) == 6
    for name in env:
        if name != "MDH_MOON_CONSIDER":
            assert sum(f"ignoring {name}=" in warning for warning in warnings) == 1


def test_a_mistyped_moon_gate_name_is_refused_with_the_known_names() -> None:
    config, warnings = think_config_from_env({"MDH_MOON_CONSDER": "0.5"})
    assert config.moon_gates == {}
    assert warnings == [
        "ignoring MDH_MOON_CONSDER='0.5': no moon gate is named 'consder' "
        "(known: consider, commit, pass, defend_points, defend_hearts_left)"
    ]


@pytest.mark.parametrize("limit", ["0", "-5", "1e9", "fast", "", "inf"])
def test_bad_limits_are_refused(limit: str) -> None:
    config, warnings = think_config_from_env({"MDH_THINK_LIMIT_MS": limit})
    assert config.limit_ms == ThinkConfig().limit_ms and len(warnings) == 1


# -- one decision -----------------------------------------------------------------------------


def test_kinds_and_legality() -> None:
    passing, playing = observations()
    assert decision_kind(passing) == "pass" and decision_kind(playing) == "play"
    hand = cards_of(passing.hand)
    assert is_legal(passing, tuple(hand[:3])) and not is_legal(passing, (hand[0],) * 3)
    assert not is_legal(passing, hand[0]) and not is_legal(playing, True)
    assert is_legal(playing, cards_of(playing.legal_mask())[0])
    idle = Controller()
    idle.new_match(seed=5, rules={"pass_cycle": ["hold"]})
    waiting = next(seat for seat in range(4) if seat not in idle.seats_to_act)
    with pytest.raises(ValueError, match="nothing to decide"):
        decision_kind(idle.observation(waiting))


@pytest.mark.parametrize("bot", [Raiser(), Cheater()], ids=["raises", "cheats"])
@pytest.mark.parametrize("fallback", ["heuristic", "first_legal"])
def test_a_failing_bot_gets_the_fallback_move(bot: Any, fallback: str) -> None:
    for observation in observations():
        thought = think(bot, observation, 50)
        decision = settle(thought, observation, "test", 50, fallback)
        if isinstance(bot, Raiser) and decision.kind == "pass":
            assert not decision.fallback_used  # it only fails to play
            continue
        assert decision.fallback_used and is_legal(observation, decision.action)
        assert ("failed" if isinstance(bot, Raiser) else "illegal") in str(decision.fallback)
        if fallback == "first_legal":
            first = FirstLegalBot()
            expected = (
                first.choose_pass(observation)
                if decision.kind == "pass"
                else first.choose_play(observation)
            )
            assert decision.action == expected


@pytest.mark.parametrize(
    "answer", [None, -1, 52, 10**30, "QS", 2.0, True, [[1], [2], [3]], (0, 0, 0), (1, 2), object()]
)
def test_odd_answers_get_the_fallback_move(answer: object) -> None:
    class Odd(FirstLegalBot):
        def choose_play(self, observation: Observation, budget: Budget | None = None) -> Any:
            self.last_decision = ["not", "a", "dict"]  # type: ignore[assignment]
            return answer

        def choose_pass(self, observation: Observation, budget: Budget | None = None) -> Any:
            return answer

    for observation in observations():
        thought = think(Odd(), observation, None)
        decision = settle(thought, observation, "odd", None, "heuristic")
        assert decision.fallback_used and is_legal(observation, decision.action)
        assert isinstance(thought.facts, dict)


def test_the_heuristic_fallback_is_legal_for_every_seat() -> None:
    controller = Controller()
    controller.new_match(seed=11, seats=["bot"] * 4)
    while controller.seats_to_act:
        seat = controller.seats_to_act[0]
        observation = controller.observation(seat)
        action = fallback_action(observation, "heuristic")
        assert is_legal(observation, action)
        if controller.phase == "pass":
            assert controller.submit_pass(seat, action).ok
        else:
            assert controller.play_card(seat, action).ok


def test_think_records_time_and_facts() -> None:
    class Talker(FirstLegalBot):
        def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
            self.last_decision = {"samples": 3, "values": {"2C": 1.5}, "odd": {1, 2}}
            return super().choose_play(observation)

    _, playing = observations()
    thought = think(Talker(), playing, None)
    assert thought.error is None and not thought.timed_out and thought.elapsed_ms >= 0
    assert thought.facts["samples"] == 3 and thought.facts["values"] == {"2C": 1.5}
    assert isinstance(thought.facts["odd"], str)  # made JSON-safe
    late = think(Talker(), playing, 0)
    assert late.timed_out


# -- building bots ------------------------------------------------------------------------------


def test_bot_specs() -> None:
    assert is_bot_spec("first") and is_bot_spec("hard@250ms") and is_bot_spec("engine:x")
    assert not is_bot_spec("nobody") and not is_bot_spec("a b:c") and not is_bot_spec(":x")
    assert isinstance(build_bot("first", 1, {}), FirstLegalBot)
    # A module and a factory in it name no bot: nothing is imported by name.
    for bad in ("nobody", "ai.basic:FirstLegalBot", f"{__name__}:observations", "os:getcwd"):
        assert not is_bot_spec(bad)
        with pytest.raises(ValueError):
            build_bot(bad, None, {})


def test_moon_gates_reach_bots_that_read_them() -> None:
    if "normal" not in BOTS:
        pytest.skip("no normal bot registered")
    bot: Any = build_bot("normal", 1, {"consider": 0.5, "no_such_gate": 9.0})
    assert bot.params.moon_consider == 0.5
    assert isinstance(build_bot("first", None, {"consider": 0.5}), FirstLegalBot)


# -- the direct runner ------------------------------------------------------------------------


def test_the_direct_runner_plays_a_hand_and_reports_every_decision() -> None:
    reported = []
    runner = DirectRunner(ThinkConfig(limit_ms=200), reported.append)
    controller = Controller()
    controller.new_match(seed=8, seats=["bot"] * 4)
    names = ["first", "random", "easy", default_difficulty()]
    bots = {seat: RunnerBot(runner, names[seat]) for seat in range(4)}
    events = play_bots(controller, bots)
    assert controller.phase == "hand_over" and events[-1].kind == "hand_scored"
    assert len(reported) == 4 + 52
    assert all(not decision.fallback_used for decision in reported)
    assert {decision.bot for decision in reported} == set(names)


def test_the_direct_runner_falls_back_for_an_unknown_bot() -> None:
    _, playing = observations()
    decision = DirectRunner().decide(playing, "nobody")
    assert decision.fallback_used and "unknown bot" in str(decision.fallback)
    assert is_legal(playing, decision.action)


def test_bot_seats_pick_the_runner_and_the_difficulty() -> None:
    seats, warnings = BotSeats.from_env(
        {"MDH_BOT_DIFFICULTY": "easy", "MDH_TELEMETRY": "0"},
        base=ThinkConfig(difficulty="first"),
    )
    assert warnings == [] and seats.telemetry is None
    lineup = parse_seats(("human", "bot", "bot:random", "engine:x"))
    assert seats.names(lineup) == {1: "easy", 2: "random"}
    assert isinstance(seats.runner(["easy", "first"]), DirectRunner)
    forced = BotSeats(use_worker=False)
    assert isinstance(forced.runner(["some:searcher"]), DirectRunner)
