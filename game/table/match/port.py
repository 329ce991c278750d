"""The one interface through which the table plays a match: ``TableMatch``.

The table gives the person's commands (pass, play, undo and redo back to the person, a hint,
the next hand), reads what the person's seat may see (``SeatView``, never the match itself),
takes the events that happened, and waits for the other seats by polling once a frame
(``update``, ``has_ready_move``, ``apply_ready``): nothing here blocks. The local match
(``game.table.session.TableSession``: a controller and the bot worker) implements it; a match
hosted elsewhere implements it too, and no screen changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from core import events as ev
from core.actions import PassAction, PlayAction
from core.cards import SUIT_NAMES, TWO_OF_CLUBS, card_label
from core.controller import Result
from core.rules import RuleSet
from core.scoring import HandScore

if TYPE_CHECKING:
    from ai.review import Review

#: The person's seat (at the bottom of the table).
HUMAN_SEAT = 0

#: A review's key: the hand, the seat, the deals searched per decision and the seed.
ReviewKey = tuple[int, int, int, int]

#: A card on the table: the seat that played it and the card.
Play = tuple[int, int]


@dataclass(frozen=True)
class Hint:
    """The hint bot's advice for the person: the move and each candidate's value in points."""

    action: Any
    values: dict[str, float]


@dataclass(frozen=True)
class SeatView:
    """What the person's seat may see of the match now (seat 0; a spectator while watching).

    ``hand`` is seat 0's cards, sorted; the other seats are only counted, except while the
    person watches the bots, when ``open_hands`` holds every seat's cards. ``last_points`` is
    the hand just scored while the match waits for the next deal (else ``None``).
    """

    phase: str = "none"
    hand_number: int = 0
    pass_direction: str = "hold"
    hand: tuple[int, ...] = ()
    counts: tuple[int, ...] = (0, 0, 0, 0)
    trick: tuple[Play, ...] = ()
    last_trick: tuple[Play, ...] = ()
    last_winner: int | None = None
    first_leader: int | None = None
    hand_points: tuple[int, ...] = (0, 0, 0, 0)
    totals: tuple[int, ...] = (0, 0, 0, 0)
    last_points: tuple[int, ...] | None = None
    last_moon_shooter: int | None = None
    hearts_broken: bool = False
    seats_to_act: tuple[int, ...] = ()
    winner: int | None = None
    #: The cards the person may play now (empty unless it is the person's turn).
    legal: tuple[int, ...] = ()
    person_must_pass: bool = False
    person_must_play: bool = False
    can_undo: bool = False
    can_redo: bool = False
    #: Whether a point card is still unplayed in the hand.
    points_remain: bool = False
    open_hands: tuple[tuple[int, ...], ...] | None = None

    @property
    def started(self) -> bool:
        """Return whether a match is under way (or over): there is something to show."""
        return self.phase != "none"

    def finished_hand(self) -> ev.HandScored | None:
        """Return the score of the hand just over, while the match waits for the next deal."""
        if self.phase != "hand_over" or self.last_points is None:
            return None
        return ev.HandScored(self.last_points, self.totals, self.last_moon_shooter)


@dataclass(frozen=True)
class MatchSheet:
    """The match's scores as the score sheet, a hand's summary and the match result show them:
    plain read-only data, made by the match (a remote match from what its host sends).

    ``hands`` are the scores of the finished hands the record holds in full, from hand number
    ``first_hand``; a long match's record folds the hands before into ``earlier_totals``.
    ``taken`` is, per seat, the cards it took in the tricks of the hand being shown.
    """

    rules: RuleSet = field(default_factory=RuleSet)
    started: bool = False
    person_seated: bool = True
    first_hand: int = 1
    earlier_totals: tuple[int, ...] = (0, 0, 0, 0)
    hands: tuple[HandScore, ...] = ()
    totals: tuple[int, ...] = (0, 0, 0, 0)
    winner: int | None = None
    hand_number: int = 0
    taken: tuple[tuple[int, ...], ...] = ((), (), (), ())

    @property
    def earlier_count(self) -> int:
        """Return how many hands the record folded into ``earlier_totals``."""
        return self.first_hand - 1

    @property
    def finished_hands(self) -> list[int]:
        """Return the numbers of the finished hands held in full (those a review can open)."""
        return list(range(self.first_hand, self.first_hand + len(self.hands)))

    @property
    def any_moon(self) -> bool:
        """Return whether a hand of the match was shot."""
        return any(score.moon_shooter is not None for score in self.hands)


class TableMatch(Protocol):
    """A match the table plays: the person's commands, the seat's view, events, waiting."""

    # -- who sits at the table ------------------------------------------------------------

    @property
    def person_plays(self) -> bool:
        """Return whether a person sits at seat 0 (``False``: the person watches bots)."""
        ...

    @property
    def bot_names(self) -> Mapping[int, str]:
        """Return the bot (its level) at each bot seat."""
        ...

    # -- what the person's seat may see ---------------------------------------------------

    def view(self) -> SeatView:
        """Return what the person's seat sees now (cheap: called several times a frame)."""
        ...

    @property
    def phase(self) -> str:
        """Return the phase: ``pass``, ``play``, ``hand_over`` or ``match_over``."""
        ...

    @property
    def hint(self) -> Hint | None:
        """Return the hint asked for this position, once it has come."""
        ...

    def thinking_seats(self) -> set[int]:
        """Return the other seats whose move is being worked on (shown as thinking)."""
        ...

    @property
    def reviews(self) -> dict[ReviewKey, Review]:
        """Return the finished reviews of the match's hands (filled by the coach or a page)."""
        ...

    def sheet(self) -> MatchSheet:
        """Return the match's scores and rules as the score sheet, a hand's summary and the
        match result show them (cheap: made again only when the match has changed)."""
        ...

    def record(self) -> str:
        """Return the match's record (``core.record`` text, the one a saved game holds): what
        the review page reads a finished hand from and a hand tried again is set up from."""
        ...

    # -- the person's commands ------------------------------------------------------------

    def pass_cards(self, cards: Iterable[int]) -> Result:
        """Pass the person's three chosen cards."""
        ...

    def play_card(self, card: int) -> Result:
        """Play one of the person's cards."""
        ...

    def undo(self) -> Result:
        """Take back moves up to the person's last one (one move while watching)."""
        ...

    def redo(self) -> Result:
        """Apply again what undo took back, up to the person's next decision."""
        ...

    def next_hand(self) -> Result:
        """Deal the next hand once this one is over."""
        ...

    def request_hint(self) -> bool:
        """Ask for the person's hint; ``False`` when the person has nothing to decide."""
        ...

    # -- events and waiting for the others ------------------------------------------------

    def take_events(self) -> list[ev.Event]:
        """Return and forget the events that happened since the last call, as the person's
        seat may see them (``core.events.seen_by``: while the person plays, the other seats'
        passes carry no cards)."""
        ...

    def update(self) -> None:
        """Poll the other seats once (never waits): ask, and collect what has come."""
        ...

    def has_ready_move(self) -> bool:
        """Return whether another seat's move has come and waits to be applied."""
        ...

    def apply_ready(self) -> list[ev.Event]:
        """Apply one move that has come (the table does so once the last one is shown)."""
        ...

    def close(self) -> None:
        """Stop waiting for the others (the table is left)."""
        ...


