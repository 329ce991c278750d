"""Processes this program starts end with it: bot workers, engine programs and their children.

Also: a tournament starts no more processes than it has jobs, and it reports the moves an
engine's fallback made for it.
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from ai import tournament
from ai.basic import FirstLegalBot
from ai.external import ExternalEngineBot
from ai.worker import BotWorker
from core.controller import Controller
from core.hand import HandState
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet
from game.tools import tournament as game_tournament

ROOT = Path(__file__).resolve().parent.parent
LINUX = sys.platform.startswith("linux")
#: Generous: the machine running the tests may be busy.
DEADLINE_S = 20.0

# A program that starts a bot worker as the table does, lets it answer once, prints the
# worker's process id and waits to be killed.
WORKER_PARENT = """
import time

from ai.worker import BotWorker
from core.controller import Controller

if __name__ == "__main__":
    worker = BotWorker()
    controller = Controller()
    controller.new_match(seed=3, rules={"pass_cycle": ["hold"]})
    decision = worker.decide(controller.observation(controller.seats_to_act[0]), "first")
    print(worker.pid, decision.fallback, flush=True)
    time.sleep(600)
"""


def is_gone(pid: int) -> bool:
    """Return whether no process has this id any more, or only its zombie is left."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            state = stat.read().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def wait_until(condition: Callable[[], bool], deadline_s: float = DEADLINE_S) -> bool:
    """Poll ``condition`` until it holds or the deadline passes; return whether it held."""
    give_up = time.monotonic() + deadline_s
    while time.monotonic() < give_up:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def children_of(pid: int) -> list[int]:
    """Return the ids of a process's children (Linux)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            found += [int(word) for word in (task / "children").read_text().split()]
    return found


def command_line(pid: int) -> str:
    """Return a process's command line as text ('' when it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def read_line(process: subprocess.Popen[str], deadline_s: float = DEADLINE_S) -> str:
    """Return the next line the process prints, failing the test if none comes in time."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], deadline_s)
    assert ready, "the program printed nothing in time"
    return process.stdout.readline()


def kill_leftovers(pids: list[int]) -> None:
    """Kill the processes a failed test left behind (they are this test's own)."""
    for pid in pids:
        if not is_gone(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def kill_and_expect_children_gone(
    parent: subprocess.Popen[Any], children: list[int], what: str
) -> None:
    """SIGKILL ``parent`` and assert that every one of ``children`` ends in time."""
    names = {pid: command_line(pid) for pid in children}
    parent.send_signal(signal.SIGKILL)
    parent.wait(DEADLINE_S)
    assert wait_until(lambda: all(is_gone(pid) for pid in children)), (
        f"still running after {what} was killed: "
        + ", ".join(f"{pid} {names[pid]!r}" for pid in children if not is_gone(pid))
    )


@pytest.fixture
def leftovers() -> Iterator[list[int]]:
    """Process ids appended here are killed after the test if they still run."""
    pids: list[int] = []
    yield pids
    kill_leftovers(pids)


@contextlib.contextmanager
def running_script(
    tmp_path: Path,
    text: str,
    leftovers: list[int],
    *arguments: str,
    stdout: int | None = None,
) -> Iterator[subprocess.Popen[str]]:
    """Run ``text`` as a Python script of this checkout; kill it at the end if it still runs.

    Its process id joins ``leftovers``.
    """
    script = tmp_path / "script.py"
    script.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, str(script), *arguments], cwd=ROOT, env=env, stdout=stdout, text=True
    )
    leftovers.append(process.pid)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# -- 1. the bot worker ends with the program ------------------------------------------------


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_the_bot_worker_and_resource_tracker_end_when_the_program_is_killed(
    tmp_path: Path, leftovers: list[int]
) -> None:
    with running_script(tmp_path, WORKER_PARENT, leftovers, stdout=subprocess.PIPE) as parent:
        words = read_line(parent).split()
        worker = int(words[0])
        assert words[1:] == ["None"], "the worker should have answered itself"
        children = children_of(parent.pid)
        leftovers.extend(children)
        assert worker in children
        kill_and_expect_children_gone(parent, children, "the program")


