"""Two strength runs compared deal by deal (``python -m bench paired``)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import paired, strength
from bench.__main__ import main


def strength_run(path: Path, *extra: str) -> None:
    assert (
        main(
            [
                "strength",
                "--only",
                "easy-vs-random",
                "--deals",
                "6",
                "--matches",
                "0",
                "--workers",
                "1",
                "--deals-out",
                str(path),
                *extra,
            ]
        )
        == 0
    )


def test_a_run_compared_with_itself_changes_nothing_and_a_shift_shows_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    strength_run(first)
    strength_run(second)
    data = json.loads(first.read_text(encoding="utf-8"))
    easy = data["tournaments"]["easy-vs-random"]["diff_per_deal"]["easy"]
    assert len(easy) == 6 and data["seed"] == strength.DEFAULT_SEED
    # The file holds the same deals' Diffs the report's mean is made of.
    report = capsys.readouterr().out
    assert f"| {sum(easy) / 6:+.2f} ± " in report
    assert main(["paired", str(first), str(second)]) == 0
    out = capsys.readouterr().out
    assert "easy-vs-random  easy" in out and "+0.00 ± 0.00" in out
    # One deal better by 3 and another worse by 1: the mean change is (3 - 1) / 6 on the
    # paired deals.
    easy[0] -= 3
    easy[5] += 1
    second.write_text(json.dumps(data), encoding="utf-8")
    pairings = paired.pair_runs(paired.read_run(str(first)), paired.read_run(str(second)))
    change = next(p for p in pairings if p.bot == "easy")
    assert change.deals == 6
    assert math.isclose(change.change, -2 / 6)
    assert math.isclose(change.after - change.before, -2 / 6)
    assert change.change_ci > 0


def write_run(path: Path, seed: int, diffs: list[float]) -> Path:
    tournaments = {"t": {"lineup": ["a", "b", "b", "b"], "diff_per_deal": {"a": diffs}}}
    data = {"format": strength.DEALS_FORMAT, "version": 1, "seed": seed, "tournaments": tournaments}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_change_is_the_mean_of_the_paired_differences_with_its_interval(
    tmp_path: Path,
) -> None:
    before = paired.read_run(str(write_run(tmp_path / "a.json", 1, [1.0, 2.0, 3.0, 9.0])))
    after = paired.read_run(str(write_run(tmp_path / "b.json", 1, [2.0, 2.0, 5.0])))
    (pairing,) = paired.pair_runs(before, after)
    # Only the three deals both runs played are compared.
    assert pairing.deals == 3
    assert math.isclose(pairing.change, 1.0)
    assert math.isclose(pairing.change_ci, 1.96 * 1.0 / math.sqrt(3))
    assert math.isclose(pairing.before, 2.0) and math.isclose(pairing.after, 3.0)


def test_runs_of_different_deals_and_bad_files_are_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write_run(tmp_path / "good.json", 1, [1.0])
    other_seed = write_run(tmp_path / "seed.json", 2, [1.0])
    assert main(["paired", str(good), str(other_seed)]) == 2
    assert "different deals: seed 1" in capsys.readouterr().err

    cut = tmp_path / "cut.json"
    cut.write_text(good.read_text(encoding="utf-8")[:-5], encoding="utf-8")
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"format": "something else"}', encoding="utf-8")
    newer = tmp_path / "newer.json"
    newer.write_text(
        good.read_text(encoding="utf-8").replace('"version": 1', '"version": 7'), encoding="utf-8"
    )
    words = tmp_path / "words.json"
    words.write_text(good.read_text(encoding="utf-8").replace("[1.0]", '["x"]'), encoding="utf-8")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    cases = {
        cut: "line 1",
        foreign: "not a file of `bench strength --deals-out`",
        newer: "version 7 is not known",
        words: "not a list of numbers",
        fifo: "not a regular file",
        tmp_path / "missing.json": "no such file",
    }
    for path, message in cases.items():
        assert main(["paired", str(good), str(path)]) == 2
        err = capsys.readouterr().err
        assert str(path) in err and message in err, err


def test_a_journal_pairs_over_the_deals_it_has_so_far_and_is_read_without_a_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deals_file = tmp_path / "whole.json"
    strength_run(deals_file)
    whole = json.loads(deals_file.read_text(encoding="utf-8"))
    easy = whole["tournaments"]["easy-vs-random"]["diff_per_deal"]["easy"]
    strength_run(tmp_path / "part.json", "--journal", str(tmp_path / "runs"))
    journal = tmp_path / "runs" / "easy-vs-random.ndjson"
    lines = journal.read_bytes().split(b"\n")
    # A run in progress: deals 1 and 4 not yet finished, the last line cut short by a kill.
    kept = [line for line in lines[1:-1] if json.loads(line)["deal"] not in (1, 4)]
    cut = b"\n".join([lines[0], *kept[:-1]]) + b"\n" + kept[-1][:20]
    journal.write_bytes(cut)
    run = paired.read_run(str(journal))
    assert sorted(run.diffs["easy-vs-random"]["easy"]) == [0, 2, 3]
    assert journal.read_bytes() == cut
    # The journal's Diffs are the ones the tournament reported, deal by deal.
    for deal, diff in run.diffs["easy-vs-random"]["easy"].items():
        assert math.isclose(diff, easy[deal], abs_tol=1e-6)
    assert main(["paired", str(deals_file), str(journal)]) == 0
    out = capsys.readouterr().out
    assert "easy-vs-random  easy" in out and "+0.00 ± 0.00" in out
    (pairing,) = [
        p for p in paired.pair_runs(paired.read_run(str(deals_file)), run) if p.bot == "easy"
    ]
    assert pairing.deals == 3
    assert math.isclose(pairing.before, (easy[0] + easy[2] + easy[3]) / 3, abs_tol=1e-6)


def test_a_damaged_journal_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write_run(tmp_path / "good.json", strength.DEFAULT_SEED, [1.0])
    header = {"format": "mdhearts-deal-journal", "version": 1, "tournament": "t"}
    nameless = tmp_path / "nameless.ndjson"
    nameless.write_text(json.dumps(header) + "\n", encoding="utf-8")
    header |= {"lineup": ["a", "b", "b", "b"], "seed": strength.DEFAULT_SEED}
    damaged = tmp_path / "damaged.ndjson"
    damaged.write_text(json.dumps(header) + '\n{"deal": 0, "result": {"points": 3}}\n')
    cases = {nameless: "does not name its tournament", damaged: "points"}
    for path, message in cases.items():
        assert main(["paired", str(good), str(path)]) == 2
        err = capsys.readouterr().err
        assert str(path) in err and message in err, err


def test_by_direction_each_pass_direction_is_compared_over_its_own_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The standard cycle: deals 0 and 4 pass left, 1 and 5 right, 2 and 6 across, 3 and 7 hold.
    before = write_run(tmp_path / "a.json", 1, [0.0] * 8)
    after = write_run(tmp_path / "b.json", 1, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    pairings = paired.pair_runs(paired.read_run(str(before)), paired.read_run(str(after)), True)
    assert [(p.part, p.deals, p.change) for p in pairings] == [
        ("", 8, 4.5),
        ("left", 2, 3.0),
        ("right", 2, 4.0),
        ("across", 2, 5.0),
        ("hold", 2, 6.0),
    ]
    assert [
        p.part for p in paired.pair_runs(paired.read_run(str(before)), paired.read_run(str(after)))
    ] == [""]
    assert main(["paired", str(before), str(after), "--by-direction", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "| t | a | hold | 2 | +0.00 | +6.00 | +6.00 ± 3.92 |" in out
    assert "| t | a | all | 8 | +0.00 | +4.50 |" in out


def test_a_journal_splits_by_its_own_pass_cycle_and_other_cycles_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    strength_run(tmp_path / "part.json", "--journal", str(tmp_path / "runs"))
    journal = tmp_path / "runs" / "easy-vs-random.ndjson"
    lines = journal.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    header["rules"]["pass_cycle"] = ["left", "hold"]
    journal.write_text("\n".join([json.dumps(header), *lines[1:]]), encoding="utf-8")
    run = paired.read_run(str(journal))
    assert run.rules.pass_cycle == ("left", "hold")
    pairings = paired.pair_runs(run, run, by_direction=True)
    assert [(p.bot, p.part, p.deals) for p in pairings if p.bot == "easy"] == [
        ("easy", "", 6),
        ("easy", "left", 3),
        ("easy", "hold", 3),
    ]
    deals_file = tmp_path / "whole.json"
    strength_run(deals_file)
    # Without the split the cycles do not matter; with it the deals would not match.
    assert main(["paired", str(deals_file), str(journal)]) == 0
    capsys.readouterr()
    assert main(["paired", str(deals_file), str(journal), "--by-direction"]) == 2
    assert "pass in different directions: left right across hold" in capsys.readouterr().err
    header["rules"]["pass_cycle"] = ["sideways"]
    journal.write_text("\n".join([json.dumps(header), *lines[1:]]), encoding="utf-8")
    assert main(["paired", str(deals_file), str(journal)]) == 2
    err = capsys.readouterr().err
    assert str(journal) in err and "rules are damaged" in err, err


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path: Path) -> None:
    before = write_run(tmp_path / "a.json", 1, [1.0, 2.0, 3.0])
    after = write_run(tmp_path / "b.json", 1, [2.0, 2.0, 5.0])
    read, write = os.pipe()
    os.close(read)  # like ``| head`` gone before the table is printed
    command = [sys.executable, "-m", "bench", "paired", str(before), str(after)]
    done = subprocess.run(command, stdout=write, stderr=subprocess.PIPE, timeout=60, check=False)
    os.close(write)
    assert done.returncode == 0, done.stderr.decode()
    assert b"Traceback" not in done.stderr


def write_journal(path: Path, points_by_deal: list[list[list[int]]], **rules: object) -> Path:
    """Write a journal of tournament ``t`` (lineup a, b, b, b) whose deals' hands ended with
    these points (per deal: per rotation, each slot's points)."""
    header = {
        "format": "mdhearts-deal-journal",
        "version": 1,
        "tournament": "t",
        "lineup": ["a", "b", "b", "b"],
        "rules": {"pass_cycle": ["left", "right", "across", "hold"], **rules},
        "seed": 1,
    }
    lines = [json.dumps(header)]
    for deal, rotations in enumerate(points_by_deal):
        result = {
            "points": [[hand[slot] for hand in rotations] for slot in range(4)],
            "moons_shot": [0] * 4,
            "moons_conceded": [0] * 4,
            "decision_ms": [[1.0]] * 4,
        }
        lines.append(json.dumps({"deal": deal, "result": result}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_by_outcome_splits_the_change_by_how_the_hands_ended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet = [[10, 6, 10, 0], [0, 0, 13, 13], [26, 0, 0, 0], [4, 9, 9, 4]]
    # Before: on deal 0, a shoots in the first hand and the seat after it in the second.
    before_deals = [[[0, 26, 26, 26], [26, 0, 26, 26], [10, 6, 10, 0], [0, 0, 13, 13]], quiet]
    # After: deal 0 has no moon, and on deal 1 a concedes one (26 off the shooter's score).
    after_deals = [quiet, [[0, 0, 26, 0], [0, -26, 0, 0], [26, 0, 0, 0], [4, 9, 9, 4]]]
    before = paired.read_run(str(write_journal(tmp_path / "a.ndjson", before_deals)))
    after = paired.read_run(str(write_journal(tmp_path / "b.ndjson", after_deals)))
    assert before.outcome_parts is not None
    own, another, none = before.outcome_parts["t"]["a"][0]
    assert math.isclose(own, -26 / 4)
    assert math.isclose(another, (26 - 52 / 3) / 4)
    assert math.isclose(none, (10 - 16 / 3 - 26 / 3) / 4)
    pairings = paired.pair_runs(before, after, by_outcome=True)
    for bot in ("a", "b"):
        rows = {p.part: p for p in pairings if p.bot == bot}
        assert list(rows) == ["", *paired.OUTCOMES]
        # The parts add up to the whole, before, after and in the change.
        for value in ("before", "after", "change"):
            whole = getattr(rows[""], value)
            assert math.isclose(whole, sum(getattr(rows[o], value) for o in paired.OUTCOMES))
    files = [str(tmp_path / "a.ndjson"), str(tmp_path / "b.ndjson")]
    assert main(["paired", *files, "--by-outcome"]) == 0
    assert "a    another's moon  2" in capsys.readouterr().out


def test_a_moon_is_three_seats_level_26_above_the_shooter() -> None:
    assert paired.moon_shooter([26, 26, 0, 26]) == 2
    assert paired.moon_shooter([0, 0, -26, 0]) == 2
    assert paired.moon_shooter([0, 0, 0, 26]) is None
    assert paired.moon_shooter([13, 13, 0, 0]) is None
    assert paired.moon_shooter([-5, 21, 5, 5]) is None


def test_by_outcome_refuses_a_deals_file_and_the_jack_of_diamonds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = write_journal(tmp_path / "a.ndjson", [[[0, 26, 26, 26]] * 4])
    deals_file = write_run(tmp_path / "d.json", 1, [1.0])
    assert main(["paired", str(deals_file), str(journal), "--by-outcome"]) == 2
    err = capsys.readouterr().err
    assert str(deals_file) in err and "needs a journal" in err, err
    jack = write_journal(tmp_path / "j.ndjson", [[[0, 26, 26, 26]] * 4], jack_of_diamonds=True)
    assert main(["paired", str(journal), str(jack), "--by-outcome"]) == 2
    assert "jack of diamonds" in capsys.readouterr().err
    assert main(["paired", str(journal), str(jack)]) == 0
