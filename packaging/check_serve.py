"""Check that a standalone program hosts and joins a network table:
``python packaging/check_serve.py PROGRAM`` (``check_release.py`` runs it on the installed one).

As a player would, with a temporary ``MDH_HOME`` and database:

- ``PROGRAM serve`` on a free loopback port must say where it listens, with a bot worker
  process running beside it, the same one until the match is over;
- ``PROGRAM cli --server URL`` creates a table with three bots and a match of one hand, joins
  it, starts it, passes three cards and plays every turn with the first card of the status's
  ``legal``, until the match is over; ``record`` must then give the match's record;
- SIGTERM must stop the server with exit status 0 and its ``stopped; every table is saved``
  line, and no process it started may outlive it;
- a second server on the same database must give the same record, and after ``kill -9`` its
  bot worker must end by itself too.

Every step has a time limit. POSIX systems only (it signals the server). Exit status 0 when
every check passes, 1 with the reason otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: Seconds the server may take to say where it listens, and to stop after SIGTERM.
START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 30
#: Seconds one ``cli`` command may take.
COMMAND_TIMEOUT_S = 30
#: Seconds the whole match may take (bots think at most 200 ms a card).
MATCH_TIMEOUT_S = 180
BOT_OPTIONS = ("--bot-limit-ms", "200")
#: Seconds the processes the server started may take to end once it has ended.
ORPHAN_TIMEOUT_S = 10
#: What the server says when it listens, and when it has stopped cleanly.
LISTENING = re.compile(r"listening on (ws://127\.0\.0\.1:\d+) ")
STOPPED = re.compile(r"stopped; every table is saved \((\d+) not finished\)")
#: The command line of a process that ``multiprocessing`` starts (the bot worker).
WORKER_MARK = "--multiprocessing-fork"


class CheckFailed(Exception):
    """A check of the network play failed; the message says which."""


class Server:
    """``PROGRAM serve`` running in a process group of its own, its log in a file."""

    def __init__(self, program: Path, db: Path, log: Path, env: dict[str, str]) -> None:
        self.log = log
        with log.open("w", encoding="utf-8") as stream:
            self.process = subprocess.Popen(
                [str(program), "serve", "--port", "0", "--db", str(db), *BOT_OPTIONS],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=stream,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its group holds every process it starts
            )
        self.group = self.process.pid

    def text(self) -> str:
        """Return what the server has logged so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait_listening(self) -> str:
        """Return the server's address once it says it listens."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            found = LISTENING.search(self.text())
            if found:
                return found.group(1)
            if self.process.poll() is not None:
                status = self.process.returncode
                raise CheckFailed(f"serve ended with status {status}:\n{self.text()}")
            time.sleep(0.1)
        raise CheckFailed(f"serve did not listen within {START_TIMEOUT_S} s:\n{self.text()}")

    def members(self) -> list[tuple[int, str]]:
        """Return the live processes of the server's group other than itself: (id, command)."""
        listing = subprocess.run(
            ["ps", "-A", "-o", "pid=,pgid=,stat=,args="],
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
            check=True,
        ).stdout
        found = []
        for line in listing.splitlines():
            fields = line.split(None, 3)
            if len(fields) < 3 or not (fields[0].isdigit() and fields[1].isdigit()):
                continue
            pid, group, state = int(fields[0]), int(fields[1]), fields[2]
            # An ended process not yet reaped ("Z") no longer runs.
            if group == self.group and pid != self.process.pid and not state.startswith("Z"):
                found.append((pid, fields[3] if len(fields) > 3 else ""))
        return found

    def workers(self) -> list[int]:
        """Return the ids of the bot worker processes running."""
        return [pid for pid, command in self.members() if WORKER_MARK in command]

    def wait_members_gone(self, why: str) -> None:
        """Fail unless every process the server started ends within ``ORPHAN_TIMEOUT_S``."""
        deadline = time.monotonic() + ORPHAN_TIMEOUT_S
        while (left := self.members()) and time.monotonic() < deadline:
            time.sleep(0.1)
        if left:
            raise CheckFailed(f"{why}, these processes it started still run: {left}")

    def stop(self, signum: int) -> int:
        """Send ``signum`` to the server alone and return its exit status."""
        self.process.send_signal(signum)
        try:
            return self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"serve still ran {STOP_TIMEOUT_S} s after signal {signum}") from None

    def kill_group(self) -> None:
        """End whatever of the group still runs (cleanup after a failed check)."""
        if self.process.poll() is None or self.members():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.group, signal.SIGKILL)
            self.process.wait(STOP_TIMEOUT_S)


