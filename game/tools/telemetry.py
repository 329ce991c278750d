"""``mdhearts telemetry export``: write the bots' decision records as one NDJSON stream.

Records go to standard output (or ``--out PATH``) and a summary to standard error. Exit codes:
0 done, 1 the export could not be written or the folder read, 2 bad usage.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from pathlib import Path

from ai.telemetry import ExportSummary, export_telemetry, telemetry_dir_from_env
from core.files import open_atomically
from core.text import os_reason
from game.programs import EXIT_FAILED, EXIT_OK, Parser, UsageError, guarded
from game.streams import silence_stdout

PROG = "mdhearts telemetry"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r:.20}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of ``mdhearts telemetry``."""
    parser = Parser(prog=PROG, description="Work with the bots' decision records.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    export = commands.add_parser(
        "export",
        help="write the records of the kept session files, oldest first",
        description="Write the records of the kept session files as NDJSON, oldest first.",
    )
    export.add_argument("--out", metavar="PATH", help="write to PATH (default: standard output)")
    export.add_argument(
        "--dir",
        metavar="DIR",
        help="the telemetry folder (default: $MDH_TELEMETRY_DIR, else the user log folder)",
    )
    export.add_argument(
        "--last", type=_positive, metavar="N", help="only the N newest session files"
    )
    return parser


def _usable_path(text: str, what: str) -> Path:
    if not text.strip() or "\x00" in text:
        raise ValueError(f"{what}: not a usable path: {text!r:.60}")
    return Path(text).expanduser()


def _export(args: argparse.Namespace) -> tuple[Path, ExportSummary]:
    if args.dir is None:
        directory, warnings = telemetry_dir_from_env()
        for warning in warnings:
            sys.stderr.write(f"{PROG}: warning: {warning}\n")
    else:
        directory = _usable_path(args.dir, "--dir")
        if not directory.exists():
            raise OSError(f"the folder {directory} does not exist")
    if directory.exists() and not directory.is_dir():
        raise OSError(f"{directory} is not a folder")
    if args.out is None:
        return directory, export_telemetry(directory, sys.stdout, args.last)
    target = _usable_path(args.out, "--out")
    with open_atomically(target) as raw:
        out = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        summary = export_telemetry(directory, out, args.last)
        out.flush()
        out.detach()  # the atomic writer closes the file itself
    return directory, summary


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mdhearts telemetry`` with these arguments and return the exit status."""
    return guarded(PROG, lambda: _run(list(sys.argv[1:] if argv is None else argv)))


def _run(argv: list[str]) -> int:
    """Parse the arguments and export; return the exit status (bad usage raises UsageError)."""
    args = build_parser().parse_args(argv)
    try:
        directory, summary = _export(args)
    except ValueError as error:
        raise UsageError(str(error)) from None
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error
        silence_stdout()
        return EXIT_OK
    except OSError as error:
        reason = os_reason(error)
        where = f": {error.filename}" if getattr(error, "filename", None) else ""
        sys.stderr.write(f"{PROG}: error: cannot export{where}: {reason}\n")
        return EXIT_FAILED
    skipped, unreadable = summary.skipped_lines, summary.unreadable_files
    sys.stderr.write(
        f"{PROG}: exported {_count(summary.records, 'record')} "
        f"from {_count(summary.files, 'file')} in {directory}"
        + (f", skipped {_count(skipped, 'broken line')}" if skipped else "")
        + (f", {_count(unreadable, 'unreadable file')}" if unreadable else "")
        + ("" if directory.exists() else " (the folder does not exist yet)")
        + "\n"
    )
    return EXIT_OK
