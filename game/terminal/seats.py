"""Who plays each seat: the person's seats, the seat a command is for, and the bots' turns."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ai.registry import SeatRefused, check_seats
from core import events as ev
from core.controller import Controller
from core.seats import Seat
from game.terminal.bots import BotError, BotSeats
from game.terminal.errors import EXIT_INTERNAL, CliError


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


def check_seats_supported(seats: Sequence[Seat], *, allow_engines: bool = False) -> None:
    """Refuse unknown bots, unusable engine commands and, unless ``allow_engines`` says the
    person agreed, every ``engine:`` seat (nothing is started).

    A file may name ``engine:`` seats, which would run programs of its author's choosing.
    """
    try:
        check_seats(seats, allow_engines=allow_engines)
    except SeatRefused as refused:
        if refused.reason == "engine_not_allowed":
            raise CliError(
                f"seat {refused.seat} is played by the program "
                f"{seats[refused.seat].command!r:.60}, named in the match file: it starts only "
                "with your consent; pass --allow-engines if you trust the file",
                reason=refused.reason,
            ) from None
        raise CliError(str(refused), reason=refused.reason) from None


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
    except SeatRefused as refused:
        raise CliError(str(refused), reason=refused.reason) from None
