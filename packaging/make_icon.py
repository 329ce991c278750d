"""Draw the program's icon (a card with a heart) as ``assets/icon.png``.

Run from the repository root: ``python packaging/make_icon.py``. The build turns the PNG into
the Windows and macOS icon formats.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SIZE = 512

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def draw_icon(size: int = SIZE) -> object:
    """Return the icon drawn at ``size`` pixels square."""
    import pygame

    from game.table.fonts import font

    pygame.display.init()
    icon = pygame.Surface((size, size), pygame.SRCALPHA)
    card = pygame.Rect(0, 0, round(size * 0.66), round(size * 0.9))
    card.center = (size // 2, size // 2)
    shadow = card.move(size // 40, size // 30)
    pygame.draw.rect(icon, (0, 0, 0, 90), shadow, border_radius=size // 12)
    pygame.draw.rect(icon, (252, 250, 244), card, border_radius=size // 12)
    pygame.draw.rect(icon, (22, 94, 58), card, width=max(2, size // 40), border_radius=size // 12)
    heart = font(round(size * 0.62), bold=True).render("\u2665", True, (214, 36, 48))
    icon.blit(heart, heart.get_rect(center=(size // 2, round(size * 0.53))))
    return icon


def main() -> int:
    """Write the icon next to the other assets."""
    import pygame

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    target = root / "assets" / "icon.png"
    pygame.image.save(draw_icon(), str(target))  # type: ignore[arg-type]
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
