"""How cards look: the style a person chooses (four-colour suits, large print, the back) and
the colours the card art paints with."""

from __future__ import annotations

from dataclasses import dataclass

from core.cards import CLUBS, DIAMONDS, HEARTS, SPADES
from game.table.raster import RGB

BACKS = ("blue", "red", "green")

RED: RGB = (204, 20, 38)
BLACK: RGB = (22, 22, 28)
BLUE: RGB = (20, 80, 205)
GREEN: RGB = (8, 128, 58)
TWO_COLOUR: dict[int, RGB] = {CLUBS: BLACK, DIAMONDS: RED, SPADES: BLACK, HEARTS: RED}
FOUR_COLOUR: dict[int, RGB] = {CLUBS: GREEN, DIAMONDS: BLUE, SPADES: BLACK, HEARTS: RED}

PAPER: RGB = (253, 253, 250)
EDGE: RGB = (128, 130, 138)
COURT_FILL: RGB = (251, 242, 214)
COURT_GOLD: RGB = (200, 152, 42)
BACK_COLOURS: dict[str, tuple[RGB, RGB]] = {
    "blue": ((30, 66, 150), (150, 182, 240)),
    "red": ((156, 26, 38), (240, 150, 150)),
    "green": ((22, 104, 62), (140, 210, 165)),
}
SHADOW_ALPHA = 95


@dataclass(frozen=True)
class CardStyle:
    """How cards look: four-colour suits, a large corner index, and the back's colour."""

    four_colour: bool = False
    large_print: bool = False
    back: str = "blue"

    def __post_init__(self) -> None:
        if self.back not in BACKS:
            raise ValueError(f"unknown card back {self.back!r}; expected one of {BACKS}")

    def suit_colour(self, suit: int) -> RGB:
        """Return the ink colour of a suit (0..3) in this style."""
        return (FOUR_COLOUR if self.four_colour else TWO_COLOUR)[suit]


#: The look of cards before a person chooses another.
DEFAULT_STYLE = CardStyle()
