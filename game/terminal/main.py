"""``mdhearts cli``: play or script a match one command at a time, the match kept in a file.

A thin transport over ``core.controller.Controller``: each command loads the state file (a game
record), runs one controller command, lets the bot seats answer, saves the file atomically and
prints the status, as text or as one JSON object with ``--json``. A command that fails prints
why, exits non-zero and leaves the state file exactly as it was.

Exit codes: 0 done, 1 the command could not be done (illegal move, no match, unreadable file),
2 bad usage (unknown command or option, bad option value), 70 an internal error.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, NoReturn

from ai.registry import SeatRefused, check_seats
from core import events as ev
from core.actions import Action, PassAction
from core.cards import card_label, card_text, mask_of, mask_texts, parse_card
from core.controller import Controller, Result
from core.errors import HeartsError, RulesOptionError
from core.files import LockBusyError, locked, user_dirs
from core.hand import Trick
from core.kernel import trick_points
from core.match import validate_seed
from core.record import load_record, save_record
from core.rules import FIRST_LEADS, MOON_MODES, RuleSet, pass_receiver, pass_sender
from core.seats import Seat, parse_seats, seat_texts
from game.streams import silence_stdout, tell, write
from game.terminal.bots import BotError, BotSeats

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70
STATE_ENV = "MDH_CLI_STATE"
STATE_FILE_NAME = "cli-match.json"
NO_MATCH = "no match: start one with `mdhearts cli new`"
PROG = "mdhearts cli"


class CliError(Exception):
    """A command that cannot be done; ``code`` is the exit status to return."""

    def __init__(self, message: str, code: int = EXIT_FAILED, usage: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.usage = usage


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


# -- output -----------------------------------------------------------------------------------


def show_cards(cards: Sequence[str] | None, symbols: bool = False) -> str:
    """Return card texts joined by spaces, with suit symbols if asked, or ``-`` when none."""
    if not cards:
        return "-"
    return " ".join(card_label(parse_card(text)) if symbols else text for text in cards)


def seat_name(seat: int, viewer: int | None) -> str:
    """Return ``you (seat N)`` for the viewing seat, else ``seat N``."""
    return f"you (seat {seat})" if seat == viewer else f"seat {seat}"


# -- paths and the state file -----------------------------------------------------------------


def checked_path(text: str, what: str) -> Path:
    """Return a path given on the command line, refusing ones no file system accepts."""
    if not text.strip() or "\x00" in text:
        raise CliError(f"{what}: not a usable file path: {text!r:.80}", EXIT_USAGE)
    return Path(text)


def default_state_path() -> Path:
    """Return the state file: ``$MDH_CLI_STATE`` if set, else one in the user data folder
    (under ``$MDH_HOME`` when set), whose folder is made here when missing."""
    value = os.environ.get(STATE_ENV)
    if value is None:
        dirs, _ = user_dirs()
        try:
            dirs.data.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CliError(f"cannot make the folder {dirs.data}: {_reason(error)}") from None
        return dirs.cli_state_file
    if not value.strip():
        raise CliError(f"{STATE_ENV} is set but empty: unset it or give a file path", EXIT_USAGE)
    return checked_path(value, STATE_ENV)


def _reason(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error)


def check_seats_supported(seats: Sequence[Seat], *, allow_engines: bool = True) -> None:
    """Refuse unknown bots and unusable engine commands (nothing is started).

    A record from elsewhere may name ``engine:`` seats, which would run programs of its
    author's choosing: ``allow_engines=False`` refuses them.
    """
    try:
        check_seats(seats, allow_engines=allow_engines)
    except SeatRefused as refused:
        if refused.reason == "engine_not_allowed":
            raise CliError(
                f"seat {refused.seat} is an engine seat ({str(seats[refused.seat])!r:.60}): a "
                "loaded record may not start programs; pass --allow-engines if you trust it"
            ) from None
        raise CliError(str(refused)) from None


def load_state(path: Path) -> Controller:
    """Load the match from the state file, or raise CliError saying why not."""
    try:
        exists = path.exists()
    except (OSError, ValueError) as error:
        raise CliError(f"cannot read the state file {path}: {_reason(error)}") from None
    if not exists:
        raise CliError(NO_MATCH)
    try:
        controller = load_record(path)
    except (OSError, ValueError) as error:
        raise CliError(
            f"the state file is not a usable match: {error}\n"
            "start a new match with `mdhearts cli new`"
        ) from None
    check_seats_supported(controller.seats)
    return controller


def save_state(controller: Controller, path: Path) -> None:
    """Save the match to ``path`` atomically, or raise CliError (the old file is then kept)."""
    try:
        save_record(controller, path)
    except (OSError, ValueError) as error:
        raise CliError(f"cannot write {path}: {_reason(error)}") from None


# -- seats ------------------------------------------------------------------------------------


def human_seats(controller: Controller) -> list[int]:
    """Return the seats played by people at this program."""
    return [number for number, seat in enumerate(controller.seats) if seat.is_human]


def viewing_seat(controller: Controller, chosen: int | None) -> int | None:
    """Return the human seat a command is for: the chosen one, else the first to act."""
    humans = human_seats(controller)
    if chosen is not None:
        if chosen not in humans:
            played_by = str(controller.seats[chosen])
            raise CliError(f"seat {chosen} is played by {played_by!r:.60}, not you")
        return chosen
    if not humans:
        return None
    return next((seat for seat in controller.seats_to_act if seat in humans), humans[0])


def acting_seat(controller: Controller, chosen: int | None) -> int:
    """Return the human seat that passes or plays, or raise when there is none."""
    seat = viewing_seat(controller, chosen)
    if seat is None:
        raise CliError("no seat in this match is human: the bots play every seat")
    return seat


def bot_seats(
    use_worker: bool | None = None, telemetry_name: str | None = None
) -> tuple[BotSeats, list[str]]:
    """Return the players of the CLI's other seats as the environment configures them, and
    warnings. Plain ``bot`` seats are the table's default bot unless ``MDH_BOT_DIFFICULTY``
    names another."""
    return BotSeats.from_env(telemetry_name=telemetry_name, use_worker=use_worker)


def one_shot_telemetry_name() -> str:
    """Return the telemetry file name of one-shot commands: one file per day."""
    return f"cli-{date.today():%Y%m%d}"


def autoplay(controller: Controller, players: BotSeats) -> list[ev.Event]:
    """Let the bot seats move; a bot's illegal move is reported as an internal error."""
    try:
        return players.play(controller)
    except BotError as error:
        raise CliError(str(error), EXIT_INTERNAL) from None


