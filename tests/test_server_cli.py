"""``mdhearts cli --server``: the terminal harness at a table of a real ``mdhearts serve``, one
command at a time with ``--json`` and interactively, with the local harness's reason codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import ROOT, ServerProcess, free_port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module."""
    process = ServerProcess(tmp_path_factory.mktemp("serve") / "server.sqlite3")
    yield process
    process.stop()


def cli(server: ServerProcess, *args: str, token: str = "", **env: str) -> tuple[int, Any]:
    """Run ``mdhearts cli --server URL ... --json``; return its status and its JSON."""
    environ = {**os.environ, "MDH_SEAT_TOKEN": token, **env}
    done = subprocess.run(
        [sys.executable, "-m", "game", "cli", "--server", server.url, *args, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=environ,
        check=False,
    )
    try:
        return done.returncode, json.loads(done.stdout)
    except json.JSONDecodeError:
        raise AssertionError(
            f"no JSON from the cli (status {done.returncode}): {done.stdout!r} {done.stderr!r}"
        ) from None


def _table(server: ServerProcess, seats: str) -> tuple[str, str]:
    status, made = cli(server, "create", "--seats", seats, "--end-score", "20")
    assert status == 0 and made["ok"], made
    return made["code"], made["host_token"]


def test_one_command_at_a_time_with_json(server: ServerProcess) -> None:
    code, host_token = _table(server, "open,bot:first,bot:first,bot:first")
    status, joined = cli(server, "--code", code, "join", "--name", "Ann")
    assert status == 0 and joined["seat"] == 0
    token = joined["token"]
    assert cli(server, "--code", code, "start", "--host-token", host_token)[0] == 0
    status, state = cli(server, "--code", code, "status", token=token)
    assert status == 0 and state["phase"] == "pass" and state["your_turn"]
    assert len(state["hand"]) == 13 and state["seed"] is None
    # A refusal: the local harness's reason code, exit status 1.
    status, refused = cli(server, "--code", code, "play", state["hand"][0], token=token)
    assert (status, refused["ok"], refused["reason"]) == (1, False, "must_pass_first")
    status, passed = cli(server, "--code", code, "pass", *state["hand"][:3], token=token)
    assert status == 0 and passed["ok"] and set(passed["passed"]) == set(state["hand"][:3])
    assert any(e["type"] == "pass_submitted" for e in passed["events"])
    # Without a token the seat is not ours; with a wrong one the server says so.
    status, failed = cli(server, "--code", code, "status", token="")
    assert status == 2 and not failed["ok"]
    status, failed = cli(server, "--code", code, "status", token="x" * 43)
    assert (status, failed["reason"]) == (1, "bad_token")


def interactive_client(server: ServerProcess, code: str, name: str) -> subprocess.Popen[str]:
    """Start ``mdhearts cli --interactive`` joining the table as ``name`` (no seat token yet),
    its input and output (with errors) on pipes, unbuffered."""
    command = ["cli", "--server", server.url, "--code", code, "--name", name, "--interactive"]
    return subprocess.Popen(
        [sys.executable, "-m", "game", *command],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=0,
        env={**os.environ, "MDH_SEAT_TOKEN": ""},
    )


def test_interactive_play_to_the_end_of_a_match(server: ServerProcess) -> None:
    code, host_token = _table(server, "open,bot:first,bot:random,bot:first")
    proc = interactive_client(server, code, "Bob")
    assert proc.stdin is not None and proc.stdout is not None
    seen, started, answered = "", False, 0
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline:
            char = proc.stdout.read(1)
            if not char:
                break
            seen += char
            if not started and "waiting for its host" in seen:
                assert cli(server, "--code", code, "start", "--host-token", host_token)[0] == 0
                started = True
            if seen.endswith("pass 3 cards (q quits)> "):
                proc.stdin.write("1 2 3\n")
                answered += 1
            elif seen.endswith("play a card (q quits)> "):
                proc.stdin.write("1\n")
                answered += 1
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "match over:" in seen, seen[-2000:]
    assert "you sit in seat 0" in seen and answered >= 13
    assert "seat 1 played" in seen and "took trick" in seen


def test_the_interactive_client_comes_back_by_itself_after_a_kill(tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess(tmp_path / "s.sqlite3", port=port)
    code, host_token = _table(server, "open,bot:first,bot:first,bot:first")
    proc = interactive_client(server, code, "Cy")
    assert proc.stdin is not None and proc.stdout is not None
    seen, answered, killed = "", 0, False
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            char = proc.stdout.read(1)
            if not char:
                break
            seen += char
            if "waiting for its host" in seen and answered == 0 and "started" not in seen:
                assert cli(server, "--code", code, "start", "--host-token", host_token)[0] == 0
                seen += "[started]"
            prompt = seen.endswith("(q quits)> ")
            if prompt and answered == 5 and not killed:
                # Kill the server while the client waits at its prompt, start it again.
                server.kill()
                server = ServerProcess(tmp_path / "s.sqlite3", port=port)
                killed = True
            if prompt:
                proc.stdin.write("1 2 3\n" if seen.endswith("pass 3 cards (q quits)> ") else "1\n")
                answered += 1
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        server.stop()
    assert killed and "match over:" in seen, seen[-1500:]
    assert "1 tables resumed" in server.log and "seat 0 is back" in server.log
