"""The parser of ``mdhearts cli`` and what its options mean: the rules and seats of a match."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any, NoReturn

from core.errors import HeartsError, RulesOptionError
from core.rules import FIRST_LEADS, MOON_MODES, RuleSet
from core.seats import Seat, parse_seats
from game.terminal.errors import EXIT_USAGE, PROG, CliError
from game.terminal.seats import check_seats_supported
from game.terminal.state_file import STATE_ENV, STATE_FILE_NAME


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises CliError instead of printing and exiting on bad usage."""

    def error(self, message: str) -> NoReturn:
        raise CliError(message, EXIT_USAGE, self.format_usage())


class _SwitchAction(argparse.Action):
    """An on/off option: ``--NAME`` sets True and ``--no-NAME`` sets False.

    Unlike ``argparse.BooleanOptionalAction`` it also works for names that start with ``no-``.
    """

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        on = option_strings[0]
        super().__init__([on, "--no-" + on[2:]], dest, nargs=0, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, option_string == self.option_strings[0])


#: On/off rules whose option reads better inverted: ``--points-first-trick`` turns the rule off.
INVERTED_RULE_OPTIONS = {"no_points_first_trick": "points-first-trick"}


def _bool_rule_options() -> list[tuple[str, str, bool]]:
    """Return (rule field, option name, inverted) for every on/off rule option."""
    options = []
    for rule in dataclasses.fields(RuleSet):
        if isinstance(rule.default, bool):
            name = INVERTED_RULE_OPTIONS.get(rule.name, rule.name.replace("_", "-"))
            options.append((rule.name, name, rule.name in INVERTED_RULE_OPTIONS))
    return options


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """Build the RuleSet the ``new`` options ask for (unset options keep their defaults)."""
    options: dict[str, Any] = {}
    if args.pass_cycle is not None:
        options["pass_cycle"] = [part.strip() for part in args.pass_cycle.split(",")]
    for name in ("first_lead", "moon", "end_score"):
        if getattr(args, name) is not None:
            options[name] = getattr(args, name)
    for rule, _, inverted in _bool_rule_options():
        value = getattr(args, f"rule_{rule}")
        if value is not None:
            options[rule] = not value if inverted else value
    try:
        return RuleSet.from_dict(options)
    except RulesOptionError as error:
        raise CliError(f"bad rule option: {error}", EXIT_USAGE) from None


def seats_from_text(text: str) -> tuple[Seat, ...]:
    """Parse ``--seats``: four comma-separated seats."""
    kinds = [part.strip() for part in text.split(",")]
    if len(kinds) != 4:
        raise CliError(f"--seats takes 4 comma-separated seats, got {len(kinds)}", EXIT_USAGE)
    try:
        checked = parse_seats(kinds)
    except HeartsError as error:
        raise CliError(f"--seats: {error}", EXIT_USAGE) from None
    try:  # engine seats typed here are the person's own choice
        check_seats_supported(checked, allow_engines=True)
    except CliError as error:
        raise CliError(str(error), EXIT_USAGE) from None
    return checked


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rule options (each defaults to standard Hearts)")
    group.add_argument(
        "--pass-cycle", metavar="DIRS", help="pass directions by hand, e.g. left,right,across,hold"
    )
    group.add_argument("--first-lead", choices=FIRST_LEADS, help="how the first trick is led")
    group.add_argument("--moon", choices=MOON_MODES, help="how shooting the moon scores")
    group.add_argument("--end-score", type=int, metavar="N", help="the match ends at N points")
    defaults = RuleSet()
    for rule, name, inverted in _bool_rule_options():
        state = "on" if getattr(defaults, rule) else "off"
        meaning = f"--{name} turns rule {rule} off" if inverted else f"rule {rule}"
        group.add_argument(
            f"--{name}",
            dest=f"rule_{rule}",
            action=_SwitchAction,
            default=None,
            help=f"{meaning} (rule default: {state})",
        )


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of ``mdhearts cli`` and its subcommands (``command`` names the one
    given; ``game.terminal.commands.COMMANDS`` holds their handlers)."""
    common = _Parser(add_help=False, allow_abbrev=False)
    common.add_argument(
        "--state",
        default=argparse.SUPPRESS,
        metavar="PATH",
        help=f"the match file (default: ${STATE_ENV}, else {STATE_FILE_NAME} in the data folder)",
    )
    common.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS,
        help="print one JSON object instead of text",
    )
    common.add_argument(
        "--allow-engines",
        action="store_true",
        default=argparse.SUPPRESS,
        help="let engine:COMMAND seats of the match file start their programs (only for a "
        "file you trust)",
    )
    common.add_argument(
        "--symbols",
        action="store_true",
        default=argparse.SUPPRESS,
        help="show suits as symbols (Q♠) in text output",
    )
    parser = _Parser(
        prog=PROG,
        parents=[common],
        allow_abbrev=False,
        description="Play or script a Hearts match one command at a time.",
    )
    parser.add_argument(
        "--interactive", action="store_true", help="play in a numbered-menu session"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, summary: str) -> argparse.ArgumentParser:
        return commands.add_parser(
            name, parents=[common], allow_abbrev=False, help=summary, description=summary
        )

    seat_help = "the human seat to act or view (default: the one to act)"
    new = add("new", "start a new match (replacing the one in the state file)")
    new.add_argument("--seed", type=int, help="seed of the deals (default: random)")
    new.add_argument(
        "--seats",
        default="human,bot,bot,bot",
        metavar="K,K,K,K",
        help="seat kinds 0-3: human, bot, bot:LEVEL or engine:COMMAND (default: human,bot,bot,bot)",
    )
    _add_rule_options(new)
    add("status", "show the match").add_argument(
        "--seat", type=int, choices=range(4), help=seat_help
    )
    passing = add("pass", "pass three cards, e.g. `pass QS AH KH`")
    passing.add_argument("cards", nargs="+", metavar="CARD")
    passing.add_argument("--seat", type=int, choices=range(4), help=seat_help)
    play = add("play", "play a card, e.g. `play QS`")
    play.add_argument("card", metavar="CARD")
    play.add_argument("--seat", type=int, choices=range(4), help=seat_help)
    add("undo", "take back your last move (and the bots' moves after it)")
    add("redo", "apply again the move last taken back")
    add("next", "deal the next hand once this one is over")
    add("save", "write the match record to PATH").add_argument("path", metavar="PATH")
    load = add("load", "make the record at PATH the current match")
    load.add_argument("path", metavar="PATH")
    add("sheet", "show the score sheet")
    return parser