# -- status -----------------------------------------------------------------------------------


def _trick_data(controller: Controller, trick: Trick | None, number: int) -> dict[str, Any] | None:
    if trick is None:
        return None
    data: dict[str, Any] = {
        "number": number,
        "leader": trick.leader,
        "cards": [card_text(card) for card in trick.cards],
        "seats": [trick.seat_of(position) for position in range(len(trick.cards))],
    }
    if trick.complete:
        data["winner"] = trick.winner
        data["points"] = trick_points(mask_of(trick.cards), controller.rules.flags)
    return data


def _texts(cards: Sequence[int] | None) -> list[str] | None:
    return None if cards is None else [card_text(card) for card in sorted(cards)]


def status_data(controller: Controller, seat: int | None) -> dict[str, Any]:
    """Return the status as JSON data, with the private view of ``seat`` (None: no hand)."""
    tricks = controller.tricks
    done = sum(1 for trick in tricks if trick.complete)
    data: dict[str, Any] = {
        "phase": controller.phase,
        "hand_number": controller.hand_number,
        "direction": controller.pass_direction,
        "seats": list(seat_texts(controller.seats)),
        "to_act": controller.seats_to_act,
        "seat": seat,
        "your_turn": seat is not None and seat in controller.seats_to_act,
        "hand": None,
        "passed": None,
        "received": None,
        "legal": [],
        "trick": _trick_data(controller, controller.current_trick, done + 1),
        "last_trick": _trick_data(controller, controller.last_trick, done),
        "hearts_broken": controller.hearts_broken,
        "hand_points": controller.hand_points,
        "totals": list(controller.totals),
        "winner": controller.winner,
        "can_undo": can_undo(controller),
        "can_redo": controller.can_redo,
        "rules": controller.rules.to_dict(),
    }
    if seat is not None:
        view = controller.observation(seat)
        data["hand"] = mask_texts(view.hand)
        data["passed"] = _texts(view.passed)
        data["received"] = _texts(view.received)
        data["legal"] = _texts(controller.legal_cards(seat))
    return data


