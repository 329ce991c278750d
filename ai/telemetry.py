"""Telemetry: one NDJSON record per bot decision, a file per session, the last files kept.

Records go to ``<dir>/mdhearts-<session>.ndjson``; ``<dir>`` is ``$MDH_TELEMETRY_DIR``, else
``telemetry`` in the user log folder (under ``$MDH_HOME`` when set), and ``MDH_TELEMETRY=0``
turns telemetry off. After a new file is made, only the newest ``keep`` telemetry files of the
folder stay; files whose names this module does not write (no ``mdhearts-`` prefix) are never
touched, nor exported. Writing never disturbs the
game: the first failure turns the log off with one warning. ``export_telemetry`` concatenates
the files, oldest first.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from ai.think import Decision
from core.cards import card_text
from core.environment import environment, ignored
from core.files import (
    StrictJsonError,
    default_user_dirs,
    folder_from_env,
    parse_strict_json,
    user_dirs,
)
from core.text import os_reason

TELEMETRY_ENV = "MDH_TELEMETRY"
TELEMETRY_DIR_ENV = "MDH_TELEMETRY_DIR"
SUFFIX = ".ndjson"
#: Every telemetry file's name starts with this; rotation and export touch only such files.
PREFIX = "mdhearts-"
#: Deepest nesting a record line may have to be exported (a record needs 3).
MAX_RECORD_DEPTH = 16
#: How many session files are kept.
DEFAULT_KEEP = 20
_OFF = ("0", "off", "false", "no")
_ON = ("1", "on", "true", "yes")


def default_telemetry_dir() -> Path:
    """Return the default telemetry folder: ``telemetry`` in the platform's user log folder."""
    return default_user_dirs().telemetry


def telemetry_dir_from_env(environ: Mapping[str, str] | None = None) -> tuple[Path, list[str]]:
    """Return the telemetry folder and any warnings: ``$MDH_TELEMETRY_DIR``, else the one in
    the user folders (under ``$MDH_HOME`` when set)."""
    env = environment(environ)
    dirs, warnings = user_dirs(env)
    directory, dir_warnings = folder_from_env(env, TELEMETRY_DIR_ENV, dirs.telemetry)
    return directory, warnings + dir_warnings


def _chosen(decision: Decision) -> str | list[str]:
    if isinstance(decision.action, tuple):
        return [card_text(card) for card in decision.action]
    return card_text(decision.action)


def decision_record(decision: Decision) -> dict[str, Any]:
    """Return the telemetry record of one decision (JSON data).

    The bot's facts give ``samples``, ``playouts`` and ``values`` (the value of every
    candidate); whatever else it left is kept under ``facts``.
    """
    facts = dict(decision.facts)
    facts.pop("chosen", None)  # the move actually played is ``chosen`` below
    facts.pop("fallback_reason", None)  # it is ``fallback_reason`` below
    return {
        "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "seat": decision.seat,
        "tier": decision.bot,
        "kind": decision.kind,
        "elapsed_ms": round(decision.elapsed_ms, 3),
        "limit_ms": decision.limit_ms,
        "timed_out": decision.timed_out,
        "fallback_used": decision.fallback_used,
        "fallback_reason": decision.fallback,
        "samples": facts.pop("samples", None),
        "playouts": facts.pop("playouts", None),
        "chosen": _chosen(decision),
        "values": facts.pop("values", None),
        "facts": facts,
    }


def session_name() -> str:
    """Return a file name for a new session: its start time and process id."""
    return f"{datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}"


def telemetry_files(directory: Path) -> list[Path]:
    """Return the telemetry files of a folder, oldest first (none if it cannot be read).

    Only regular files named as this module names them count.
    """
    try:
        files = [
            path
            for path in directory.glob(f"{PREFIX}*{SUFFIX}")
            if path.is_file() and not path.is_symlink()
        ]
        stamped = [(path.stat().st_mtime, path.name, path) for path in files]
    except OSError:
        return []
    return [path for _, _, path in sorted(stamped)]


