"""Telemetry: a record per decision with its fields, rotation, export, and bad folders."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from ai.telemetry import (
    TelemetryLog,
    decision_record,
    default_telemetry_dir,
    export_telemetry,
    telemetry_files,
    telemetry_from_env,
)
from ai.think import Decision
from core.cards import QUEEN_OF_SPADES
from game.main import main as mdhearts
from game.terminal.main import main as cli_main

FIELDS = {
    "time", "seat", "tier", "kind", "elapsed_ms", "limit_ms", "timed_out", "fallback_used",
    "fallback_reason", "samples", "playouts", "chosen", "values", "facts",
}  # fmt: skip


def decision(action: int | tuple[int, int, int] = QUEEN_OF_SPADES, **facts: object) -> Decision:
    kind = "pass" if isinstance(action, tuple) else "play"
    return Decision(2, "normal", kind, action, 12.3456, 1000.0, False, None, dict(facts))


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def make_files(folder: Path, count: int) -> list[Path]:
    """Make ``count`` old session files, oldest first."""
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for index in range(count):
        path = folder / f"mdhearts-old-{index:02d}.ndjson"
        path.write_text(json.dumps({"old": index}) + "\n")
        os.utime(path, (1_000_000 + index, 1_000_000 + index))
        files.append(path)
    return files


def test_a_record_has_every_field() -> None:
    record = decision_record(
        decision(samples=40, playouts=800, values={"QS": -3.5}, chosen="QS", depth=2)
    )
    assert set(record) == FIELDS
    assert record["seat"] == 2 and record["tier"] == "normal" and record["kind"] == "play"
    assert record["chosen"] == "QS" and record["values"] == {"QS": -3.5}
    assert record["samples"] == 40 and record["playouts"] == 800
    assert record["facts"] == {"depth": 2} and record["elapsed_ms"] == 12.346
    assert record["fallback_used"] is False and record["fallback_reason"] is None
    passed = decision_record(decision((49, 50, 51)))
    assert passed["chosen"] == ["QH", "KH", "AH"] and passed["samples"] is None


def test_the_log_appends_a_line_per_decision(tmp_path: Path) -> None:
    log = TelemetryLog(tmp_path / "new" / "folder", "session")
    log.record(decision())
    log.record(decision((0, 1, 2)))
    assert log.records == 2 and log.path == tmp_path / "new" / "folder" / "mdhearts-session.ndjson"
    records = lines(log.path)
    assert [record["kind"] for record in records] == ["play", "pass"]
    assert all(set(record) == FIELDS for record in records)


def test_rotation_keeps_the_newest_files(tmp_path: Path) -> None:
    old = make_files(tmp_path, 7)
    (tmp_path / "notes.txt").write_text("not telemetry")
    log = TelemetryLog(tmp_path, "now", keep=5)
    log.record(decision())
    kept = telemetry_files(tmp_path)
    assert kept == [*old[-4:], log.path]
    assert (tmp_path / "notes.txt").exists()
    log.record(decision())
    assert telemetry_files(tmp_path) == kept


def test_a_folder_that_cannot_be_written_turns_the_log_off_once(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    warnings: list[str] = []
    log = TelemetryLog(blocker / "telemetry", warn=warnings.append)
    log.record(decision())
    log.record(decision())
    assert not log.enabled and log.records == 0
    assert len(warnings) == 1 and "telemetry is off" in warnings[0]


def test_the_environment_chooses_the_folder_and_the_switch(tmp_path: Path) -> None:
    log, warnings = telemetry_from_env({"MDH_TELEMETRY_DIR": str(tmp_path)}, "x")
    assert log is not None and log.path == tmp_path / "mdhearts-x.ndjson" and warnings == []
    assert telemetry_from_env({"MDH_TELEMETRY": "0"}) == (None, [])
    for bad_dir in ("", "  ", "a\x00b"):
        log, warnings = telemetry_from_env({"MDH_TELEMETRY_DIR": bad_dir})
        assert log is not None and log.directory == default_telemetry_dir()
        assert len(warnings) == 1 and "MDH_TELEMETRY_DIR" in warnings[0]
    log, warnings = telemetry_from_env({"MDH_TELEMETRY": "maybe", "MDH_TELEMETRY_DIR": "d"})
    assert log is not None and len(warnings) == 1 and "MDH_TELEMETRY=" in warnings[0]


def test_export_concatenates_oldest_first_and_skips_broken_lines(tmp_path: Path) -> None:
    make_files(tmp_path, 3)
    (tmp_path / "mdhearts-old-01.ndjson").write_text('{"old": 1}\n{"cut sh\n[1]\n\n')
    os.utime(tmp_path / "mdhearts-old-01.ndjson", (1_000_001, 1_000_001))
    out = io.StringIO()
    summary = export_telemetry(tmp_path, out)
    assert [json.loads(line) for line in out.getvalue().splitlines()] == [
        {"old": 0},
        {"old": 1},
        {"old": 2},
    ]
    assert (summary.files, summary.records, summary.skipped_lines) == (3, 3, 2)
    out = io.StringIO()
    assert export_telemetry(tmp_path, out, last=1).records == 1
    assert json.loads(out.getvalue()) == {"old": 2}
    assert export_telemetry(tmp_path / "missing", io.StringIO()).files == 0


def test_the_export_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    make_files(tmp_path / "t", 2)
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(tmp_path / "t"))
    assert mdhearts(["telemetry", "export"]) == 0
    captured = capsys.readouterr()
    assert captured.out == '{"old": 0}\n{"old": 1}\n'
    assert "exported 2 records from 2 files" in captured.err
    out = tmp_path / "all.ndjson"
    assert mdhearts(["telemetry", "export", "--dir", str(tmp_path / "t"), "--out", str(out)]) == 0
    assert out.read_text() == '{"old": 0}\n{"old": 1}\n'
    assert mdhearts(["telemetry", "export", "--dir", str(out)]) == 1
    assert mdhearts(["telemetry", "export", "--out", str(tmp_path / "no" / "x")]) == 1
    assert mdhearts(["telemetry", "export", "--last", "0"]) == 2
    assert mdhearts(["telemetry", "export", "--dir", "a\x00b"]) == 2
    assert mdhearts(["telemetry", "frobnicate"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_bot_moves_are_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "telemetry"
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(folder))
    monkeypatch.setenv("MDH_BOT_DIFFICULTY", "easy")
    state = str(tmp_path / "match.json")
    seats = "human,bot,bot:first,bot"
    assert cli_main(["--state", state, "new", "--seed", "3", "--seats", seats]) == 0
    assert cli_main(["--state", state, "new", "--seed", "3", "--seats", "bot,bot,bot,bot"]) == 0
    (path,) = telemetry_files(folder)
    records = lines(path)
    assert len(records) == 3 + (4 + 52) and all(set(record) == FIELDS for record in records)
    assert [record["tier"] for record in records[:3]] == ["easy", "first", "easy"]
    assert {record["tier"] for record in records[3:]} == {"easy"}
    capsys.readouterr()


def test_a_bad_telemetry_folder_never_stops_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(blocker))
    monkeypatch.setenv("MDH_THINK_LIMIT_MS", "soon")
    state = str(tmp_path / "match.json")
    assert cli_main(["--state", state, "new", "--seats", "bot,bot,bot,bot", "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert err.count("warning:") == 2
    assert "MDH_THINK_LIMIT_MS" in err and "telemetry is off" in err
    monkeypatch.setenv("MDH_TELEMETRY_DIR", "")
    monkeypatch.setenv("MDH_TELEMETRY", "0")
    assert cli_main(["--state", state, "status"]) == 0


def test_rotation_never_touches_files_it_did_not_name(tmp_path: Path) -> None:
    """Another program's ``*.ndjson`` files in the folder stay, however many there are."""
    foreign = []
    for index in range(30):
        path = tmp_path / f"other-{index:02d}.ndjson"
        path.write_text('{"theirs": true}\n')
        os.utime(path, (1_000 + index, 1_000 + index))
        foreign.append(path)
    ours = make_files(tmp_path, 7)
    log = TelemetryLog(tmp_path, "now", keep=5)
    log.record(decision())
    assert all(path.exists() for path in foreign)
    assert telemetry_files(tmp_path) == [*ours[-4:], log.path]
    out = io.StringIO()
    export_telemetry(tmp_path, out)
    assert "theirs" not in out.getvalue()


