"""The plays a learned play model is fitted to: hands of bots, every play with a choice.

Each hand is played by four bots of one kind (hard bots at a fixed number of deals a decision,
so the plays do not depend on the machine's load) and written as one JSON line: the hand's
number, the bot, and per play where the seat had more than one legal card, what that seat saw
(its hand, the public table) and the card it played. Features are computed from these when the
model is fitted, so the file stays valid when the features change. A file already holding some
hands is continued.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ai.bot import Bot, close_bot
from ai.hard import HardBot, table_of
from ai.knowledge import read_knowledge
from ai.registry import make_bot
from ai.search import Table
from core.files import StrictJsonError, parse_strict_json
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


def encode(number: int, plays: list[Play], bot: str = HARD) -> str:
    """Return a hand's plays, and the bot that played them, as one JSON line."""
    rows = []
    for play in plays:
        table = play.table
        public = [list(table.taken), list(table.trick), table.leader, table.trick_index]
        rows.append([play.hand, *public, int(table.hearts_broken), table.flags, play.card])
    data = {"hand": number, "bot": bot, "plays": rows}
    return json.dumps(data, separators=(",", ":"))


def decode(line: str) -> tuple[int, list[Play], str]:
    """Return a hand's number, plays and bot from its JSON line (a line without a bot was
    played by hard bots); raise ValueError if malformed."""
    try:
        data = parse_strict_json(line, max_depth=4)
        number = data["hand"]
        bot = data.get("bot", HARD)
        plays = []
        for hand, taken, trick, leader, trick_index, broken, flags, card in data["plays"]:
            table = Table(tuple(taken), tuple(trick), leader, trick_index, bool(broken), flags)
            plays.append(Play(hand, table, card))
    except (StrictJsonError, KeyError, TypeError, ValueError) as error:
        raise ValueError(f"a malformed line of plays: {error}") from None
    if not isinstance(number, int) or not isinstance(bot, str):
        raise ValueError("a malformed line of plays: the hand number or the bot is wrong")
    return number, plays, bot


def read_hands(path: Path) -> Iterator[tuple[int, list[Play], str]]:
    """Yield the hands recorded in a file (none if it does not exist)."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as lines:
        for index, line in enumerate(lines, 1):
            if line.strip():
                try:
                    yield decode(line)
                except ValueError as error:
                    raise ValueError(f"{path}, line {index}: {error}") from None


def record(
    path: Path, hands: int, seed: int, deals: int, bots: Sequence[str] = (HARD,)
) -> dict[int, tuple[list[Play], str]]:
    """Return hands ``0 .. hands - 1`` of the seeded deals with the bot that played each (hand
    ``n`` by ``bots[n % len(bots)]``), playing and appending to ``path`` those it does not
    hold yet; raise ValueError when a hand in the file was played by another bot."""
    found = {}
    for number, plays, bot in read_hands(path):
        if number < hands:
            wanted = bots[number % len(bots)]
            if bot != wanted:
                raise ValueError(
                    f"{path}: hand {number} was played by {bot} bots, not {wanted}: "
                    "use another file for other bots"
                )
            found[number] = (plays, bot)
    with path.open("a", encoding="utf-8") as out:
        for number in range(hands):
            if number not in found:
                bot = bots[number % len(bots)]
                found[number] = (record_hand(number, seed, deals, bot), bot)
                out.write(encode(number, found[number][0], bot) + "\n")
                out.flush()
    return found
