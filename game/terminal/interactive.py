"""``mdhearts cli --interactive``: a numbered-menu session in the terminal.

The match stays in memory and is saved to the state file (atomically) after every move, so a
session can be left at any time and taken up again by the one-shot commands or a new session.
Any input is answered: a move, a command, or a message saying what was wrong.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from typing import TextIO

from core import events as ev
from core.cards import card_label, card_text, parse_card
from core.controller import Controller
from core.errors import HeartsError
from core.rules import RuleSet
from core.seats import DEFAULT_SEATS, Seat, engine_seats
from game.streams import write
from game.terminal.bots import BotSeats
from game.terminal.errors import CliError
from game.terminal.render import describe_event, status_data, status_text
from game.terminal.seats import autoplay, bot_seats, viewing_seat
from game.terminal.state_file import (
    NO_MATCH,
    checked_path,
    load_state,
    make_room_for_new_match,
    save_state,
)
from game.terminal.undo import redo_to_human, undo_to_human

HELP = """moves:
  a number or a card   play that card, e.g. `1` or `QS`
  three of them        pass those cards, e.g. `1 5 13` or `QS AH KH`
commands:
  u, undo              take back your last move
  r, redo              make it again
  n, next              deal the next hand (Enter does too, once the hand is over)
  new                  start a new match with the same seats and rules
  s, save [PATH]       save the match (default: the state file)
  ?, h, help           show this help
  q, quit              leave; the match stays in the state file