def test_the_telemetry_folder_follows_mdh_home(tmp_path: Path) -> None:
    log, warnings = telemetry_from_env({"MDH_HOME": str(tmp_path)}, "x")
    assert warnings == [] and log is not None
    assert log.directory == tmp_path / "log" / "telemetry"


def test_export_skips_a_deeply_nested_line(tmp_path: Path) -> None:
    make_files(tmp_path, 1)
    deep = tmp_path / "mdhearts-deep.ndjson"
    deep.write_text("[" * 200_000 + "]" * 200_000 + "\n" + '{"a": ' * 50 + "1" + "}" * 50 + "\n")
    out = io.StringIO()
    summary = export_telemetry(tmp_path, out)
    assert (summary.records, summary.skipped_lines) == (1, 2)


def test_export_out_is_replaced_only_by_a_whole_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_files(tmp_path / "t", 2)
    out = tmp_path / "all.ndjson"
    out.write_text("earlier export\n")
    out.chmod(0o640)

    def fail_midway(directory: Path, stream: io.TextIOBase, last: int | None = None) -> None:
        stream.write('{"partial": 1}\n')
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("game.tools.telemetry.export_telemetry", fail_midway)
    assert mdhearts(["telemetry", "export", "--dir", str(tmp_path / "t"), "--out", str(out)]) == 1
    assert out.read_text() == "earlier export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.ndjson", "t"]
    monkeypatch.undo()
    assert mdhearts(["telemetry", "export", "--dir", str(tmp_path / "t"), "--out", str(out)]) == 0
    assert out.read_text().count("old") == 2
    if os.name == "posix":
        assert (out.stat().st_mode & 0o777) == 0o640


def test_a_bad_byte_costs_only_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [b'{"n": %d}' % number for number in range(5)]
    lines.insert(2, b'{"bad": "\xff"}')
    (tmp_path / "mdhearts-a.ndjson").write_bytes(b"\n".join(lines) + b"\n")
    out = io.StringIO()
    summary = export_telemetry(tmp_path, out)
    assert [json.loads(line)["n"] for line in out.getvalue().splitlines()] == [0, 1, 2, 3, 4]
    assert (summary.records, summary.skipped_lines, summary.unreadable_files) == (5, 1, 0)
    assert mdhearts(["telemetry", "export", "--dir", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "exported 5 records from 1 file in " in err and err.endswith("skipped 1 broken line\n")


def test_a_missing_folder_named_by_dir_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nonexistent"
    assert mdhearts(["telemetry", "export", "--dir", str(missing)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"the folder {missing} does not exist" in captured.err
    assert "exported" not in captured.err
    # The default folder simply has no records until a bot has played.
    monkeypatch.setenv("MDH_TELEMETRY_DIR", str(missing))
    assert mdhearts(["telemetry", "export"]) == 0
    assert "exported 0 records from 0 files" in capsys.readouterr().err