def _trick_line(trick: dict[str, Any], viewer: int | None, symbols: bool) -> str:
    plays = [
        f"{seat_name(seat, viewer)} {show_cards([card], symbols)}"
        for seat, card in zip(trick["seats"], trick["cards"], strict=True)
    ]
    if "winner" in trick:
        return (
            f"last trick ({trick['number']}): {', '.join(plays)}; "
            f"{seat_name(trick['winner'], viewer)} took it ({trick['points']} points)"
        )
    if not plays:
        return f"trick {trick['number']}: {seat_name(trick['leader'], viewer)} to lead"
    return f"trick {trick['number']}: {', '.join(plays)}"


def _turn_line(data: dict[str, Any]) -> str:
    phase, viewer, to_act = data["phase"], data["seat"], data["to_act"]
    if phase == "match_over":
        return f"match over: {seat_name(data['winner'], viewer)} won"
    if phase == "hand_over":
        return "hand over: `mdhearts cli next` deals the next hand"
    if data["your_turn"] and phase == "pass":
        receiver = pass_receiver(viewer, data["direction"])
        return f"your move: pass 3 cards {data['direction']} to seat {receiver}"
    if data["your_turn"]:
        return "your move: play a card"
    waiting = ", ".join(seat_name(seat, viewer) for seat in to_act)
    return f"waiting for {waiting} to {phase}"


def status_text(data: dict[str, Any], symbols: bool = False) -> str:
    """Return the status for people to read, from ``status_data``."""
    viewer = data["seat"]
    seats = ", ".join(
        f"{seat_name(seat, viewer)} {kind}" for seat, kind in enumerate(data["seats"])
    )
    lines = [
        f"hand {data['hand_number']}, pass {data['direction']}, phase {data['phase']}",
        f"seats: {seats}",
        _turn_line(data),
    ]
    if data["hand"] is not None:
        lines.append(f"your hand: {show_cards(data['hand'], symbols)}")
    if data["passed"] is not None:
        line = f"you passed: {show_cards(data['passed'], symbols)}"
        if data["received"] is not None:
            sender = pass_sender(viewer, data["direction"])
            line += f"; received from seat {sender}: {show_cards(data['received'], symbols)}"
        lines.append(line)
    for key in ("trick", "last_trick"):
        if data[key] is not None:
            lines.append(_trick_line(data[key], viewer, symbols))
    lines.append(f"hearts broken: {'yes' if data['hearts_broken'] else 'no'}")
    lines.append(f"points this hand (seats 0-3): {' '.join(map(str, data['hand_points']))}")
    lines.append(f"totals (seats 0-3): {' '.join(map(str, data['totals']))}")
    if data["your_turn"] and data["phase"] == "play":
        lines.append(f"legal: {show_cards(data['legal'], symbols)}")
    return "\n".join(lines) + "\n"


def _action_text(action: Action, viewer: int | None, symbols: bool) -> str:
    if isinstance(action, PassAction):
        cards = f" {show_cards(_texts(action.cards), symbols)}" if action.seat == viewer else ""
        return f"{seat_name(action.seat, viewer)} passed{cards}"
    return f"{seat_name(action.seat, viewer)} played {show_cards([action.text], symbols)}"


