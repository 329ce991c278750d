"""Typed errors raised by the rules engine; each message says what is wrong and where."""


class HeartsError(ValueError):
    """Base class of every error the rules engine raises on bad input."""


class CardError(HeartsError):
    """A card or card list could not be parsed or is not a valid set of cards."""


class RulesOptionError(HeartsError):
    """A rule option has an unknown name or an invalid value."""


class IllegalActionError(HeartsError):
    """A pass or play breaks the rules; the state it was tried on is unchanged.

    ``reason`` names the rule as one of ``REFUSAL_REASONS`` and ``details`` holds its data
    (``suit`` for ``must_follow_suit``, ``turn`` for ``not_your_turn``, ``card`` for
    ``card_not_held``), so a front end can word the refusal without reading the message.
    """

    def __init__(self, message: str, reason: str, **details: object) -> None:
        if reason not in REFUSAL_REASONS:
            raise ValueError(f"unknown refusal reason {reason!r}")
        super().__init__(message)
        self.reason = reason
        self.details = details


#: Why a command is refused: every rule a pass or play can break, and the commands that do
#: not apply now. The message says the same in English.
REFUSAL_REASONS = (
    # passing
    "not_passing",  # the pass phase is over (or there is none this hand)
    "no_such_seat",
    "already_passed",
    "pass_three_cards",  # not exactly three different cards
    # playing
    "must_pass_first",
    "hand_over",
    "not_your_turn",
    "card_not_held",
    "must_follow_suit",
    "no_points_first_trick",
    "first_lead_club",  # the any_club rule: the first trick is led with a club
    "first_lead_two_of_clubs",
    "hearts_not_broken",
    # commands
    "no_match",
    "nothing_to_undo",
    "nothing_to_redo",
    "hand_not_over",
    "match_over",
    "bad_input",  # a card or option that does not parse
)


class RecordError(HeartsError):
    """A game record is malformed, tampered with, too large or of an unknown version."""
