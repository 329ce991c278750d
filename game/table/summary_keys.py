"""What the hand's summary and the match result share: the keys S (score sheet) and L (last
trick), and the line that names them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.table import theme
from game.table.widgets import draw_text

if TYPE_CHECKING:
    from game.table.scenes.table import TableScene

#: The keys the summary and the match result take.
KEYS_WORDS = "S score sheet · L last trick"


def open_page(table: TableScene, key: int) -> None:
    """Open the score sheet (S) or the last trick (L) over a summary or the match result."""
    if key == pygame.K_s:
        table.open_scores()
    elif key == pygame.K_l:
        table.open_last_trick()


def draw_keys_words(
    surface: pygame.Surface, rect: pygame.Rect, px: int, y: int, margin: int
) -> None:
    """Write the keys a summary takes (``KEYS_WORDS``) at the right of the panel ``rect``."""
    draw_text(
        surface,
        KEYS_WORDS,
        px,
        theme.TEXT_DIM,
        midright=(rect.right - margin, y),
        max_width=rect.width // 4,
    )
