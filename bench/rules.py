"""Rules benchmark: legal-move checks from Python and uniform-random full-hand playouts.

Compares, in one run, the compiled kernel (``core._kernel``), its pure-Python twin
(``core.kernel_py``) and OpenSpiel's Hearts through its Python API (``pyspiel``). All timing is
single-threaded; each figure is the best of three rounds.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from bench import add_markdown_option, best_rate, machine_info, publish
from core import kernel, kernel_py
from core.cards import cards_of, mask_of
from core.hand import HandState
from core.rules import STANDARD_RULES

#: Targets from the issue: playouts per second of the compiled kernel, and µs per legal check.
TARGET_PLAYOUTS_PER_SECOND = 250_000
TARGET_LEGAL_CHECK_MICROSECONDS = 1.0
POSITION_HANDS = 40

KernelArgs = tuple[int, int, bool, bool, int]


@dataclass(frozen=True)
class Row:
    """One measured figure: operations per second, or None with a note when it could not run."""

    section: str
    key: str
    label: str
    rate: float | None
    note: str = ""


@dataclass(frozen=True)
class Positions:
    """Fixed decision points from random hands, for timing legal-move checks."""

    kernel_args: list[KernelArgs]
    can_play_args: list[tuple[HandState, int, int]]


def build_positions(seed: int, hands: int = POSITION_HANDS) -> Positions:
    """Play ``hands`` random hands and keep every decision point (52 per hand)."""
    rng = random.Random(seed)
    flags = STANDARD_RULES.flags
    kernel_args: list[KernelArgs] = []
    can_play_args: list[tuple[HandState, int, int]] = []
    for _ in range(hands):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = HandState.new(STANDARD_RULES, "hold", [mask_of(deck[s::4]) for s in range(4)])
        while hand.phase == "play":
            seat = hand.turn
            trick = hand.current_trick
            assert seat is not None and trick is not None
            held = hand.hands[seat]
            first_trick = len(hand.tricks) == 1
            kernel_args.append((held, trick.led_suit, first_trick, hand.hearts_broken, flags))
            # Ask about any held card, legal or not, as a user interface would.
            can_play_args.append((hand.copy(), seat, rng.choice(cards_of(held))))
            hand.play(seat, rng.choice(cards_of(hand.legal_mask(seat))))
    return Positions(kernel_args, can_play_args)


def _legal_batch(
    legal_mask: Callable[..., int], positions: list[KernelArgs]
) -> Callable[[int], int]:
    def run_batch(size: int) -> int:
        for _ in range(size):
            for hand, led_suit, first_trick, hearts_broken, flags in positions:
                legal_mask(hand, led_suit, first_trick, hearts_broken, flags)
        return size * len(positions)

    return run_batch


def _loop_batch(positions: list[KernelArgs]) -> Callable[[int], int]:
    def run_batch(size: int) -> int:
        for _ in range(size):
            for _hand, _led_suit, _first_trick, _hearts_broken, _flags in positions:
                pass
        return size * len(positions)

    return run_batch


def _can_play_batch(positions: list[tuple[HandState, int, int]]) -> Callable[[int], int]:
    def run_batch(size: int) -> int:
        for _ in range(size):
            for state, seat, card in positions:
                state.can_play(seat, card)
        return size * len(positions)

    return run_batch


def _kernel_playout_batch(kernel: ModuleType, seed: int) -> Callable[[int], int]:
    next_seed = [seed]
    flags = STANDARD_RULES.flags

    def run_batch(size: int) -> int:
        kernel.random_playouts(size, next_seed[0], flags)
        next_seed[0] += size
        return size

    return run_batch


def _openspiel_playout_batch(pyspiel: Any, seed: int) -> Callable[[int], int]:
    """Deal 52 random chance actions and play uniformly random legal actions to the end."""
    game = pyspiel.load_game("hearts", {"pass_cards": False})
    rng = random.Random(seed)
    deck = list(range(52))

    def run_batch(size: int) -> int:
        for _ in range(size):
            state = game.new_initial_state()
            state.apply_action(0)  # the pass direction: no pass
            rng.shuffle(deck)
            for card in deck:
                state.apply_action(card)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        return size

    return run_batch


def _import(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


LEGAL = "legal-move checks"
PLAYOUTS = "random playouts"


def measure(seconds: float, seed: int) -> list[Row]:
    """Run every measurement, spending about ``seconds`` on each, and return the rows."""
    compiled = _import("core._kernel")
    pyspiel = _import("pyspiel")
    positions = build_positions(seed)
    # (section, key, label, batch runner or None when its engine is missing, note when missing)
    plan: list[tuple[str, str, str, Callable[[int], int] | None, str]] = [
        (
            LEGAL,
            "cython",
            "Cython `core._kernel.legal_mask`",
            _legal_batch(compiled.legal_mask, positions.kernel_args) if compiled else None,
            "not built",
        ),
        (
            LEGAL,
            "python",
            "pure Python `core.kernel_py.legal_mask`",
            _legal_batch(kernel_py.legal_mask, positions.kernel_args),
            "",
        ),
        (
            LEGAL,
            "can_play",
            "`HandState.can_play` (validated public API)",
            _can_play_batch(positions.can_play_args),
            "",
        ),
        (
            LEGAL,
            "loop",
            "(reference: the timing loop alone, no call)",
            _loop_batch(positions.kernel_args),
            "",
        ),
        (
            PLAYOUTS,
            "cython",
            "Cython `core._kernel.random_playouts` (N playouts per call, in C)",
            _kernel_playout_batch(compiled, seed) if compiled else None,
            "not built",
        ),
        (
            PLAYOUTS,
            "python",
            "pure Python `core.kernel_py.random_playouts`",
            _kernel_playout_batch(kernel_py, seed),
            "",
        ),
        (
            PLAYOUTS,
            "openspiel",
            "OpenSpiel `pyspiel` hearts through its Python API",
            _openspiel_playout_batch(pyspiel, seed) if pyspiel else None,
            "not installed",
        ),
    ]
    return [
        Row(
            section, key, label, best_rate(batch, seconds) if batch else None, "" if batch else note
        )
        for section, key, label, batch, note in plan
    ]


Table = tuple[str, list[str], list[list[str]]]


def _ratio(numerator: float | None, denominator: float | None) -> str:
    if numerator is None or denominator is None:
        return "n/a"
    return f"{numerator / denominator:,.1f}×"


def _rate_cells(row: Row) -> list[str]:
    if row.rate is None:
        return [row.label, row.note, "-"]
    per_call = 1e6 / row.rate
    return [
        row.label,
        f"{row.rate:,.0f}",
        f"{per_call:.3f}" if per_call < 10 else f"{per_call:,.1f}",
    ]


def _target(label: str, measured: str | None, met: bool) -> list[str]:
    if measured is None:
        return [label, "-", "not measured"]
    return [label, measured, "met" if met else "not met"]


def tables(rows: list[Row]) -> list[Table]:
    """Return the results as titled tables: (title, header, rows of cells)."""
    legal = {row.key: row.rate for row in rows if row.section == LEGAL}
    playouts = {row.key: row.rate for row in rows if row.section == PLAYOUTS}
    ratios = [
        ["legal-move check, Cython / pure Python", _ratio(legal["cython"], legal["python"])],
        ["playouts, Cython / pure Python", _ratio(playouts["cython"], playouts["python"])],
        ["playouts, Cython / OpenSpiel", _ratio(playouts["cython"], playouts["openspiel"])],
    ]
    cython_playouts = playouts["cython"]
    targets = [
        _target(
            f"playouts ≥ {TARGET_PLAYOUTS_PER_SECOND:,}/s on one core: Cython",
            None if cython_playouts is None else f"{cython_playouts:,.0f}/s",
            cython_playouts is not None and cython_playouts >= TARGET_PLAYOUTS_PER_SECOND,
        )
    ]
    for key, name in (("cython", "Cython `legal_mask`"), ("can_play", "`HandState.can_play`")):
        rate = legal[key]
        micros = None if rate is None else 1e6 / rate
        targets.append(
            _target(
                f"legal-move check ≤ {TARGET_LEGAL_CHECK_MICROSECONDS:g} µs per call: {name}",
                None if micros is None else f"{micros:.3f} µs",
                micros is not None and micros <= TARGET_LEGAL_CHECK_MICROSECONDS,
            )
        )
    return [
        (
            f"Legal-move checks from Python ({POSITION_HANDS * 52:,} fixed positions)",
            ["function", "calls/s", "µs/call"],
            [_rate_cells(row) for row in rows if row.section == LEGAL],
        ),
        (
            "Uniform-random full-hand playouts (deal → 13 tricks, standard rules, no pass)",
            ["engine", "playouts/s", "µs/playout"],
            [_rate_cells(row) for row in rows if row.section == PLAYOUTS],
        ),
        ("Ratios", ["comparison", "ratio"], ratios),
        ("Targets", ["target", "measured", "status"], targets),
    ]


def render_text(info: dict[str, str], results: list[Table]) -> str:
    """Return the machine description and result tables as aligned plain text."""
    lines = ["MDHearts rules benchmark"]
    width = max(len(key) for key in info)
    lines += [f"  {key:<{width}}  {value}" for key, value in info.items()]
    for title, header, body in results:
        widths = [max(len(cells[i]) for cells in [header, *body]) for i in range(len(header))]
        lines += ["", title]
        for cells in [header, *body]:
            first = cells[0].ljust(widths[0])
            rest = [cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True)]
            lines.append("  " + "  ".join([first, *rest]))
    return "\n".join(lines)


def render_markdown(info: dict[str, str], results: list[Table]) -> str:
    """Return the machine description and result tables as Markdown."""
    lines = ["| | |", "| --- | --- |"]
    lines += [f"| {key} | {value} |" for key, value in info.items()]
    for title, header, body in results:
        lines += ["", f"**{title}**", "", "| " + " | ".join(header) + " |"]
        lines.append("| --- |" + " ---: |" * (len(header) - 1))
        lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options to its command."""
    parser.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        metavar="S",
        help="time spent on each measurement (default 2; best of 3 rounds of S/3)",
    )
    parser.add_argument("--seed", type=int, default=20261122, help="seed of positions and deals")
    add_markdown_option(parser)


def run(args: argparse.Namespace) -> int:
    """Measure, then print the results (and write Markdown when asked)."""
    if args.seconds <= 0:
        print("--seconds must be positive", file=sys.stderr)
        return 2
    info = machine_info()
    info["core.kernel"] = "compiled" if kernel.COMPILED else "pure Python (not compiled)"
    info["command"] = "python -m bench rules" + (
        "" if args.seconds == 2.0 else f" --seconds {args.seconds:g}"
    )
    results = tables(measure(args.seconds, args.seed))
    publish(args.markdown, render_text(info, results), render_markdown(info, results))
    return 0