def describe_event(event: ev.Event, viewer: int | None, symbols: bool = False) -> str:
    """Return one line saying what an event means, keeping other seats' passes private."""
    if isinstance(event, ev.MatchStarted):
        return f"new match (seed {event.seed}), seats: {', '.join(event.seats)}"
    if isinstance(event, ev.HandStarted):
        passing = "no passing" if event.direction == "hold" else f"pass {event.direction}"
        return f"hand {event.hand_number} dealt, {passing}"
    if isinstance(event, ev.PassSubmitted):
        return f"{seat_name(event.seat, viewer)} chose a pass"
    if isinstance(event, ev.PassesExchanged):
        return f"cards passed {event.direction}"
    if isinstance(event, ev.CardPlayed):
        card = show_cards([card_text(event.card)], symbols)
        return f"{seat_name(event.seat, viewer)} played {card}"
    if isinstance(event, ev.HeartsBroken):
        return "hearts are broken"
    if isinstance(event, ev.TrickWon):
        return (
            f"{seat_name(event.seat, viewer)} took trick {event.trick_number} "
            f"({event.points} points)"
        )
    if isinstance(event, ev.HandScored):
        moon = "" if event.moon_shooter is None else f"; seat {event.moon_shooter} shot the moon"
        points = " ".join(map(str, event.points))
        totals = " ".join(map(str, event.totals))
        return f"hand scored: points {points}; totals {totals}{moon}"
    if isinstance(event, ev.MatchOver):
        return f"match over: {seat_name(event.winner, viewer)} won"
    if isinstance(event, ev.ActionUndone):
        return f"undone: {_action_text(event.action, viewer, symbols)}"
    return event.kind.replace("_", " ")


# -- commands ---------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What a command did: the match after it, its events, and anything extra to report."""

    controller: Controller
    events: list[ev.Event] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    seat: int | None = None
    show_status: bool = True


def _checked(result: Result) -> list[ev.Event]:
    if not result.ok:
        raise CliError(result.error or "the command was refused")
    return list(result.events)


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
    try:
        check_seats_supported(checked)
    except CliError as error:
        raise CliError(str(error), EXIT_USAGE) from None
    return checked


def cmd_new(args: argparse.Namespace, state: Path) -> Outcome:
    """Start a match, let the bots move, and save it as the state file."""
    rules = rules_from_args(args)
    seats = seats_from_text(args.seats)
    try:
        seed = None if args.seed is None else validate_seed(args.seed)
    except HeartsError as error:
        raise CliError(f"--seed: {error}", EXIT_USAGE) from None
    controller = Controller()
    happened = _checked(controller.new_match(rules, seed, seats))
    happened += autoplay(controller, args.players)
    save_state(controller, state)
    return Outcome(controller, happened)


def cmd_status(args: argparse.Namespace, state: Path) -> Outcome:
    """Show the match; nothing changes."""
    controller = load_state(state)
    return Outcome(controller, seat=viewing_seat(controller, args.seat))


def cmd_pass(args: argparse.Namespace, state: Path) -> Outcome:
    """Pass three cards for the human seat, then let the bots move."""
    controller = load_state(state)
    seat = acting_seat(controller, args.seat)
    happened = _checked(controller.submit_pass(seat, " ".join(args.cards)))
    happened += autoplay(controller, args.players)
    save_state(controller, state)
    return Outcome(controller, happened, seat=seat)


def cmd_play(args: argparse.Namespace, state: Path) -> Outcome:
    """Play one card for the human seat, then let the bots move."""
    controller = load_state(state)
    seat = acting_seat(controller, args.seat)
    happened = _checked(controller.play_card(seat, args.card))
    happened += autoplay(controller, args.players)
    save_state(controller, state)
    return Outcome(controller, happened, seat=seat)


def cmd_undo(args: argparse.Namespace, state: Path) -> Outcome:
    """Take back moves until a human's last move is undone; the bots do not move again."""
    controller = load_state(state)
    happened = undo_to_human(controller)
    save_state(controller, state)
    return Outcome(controller, happened)


def can_undo(controller: Controller) -> bool:
    """Return whether ``undo`` has something to take back: a human move in this hand."""
    humans = human_seats(controller)
    match = controller.match
    actions = match.hands[-1].actions if match else []
    if not humans:
        return bool(actions)
    return any(action.seat in humans for action in actions)


def undo_to_human(controller: Controller) -> list[ev.Event]:
    """Undo until a human seat's move was taken back (with no human seat: the whole hand)."""
    humans = set(human_seats(controller))
    if humans and not can_undo(controller):
        raise CliError("nothing to undo: no human move in this hand yet")
    happened: list[ev.Event] = []
    while controller.can_undo:
        events = _checked(controller.undo())
        happened += events
        if any(isinstance(e, ev.ActionUndone) and e.action.seat in humans for e in events):
            break
    if not happened:
        raise CliError("nothing to undo in this hand")
    return happened


