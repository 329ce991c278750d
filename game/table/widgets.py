"""Small drawing pieces shared by the screens: panels, text and buttons."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import pygame

from game.table import theme
from game.table.fonts import font, render_text

#: The fill of every dialog and menu panel: opaque, so nothing below shows through.
DIALOG_FILL = (12, 34, 25, 255)
#: How every page and dialog that closes says so, in one wording.
CLOSE_HINT = "Esc or click to close"
#: How far ``draw_text`` may shrink a text to fit before it cuts it instead.
SMALLEST_SHARE = 0.75
#: What stands for the cut end of a text too long for its place.
ELLIPSIS = "…"


@lru_cache(maxsize=64)
def _panel(
    size: tuple[int, int], colour: tuple[int, ...], border: tuple[int, ...], radius: int, width: int
) -> pygame.Surface:
    surface = pygame.Surface(size, pygame.SRCALPHA)
    rect = surface.get_rect()
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if width:
        pygame.draw.rect(surface, border, rect, width, border_radius=radius)
    return surface.convert_alpha() if pygame.display.get_surface() is not None else surface


def draw_panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    colour: tuple[int, ...] = theme.PANEL,
    border: tuple[int, ...] = theme.PANEL_BORDER,
    radius: int | None = None,
    width: int = 1,
) -> None:
    """Draw a rounded panel of ``colour`` (translucent when its alpha is below 255; cached)."""
    if rect.width <= 0 or rect.height <= 0:
        return
    if radius is None:
        radius = min(rect.height // 5, max(6, min(rect.size) // 25))
    corner = max(0, radius)
    if len(colour) == 3 or colour[3] == 255:  # opaque: drawn straight on, no blending to do
        pygame.draw.rect(surface, colour, rect, border_radius=corner)
        if width:
            pygame.draw.rect(surface, border, rect, width, border_radius=corner)
        return
    surface.blit(_panel(rect.size, tuple(colour), tuple(border), corner, width), rect)


def draw_text(
    surface: pygame.Surface,
    text: str,
    px: int,
    colour: tuple[int, ...],
    *,
    bold: bool = False,
    center: tuple[int, int] | None = None,
    topleft: tuple[int, int] | None = None,
    midleft: tuple[int, int] | None = None,
    midright: tuple[int, int] | None = None,
    max_width: int | None = None,
) -> pygame.Rect:
    """Draw one line of text placed by one anchor.

    Text wider than ``max_width`` shrinks a little (to ``SMALLEST_SHARE`` of its size, so it
    stays readable), then is cut with an ellipsis (``fit_text``).
    """
    if max_width is not None:
        text, px = fit_line(text, px, max_width, bold)
    rendered = render_text(text, px, colour, bold)
    rect = rendered.get_rect()
    if center is not None:
        rect.center = center
    elif topleft is not None:
        rect.topleft = topleft
    elif midleft is not None:
        rect.midleft = midleft
    elif midright is not None:
        rect.midright = midright
    surface.blit(rendered, rect)
    return rect


def fit_line(text: str, px: int, max_width: int, bold: bool = False) -> tuple[str, int]:
    """Return the text and size that fit ``max_width`` pixels: the size shrinks a little (to
    ``SMALLEST_SHARE``, so the text stays readable), then the text is cut (``fit_text``)."""
    smallest = max(8, round(px * SMALLEST_SHARE))
    while font(px, bold).size(text)[0] > max_width and px > smallest:
        px = max(smallest, int(px * 0.9))
    return fit_text(text, px, max_width, bold), px


def fit_text(text: str, px: int, max_width: int, bold: bool = False) -> str:
    """Return ``text`` whole if it fits ``max_width`` pixels at this size, else cut to fit
    with an ellipsis at the end (at least one character and the ellipsis)."""
    face = font(px, bold)
    if face.size(text)[0] <= max_width:
        return text
    kept = len(text)
    while kept > 1 and face.size(text[:kept].rstrip() + ELLIPSIS)[0] > max_width:
        kept -= 1
    return text[:kept].rstrip() + ELLIPSIS


def wrap_text(text: str, px: int, max_width: int, bold: bool = False) -> list[str]:
    """Split text into lines that fit ``max_width`` pixels at this size."""
    face = font(px, bold)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}".strip()
            if line and face.size(candidate)[0] > max_width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


@dataclass
class Button:
    """A clickable labelled rectangle with an optional keyboard shortcut shown beside it."""

    label: str
    action: Callable[[], None]
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    enabled: bool = True
    hovered: bool = False
    primary: bool = False
    #: Run on a click while the button is disabled, to say why it cannot be used now.
    why_not: Callable[[], None] | None = None

    def handle(self, event: pygame.event.Event) -> bool:
        """Track the mouse; run the action on a left click inside (``why_not`` while disabled).
        Return whether it was used."""
        if event.type == pygame.MOUSEMOTION:
            self.hovered = self.rect.collidepoint(event.pos)
        elif (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            and self.rect.collidepoint(event.pos)
        ):
            if self.enabled:
                self.action()
            elif self.why_not is not None:
                self.why_not()
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the button in its state (disabled, hovered, primary)."""
        if not self.enabled:
            colour = theme.BUTTON_DISABLED
        elif self.hovered:
            colour = theme.BUTTON_HOVER
        else:
            colour = theme.BUTTON
        border = theme.ACCENT if self.primary and self.enabled else theme.PANEL_BORDER
        draw_panel(surface, self.rect, (*colour, 255), border, width=2 if self.primary else 1)
        text_colour = theme.TEXT if self.enabled else theme.TEXT_DIM
        px = max(8, int(self.rect.height * 0.42))
        draw_text(
            surface,
            self.label,
            px,
            text_colour,
            bold=self.primary,
            center=self.rect.center,
            max_width=self.rect.width - 8,
        )