# A tournament on two worker processes, whose hands take long enough to be killed mid-way.
POOL_PARENT = """
from ai.tournament import run_tournament

if __name__ == "__main__":
    run_tournament(["hard@300ms", "normal", "normal", "normal"], 4, 1, workers=2)
"""


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_a_tournaments_worker_processes_end_when_it_is_killed(
    tmp_path: Path, leftovers: list[int]
) -> None:
    with running_script(tmp_path, POOL_PARENT, leftovers) as parent:

        def workers() -> list[int]:
            found = [pid for pid in children_of(parent.pid) if "spawn_main" in command_line(pid)]
            leftovers.extend(found)
            return found

        assert wait_until(lambda: len(workers()) == 2), "the pool did not start two workers"
        children = children_of(parent.pid)
        leftovers.extend(children)
        time.sleep(1.0)  # the workers are playing their first deals
        kill_and_expect_children_gone(parent, children, "the tournament")


# -- 2. an engine program's children end with it --------------------------------------------

ENGINES = ROOT / "tests" / "engines"


def wrapped_engine(tmp_path: Path, *engine: str) -> tuple[str, Path]:
    """Return an engine command that is a shell wrapper starting a helper, and its pid file.

    The helper (a long sleep) is a grandchild of ours: ending only the wrapper's process,
    which becomes the engine, would leave it running.
    """
    pid_file = tmp_path / "helper.pid"
    script = tmp_path / "wrapper.sh"
    words = " ".join(shlex.quote(word) for word in (sys.executable, *engine))
    script.write_text(
        f"sleep 1000 &\necho $! > {shlex.quote(str(pid_file))}\nexec {words}\n",
        encoding="utf-8",
    )
    return f"sh {shlex.quote(str(script))}", pid_file


