"""Seats played by external programs: a misbehaving program costs only its move, never the game."""

from __future__ import annotations

import gc
import json
import os
import re
import shlex
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ai.basic import FirstLegalBot
from ai.bot import Bot, Budget
from ai.external import (
    MAX_PROBLEMS_PER_HAND,
    EngineCommandError,
    ExternalEngineBot,
    make_engine_bot,
    split_command,
)
from ai.telemetry import decision_record
from ai.think import ThinkConfig, settle, think
from ai.tournament import play_duplicate_deal, play_hand
from core.cards import card_text
from core.controller import Controller
from core.errors import HeartsError
from core.hand import HandState
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet
from core.seats import parse_seats
from game.terminal.bots import BotSeats, EngineProblem
from game.terminal.main import main as cli_main
from game.terminal.render import describe_event

ENGINES = Path(__file__).resolve().parent / "engines"
ROOT = ENGINES.parent.parent
RULES = RuleSet()
DEAL = deal_for(5, 0)
POSIX = os.name == "posix"


def _command(*words: str) -> str:
    return " ".join(shlex.quote(word) for word in (sys.executable, *words))


def _echo() -> str:
    return _command(str(ENGINES / "echo_engine.py"))


def _bad(mode: str, *options: str) -> str:
    return _command(str(ENGINES / "bad_engine.py"), mode, *options)


@pytest.fixture
def closing() -> Iterator[list[ExternalEngineBot]]:
    """Bots appended here are closed after the test, whatever happens."""
    bots: list[ExternalEngineBot] = []
    yield bots
    for bot in bots:
        bot.close()


def _bot(closing: list[ExternalEngineBot], command: str, **options: float) -> ExternalEngineBot:
    bot = ExternalEngineBot(command, fallback=FirstLegalBot(), **options)
    closing.append(bot)
    return bot


def _play_hand(engine: Bot, seat: int = 0) -> list[int]:
    bots: list[Bot] = [FirstLegalBot() for _ in range(4)]
    bots[seat] = engine
    return list(play_hand(RULES, "left", DEAL, bots).score.points)


def _pass_observation() -> Observation:
    return HandState.new(RULES, "left", DEAL).observation(0, (0, 0, 0, 0))


def _play_observation() -> Observation:
    """Seat 0's view when it is its turn to play in the first trick."""
    hand = HandState.new(RULES, "left", DEAL)
    first = FirstLegalBot()
    for seat in range(4):
        hand.submit_pass(seat, first.choose_pass(hand.observation(seat, (0, 0, 0, 0))))
    while hand.turn != 0:
        seat = hand.turn
        assert seat is not None
        hand.play(seat, first.choose_play(hand.observation(seat, (0, 0, 0, 0))))
    return hand.observation(0, (0, 0, 0, 0))