def redo_to_human(controller: Controller, players: BotSeats) -> list[ev.Event]:
    """Redo moves until one of a human seat was applied again, then let the bots move."""
    humans = set(human_seats(controller))
    happened: list[ev.Event] = []
    while controller.can_redo:
        seat = controller.redo_actions[-1].seat
        result = controller.redo()
        if not result.ok and happened:
            break
        happened += _checked(result)
        if seat in humans:
            break
    if not happened:
        raise CliError("nothing to redo")
    return happened + autoplay(controller, players)


def cmd_redo(args: argparse.Namespace, state: Path) -> Outcome:
    """Apply again the human move last undone, then let the bots move."""
    controller = load_state(state)
    happened = redo_to_human(controller, args.players)
    save_state(controller, state)
    return Outcome(controller, happened)


def cmd_next(args: argparse.Namespace, state: Path) -> Outcome:
    """Deal the next hand once the current one is over, then let the bots move."""
    controller = load_state(state)
    happened = _checked(controller.next_hand()) + autoplay(controller, args.players)
    save_state(controller, state)
    return Outcome(controller, happened)


def cmd_save(args: argparse.Namespace, state: Path) -> Outcome:
    """Write the match record to PATH; the state file is not changed."""
    controller = load_state(state)
    target = checked_path(args.path, "save")
    save_state(controller, target)
    return Outcome(
        controller,
        extra={"saved": str(target)},
        message=f"saved the match to {target}\n",
        show_status=False,
    )


def cmd_load(args: argparse.Namespace, state: Path) -> Outcome:
    """Check the record at PATH and make it the state file, then let the bots move."""
    source = checked_path(args.path, "load")
    try:
        controller = load_record(source)
    except (OSError, ValueError) as error:
        raise CliError(f"cannot load the match: {error}") from None
    check_seats_supported(controller.seats, allow_engines=args.allow_engines)
    happened = autoplay(controller, args.players)
    save_state(controller, state)
    return Outcome(
        controller,
        happened,
        extra={"loaded": str(source)},
        message=f"loaded the match from {source}\n",
    )


def cmd_sheet(args: argparse.Namespace, state: Path) -> Outcome:
    """Show the score sheet of the match."""
    controller = load_state(state)
    try:
        from core.scoresheet import score_sheet
    except ImportError:
        raise CliError("the score sheet is not available in this version") from None
    sheet = score_sheet(controller)
    text = sheet if sheet.endswith("\n") else sheet + "\n"
    return Outcome(controller, extra={"sheet": sheet}, message=text, show_status=False)


# -- parsing and dispatch ---------------------------------------------------------------------


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
    """Return the parser of ``mdhearts cli`` and its subcommands."""
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

    def add(name: str, handler: Any, summary: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name, parents=[common], allow_abbrev=False, help=summary, description=summary
        )
        sub.set_defaults(handler=handler)
        return sub

    seat_help = "the human seat to act or view (default: the one to act)"
    new = add("new", cmd_new, "start a new match (replacing the one in the state file)")
    new.add_argument("--seed", type=int, help="seed of the deals (default: random)")
    new.add_argument(
        "--seats",
        default="human,bot,bot,bot",
        metavar="K,K,K,K",
        help="seat kinds 0-3: human, bot or bot:LEVEL (default: human,bot,bot,bot)",
    )
    _add_rule_options(new)
    add("status", cmd_status, "show the match").add_argument(
        "--seat", type=int, choices=range(4), help=seat_help
    )
    passing = add("pass", cmd_pass, "pass three cards, e.g. `pass QS AH KH`")
    passing.add_argument("cards", nargs="+", metavar="CARD")
    passing.add_argument("--seat", type=int, choices=range(4), help=seat_help)
    play = add("play", cmd_play, "play a card, e.g. `play QS`")
    play.add_argument("card", metavar="CARD")
    play.add_argument("--seat", type=int, choices=range(4), help=seat_help)
    add("undo", cmd_undo, "take back your last move (and the bots' moves after it)")
    add("redo", cmd_redo, "apply again the move last taken back")
    add("next", cmd_next, "deal the next hand once this one is over")
    add("save", cmd_save, "write the match record to PATH").add_argument("path", metavar="PATH")
    load = add("load", cmd_load, "make the record at PATH the current match")
    load.add_argument("path", metavar="PATH")
    load.add_argument(
        "--allow-engines",
        action="store_true",
        help="allow engine:COMMAND seats in the record (they start those programs)",
    )
    add("sheet", cmd_sheet, "show the score sheet")
    return parser