def helper_pid(pid_file: Path) -> int:
    """Return the helper's process id once the wrapper has written it."""
    assert wait_until(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    return int(pid_file.read_text())


def pass_observation() -> Observation:
    """Seat 0's view when it must pass."""
    return HandState.new(RuleSet(), "left", deal_for(5, 0)).observation(0, (0, 0, 0, 0))


def play_observation() -> Observation:
    """Seat 0's view when it must play a card in the first trick."""
    hand = HandState.new(RuleSet(), "left", deal_for(5, 0))
    first = FirstLegalBot()
    for seat in range(4):
        hand.submit_pass(seat, first.choose_pass(hand.observation(seat, (0, 0, 0, 0))))
    while hand.turn != 0:
        seat = hand.turn
        assert seat is not None
        hand.play(seat, first.choose_play(hand.observation(seat, (0, 0, 0, 0))))
    return hand.observation(0, (0, 0, 0, 0))


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_closing_an_engine_ends_the_helpers_its_wrapper_started(
    tmp_path: Path, leftovers: list[int]
) -> None:
    command, pid_file = wrapped_engine(tmp_path, str(ENGINES / "echo_engine.py"))
    bot = ExternalEngineBot(command, fallback=FirstLegalBot())
    try:
        bot.choose_pass(pass_observation())
        assert bot.problems == []
        helper = helper_pid(pid_file)
        leftovers.append(helper)
        assert not is_gone(helper)
        assert engine_guards(), "the engine runs without a guard"
    finally:
        bot.close()
    assert wait_until(lambda: is_gone(helper)), "the wrapper's helper outlived the engine"
    assert engine_guards() == [], "the guard outlived the engine it watched"


def engine_guards() -> list[int]:
    """Return the live guard processes of engines this process started (Linux)."""
    return [
        pid
        for pid in children_of(os.getpid())
        if "mdhearts-engine-guard" in command_line(pid) and not is_gone(pid)
    ]


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_an_engine_that_times_out_is_ended_with_its_helpers(
    tmp_path: Path, leftovers: list[int]
) -> None:
    engine = (str(ENGINES / "bad_engine.py"), "slow", "--on", "play")
    command, pid_file = wrapped_engine(tmp_path, *engine)
    bot = ExternalEngineBot(command, fallback=FirstLegalBot(), timeout_ms=300)
    try:
        bot.choose_pass(pass_observation())  # answered: the wrapper has run
        assert bot.problems == []
        helper = helper_pid(pid_file)
        bot.choose_play(play_observation())
        assert len(bot.problems) == 1 and "timed out" in bot.problems[0]
        leftovers.append(helper)
        assert bot.process_id is None  # the timed-out program was stopped at once
        assert wait_until(lambda: is_gone(helper)), "the wrapper's helper outlived the engine"
    finally:
        bot.close()


# -- 3. a hanging engine ends with its decision, its worker and its owner --------------------


def group_members(group: int) -> list[int]:
    """Return the ids of the live processes of a process group (zombies do not count; Linux)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[2]) == group and fields[0] not in ("Z", "X"):
            members.append(int(entry.name))
    return members


def hanging_engine(tmp_path: Path) -> tuple[str, Path]:
    """Return the seat of a hanging engine started by a wrapper, and the file of its group.

    The wrapper writes its own process id (its group's: it leads a group of its own), starts a
    helper (a long sleep) in that group and becomes the engine, which never answers and
    ignores SIGTERM and the end of its input.
    """
    group_file = tmp_path / "group.pid"
    script = tmp_path / "hanging.sh"
    words = " ".join(
        shlex.quote(word) for word in (sys.executable, str(ENGINES / "bad_engine.py"), "hang")
    )
    script.write_text(
        f"echo $$ > {shlex.quote(str(group_file))}\nsleep 1000 &\nexec {words}\n",
        encoding="utf-8",
    )
    return f"engine:sh {shlex.quote(str(script))}", group_file


def engine_group(group_file: Path) -> int:
    """Return the engine's process group once its wrapper has written it."""
    assert wait_until(lambda: group_file.exists() and group_file.read_text().strip() != "")
    return int(group_file.read_text())


@pytest.fixture
def groups() -> Iterator[list[int]]:
    """Process groups appended here are killed after the test if anything of them is left."""
    found: list[int] = []
    yield found
    for group in found:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)


def first_observation() -> Observation:
    """The view of the first seat to act in a new match (a pass)."""
    controller = Controller()
    controller.new_match(seed=3)
    return controller.observation(controller.seats_to_act[0])


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_a_hanging_engine_in_the_worker_ends_at_its_timeout(
    tmp_path: Path, groups: list[int]
) -> None:
    seat, group_file = hanging_engine(tmp_path)
    # A grace wide enough that a busy machine cannot make the worker's own deadline come first:
    # what is tested is the engine's timeout, inside the worker.
    with BotWorker(grace_ms=1500) as worker:
        started = time.perf_counter()
        decision = worker.decide(first_observation(), seat, limit_ms=400)
        took = time.perf_counter() - started
        group = engine_group(group_file)
        groups.append(group)
        assert decision.fallback is not None and "timed out" in decision.fallback
        assert worker.restarts == 0, "the engine's own timeout should come before the worker's"
        assert wait_until(lambda: not group_members(group)), group_members(group)
    assert took < 0.4 + 2.0  # the limit, a grace, and a busy machine


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_a_hanging_engine_ends_when_its_worker_is_replaced(
    tmp_path: Path, groups: list[int]
) -> None:
    seat, group_file = hanging_engine(tmp_path)
    with BotWorker() as worker:
        assert worker.decide(first_observation(), "first").fallback is None  # it is ready
        decision = worker.decide(first_observation(), seat, limit_ms=60_000, timeout=3.0)
        group = engine_group(group_file)
        groups.append(group)
        assert decision.fallback == "the bot worker did not answer in time"
        assert worker.restarts == 1
        assert wait_until(lambda: not group_members(group)), group_members(group)


# A program that asks a hanging engine for a pass, in this process or in the bot worker, and
# waits for the answer for ten minutes (it is killed before).
ENGINE_OWNER = """
import sys

from ai.external import ExternalEngineBot
from ai.worker import BotWorker
from core.controller import Controller
from ai.worker import BotWorker
from core.controller import Controller

if __name__ == "__main__":
    seat, where = sys.argv[1], sys.argv[2]
    controller = Controller()
    controller.new_match(seed=3)
    observation = controller.observation(controller.seats_to_act[0])
    if where == "worker":
        BotWorker().decide(observation, seat, limit_ms=600_000)
    else:
        ExternalEngineBot(seat.removeprefix("engine:"), timeout_ms=600_000).choose_pass(observation)
"""


@pytest.mark.skipif(not LINUX, reason="reads /proc")
@pytest.mark.parametrize("where", ["here", "worker"])
def test_a_hanging_engine_ends_when_its_owner_is_killed(
    tmp_path: Path, leftovers: list[int], groups: list[int], where: str
) -> None:
    seat, group_file = hanging_engine(tmp_path)
    with running_script(tmp_path, ENGINE_OWNER, leftovers, seat, where) as owner:
        group = engine_group(group_file)
        groups.append(group)
        assert wait_until(lambda: len(group_members(group)) == 2)  # the engine and its helper
        leftovers.extend(children_of(owner.pid))
        owner.send_signal(signal.SIGKILL)
        owner.wait(DEADLINE_S)
    assert wait_until(lambda: not group_members(group)), (
        "still running after their owner was killed: "
        + ", ".join(f"{pid} {command_line(pid)!r}" for pid in group_members(group))
    )


# -- 4. a tournament starts no more processes than it has jobs -------------------------------


class CountingPool:
    """Stands in for a process pool: runs the jobs here and remembers its size."""

    sizes: ClassVar[list[int]] = []

    def __init__(
        self, processes: int | None = None, initializer: Callable[[], None] | None = None
    ) -> None:
        CountingPool.sizes.append(processes or os.cpu_count() or 1)

    def __enter__(self) -> CountingPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def imap(self, function: Callable[[Any], Any], jobs: Any, chunksize: int = 1) -> Iterator[Any]:
        """Run the jobs one after the other in this process."""
        return map(function, jobs)


@pytest.fixture
def pool_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every pool a tournament asks for (the jobs run in this process)."""

    def get_context(method: str | None = None) -> Any:
        return SimpleNamespace(Pool=CountingPool)

    CountingPool.sizes.clear()
    monkeypatch.setattr(tournament.multiprocessing, "get_context", get_context)
    return CountingPool.sizes


def test_a_tournament_of_one_deal_starts_no_pool_of_many_processes(pool_sizes: list[int]) -> None:
    summaries = tournament.run_tournament(["first"] * 4, deals=1, seed=2, workers=4)
    assert summaries[0].hands == 16
    assert all(size <= 1 for size in pool_sizes), f"pools of {pool_sizes} processes for 1 deal"


def test_a_tournament_starts_at_most_one_process_per_job(pool_sizes: list[int]) -> None:
    summaries = tournament.run_tournament(["first"] * 4, deals=3, seed=2, matches=2, workers=8)
    assert summaries[0].hands == 3 * 16 and summaries[0].matches == 2
    assert pool_sizes == [3, 2]  # one process per deal, then one per match


# -- 5. a tournament reports the moves an engine's fallback made -----------------------------


def engine_seat(*words: str) -> str:
    """Return the lineup entry of a test engine run by this Python."""
    return "engine:" + " ".join(shlex.quote(word) for word in (sys.executable, *words))


def test_a_tournament_reports_each_engines_fallback_moves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    illegal = engine_seat(str(ENGINES / "bad_engine.py"), "illegal", "--on", "pass")
    crashing = engine_seat(str(ENGINES / "bad_engine.py"), "crash", "--on", "pass")
    clean = engine_seat(str(ENGINES / "echo_engine.py"))
    seats = ",".join([illegal, crashing, clean, "first"])
    # One deal passed to the left, played in four rotations: each engine passes four times.
    assert game_tournament.main(["--seats", seats, "--deals", "1", "--workers", "1"]) == 0
    notes = capsys.readouterr().out.rpartition("|")[2].strip().splitlines()  # after the table
    assert notes == [
        f"{illegal}: 4 fallback moves (4 illegal or malformed replies)",
        f"{crashing}: 4 fallback moves (4 crashes)",
        "Warning: the scores of these engines include the moves their fallback bot made for them.",
    ]


def test_tournament_summaries_count_engine_misbehaviour() -> None:
    illegal = engine_seat(str(ENGINES / "bad_engine.py"), "illegal", "--on", "pass")
    summaries = tournament.run_tournament([illegal, "first", "first", "first"], 1, 1, workers=1)
    engine, first = summaries
    assert engine.engine is not None and first.engine is None
    assert (engine.engine.fallback_moves, engine.engine.bad_replies) == (4, 4)
    assert (engine.engine.timeouts, engine.engine.crashes) == (0, 0)


def test_every_owner_registered_to_close_at_exit_is_closed_when_the_program_ends(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "closed"
    script = (
        "import pathlib\n"
        "from ai.lifetime import close_at_exit\n"
        "class Owner:\n"
        "    def close(self):\n"
        f"        pathlib.Path({str(marker)!r}).write_text('closed')\n"
        "owner = Owner()\n"
        "close_at_exit(owner)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=60)
    assert marker.read_text() == "closed"
