"""The strength benchmark's targets: hard-cores, its thread counts, think time and journal."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from ai.cores import THREADS_ENV, available_cores
from ai.search_py import MAX_THREADS
from ai.tournament import journal_header, run_tournament
from bench import strength

CORES = min(MAX_THREADS, available_cores())


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser()
    strength.add_arguments(made)
    return made


def test_hard_cores_is_chosen_with_only_and_not_in_the_default_run() -> None:
    (target,) = strength.select_targets("hard-cores")
    assert target.lineup == (f"hard/{CORES}t", "hard/1t", "hard/1t", "hard/1t")
    assert target.workers == 1 and target.describe() == "Diff reported"
    assert "hard-cores" not in [chosen.name for chosen in strength.select_targets(None)]
    (only,) = [action for action in parser()._actions if action.dest == "only"]
    assert "only when named, hard-cores" in str(only.help)
    with pytest.raises(ValueError, match="unknown tournament hard-core "):
        strength.select_targets("hard-core")


def test_the_hard_think_time_reaches_seats_with_threads_and_spares_named_times() -> None:
    (cores,) = strength.select_targets("hard-cores")
    assert strength.with_hard_budget(cores, 5).lineup == (
        f"hard@5ms/{CORES}t",
        "hard@5ms/1t",
        "hard@5ms/1t",
        "hard@5ms/1t",
    )
    (time,) = strength.select_targets("hard-time")
    assert strength.with_hard_budget(time, 5) == time
    (baseline,) = strength.select_targets("hard-vs-baseline")
    assert strength.with_hard_budget(baseline, 5).lineup == (
        "hard@5ms",
        *(strength.BASELINE_HARD,) * 3,
    )


def test_a_tiny_hard_cores_tournament_runs_and_labels_the_subject_with_its_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It plays on one worker, whatever ``--workers`` says, so its subject has every core."""
    workers = []

    def recording(*args: Any, **kwargs: Any) -> Any:
        workers.append(kwargs["workers"])
        return run_tournament(*args, **kwargs)

    monkeypatch.setattr(strength, "run_tournament", recording)
    report = tmp_path / "report.md"
    arguments = ["--only", "hard-cores", "--hard-think-ms", "5", "--deals", "2", "--matches"]
    arguments += ["0", "--workers", "2", "--markdown", str(report)]
    assert strength.run(parser().parse_args(arguments)) == 0
    text = report.read_text(encoding="utf-8")
    assert f"| hard@5ms/{CORES}t ×1 | 8 |" in text
    assert "| hard@5ms/1t ×3 | 24 |" in text
    assert "2 duplicate deals (8 hands), 1 worker process," in text
    assert "**Status: reported**" in text
    assert workers == [1]


def test_a_subject_that_fills_every_seat_is_not_available() -> None:
    one_core = strength.Target("hard-cores", ("hard@5ms/1t",) * 4, None, workers=1)
    outcome = strength.run_target(one_core, 1, 0, 1)
    assert (
        outcome.status()
        == "not available (hard@5ms/1t plays more than one seat: nothing to compare)"
    )


def test_the_journal_header_names_the_thread_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(THREADS_ENV, raising=False)
    two = journal_header(["hard/2t", "hard/1t", "hard/1t", "hard/1t"], 1)
    assert two != journal_header(["hard/3t", "hard/1t", "hard/1t", "hard/1t"], 1)
    assert two["threads"] == 1
    monkeypatch.setenv(THREADS_ENV, "2")
    assert journal_header(["hard/2t", "hard/1t", "hard/1t", "hard/1t"], 1)["threads"] == 2


def test_a_journal_is_not_continued_with_other_search_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--only", "normal-vs-easy", "--deals", "1", "--workers", "1", "--journal"]
    arguments += [str(tmp_path / "runs"), "--markdown", str(tmp_path / "r.md")]
    monkeypatch.delenv(THREADS_ENV, raising=False)
    assert strength.run(parser().parse_args(arguments)) == 0
    monkeypatch.setenv(THREADS_ENV, "2")
    assert strength.run(parser().parse_args(arguments)) == 2
    assert "(differs in threads)" in capsys.readouterr().err


def test_hard_deals_name_seats_without_a_time_and_spare_named_ones() -> None:
    (cores,) = strength.select_targets("hard-cores")
    assert strength.with_hard_budget(cores, None, 40).lineup == (
        f"hard/{CORES}t/40d",
        "hard/1t/40d",
        "hard/1t/40d",
        "hard/1t/40d",
    )
    (time,) = strength.select_targets("hard-time")
    assert strength.with_hard_budget(time, None, 40) == time
    (normal,) = strength.select_targets("hard-vs-normal")
    assert strength.with_hard_budget(normal, None, 40).subject == "hard/40d"


def test_runs_at_a_deal_count_give_the_same_deals_on_any_number_of_workers(
    tmp_path: Path,
) -> None:
    """The decisions depend on the deal and the seed alone, so two runs of one bot pair
    exactly: what a screen of two versions then measures is what differs between them."""
    found = []
    for workers in ("1", "2"):
        out = tmp_path / f"deals-{workers}.json"
        arguments = ["--only", "hard-vs-normal", "--hard-deals", "12", "--deals", "2"]
        arguments += ["--matches", "0", "--workers", workers, "--deals-out", str(out)]
        arguments += ["--markdown", str(tmp_path / "r.md")]
        assert strength.run(parser().parse_args(arguments)) == 0
        tournament = json.loads(out.read_text(encoding="utf-8"))["tournaments"]["hard-vs-normal"]
        assert tournament["lineup"][0] == "hard/12d"
        found.append(tournament["diff_per_deal"])
    assert found[0] == found[1]
    assert len(found[0]["hard/12d"]) == 2


def test_hard_deals_go_with_no_think_time(capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["--only", "hard-vs-normal", "--hard-deals", "12", "--deals", "1"]
    assert strength.run(parser().parse_args([*arguments, "--hard-think-ms", "5"])) == 2
    assert "--hard-deals replaces the hard bot's think time" in capsys.readouterr().err


def test_hard_deals_go_with_a_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["--only", "hard-vs-baseline", "--hard-deals", "12", "--deals", "1"]
    assert strength.run(parser().parse_args([*arguments, "--baseline", "no-such-ref-here"])) == 2
    # Refused for the commit it names, not for the deals.
    assert "no commit 'no-such-ref-here'" in capsys.readouterr().err
