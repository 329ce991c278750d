"""A tournament's journal: a long run stops and goes on, and a wrong or damaged file is refused."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ai.deal_journal import JournalError, open_journal, read_journal
from ai.tournament import DealResult, run_tournament
from bench import strength
from bench.__main__ import main as bench_main

LINEUP = ["normal", "easy", "easy", "easy"]
HEADER = {"lineup": LINEUP, "seed": 3}


def summaries_of(deals: int, journal_path: Path | None = None) -> list[tuple[object, ...]]:
    """Run the lineup on ``deals`` deals (with the journal at ``journal_path``, if any)."""
    if journal_path is None:
        summaries = run_tournament(LINEUP, deals, 3, workers=1)
    else:
        with open_journal(journal_path, HEADER) as journal:
            summaries = run_tournament(LINEUP, deals, 3, workers=1, journal=journal)
    return [
        (s.name, s.diff, s.mean_points, s.moons_shot, s.moons_conceded, s.diff_per_deal)
        for s in summaries
    ]


def deal_lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_a_run_goes_on_from_its_journal_with_the_same_results(tmp_path: Path) -> None:
    path = tmp_path / "run.ndjson"
    summaries_of(3, path)
    assert [line["deal"] for line in deal_lines(path)] == [0, 1, 2]
    # Going on to six deals plays only the three missing ones...
    resumed = summaries_of(6, path)
    assert [line["deal"] for line in deal_lines(path)] == [0, 1, 2, 3, 4, 5]
    # ...and measures what one run of six deals measures.
    assert resumed == summaries_of(6)
    # A journal of every deal plays none of them again.
    before = path.read_bytes()
    assert summaries_of(6, path) == resumed
    assert path.read_bytes() == before


def test_a_deal_cut_short_by_a_kill_is_played_again(tmp_path: Path) -> None:
    path = tmp_path / "run.ndjson"
    summaries_of(3, path)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) - 40])  # the last line lost its end
    assert summaries_of(3, path) == summaries_of(3)
    assert [line["deal"] for line in deal_lines(path)] == [0, 1, 2]


def test_the_results_of_a_deal_survive_the_file(tmp_path: Path) -> None:
    path = tmp_path / "run.ndjson"
    summaries_of(1, path)
    (line,) = deal_lines(path)
    result = DealResult.from_json(line["result"])  # type: ignore[arg-type]
    assert result.to_json() == line["result"]
    assert sum(result.points[slot][0] for slot in range(4)) == 26


def test_a_journal_of_another_tournament_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "run.ndjson"
    summaries_of(2, path)
    before = path.read_bytes()
    other = {**HEADER, "seed": 4}
    with (
        pytest.raises(JournalError, match=r"another tournament or code.*seed"),
        open_journal(path, other),
    ):
        pass
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"hello\n", "line 1 is damaged"),
        (b'{"format": "something else"}\n', "not a deal journal"),
        (b"[1, 2]\n", "not a JSON object"),
        (b"no line end", "not a deal journal"),
    ],
)
def test_a_file_that_is_not_a_journal_is_refused_and_kept(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "run.ndjson"
    path.write_bytes(content)
    with pytest.raises(JournalError, match=message), open_journal(path, HEADER):
        pass
    assert path.read_bytes() == content


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda result: result.update(points=[[1, 2, 3]] * 4), "not one per rotation"),
        (lambda result: result.update(points="26"), "not one entry per slot"),
        (lambda result: result.update(moons_shot=[0, 0, 0, "1"]), "moons are damaged"),
        (lambda result: result.update(decision_ms=[[1.0], [2], [3], ["x"]]), "decision times"),
        (lambda result: result.update(engines={"7": {}}), "engine tallies"),
    ],
)
def test_a_damaged_deal_is_refused_and_the_journal_kept(
    tmp_path: Path, change: object, message: str
) -> None:
    path = tmp_path / "run.ndjson"
    summaries_of(2, path)
    header, first, second = path.read_text(encoding="utf-8").splitlines()
    entry = json.loads(second)
    change(entry["result"])  # type: ignore[operator]
    damaged = "\n".join([header, first, json.dumps(entry)]) + "\n"
    path.write_text(damaged, encoding="utf-8")
    with pytest.raises(JournalError, match=message):
        summaries_of(2, path)
    assert path.read_text(encoding="utf-8") == damaged


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_or_a_folder_is_refused_without_waiting(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(JournalError, match="named pipe"), open_journal(pipe, HEADER):
        pass
    with pytest.raises(JournalError, match="a folder"), open_journal(tmp_path, HEADER):
        pass


def test_the_strength_benchmark_goes_on_and_refuses_other_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def bench(deals: int) -> int:
        parser = strength_parser()
        return strength.run(
            parser.parse_args(
                [
                    *("--only", "normal-vs-easy", "--deals", str(deals), "--workers", "1"),
                    *("--journal", str(tmp_path / "runs"), "--markdown", str(tmp_path / "r.md")),
                ]
            )
        )

    assert bench(2) == 0
    assert bench(4) == 0
    report = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "4 duplicate deals (16 hands) (2 of them from the journal)" in report
    journal = tmp_path / "runs" / "normal-vs-easy.ndjson"
    before = journal.read_bytes()
    monkeypatch.setattr(strength, "code_fingerprint", lambda: "other code")
    assert bench(4) == 2
    assert "another tournament or code (differs in code)" in capsys.readouterr().err
    assert journal.read_bytes() == before


def strength_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    strength.add_arguments(parser)
    return parser


def test_ctrl_c_stops_a_journalled_run_with_one_line_and_the_journal_kept(tmp_path: Path) -> None:
    """A real Ctrl-C (SIGINT to the whole process group, workers included) mid-run."""
    journal = tmp_path / "journal"
    command = [sys.executable, "-m", "bench", "strength", "--only", "normal-vs-easy"]
    command += ["--deals", "100000", "--matches", "0", "--workers", "2", "--journal", str(journal)]
    process = subprocess.Popen(
        command,
        cwd=Path(__file__).resolve().parent.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        path = journal / "normal-vs-easy.ndjson"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not path.exists() or path.read_bytes().count(b"\n") < 200
        ):
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130
    assert err.decode() == (
        f"python -m bench strength: stopped; the finished deals are kept in the journal folder "
        f"{journal}: run the same command again to go on\n"
    )
    _, deals = read_journal(path)
    assert len(deals) >= 199


def test_ctrl_c_in_any_benchmark_says_it_stopped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("bench.rules.run", interrupted)
    assert bench_main(["rules"]) == 130
    assert capsys.readouterr().err == "python -m bench rules: stopped\n"