def hide_private(data: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """Blank out of an event's JSON data the passed cards ``viewer`` may not know.

    A seat knows its own pass and the cards it received; with no viewer nothing is hidden.
    """
    if viewer is None:
        return data
    if data["type"] == "passes_exchanged":
        known = (viewer, pass_sender(viewer, data["direction"]))
        data["passes"] = [
            cards if seat in known else None for seat, cards in enumerate(data["passes"])
        ]
    elif data["type"] == "action_undone":
        action = data["action"]
        if "pass" in action and action["seat"] != viewer:
            action["pass"] = None
    return data


def render(outcome: Outcome, as_json: bool, symbols: bool) -> str:
    """Return the output of a command that succeeded."""
    controller = outcome.controller
    seat = outcome.seat if outcome.seat is not None else viewing_seat(controller, None)
    if as_json:
        data = Result(True, tuple(outcome.events)).to_dict()
        data["events"] = [hide_private(event, seat) for event in data["events"]]
        data.update(status_data(controller, seat))
        data.update(outcome.extra)
        return json.dumps(data) + "\n"
    lines = [describe_event(event, seat, symbols) + "\n" for event in outcome.events]
    text = "".join(lines) + outcome.message
    if outcome.show_status:
        text += status_text(status_data(controller, seat), symbols)
    return text


def _run(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except CliError as error:
        tell(f"{error.usage}{PROG}: error: {error}\n")
        return error.code
    except SystemExit as stop:  # --help
        return stop.code if isinstance(stop.code, int) else EXIT_OK
    as_json = getattr(args, "json", False)
    symbols = getattr(args, "symbols", False)
    try:
        state_text = getattr(args, "state", None)
        state = default_state_path() if state_text is None else checked_path(state_text, "--state")
        if args.interactive:
            if args.command is not None:
                raise CliError("--interactive takes no command", EXIT_USAGE)
            from game.terminal.interactive import run_interactive

            with state_lock(state):
                return run_interactive(state, symbols=symbols)
        if args.command is None:
            raise CliError("give a command (see `mdhearts cli --help`)", EXIT_USAGE)
        args.players, warnings = bot_seats(telemetry_name=one_shot_telemetry_name())
        for warning in warnings:
            tell(f"{PROG}: warning: {warning}\n")
        try:
            with state_lock(state):
                outcome = args.handler(args, state)
        finally:
            args.players.close()
    except CliError as error:
        tell(f"{PROG}: error: {error}\n")
        if as_json:
            report_output(json.dumps({"ok": False, "error": str(error)}) + "\n")
        return error.code
    # The command is done and saved: a reader that went away cannot undo it, so the exit
    # status stays 0 and a retrying script does not play the move twice.
    report_output(render(outcome, as_json, symbols))
    return EXIT_OK


@contextlib.contextmanager
def state_lock(state: Path) -> Iterator[None]:
    """Hold the state file's lock while a command reads, changes and writes it.

    Commands run at once on one file take turns; one that waits too long is refused.
    """
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(locked(state))
        except LockBusyError:
            raise CliError(f"another mdhearts command is using {state}; try again") from None
        except OSError as error:
            raise CliError(f"cannot use the state file {state}: {_reason(error)}") from None
        yield


def report_output(text: str) -> None:
    """Write a command's output; if standard output is gone, say so on standard error."""
    try:
        write(sys.stdout, text)
        sys.stdout.flush()
    except (OSError, ValueError):
        silence_stdout()
        tell(f"{PROG}: warning: the output could not be written\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mdhearts cli`` with these arguments and return the exit status; never raises."""
    try:
        return _run(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        tell("\ninterrupted\n")
        return 130
    except Exception as error:  # a bug: report it briefly instead of a traceback
        tell(f"{PROG}: internal error: {type(error).__name__}: {error}\n")
        return EXIT_INTERNAL
