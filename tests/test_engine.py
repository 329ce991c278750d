"""The engine protocol: answers agree with the controller, errors are specific, the loop holds."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ai.basic import FirstLegalBot, RandomBot
from ai.bot import Budget
from ai.external import SEED_ENV
from ai.registry import BOTS
from core.cards import card_text, mask_texts, parse_card
from core.controller import Controller
from core.match import MAX_SEED
from core.observation import Observation
from core.rules import RuleSet
from core.view import view_from_observation
from game.engine.main import main, make_bot, serve
from game.engine.protocol import MAX_LINE_BYTES, handle_line, handle_request

ROOT = Path(__file__).resolve().parent.parent
BOT = FirstLegalBot()


def _ask(kind: str, view: dict[str, Any], bot: Any = BOT, **extra: Any) -> dict[str, Any]:
    reply = handle_request({"type": kind, **view, **extra}, bot)
    assert not reply.quit
    return reply.data


def _random_games(rules: RuleSet, seeds: range) -> Iterator[Controller]:
    """Yield a controller at every decision point of random games (several hands each)."""
    for seed in seeds:
        rng = random.Random(seed)
        controller = Controller()
        controller.new_match(rules=rules, seed=seed, seats=["bot"] * 4)
        for _hand in range(3):
            while controller.phase in ("pass", "play"):
                yield controller
                if controller.phase == "pass":
                    for seat in controller.seats_to_act:
                        controller.submit_pass(seat, rng.sample(controller.hand(seat), 3))
                else:
                    seat = controller.seats_to_act[0]
                    controller.play_card(seat, rng.choice(controller.legal_cards(seat)))
            if controller.phase == "match_over":
                break
            controller.next_hand()


@pytest.mark.parametrize(
    "rules",
    [RuleSet(), RuleSet(first_lead="any_club", no_points_first_trick=False)],
    ids=["standard", "any-club"],
)
def test_legal_play_and_pass_answers_agree_with_the_controller(rules: RuleSet) -> None:
    random_bot = RandomBot(5)
    for controller in _random_games(rules, range(3)):
        for seat in controller.seats_to_act:
            view = view_from_observation(controller.observation(seat))
            legal = _ask("legal", view)
            if controller.phase == "pass":
                assert legal == {"cards": mask_texts(controller.observation(seat).hand)}
                for bot in (BOT, random_bot):
                    cards = _ask("pass", view, bot)["cards"]
                    assert controller.observation(seat).hand >> parse_card(cards[0]) & 1
                    assert len(set(cards)) == 3
            else:
                assert legal == {"cards": [card_text(c) for c in controller.legal_cards(seat)]}
                for bot in (BOT, random_bot):
                    assert _ask("play", view, bot)["card"] in legal["cards"]
        if controller.phase == "play":
            waiting = (controller.seats_to_act[0] + 1) % 4
            view = view_from_observation(controller.observation(waiting))
            error = _ask("legal", view)["error"]
            assert error == f"it is seat {controller.seats_to_act[0]}'s turn, not seat {waiting}'s"


def _controller_in_pass_phase() -> Controller:
    controller = Controller()
    controller.new_match(seed=3, seats=["bot"] * 4)
    assert controller.phase == "pass"
    return controller


def test_requests_that_cannot_be_answered_say_why() -> None:
    controller = _controller_in_pass_phase()
    view = view_from_observation(controller.observation(0))
    assert _ask("play", view)["error"] == "seat 0 must pass three cards first"
    controller.submit_pass(0, controller.hand(0)[:3])
    view = view_from_observation(controller.observation(0))
    assert _ask("legal", view)["error"] == "seat 0 has passed and waits for the exchange"
    assert _ask("pass", view)["error"].startswith("seat 0 has already passed ")
    hold = Controller()
    hold.new_match(rules={"pass_cycle": ["hold"]}, seed=3, seats=["bot"] * 4)
    leader = hold.seats_to_act[0]
    view = view_from_observation(hold.observation(leader))
    assert _ask("pass", view)["error"] == "no cards are passed on a hold hand"
    assert _ask("play", view) == {"card": "2C"}
    while hold.phase == "play":
        seat = hold.seats_to_act[0]
        hold.play_card(seat, hold.legal_cards(seat)[0])
    view = view_from_observation(hold.observation(0))
    assert _ask("legal", view)["error"] == "the hand is over: all 13 tricks are played"
    reply = _ask("score", {"tricks": view["tricks"], "rules": view["rules"]}, id="s")
    assert reply == {"id": "s", "points": list(hold.hand_scores[0].points)}


@pytest.mark.parametrize("request_id", ["abc", 7, -1.5, True, None, ""])
def test_replies_echo_any_scalar_id(request_id: object) -> None:
    view = view_from_observation(_controller_in_pass_phase().observation(1))
    assert handle_request({"type": "legal", "id": request_id, **view}, BOT).data["id"] == request_id
    assert handle_request({"type": "nope", "id": request_id}, BOT).data["id"] == request_id
    assert handle_request({"type": "quit", "id": request_id}, BOT).data == {
        "id": request_id,
        "ok": True,
    }


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([1, 2], "a request must be a JSON object, got a list"),
        ("legal", "a request must be a JSON object, got 'legal'"),
        ({"id": [1]}, "id must be a string, a number, true, false or null"),
        ({"id": 1}, "missing field 'type'"),
        ({"type": "move"}, "unknown request type 'move'"),
        ({"type": 3}, "unknown request type 3"),
        ({"type": "quit", "now": True}, "unknown field 'now' in quit"),
        ({"type": "legal"}, "missing field 'seat'"),
        ({"type": "legal", "seat": 0, "hand": [], "direction": "hold", "x": 1}, "unknown field"),
        ({"type": "score"}, "missing field 'tricks'"),
        ({"type": "score", "tricks": [], "seat": 1}, "unknown field 'seat' in score"),
        ({"type": "score", "tricks": []}, "a finished hand has 13 tricks, got 0"),
    ],
)
def test_malformed_requests_get_specific_errors(payload: object, message: str) -> None:
    reply = handle_request(payload, BOT)
    assert not reply.quit
    assert message in reply.data["error"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{", "not valid JSON"),
        ("hello", "not valid JSON"),
        ('{"type": "quit", "id": NaN}', "not valid JSON: NaN is not allowed"),
        ('{"type": "quit", "id": 1e400}', "not valid JSON: number 1e400 is out of range"),
        ('{"type": "quit", "id": ' + "9" * 5000 + "}", "not valid JSON"),
        ("[" * 10_000 + "]" * 10_000, "not valid JSON"),
        (b"\xff\xfe{}", "not valid JSON: the line is not UTF-8 text"),
        ("x" * (MAX_LINE_BYTES + 1), "line too long"),
        (
            '{"type": "legal", "type": "quit"}',
            "not valid JSON: the key 'type' appears twice in one object",
        ),
        ('{"type": "quit", "id": 1, "id": 2}', "the key 'id' appears twice"),
    ],
)
def test_malformed_lines_get_errors(line: str | bytes, message: str) -> None:
    reply = handle_line(line, BOT)
    assert reply is not None
    assert message in reply.data["error"]
    assert "id" not in reply.data


def test_a_pass_on_a_hold_hand_is_refused_for_that_reason() -> None:
    hand = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    line = json.dumps({"type": "pass", "seat": 0, "hand": hand, "direction": "hold"})
    reply = handle_line(line, BOT)
    assert reply is not None
    assert reply.data == {"error": "no cards are passed on a hold hand"}


def test_blank_lines_are_ignored() -> None:
    assert handle_line("", BOT) is None
    assert handle_line("   \t\r\n", BOT) is None
    assert handle_line(b"\n", BOT) is None


def test_the_server_replies_once_per_line_and_stops_at_quit() -> None:
    view = view_from_observation(_controller_in_pass_phase().observation(2))
    lines = [
        json.dumps({"type": "pass", "id": 1, **view}),
        "",
        "garbage",
        "x" * (3 * MAX_LINE_BYTES),
        json.dumps({"type": "legal", "id": 2, **view}),
        json.dumps({"type": "quit", "id": 3}),
        json.dumps({"type": "legal", "id": 4, **view}),
    ]
    stdout = io.StringIO()
    code = serve(io.BytesIO("\n".join(lines).encode() + b"\n"), stdout, BOT)
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert code == 0
    assert [reply.get("id") for reply in replies] == [1, None, None, 2, 3]
    assert len(replies[0]["cards"]) == 3
    assert replies[2]["error"].startswith("line too long")
    assert replies[4] == {"id": 3, "ok": True}


def test_a_line_of_exactly_the_limit_is_read() -> None:
    padded = '{"type": "quit"' + " " * (MAX_LINE_BYTES - 16) + "}"
    assert len(padded) == MAX_LINE_BYTES
    stdout = io.StringIO()
    assert serve(io.BytesIO(padded.encode() + b"\n"), stdout, BOT) == 0
    assert json.loads(stdout.getvalue()) == {"ok": True}


def test_the_random_bot_is_reproducible_with_a_seed() -> None:
    view = view_from_observation(_controller_in_pass_phase().observation(0))
    first = [_ask("pass", view, make_bot("random", 11)) for _ in range(2)]
    again = [_ask("pass", view, make_bot("random", 11)) for _ in range(2)]
    assert first == again
    assert isinstance(make_bot("first"), FirstLegalBot)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--bot", "genius"], "--difficulty: unknown bot 'genius' (known: "),
        (["--difficulty", "genius"], "--difficulty: unknown bot 'genius' (known: "),
        (["--difficulty"], "expected one argument"),
        (["--think-ms", "0"], "--think-ms: must be a whole number from 1 to 3600000, got '0'"),
        (["--think-ms", "1.5"], "--think-ms: must be a whole number from 1 to 3600000"),
        (["--think-ms", "fast"], "--think-ms: must be a whole number from 1 to 3600000"),
        (["--seed", "-1"], "--seed: must be a whole number from 0 to"),
        (["--seed", "seven"], "--seed: must be a whole number from 0 to"),
        (["--speed", "9"], "unrecognized arguments: --speed 9"),
    ],
)
def test_bad_command_line_options_exit_with_usage(
    capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    assert main(options) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: mdhearts engine")
    assert message in err


class _RecordingBot(FirstLegalBot):
    """The first-legal bot, remembering the budget of every decision."""

    def __init__(self) -> None:
        super().__init__()
        self.budgets: list[Budget | None] = []

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        self.budgets.append(budget)
        return super().choose_pass(observation, budget)

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        self.budgets.append(budget)
        return super().choose_play(observation, budget)


def _serve_in_process(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    *args: str,
) -> tuple[list[tuple[str, int | None]], _RecordingBot, list[dict[str, Any]]]:
    """Run ``main`` on the given stdin lines with a recording bot; return who was asked for."""
    made: list[tuple[str, int | None]] = []
    bot = _RecordingBot()

    def make(name: str, seed: int | None = None) -> _RecordingBot:
        made.append((name, seed))
        return bot

    monkeypatch.setattr("game.engine.main.make_bot", make)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("\n".join(lines).encode())))
    assert main(list(args)) == 0
    replies = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return made, bot, replies


def test_difficulty_think_ms_and_seed_reach_the_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    view = view_from_observation(_controller_in_pass_phase().observation(0))
    lines = [json.dumps({"type": "pass", "id": 1, **view}), json.dumps({"type": "legal", **view})]
    made, bot, replies = _serve_in_process(
        monkeypatch, capsys, lines, "--difficulty", "easy", "--think-ms", "250", "--seed", "8"
    )
    assert made == [("easy", 8)]
    assert len(replies) == 2 and len(replies[0]["cards"]) == 3
    assert len(bot.budgets) == 1  # legal does not ask the bot
    budget = bot.budgets[0]
    assert budget is not None and budget.deadline is not None
    remaining = budget.remaining_ms()
    assert remaining is not None and remaining <= 250

    made, bot, _ = _serve_in_process(monkeypatch, capsys, lines[:1], "--bot", "random")
    assert made == [("random", None)]
    assert bot.budgets == [None]  # no --think-ms: the bot keeps its own pace


def test_the_seed_of_an_engine_seat_reaches_the_bot_unless_the_command_sets_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    view = view_from_observation(_controller_in_pass_phase().observation(0))
    lines = [json.dumps({"type": "pass", "id": 1, **view})]
    monkeypatch.setenv(SEED_ENV, "12")
    made, _, _ = _serve_in_process(monkeypatch, capsys, lines, "--bot", "random")
    assert made == [("random", 12)]
    made, _, _ = _serve_in_process(monkeypatch, capsys, lines, "--bot", "random", "--seed", "3")
    assert made == [("random", 3)]
    monkeypatch.setenv(SEED_ENV, "soon")
    made, _, replies = _serve_in_process(monkeypatch, capsys, lines, "--bot", "random")
    assert made == [("random", None)] and len(replies[0]["cards"]) == 3


def test_an_invalid_engine_seat_seed_is_ignored_with_a_warning() -> None:
    environment = {**os.environ, SEED_ENV: "-4"}
    done = subprocess.run(
        [sys.executable, "-m", "game", "engine"],
        input='{"type": "quit"}\n',
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"ok": True}
    assert done.stderr == (
        f"mdhearts engine: ignoring {SEED_ENV}='-4': must be a whole number from 0 to {MAX_SEED}\n"
    )


def test_every_registered_bot_can_serve_with_a_think_time() -> None:
    controller = _controller_in_pass_phase()
    pass_view = view_from_observation(controller.observation(0))
    for name in BOTS:
        bot = make_bot(name, 2)
        assert len(_ask("pass", pass_view, bot)["cards"]) == 3
        reply = handle_request({"type": "pass", **pass_view}, bot, think_ms=50).data
        assert len(reply["cards"]) == 3


def _run_engine(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game", "engine", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_the_engine_command_serves_stdin_until_quit_and_until_eof() -> None:
    view = view_from_observation(_controller_in_pass_phase().observation(3))
    requests = [
        json.dumps({"type": "legal", "id": "a", **view}),
        "{not json",
        "",
        json.dumps({"type": "play", "id": "b", **view}),
        '{"type": "pass", "seat": 9}',
        json.dumps({"type": "pass", "id": "c", **view}),
    ]
    quit_run = _run_engine("\n".join([*requests, '{"type": "quit", "id": "q"}', "ignored"]) + "\n")
    assert quit_run.returncode == 0
    assert quit_run.stderr == ""
    replies = [json.loads(line) for line in quit_run.stdout.splitlines()]
    assert len(replies) == 6
    assert replies[0]["cards"] == view["hand"]
    assert "error" in replies[1] and "id" not in replies[1]
    assert replies[2] == {"id": "b", "error": "seat 3 must pass three cards first"}
    assert replies[3] == {"error": "missing field 'hand'"}
    assert len(replies[4]["cards"]) == 3
    assert replies[5] == {"id": "q", "ok": True}

    eof_run = _run_engine("\n".join(requests), "--bot", "random", "--seed", "4")
    assert eof_run.returncode == 0
    assert eof_run.stderr == ""
    assert len(eof_run.stdout.splitlines()) == 5


def test_the_engine_command_plays_a_difficulty_with_a_think_time_reproducibly() -> None:
    controller = _controller_in_pass_phase()
    requests = [
        json.dumps(
            {"type": "pass", "id": seat, **view_from_observation(controller.observation(seat))}
        )
        for seat in range(4)
    ]
    args = ("--difficulty", "easy", "--think-ms", "200", "--seed", "12")
    runs = [_run_engine("\n".join(requests) + "\n", *args) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0
        assert run.stderr == ""
    replies = [json.loads(line) for line in runs[0].stdout.splitlines()]
    assert [reply["id"] for reply in replies] == [0, 1, 2, 3]
    for seat, reply in enumerate(replies):
        assert set(map(parse_card, reply["cards"])) <= set(controller.hand(seat))
    assert runs[0].stdout == runs[1].stdout