def centred_rect(
    surface_size: tuple[int, int], width: int, height: int, margin: int
) -> pygame.Rect:
    """Return a rectangle centred on the window, at most the window less ``margin`` a side."""
    rect = pygame.Rect(
        0, 0, min(width, surface_size[0] - 2 * margin), min(height, surface_size[1] - 2 * margin)
    )
    rect.center = (surface_size[0] // 2, surface_size[1] // 2)
    return rect


def draw_dialog(
    surface: pygame.Surface,
    rect: pygame.Rect,
    title: str,
    title_px: int,
    title_y: int,
    border: tuple[int, ...] = theme.PANEL_BORDER,
) -> None:
    """Shade what is below, then draw an opaque panel at ``rect`` with its title centred at
    ``title_y`` pixels below its top."""
    theme.shade(surface)
    draw_panel(surface, rect, DIALOG_FILL, border, width=2)
    draw_text(
        surface,
        title,
        title_px,
        theme.ACCENT,
        bold=True,
        center=(rect.centerx, rect.top + title_y),
        max_width=rect.width - 20,
    )


def draw_keys_and_close_hint(
    surface: pygame.Surface, rect: pygame.Rect, keys: str, px: int, y: int, gap: int
) -> None:
    """Write a page's ``keys`` left of the panel's middle and ``CLOSE_HINT`` right of it, on
    the line ``y`` near the bottom of the panel ``rect``, ``gap`` either side of the middle."""
    half = rect.width // 2 - 2 * gap
    draw_text(surface, keys, px, theme.TEXT_DIM, midright=(rect.centerx - gap, y), max_width=half)
    draw_text(
        surface, CLOSE_HINT, px, theme.TEXT_DIM, midleft=(rect.centerx + gap, y), max_width=half
    )


def draw_close_hint(surface: pygame.Surface, rect: pygame.Rect, px: int, bottom_gap: int) -> None:
    """Write ``CLOSE_HINT`` centred near the bottom of a dialog's panel ``rect``."""
    draw_text(
        surface,
        CLOSE_HINT,
        px,
        theme.TEXT_DIM,
        center=(rect.centerx, rect.bottom - bottom_gap),
        max_width=rect.width - 20,
    )