#: What the table says for each refusal reason the person can meet (see core.errors).
REFUSAL_WORDS: dict[str, Callable[[Mapping[str, object]], str]] = {
    "must_follow_suit": lambda details: (
        f"You must follow suit: play a {SUIT_NAMES[cast(int, details['suit'])]}"
    ),
    "no_points_first_trick": lambda _: "No points on the first trick",
    "hearts_not_broken": lambda _: "Hearts are not broken",
    "first_lead_two_of_clubs": lambda _: (
        f"The first trick must be led with the {card_label(TWO_OF_CLUBS)}"
    ),
    "first_lead_club": lambda _: "The first trick must be led with a club",
    "not_your_turn": lambda _: "It is not your turn yet",
    "must_pass_first": lambda _: "Pass three cards first",
    "pass_three_cards": lambda _: "Choose three different cards to pass",
    "already_passed": lambda _: "You have already passed",
    "not_passing": lambda _: "The cards have been passed",
    "hand_over": lambda _: "The hand is over",
    "card_not_held": lambda details: (
        f"You do not hold the {card_label(cast(int, details['card']))}"
    ),
    "nothing_to_undo": lambda details: (
        "Your pass cannot be taken back: the cards have been exchanged"
        if details.get("exchanged")
        else "Nothing to undo in this hand"
    ),
    "nothing_to_redo": lambda _: "Nothing to redo",
}


def player_message(result: Result, otherwise: str) -> str:
    """Return the sentence the table says for a refused command (``otherwise`` if unknown)."""
    words = REFUSAL_WORDS.get(result.reason or "")
    return words(result.details) if words is not None else otherwise


def action_cards(action: object) -> list[int]:
    """Return the cards of a pass or play action (or of a bare card or card tuple)."""
    if isinstance(action, PassAction):
        return list(action.cards)
    if isinstance(action, PlayAction):
        return [action.card]
    if isinstance(action, int):
        return [action]
    if isinstance(action, tuple):
        return [card for card in action if isinstance(card, int)]
    return []
