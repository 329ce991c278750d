"""The baseline seat of the strength benchmark: an earlier commit's bot, built from a worktree
and played as an external engine."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ai.tournament import play_duplicate_deal
from bench import strength
from bench.baseline import (
    BASELINE_FOLDER,
    DONE_MARKER,
    Baseline,
    BaselineError,
    prepare_baseline,
    repository_root,
    resolve_commit,
)
from core.rules import RuleSet

ROOT = Path(__file__).resolve().parent.parent


def _has_git_checkout() -> bool:
    try:
        repository_root(ROOT)
    except BaselineError:
        return False
    return True


needs_git = pytest.mark.skipif(not _has_git_checkout(), reason="not a git checkout")


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone of this repository with one extra commit (so HEAD~1 is a real older commit)."""
    target = tmp_path_factory.mktemp("repo") / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True)
    return target


@needs_git
def test_an_unknown_commit_is_refused_with_its_name(clone: Path) -> None:
    with pytest.raises(BaselineError, match="no commit 'no-such-ref'"):
        prepare_baseline("no-such-ref", clone, quiet=True)
    with pytest.raises(BaselineError, match="not a commit"):
        resolve_commit(clone, "--all")
    assert not (clone / BASELINE_FOLDER).exists()


def test_a_baseline_target_without_a_baseline_is_not_available() -> None:
    target = next(t for t in strength.TARGETS if t.name == "hard-vs-baseline")
    outcome = strength.run_target(target, deals=1, matches=0, seed=1, workers=1)
    assert outcome.summaries == []
    assert outcome.status() == "not available (needs a baseline commit: --baseline REF)"


def test_baseline_seats_play_the_commit_as_an_engine_with_the_think_time() -> None:
    baseline = Baseline("0123456789abcdef" * 2 + "01234567", Path("/opt/base line"))
    target = next(t for t in strength.TARGETS if t.name == "hard-vs-baseline")
    timed, labels = strength.baseline_seats(strength.with_hard_budget(target, 100), baseline, 100)
    assert timed.lineup[0] == "hard@100ms"
    seat = timed.lineup[1]
    assert seat == timed.lineup[2] == timed.lineup[3]
    assert seat.startswith("engine:") and "'/opt/base line/baseline_engine.py'" in seat
    assert seat.endswith("engine --difficulty hard --think-ms 100")
    assert labels == {seat: "baseline@0123456 hard@100ms"}


def test_baseline_seats_search_a_deal_count_when_the_hard_seats_do() -> None:
    baseline = Baseline("0123456789abcdef" * 2 + "01234567", Path("/opt/base"))
    target = next(t for t in strength.TARGETS if t.name == "hard-vs-baseline")
    counted, labels = strength.baseline_seats(
        strength.with_hard_budget(target, None, 300), baseline, None, 300
    )
    assert counted.lineup[0] == "hard/300d"
    seat = counted.lineup[1]
    assert seat.endswith("/opt/base/baseline_engine.py --deals 300 engine --difficulty hard")
    assert labels == {seat: "baseline@0123456 hard/300d"}


@needs_git
def test_a_commit_is_built_once_and_its_hard_bot_plays_through_the_engine(
    clone: Path, tmp_path: Path
) -> None:
    baseline = prepare_baseline("HEAD", clone, quiet=True)
    assert baseline.folder == clone / BASELINE_FOLDER / baseline.commit
    assert (baseline.folder / DONE_MARKER).read_text(encoding="utf-8").strip() == baseline.commit
    compiled = list((baseline.folder / "ai").glob("_search*"))
    assert any(path.suffix in (".so", ".pyd") for path in compiled), compiled
    worktrees = subprocess.run(
        ["git", "worktree", "list"], cwd=clone, capture_output=True, text=True, check=True
    ).stdout
    assert len(worktrees.strip().splitlines()) == 1, worktrees

    # A finished install is reused, not built again.
    marker_time = (baseline.folder / DONE_MARKER).stat().st_mtime_ns
    assert prepare_baseline("HEAD", clone, quiet=True) == baseline
    assert (baseline.folder / DONE_MARKER).stat().st_mtime_ns == marker_time

    # The launcher runs that folder's copy, compiled, and refuses a copy without compiled code.
    launcher = baseline.folder / "baseline_engine.py"
    version = subprocess.run(
        [sys.executable, str(launcher), "--version"], capture_output=True, text=True, timeout=60
    )
    assert version.returncode == 0, version.stderr

    target = strength.Target(
        "hard-vs-baseline", ("easy", strength.BASELINE_HARD, "normal", "normal"), 30.0
    )
    target, labels = strength.baseline_seats(target, baseline, 5)
    journal = tmp_path / "journal"
    outcome = strength.run_target(
        target, deals=1, matches=0, seed=3, workers=1, labels=labels, journal=str(journal)
    )
    assert outcome.problem is None
    # The journal names the baseline seat by its commit, not by this machine's folders, so a
    # run in parts can go on from another checkout.
    header = json.loads((journal / "hard-vs-baseline.ndjson").read_text().splitlines()[0])
    label = f"baseline@{baseline.commit[:7]} hard@5ms"
    assert header["lineup"] == ["easy", label, "normal", "normal"]
    names = [summary.name for summary in outcome.summaries]
    assert names == ["easy", label, "normal"]
    engine = outcome.summaries[1].engine
    assert engine is not None and engine.fallback_moves == 0, engine
    assert outcome.summaries[1].hands == 4

    # At a deal count the baseline's hard bot is seeded by deal and seat as the seats played
    # here are: the baseline of this very commit then plays exactly as its own hard bot does.
    counted = baseline.engine_seat("hard", None, 30)
    rules = RuleSet()
    for index in (0, 3):  # a pass to the left, and a hand without passing
        own = play_duplicate_deal(["hard/30d"] * 4, rules, 5, index)
        engines = play_duplicate_deal(["hard/30d", counted, counted, counted], rules, 5, index)
        assert engines.points == own.points, index
        assert all(tally.fallback_moves == 0 for tally in engines.engines.values())

    for module in (baseline.folder / "ai").glob("_search*"):
        if module.suffix in (".so", ".pyd"):
            module.unlink()
    broken = subprocess.run(
        [sys.executable, str(launcher), "--version"], capture_output=True, text=True, timeout=60
    )
    assert broken.returncode != 0
    assert "ai.search is not compiled" in broken.stderr
    with pytest.raises(BaselineError, match="does not start"):
        prepare_baseline("HEAD", clone, quiet=True)
    assert not (baseline.folder / DONE_MARKER).exists()


def test_the_command_refuses_an_unknown_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    strength.add_arguments(parser)
    args = parser.parse_args(["--only", "hard-vs-baseline", "--baseline", "no-such-ref-at-all"])
    assert strength.run(args) == 2
    assert "no-such-ref-at-all" in capsys.readouterr().err
