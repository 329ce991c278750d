"""The plays a learned play model is fitted to: hands of bots, every play with a choice.

Each hand is played by four bots of one kind (hard bots at a fixed number of deals a decision,
so the plays do not depend on the machine's load) and written as one JSON line: the hand's
number, the bot, and per play where the seat had more than one legal card, what that seat saw
(its hand, the public table) and the card it played. The hands are kept in a deal journal
(``ai.deal_journal``) whose header names the seed, the deals a decision and the bots: a run
stopped (or killed) is continued by the next run that names the same, and a file of other
hands is refused. Features are computed from the plays when the model is fitted, so the file
stays valid when the features change.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ai.bot import Bot, close_bot
from ai.deal_journal import JournalError, open_journal, read_journal
from ai.hard import HardBot, table_of
from ai.knowledge import read_knowledge
from ai.registry import make_bot
from ai.search import Table
from core.hand import HandState
from core.match import deal_for
from core.rules import RuleSet


@dataclass(frozen=True)
class Play:
    """One play with a choice: the seat's hand before it, the table it saw, the card played."""

    hand: int
    table: Table
    card: int


#: The bot that plays the hands unless told otherwise.
HARD = "hard"


def record_hand(number: int, seed: int, deals: int, bot: str = HARD) -> list[Play]:
    """Play hand ``number`` of the seeded deals with four ``bot`` bots (hard bots at ``deals``
    deals a decision); return every play where the seat to move had a choice."""
    rules = RuleSet()
    players: list[Bot] = [
        HardBot(seed=seed + 4 * number + seat, max_samples=deals, threads=1)
        if bot == HARD
        else make_bot(bot, seed + 4 * number + seat)
        for seat in range(4)
    ]
    hand = HandState.new(rules, rules.direction_of_hand(number), deal_for(seed, number))
    plays = []
    try:
        while hand.phase == "pass":
            for seat in hand.seats_to_pass:
                observation = hand.observation(seat, (0, 0, 0, 0))
                hand.submit_pass(seat, players[seat].choose_pass(observation))
        while hand.phase == "play":
            turn = hand.turn
            assert turn is not None
            seat = turn
            observation = hand.observation(seat, (0, 0, 0, 0))
            card = players[seat].choose_play(observation)
            if observation.legal_mask().bit_count() > 1:
                table = table_of(observation, read_knowledge(observation))
                plays.append(Play(observation.hand, table, card))
            hand.play(seat, card)
    finally:
        for player in players:
            close_bot(player)
    return plays


#: A row's numbers before the trick's cards.
_FIXED = 10


def encode(plays: list[Play], bot: str = HARD) -> dict[str, Any]:
    """Return a hand's plays, and the bot that played them, as a journal's deal result.

    A play is one flat row of whole numbers (the hand, the four seats' points taken, the
    leader, the trick's number, hearts broken, the flags, the card played, then the trick's
    cards), so that a journal line stays within ``MAX_LINE_DEPTH``.
    """
    rows = []
    for play in plays:
        table = play.table
        public = [*table.taken, table.leader, table.trick_index, int(table.hearts_broken)]
        rows.append([play.hand, *public, table.flags, play.card, *table.trick])
    return {"bot": bot, "plays": rows}


def decode(result: dict[str, Any]) -> tuple[list[Play], str]:
    """Return a hand's plays and bot from its journal result; raise ValueError if malformed."""
    bot, rows = result.get("bot"), result.get("plays")
    if not isinstance(bot, str) or not isinstance(rows, list):
        raise ValueError("a malformed hand of plays: no bot name or no list of plays")
    plays = []
    for row in rows:
        if not _is_row(row):
            raise ValueError(f"a malformed hand of plays: {str(row)[:80]}")
        hand, *taken, leader, trick_index, broken, flags, card = row[:_FIXED]
        table = Table(tuple(taken), tuple(row[_FIXED:]), leader, trick_index, bool(broken), flags)
        plays.append(Play(hand, table, card))
    return plays, bot


def _is_row(row: object) -> bool:
    """Return whether ``row`` is a play as ``encode`` writes it, with values in range."""
    if not isinstance(row, list) or not _FIXED <= len(row) <= _FIXED + 3:
        return False
    if not all(type(value) is int for value in row):
        return False
    hand, leader, trick_index, card = row[0], row[5], row[6], row[9]
    cards = [card, *row[_FIXED:]]
    # The points taken (row[1:5]) may be below zero under a rule that gives some back.
    return (
        min(hand, leader, trick_index, row[7], row[8], *cards) >= 0
        and hand >> 52 == 0
        and hand >> card & 1 == 1
        and leader < 4
        and trick_index < 13
        and all(value < 52 for value in cards)
    )


def header(seed: int, deals: int, bots: Sequence[str]) -> dict[str, Any]:
    """Return what names a file of plays: the hands' seed, the hard bots' deals a decision and
    the bots in turn. The code is not named: the plays stay those of the bot that played them,
    and the features are computed when the model is fitted."""
    return {"plays": "hands of bots", "seed": seed, "deals": deals, "bots": list(bots)}


def read_hands(path: Path) -> Iterator[tuple[int, list[Play], str]]:
    """Yield the hands recorded in a file of plays, in order; raise ValueError if malformed."""
    _, deals = read_journal(path)
    for number in sorted(deals):
        try:
            yield (number, *decode(deals[number]))
        except ValueError as error:
            raise ValueError(f"{path}, hand {number}: {error}") from None


def record(
    path: Path, hands: int, seed: int, deals: int, bots: Sequence[str] = (HARD,)
) -> dict[int, tuple[list[Play], str]]:
    """Return hands ``0 .. hands - 1`` of the seeded deals with the bot that played each (hand
    ``n`` by ``bots[n % len(bots)]``), playing and adding to the journal at ``path`` those it
    does not hold yet.

    Raises JournalError (a ValueError) when the file holds plays of another seed, deals or
    bots, or is not such a file; LockBusyError when another run is recording into it.
    """
    found = {}
    with open_journal(path, header(seed, deals, bots)) as journal:
        for number in sorted(journal.deals):
            if number < hands:
                try:
                    found[number] = decode(journal.deals[number])
                except ValueError as error:
                    raise JournalError(f"{path}, hand {number}: {error}") from None
        for number in range(hands):
            if number not in found:
                bot = bots[number % len(bots)]
                plays = record_hand(number, seed, deals, bot)
                journal.add(number, encode(plays, bot))
                found[number] = (plays, bot)
    return found