def _warn_stderr(message: str) -> None:
    stream = sys.stderr  # None in a build without a console
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.write(f"mdhearts: warning: {message}\n")


class TelemetryLog:
    """Appends one NDJSON line per decision to ``<directory>/<name>.ndjson``.

    ``name`` defaults to a new session's name; several processes may share a name (lines are
    appended whole). ``record`` never raises: a failure turns the log off with one warning.
    """

    def __init__(
        self,
        directory: Path,
        name: str | None = None,
        keep: int = DEFAULT_KEEP,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.directory = directory
        self.path = directory / f"{PREFIX}{name or session_name()}{SUFFIX}"
        self.keep = max(1, keep)
        self.warn = warn or _warn_stderr
        self.enabled = True
        self.records = 0
        self._prepared = False

    def record(self, decision: Decision) -> None:
        """Append the decision's record; on failure turn the log off and warn once."""
        if not self.enabled:
            return
        try:
            line = json.dumps(decision_record(decision), default=str) + "\n"
            created = False
            if not self._prepared:
                self.directory.mkdir(parents=True, exist_ok=True)
                created = not self.path.exists()
            with self.path.open("a", encoding="utf-8") as stream:
                stream.write(line)
            self._prepared = True
            if created:
                self.rotate()
        except (OSError, ValueError) as error:
            self.enabled = False
            reason = os_reason(error)
            self.warn(f"telemetry is off for this session: cannot write {self.path}: {reason}")
            return
        self.records += 1

    def rotate(self) -> None:
        """Delete the oldest files of the folder beyond ``keep`` (never this session's)."""
        files = [path for path in telemetry_files(self.directory) if path != self.path]
        for path in files[: max(0, len(files) - (self.keep - 1))]:
            with contextlib.suppress(OSError):
                path.unlink()


def telemetry_from_env(
    environ: Mapping[str, str] | None = None,
    name: str | None = None,
    keep: int = DEFAULT_KEEP,
) -> tuple[TelemetryLog | None, list[str]]:
    """Return the session's log as the environment sets it (None when off), and warnings."""
    env = environment(environ)
    warnings: list[str] = []
    switch = env.get(TELEMETRY_ENV)
    if switch is not None:
        value = switch.strip().lower()
        if value in _OFF:
            return None, warnings
        if value not in _ON:
            warnings.append(ignored(TELEMETRY_ENV, switch, "use 0 (off) or 1 (on)"))
    directory, dir_warnings = telemetry_dir_from_env(env)
    return TelemetryLog(directory, name, keep), warnings + dir_warnings


@dataclass(frozen=True)
class ExportSummary:
    """What an export found: files read, records written, lines and files skipped."""

    files: int
    records: int
    skipped_lines: int
    unreadable_files: int


def export_telemetry(directory: Path, out: TextIO, last: int | None = None) -> ExportSummary:
    """Write the records of the folder's files (the ``last`` newest, or all) to ``out``.

    Files are read oldest first; lines that are not JSON objects in UTF-8 (a record cut short,
    a damaged byte) are skipped and counted one by one, so the rest of their file still counts;
    files that cannot be read are skipped and counted. Errors writing ``out`` propagate.
    """
    files = telemetry_files(directory)
    if last is not None:
        files = files[-last:] if last > 0 else []
    records = skipped = unreadable = 0
    for path in files:
        try:
            lines = path.read_bytes().split(b"\n")
        except OSError:
            unreadable += 1
            continue
        for raw in lines:
            if not raw.strip():
                continue
            try:
                line = raw.decode("utf-8").strip()
                valid = isinstance(parse_strict_json(line, max_depth=MAX_RECORD_DEPTH), dict)
            except (UnicodeDecodeError, StrictJsonError):
                valid = False
            if valid:
                out.write(line + "\n")
                records += 1
            else:
                skipped += 1
    return ExportSummary(len(files), records, skipped, unreadable)