def _is_reaped(pid: int) -> bool:
    """Return whether no process (not even a zombie) has this id any more."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# -- whole hands ------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 2])
def test_an_engine_seat_plays_a_whole_hand_like_the_bot_it_imitates(
    closing: list[ExternalEngineBot], seat: int
) -> None:
    bot = _bot(closing, _echo())
    assert _play_hand(bot, seat) == _play_hand(FirstLegalBot(), seat)
    assert bot.problems == []
    assert "problem" not in bot.last_decision
    assert bot.last_decision["engine"].endswith("echo_engine.py")


def test_our_own_engine_command_can_play_a_seat(closing: list[ExternalEngineBot]) -> None:
    bot = _bot(closing, _command("-m", "game", "engine", "--difficulty", "first"))
    assert _play_hand(bot) == _play_hand(FirstLegalBot())
    assert bot.problems == []


def test_a_seeded_seat_hands_its_program_the_seed(closing: list[ExternalEngineBot]) -> None:
    command = _command("-m", "game", "engine", "--difficulty", "random")
    # A program started afresh for each hand: the same seed plays the hand the same way.
    hands = []
    for seed in (7, 7, 8):
        bot = ExternalEngineBot(command, fallback=FirstLegalBot(), seed=seed)
        closing.append(bot)
        hands.append(_play_hand(bot))
        assert bot.problems == []
    assert hands[0] == hands[1] != hands[2]
    with pytest.raises(HeartsError, match="seed must be a whole number"):
        ExternalEngineBot(command, seed=-1)


#: Each way bad_engine.py misbehaves, what the problem says, and whether the program restarts.
MISBEHAVIOURS = [
    pytest.param(mode, message, restarts, id=mode)
    for mode, message, restarts in [
        ("crash", r"exited with status 3 without answering$", True),
        ("garbage", r"sent a line that is not JSON: 'thinking\.\.\. done'$", True),
        ("illegal", r"sent an illegal (card '\w\w'|pass): ", False),
        ("slow", r"timed out after \d+ ms", True),
        ("wrong_id", r"answered request (\d+) with id 10\d\d$", True),
        ("error_reply", r"answered with an error: 'I give up'$", False),
    ]
]


@pytest.mark.parametrize("phase", ["pass", "play"])
@pytest.mark.parametrize(("mode", "message", "restarts"), MISBEHAVIOURS)
def test_each_misbehaviour_costs_only_that_move(
    closing: list[ExternalEngineBot],
    tmp_path: Path,
    phase: str,
    mode: str,
    message: str,
    restarts: bool,
) -> None:
    timing = {"timeout_ms": 1000, "startup_ms": 1000} if mode == "slow" else {}
    command = _bad(mode, "--on", phase, "--once", str(tmp_path / "misbehaved"))
    bot = _bot(closing, command, **timing)
    # The fallback is the same bot the engine imitates, so the hand goes exactly the same way.
    assert _play_hand(bot) == _play_hand(FirstLegalBot())
    assert len(bot.problems) == 1, bot.problems
    problem = bot.problems[0]
    assert re.match(r"engine '[^']*bad_engine\.py ", problem), problem
    assert re.search(message, problem), problem
    if mode == "illegal":
        assert ("illegal pass" if phase == "pass" else "illegal card") in problem
    assert "problem" not in bot.last_decision


@pytest.mark.parametrize(("mode", "message", "restarts"), MISBEHAVIOURS)
def test_after_a_misbehaviour_the_next_request_is_answered(
    closing: list[ExternalEngineBot], tmp_path: Path, mode: str, message: str, restarts: bool
) -> None:
    bot = _bot(
        closing, _bad(mode, "--on", "play", "--once", str(tmp_path / "flag")), timeout_ms=1000
    )
    observation = _play_observation()
    expected = FirstLegalBot().choose_play(observation)
    bot.choose_pass(_pass_observation())  # starts the program and lets it warm up
    first_pid = bot.process_id
    assert bot.problems == []
    assert bot.choose_play(observation) == expected
    assert re.search(message, bot.last_decision["problem"])
    assert bot.last_decision["fallback"] == {}
    assert (bot.process_id is None) == restarts
    assert bot.choose_play(observation) == expected
    assert "problem" not in bot.last_decision
    assert len(bot.problems) == 1
    assert (bot.process_id != first_pid) == restarts
    if restarts and POSIX:
        assert first_pid is not None and _is_reaped(first_pid)


def test_illegal_answers_are_named_with_the_reason(closing: list[ExternalEngineBot]) -> None:
    observation = _play_observation()
    held = {card_text(card) for card in range(52) if observation.hand >> card & 1}
    legal = " ".join(card_text(card) for card in range(52) if observation.legal_mask() >> card & 1)
    assert len(legal.split()) < len(held)  # seat 0 holds a card it may not play now
    not_held = _bot(closing, _bad("illegal"))
    not_held.choose_play(observation)
    named = re.search(r"illegal card '(\w\w)': it does not hold (\w\w)$", not_held.problems[-1])
    assert named is not None and named.group(1) == named.group(2) and named.group(1) not in held
    not_held.choose_pass(_pass_observation())
    assert re.search(r"sent an illegal pass: card \w\w is listed twice$", not_held.problems[-1])
    unlawful = _bot(closing, _bad("unlawful"))
    unlawful.choose_play(observation)
    named = re.search(r"illegal card '(\w\w)': the legal cards were (.*)$", unlawful.problems[-1])
    assert named is not None and named.group(1) in held and named.group(2) == legal
    unlawful.choose_pass(_pass_observation())
    assert re.search(r"sent an illegal pass: it does not hold \w\w$", unlawful.problems[-1])


# -- time -------------------------------------------------------------------------------------


def test_a_budget_shortens_the_wait(closing: list[ExternalEngineBot]) -> None:
    bot = _bot(closing, _bad("slow", "--on", "play"), timeout_ms=60_000)
    bot.choose_pass(_pass_observation())
    bot.choose_play(_play_observation(), Budget.for_ms(300))
    waited = re.search(r"timed out after (\d+) ms$", bot.last_decision["problem"])
    assert waited is not None, bot.last_decision
    assert int(waited.group(1)) <= 300


def test_a_fresh_program_gets_extra_time_to_start(closing: list[ExternalEngineBot]) -> None:
    bot = _bot(closing, _bad("slow"), timeout_ms=200, startup_ms=300)
    bot.choose_pass(_pass_observation())
    assert bot.last_decision["problem"].endswith(
        "timed out after 500 ms (including 300 ms to start)"
    )


def test_a_cancelled_decision_is_not_a_problem(closing: list[ExternalEngineBot]) -> None:
    bot = _bot(closing, _bad("slow", "--on", "play"), timeout_ms=60_000)
    bot.choose_pass(_pass_observation())
    answers = iter([False, False, True])  # cancelled while the program thinks
    budget = Budget(cancelled=lambda: next(answers, True))
    card = bot.choose_play(_play_observation(), budget)
    assert card == FirstLegalBot().choose_play(_play_observation())
    assert bot.last_decision["cancelled"] is True
    assert bot.problems == []


def test_no_time_left_means_the_fallback_moves_without_asking(
    closing: list[ExternalEngineBot],
) -> None:
    bot = _bot(closing, _echo())
    expired = Budget.for_ms(0)
    assert bot.choose_pass(_pass_observation(), expired) == FirstLegalBot().choose_pass(
        _pass_observation()
    )
    assert bot.last_decision["skipped"] == "no time left to ask it"
    assert bot.process_id is None
    assert bot.problems == []


def test_a_fresh_program_keeps_to_the_budget(closing: list[ExternalEngineBot]) -> None:
    bot = _bot(closing, _bad("hang"))  # it may take 5 s more to start, but the budget is 300 ms
    started = time.perf_counter()
    bot.choose_pass(_pass_observation(), Budget.for_ms(300))
    took = time.perf_counter() - started
    assert re.search(r"timed out after \d+ ms$", bot.last_decision["problem"]), bot.last_decision
    assert took < 0.3 + 1.0, f"{took:.2f} s for a decision of 300 ms"


def _hand_with_budget(engine: Bot, budget_ms: float) -> list[int]:
    """Play a hand with the engine at seat 0, each of its plays within ``budget_ms``."""
    hand = HandState.new(RULES, "left", DEAL)
    bots: list[Bot] = [engine, FirstLegalBot(), FirstLegalBot(), FirstLegalBot()]
    for seat in range(4):
        hand.submit_pass(seat, bots[seat].choose_pass(hand.observation(seat, (0, 0, 0, 0))))
    while hand.turn is not None:
        seat = hand.turn
        budget = Budget.for_ms(budget_ms) if seat == 0 else None
        hand.play(seat, bots[seat].choose_play(hand.observation(seat, (0, 0, 0, 0)), budget))
    return hand.taken_points()


def test_after_three_problems_the_fallback_plays_the_rest_of_the_hand(
    closing: list[ExternalEngineBot],
) -> None:
    bot = _bot(closing, _bad("hang", "--on", "play"))
    started = time.perf_counter()
    assert _hand_with_budget(bot, 300) == _hand_with_budget(FirstLegalBot(), 300)
    took = time.perf_counter() - started
    assert MAX_PROBLEMS_PER_HAND == 3
    assert len(bot.problems) == 3 and bot.tally.timeouts == 3, bot.problems
    assert bot.tally.fallback_moves == 13  # every play of the hand
    assert bot.process_id is None  # stopped, not restarted at every move
    assert bot.last_decision["sitting_out"] is True
    assert bot.last_decision["fallback_reason"].endswith(
        "sits out the rest of the hand after 3 problems"
    )
    assert took < 3 * (0.3 + 0.5) + 3.0, f"{took:.2f} s for the hand"
    # The next hand asks the program again (it only hangs on plays).
    other = HandState.new(RULES, "left", deal_for(6, 0)).observation(0, (0, 0, 0, 0))
    bot.choose_pass(other)
    assert "fallback_reason" not in bot.last_decision and bot.process_id is not None


def test_the_third_problem_says_once_that_the_fallback_takes_over(
    closing: list[ExternalEngineBot],
) -> None:
    bot = _bot(closing, _bad("error_reply"))
    observation = _play_observation()
    for number in range(1, 5):
        bot.choose_play(observation)
        said = bot.last_decision.get("benched")
        if number == 3:
            assert said is not None and said.endswith(
                "had 3 problems this hand: its fallback bot plays the rest of the hand"
            )
        else:
            assert said is None
    assert len(bot.problems) == 3


def test_an_engine_problem_is_recorded_with_the_decision(
    closing: list[ExternalEngineBot],
) -> None:
    bot = _bot(closing, _bad("error_reply"))
    observation = _pass_observation()
    decision = settle(think(bot, observation, 2000), observation, "engine:x", 2000, "heuristic")
    assert decision.fallback is not None
    assert decision.fallback.endswith("answered with an error: 'I give up'")
    record = decision_record(decision)
    assert record["fallback_used"] is True and record["fallback_reason"] == decision.fallback
    assert record["facts"]["problem"] == decision.fallback


def test_the_terminal_seats_report_each_engine_problem_once_and_keep_to_the_limit() -> None:
    controller = Controller()
    controller.new_match(seed=4, seats=parse_seats([f"engine:{_bad('hang')}", "bot", "bot", "bot"]))
    players = BotSeats(ThinkConfig(limit_ms=300), use_worker=False)
    players.allow_engines = True  # the person agreed
    try:
        started = time.perf_counter()
        happened = players.play(controller)  # the whole hand: no person plays
        took = time.perf_counter() - started
    finally:
        players.close()
    problems = [event for event in happened if isinstance(event, EngineProblem)]
    assert [event.seat for event in problems] == [0, 0, 0]
    assert [event.rest_of_hand is not None for event in problems] == [False, False, True]
    assert controller.phase in ("hand_over", "match_over")
    assert took < 3 * (0.3 + 0.5) + 3.0, f"{took:.2f} s for the hand"
    line = describe_event(problems[-1], viewer=None)
    assert re.match(r"seat 0: engine '.*' timed out after \d+ ms; its fallback bot moved\n", line)
    assert line.endswith("its fallback bot plays the rest of the hand")


def test_the_cli_shows_an_engine_problem_and_records_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MDH_THINK_LIMIT_MS", "400")
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(tmp_path / "telemetry"))
    monkeypatch.setenv("MDH_CLI_STATE", str(tmp_path / "unused.json"))
    seats = f"human,engine:{_bad('hang')},bot,bot"  # seat 1 must pass at once
    for output in ([], ["--json"]):
        state = tmp_path / f"match{len(output)}.json"
        started = time.perf_counter()
        code = cli_main(["--state", str(state), *output, "new", "--seed", "1", "--seats", seats])
        took = time.perf_counter() - started
        out = capsys.readouterr().out
        assert code == 0
        assert took < 0.4 + 3.0, f"{took:.2f} s for one engine decision of 400 ms"
        if output:
            events = [e for e in json.loads(out)["events"] if e["type"] == "engine_problem"]
            assert len(events) == 1 and events[0]["seat"] == 1, events
            assert "timed out" in events[0]["problem"] and events[0]["rest_of_hand"] is None
        else:
            said = r"^seat 1: engine '.*' timed out after \d+ ms; its fallback bot moved$"
            assert re.search(said, out, re.MULTILINE), out
    records = [
        json.loads(line)
        for path in (tmp_path / "telemetry").glob("*.ndjson")
        for line in path.read_text().splitlines()
    ]
    engine = [record for record in records if record["seat"] == 1]
    assert len(engine) == 2 and all(record["fallback_used"] for record in engine), engine
    assert all("timed out" in record["fallback_reason"] for record in engine)


# -- the program's life -----------------------------------------------------------------------


def test_close_asks_the_program_to_quit_and_reaps_it() -> None:
    with ExternalEngineBot(_echo()) as bot:
        assert bot.process_id is None  # started lazily
        bot.choose_pass(_pass_observation())
        pid = bot.process_id
        assert pid is not None
        assert bot.close() == 0  # it quit on request
        assert bot.process_id is None
        assert bot.close() is None
        if POSIX:
            assert _is_reaped(pid)
        bot.choose_pass(_pass_observation())  # usable again: a new program starts
        assert bot.process_id not in (None, pid)
        second = bot.process_id
    assert bot.process_id is None
    if POSIX:
        assert second is not None and _is_reaped(second)


def test_close_kills_a_program_that_ignores_quit() -> None:
    bot = ExternalEngineBot(_bad("ignore_quit"))
    bot.choose_pass(_pass_observation())
    pid = bot.process_id
    assert bot.problems == []
    status = bot.close()
    assert status is not None and status != 0
    if POSIX:
        assert pid is not None and _is_reaped(pid)


def test_a_forgotten_bot_ends_its_program() -> None:
    bot = ExternalEngineBot(_echo())
    bot.choose_pass(_pass_observation())
    pid = bot.process_id
    del bot
    gc.collect()
    if POSIX:
        assert pid is not None and _is_reaped(pid)


@pytest.mark.skipif(not POSIX, reason="file modes are POSIX")
def test_a_program_that_cannot_start_costs_each_move(tmp_path: Path) -> None:
    program = tmp_path / "engine.sh"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(stat.S_IRWXU)
    bot = ExternalEngineBot(shlex.quote(str(program)), fallback=FirstLegalBot())
    program.unlink()
    for _ in range(2):
        assert bot.choose_pass(_pass_observation()) == FirstLegalBot().choose_pass(
            _pass_observation()
        )
    assert len(bot.problems) == 2
    assert "engine 'engine.sh' could not start: No such file or directory" in bot.problems[0]


# -- commands ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("engine:", "an engine seat needs a command after 'engine:'"),
        ("engine:   ", "an engine seat needs a command after 'engine:'"),
        ("engine:python 'unbalanced", "cannot split the engine command"),
        ("engine:mdhearts-no-such-program --x", "engine program 'mdhearts-no-such-program' not"),
        ("engine:/no/such/dir/engine", "engine program '/no/such/dir/engine' not found"),
        ("engine:a\0b", "cannot contain a NUL character"),
        ("bot:easy", "an engine seat kind is 'engine:COMMAND', got 'bot:easy'"),
    ],
)
def test_malformed_engine_commands_get_clear_errors(kind: str, message: str) -> None:
    with pytest.raises(EngineCommandError) as caught:
        make_engine_bot(kind, 1)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)  # what the bot registry promises


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"timeout_ms": 0}, "timeout_ms must be at least 1 ms"),
        ({"timeout_ms": float("nan")}, "timeout_ms must be at least 1 ms"),
        ({"startup_ms": -1}, "startup_ms must be at least 0 ms"),
        ({"timeout_ms": "5"}, "timeout_ms must be a number of milliseconds"),
    ],
)
def test_bad_time_limits_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ExternalEngineBot(_echo(), **options)  # type: ignore[arg-type]


def test_commands_split_like_a_shell() -> None:
    words = split_command(f"{shlex.quote(sys.executable)} -c 'print(1)' \"a b\"")
    assert words == [sys.executable, "-c", "print(1)", "a b"]


# -- tournaments ------------------------------------------------------------------------------


def test_engine_lineup_entries_play_duplicate_deals() -> None:
    lineup = [f"engine:{_echo()}", "first", "first", "first"]
    with_engine = play_duplicate_deal(lineup, RULES, seed=3, index=0)
    reference = play_duplicate_deal(["first"] * 4, RULES, seed=3, index=0)
    assert with_engine.points == reference.points
