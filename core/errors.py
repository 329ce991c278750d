"""Typed errors raised by the rules engine; each message says what is wrong and where."""


class HeartsError(ValueError):
    """Base class of every error the rules engine raises on bad input."""


class CardError(HeartsError):
    """A card or card list could not be parsed or is not a valid set of cards."""


class RulesOptionError(HeartsError):
    """A rule option has an unknown name or an invalid value."""


class IllegalActionError(HeartsError):
    """A pass or play breaks the rules; the state it was tried on is unchanged."""


class RecordError(HeartsError):
    """A game record is malformed, tampered with, too large or of an unknown version."""