def cli(program: Path, url: str, env: dict[str, str], *args: str) -> dict[str, Any]:
    """Run ``PROGRAM cli --server URL ARGS --json`` and return its answer; fail unless ok."""
    command = [str(program), "cli", "--server", url, *args, "--json"]
    try:
        result = subprocess.run(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        raise CheckFailed(f"cli {' '.join(args)} took over {COMMAND_TIMEOUT_S} s") from None
    try:
        answer = json.loads(result.stdout)
    except json.JSONDecodeError:
        answer = None
    if result.returncode != 0 or not isinstance(answer, dict) or answer.get("ok") is not True:
        raise CheckFailed(
            f"cli {' '.join(args)} failed with status {result.returncode}: "
            f"{result.stdout.strip()} {result.stderr.strip()}"
        )
    return answer


def play_match(program: Path, url: str, env: dict[str, str]) -> dict[str, Any]:
    """Create, join and start a table of one hand, play it through, return its record."""
    table = cli(program, url, env, "create", "--seats", "open,bot,bot,bot", "--end-score", "1")
    code = table["code"]
    seat = cli(program, url, env, "--code", code, "join", "--name", "Checker")
    cli(program, url, env, "--code", code, "start", "--host-token", table["host_token"])
    print(f"ok: table {code} made, joined (seat {seat['seat']}) and started")
    # The code and token go by the environment, out of the process list.
    env = dict(env, MDH_CODE=code, MDH_SEAT_TOKEN=seat["token"])
    state = cli(program, url, env, "status")
    played = 0
    deadline = time.monotonic() + MATCH_TIMEOUT_S
    while state["phase"] != "match_over":
        if time.monotonic() > deadline:
            raise CheckFailed(f"the match was not over after {MATCH_TIMEOUT_S} s: {state}")
        if not state["your_turn"]:
            time.sleep(0.2)
            state = cli(program, url, env, "status")
        elif state["phase"] == "pass":
            state = cli(program, url, env, "pass", *state["hand"][:3])
        else:
            if not state["legal"]:
                raise CheckFailed(f"my turn to play, but no legal card: {state}")
            card = state["legal"][0]
            hand_number = state["hand_number"]
            state = cli(program, url, env, "play", card)
            played += 1
            # After a hand's last card the answer shows the next deal, which may hold it again.
            if state["hand_number"] == hand_number and card in state["hand"]:
                raise CheckFailed(f"{card} was played but is still in the hand: {state}")
    print(f"ok: played {played} legal cards; the match is over, seat {state['winner']} won")
    record = cli(program, url, env, "record")["record"]
    if not isinstance(record, dict) or record.get("format") != "mdhearts-record":
        raise CheckFailed(f"record gave no match record: {str(record)[:200]}")
    return {"code": code, "env": env, "record": record}


def check_serve(program: Path, work: Path) -> None:
    """Run every check with ``work`` (an empty folder) for the home and the database."""
    home = work / "home"
    home.mkdir()
    env = dict(os.environ, MDH_HOME=str(home))
    for name in ("MDH_SERVER", "MDH_CODE", "MDH_SEAT_TOKEN"):
        env.pop(name, None)
    db = work / "tables.sqlite3"

    server = Server(program, db, work / "serve.log", env)
    try:
        url = server.wait_listening()
        workers = server.workers()
        if not workers:
            raise CheckFailed(f"serve runs no bot worker process: {server.members()}")
        print(f"ok: serve listens on {url}, its bot worker runs (process {workers[0]})")
        match = play_match(program, url, env)
        # A worker that fails is replaced, or given up on (moves then come from a fallback).
        if server.workers() != workers:
            raise CheckFailed(f"the bot worker {workers} did not last: {server.members()}")
        status = server.stop(signal.SIGTERM)
        log = server.text()
        stopped = STOPPED.search(log)
        if status != 0 or not stopped or stopped.group(1) != "0" or "Traceback" in log:
            raise CheckFailed(f"serve did not stop cleanly (status {status}):\n{log}")
        server.wait_members_gone("after SIGTERM")
        print(f"ok: SIGTERM stopped serve (status 0, '{stopped.group(0)}'), nothing left running")
    finally:
        server.kill_group()

    again = Server(program, db, work / "serve-again.log", env)
    try:
        url = again.wait_listening()
        record = cli(program, url, match["env"], "record")["record"]
        if record != match["record"]:
            raise CheckFailed("a second server on the same database gave another record")
        if not again.workers():
            raise CheckFailed(f"the second serve runs no bot worker: {again.members()}")
        again.stop(signal.SIGKILL)
        again.wait_members_gone("after kill -9 of serve")
        print("ok: the record is kept over a restart; after kill -9 the bot worker ended too")
    finally:
        again.kill_group()


def main(argv: list[str] | None = None) -> int:
    """Check the program named on the command line."""
    parser = argparse.ArgumentParser(description="Check that a program hosts and joins tables.")
    parser.add_argument("program", type=Path)
    args = parser.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="mdhearts-serve-") as folder:
            check_serve(args.program, Path(folder))
    except CheckFailed as error:
        print(f"check_serve.py: {error}", file=sys.stderr)
        return 1
    print(f"{args.program}: hosts and joins network tables")
    return 0


if __name__ == "__main__":
    sys.exit(main())