"""

#: Longest number accepted when picking from a menu.
MAX_CHOICE_DIGITS = 3


class InteractiveSession:
    """One menu session over a text input and output stream.

    The bots answer through the worker process (``players``, by default configured by the
    environment), so a bot that thinks long or fails never stops the session.
    """

    def __init__(
        self,
        state: Path,
        stdin: TextIO,
        stdout: TextIO,
        symbols: bool = False,
        players: BotSeats | None = None,
        *,
        allow_engines: bool = False,
    ) -> None:
        self.state = state
        self.stdin = stdin
        self.stdout = stdout
        self.symbols = symbols
        self.changed = True
        self.controller = Controller()
        self.warnings: list[str] = []
        if players is None:
            players, self.warnings = bot_seats(use_worker=True)
        self.players = players
        self.players.allow_engines = allow_engines

    # -- output -------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Write text to the session's output."""
        write(self.stdout, text)

    def label(self, card: int) -> str:
        """Return a card as the session shows it."""
        return card_label(card) if self.symbols else card_text(card)

    @property
    def seat(self) -> int | None:
        """Return the human seat being shown: the one to act, else the first human."""
        return viewing_seat(self.controller, None)

    def menu(self, cards: list[int]) -> str:
        """Return cards as a numbered menu line."""
        return "  ".join(f"{number}) {self.label(card)}" for number, card in enumerate(cards, 1))

    def prompt(self) -> str:
        """Return the menu and question for the current state."""
        controller, seat = self.controller, self.seat
        acting = seat is not None and seat in controller.seats_to_act
        if seat is not None and acting and controller.phase == "play":
            menu = self.menu(controller.legal_cards(seat))
            return f"{menu}\nplay which card? (number or card, ? for help) "
        if seat is not None and acting and controller.phase == "pass":
            menu = self.menu(controller.hand(seat))
            return f"{menu}\npass which 3 cards? (numbers or cards, ? for help) "
        if controller.phase == "hand_over":
            return "next hand? (Enter or n, ? for help) "
        if controller.phase == "match_over":
            return "the match is over: `new` starts another, q quits "
        return "? for help "

    # -- state --------------------------------------------------------------------------------

    def start(self) -> bool:
        """Take up the match of the state file, or start one if there is none usable.

        A match whose seats would start programs is taken up only if the person agrees
        (default no); otherwise the file is left as it is and False ends the session.
        """
        try:
            self.controller = load_state(self.state, allow_engines=self.players.allow_engines)
        except CliError as error:
            if error.reason == "engine_not_allowed":
                return self.ask_engine_consent()
            if str(error) != NO_MATCH:
                kept = make_room_for_new_match(self.state)
                note = "" if kept is None else f"the state file was kept as {kept}\n"
                self.say(f"{error}\n{note}starting a new match instead\n")
            self.new_match(RuleSet(), DEFAULT_SEATS)
            return True
        happened = autoplay(self.controller, self.players)
        self.commit(happened, save=bool(happened))
        return True

    def ask_engine_consent(self) -> bool:
        """Ask before the state file's engine programs start (default no); on yes, take up
        the match. On no, nothing starts and the file is left as it is."""
        try:
            seats = load_state(self.state, allow_engines=True).seats
        except CliError as error:
            self.say(f"{error}\n")
            return False
        commands = "".join(
            f"  seat {n}: {seat.command}\n" for n, seat in engine_seats(seats).items()
        )
        self.say(f"the match in {self.state} has seats played by programs:\n{commands}")
        self.say("start these programs on this computer? (y/N) ")
        self.stdout.flush()
        try:
            answer = self.stdin.readline().strip().lower()
        except (OSError, UnicodeDecodeError):
            answer = ""
        if answer not in ("y", "yes"):
            self.say("nothing was started; the match file is left as it is\n")
            return False
        self.players.allow_engines = True
        return self.start()

    def new_match(self, rules: RuleSet, seats: tuple[Seat, ...]) -> None:
        """Start a match with a random seed and let the bots move."""
        controller = Controller()
        result = controller.new_match(rules, None, seats)
        if not result.ok:
            raise CliError(result.error or "cannot start a match")
        self.players.cancel()
        self.controller = controller
        self.commit([*result.events, *autoplay(controller, self.players)])

    def commit(self, happened: list[ev.Event], save: bool = True) -> None:
        """Report what happened and save the match; a failed save is reported, not fatal."""
        for event in happened:
            self.say(describe_event(event, self.seat, self.symbols) + "\n")
        if happened:
            self.changed = True
        if save:
            try:
                save_state(self.controller, self.state)
            except CliError as error:
                self.say(f"warning: {error}\n")

    # -- input --------------------------------------------------------------------------------

    def pick(self, tokens: list[str], options: list[int]) -> list[int]:
        """Turn menu numbers and card texts into cards."""
        cards = []
        for token in tokens:
            if token.isascii() and token.isdigit():
                number = int(token) if len(token) <= MAX_CHOICE_DIGITS else 0
                if not 1 <= number <= len(options):
                    raise CliError(f"{token:.10} is not on the menu (1 to {len(options)})")
                cards.append(options[number - 1])
            else:
                cards.append(parse_card(token))
        return cards

    def move(self, line: str) -> None:
        """Pass or play for the human seat to act, from menu numbers or card texts."""
        controller, seat = self.controller, self.seat
        if seat is None or seat not in controller.seats_to_act:
            raise CliError(f"not a move you can make now: {line!r:.40} (? for help)")
        tokens = line.replace(",", " ").split()
        if controller.phase == "pass":
            result = controller.submit_pass(seat, self.pick(tokens, controller.hand(seat)))
        elif len(tokens) != 1:
            raise CliError("choose one card: its number or its text, e.g. QS")
        else:
            result = controller.play_card(seat, self.pick(tokens, controller.legal_cards(seat))[0])
        if not result.ok:
            raise CliError(result.error or "that move is refused")
        self.commit([*result.events, *autoplay(controller, self.players)])

    def handle(self, line: str) -> bool:
        """Act on one line of input; return False when the session should end."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        controller = self.controller
        if word in ("q", "quit", "exit"):
            return False
        if word in ("?", "h", "help"):
            self.say(HELP)
        elif word in ("u", "undo"):
            self.players.cancel()
            self.commit(undo_to_human(controller))
        elif word in ("r", "redo"):
            self.commit(redo_to_human(controller, self.players))
        elif word in ("n", "next") or (not line and controller.phase == "hand_over"):
            result = controller.next_hand()
            if not result.ok:
                raise CliError(result.error or "cannot deal the next hand")
            self.commit([*result.events, *autoplay(controller, self.players)])
        elif word == "new":
            self.new_match(controller.rules, controller.seats)
        elif word in ("s", "save"):
            target = checked_path(rest, "save") if rest.strip() else self.state
            save_state(controller, target)
            self.say(f"saved the match to {target}\n")
        elif line:
            self.move(line)
        return True

    def run(self) -> int:
        """Read and answer lines until ``q`` or the end of input; return the exit status."""
        try:
            return self._loop()
        finally:
            self.players.close()

    def _loop(self) -> int:
        for warning in self.warnings:
            self.say(f"warning: {warning}\n")
        if not self.start():
            return 1
        while True:
            if self.changed:
                self.say(status_text(status_data(self.controller, self.seat), self.symbols))
                self.changed = False
            self.say(self.prompt())
            self.stdout.flush()
            try:
                line = self.stdin.readline()
            except UnicodeDecodeError:
                self.say("\nthat line is not valid text\n")
                continue
            except OSError as error:
                self.say(f"\ncannot read the input: {error}\n")
                return 1
            if not line:
                self.say("\n")
                return 0
            try:
                if not self.handle(line.strip()):
                    return 0
            except (CliError, HeartsError) as error:
                self.say(f"{error}\n")


def run_interactive(
    state: Path,
    *,
    symbols: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    allow_engines: bool = False,
) -> int:
    """Run a menu session on the state file (standard input and output by default).

    ``allow_engines``: the person agreed that the file's ``engine:`` seats start programs.
    """
    if stdin is None:
        stdin = sys.stdin
        with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
            stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    session = InteractiveSession(
        state, stdin, stdout or sys.stdout, symbols, allow_engines=allow_engines
    )
    return session.run()
