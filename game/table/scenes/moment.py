"""Moments: a short animation and sound when something big happens at the table.

Shooting the moon and winning a match get a celebration (a rising moon and stars, confetti);
taking the Q♠ and losing a match get a short, quieter scene. A moment plays over the table,
which waits under it; a click or a key skips it, and when it ends (or is skipped) its ``then``
runs — the hand summary, say. Everything moving is a pure function of the time since the moment
began and a fixed seed, so a moment draws the same picture at the same time every run.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import pygame

from core.cards import QUEEN_OF_SPADES
from game.table import theme
from game.table.fonts import render_text
from game.table.raster import Canvas, inside
from game.table.scene import Scene, register
from game.table.widgets import fit_line

if TYPE_CHECKING:
    from game.table.app import App

#: The kinds of moment, with how long each lasts (seconds) and the sound that opens it.
KINDS: dict[str, tuple[float, str]] = {
    "moon": (2.6, "moon"),
    "queen": (1.4, "queen"),
    "won": (3.0, "win"),
    "lost": (2.2, "lose"),
}
#: The kinds a dialog always follows (the hand's summary after a moon, the match result after
#: its end): their shade ends at the dialog's, so the table does not light up in between. Any
#: other moment a dialog follows (the Q♠ taken on a hand's last trick) says so when made.
BEFORE_A_DIALOG = frozenset({"moon", "won", "lost"})
#: How dark a moment shades the table at its height, and how long it takes to come and go.
MOMENT_SHADE = 200
FADE_IN_S = 0.25
FADE_OUT_S = 0.4
CONFETTI_COLOURS = (
    (246, 204, 92),
    (236, 96, 88),
    (120, 220, 140),
    (120, 170, 250),
    (250, 250, 250),
)
MOON_LIGHT = (250, 244, 214)
MOON_SHADOW = (214, 204, 168)


@dataclass(frozen=True)
class Flake:
    """One piece of confetti (or one star): where it starts, how it moves, how it looks."""

    x: float  # across the window, 0..1
    delay: float  # seconds before it appears
    speed: float  # window heights per second
    sway: float  # how far it swings, 0..1 of the window width
    phase: float
    colour: tuple[int, int, int]
    size: float  # relative to the layout's unit


def flakes(seed: int, count: int) -> list[Flake]:
    """Return ``count`` pieces of confetti laid out by ``seed``."""
    rng = random.Random(seed)
    return [
        Flake(
            x=rng.random(),
            delay=rng.random() * 0.8,
            speed=rng.uniform(0.35, 0.7),
            sway=rng.uniform(0.005, 0.03),
            phase=rng.uniform(0, math.tau),
            colour=rng.choice(CONFETTI_COLOURS),
            size=rng.uniform(0.6, 1.4),
        )
        for _ in range(count)
    ]


@lru_cache(maxsize=4)
def moon_image(diameter: int) -> pygame.Surface:
    """Return a full moon ``diameter`` pixels wide with a soft glow and a few craters."""
    size = diameter * 2
    canvas = Canvas(size, size)
    centre = size / 2
    disk = canvas.circle(centre, centre, diameter / 2)
    glow = 1.0 - (disk / (diameter / 2)).clip(0.0, 1.0)
    canvas.paint(MOON_LIGHT, glow**3, 0.45)
    canvas.paint(MOON_LIGHT, inside(disk))
    for dx, dy, r in (
        (-0.18, -0.12, 0.12),
        (0.16, 0.1, 0.09),
        (-0.05, 0.22, 0.07),
        (0.2, -0.2, 0.05),
    ):
        crater = canvas.circle(centre + dx * diameter, centre + dy * diameter, r * diameter)
        canvas.paint(MOON_SHADOW, inside(crater), 0.8)
    return canvas.surface(MOON_LIGHT)


class Moment(Scene):
    """A short animation over the table; any click or key skips it, then ``then`` runs.

    ``dialog_follows`` says a dialog opens as it ends (always so for ``BEFORE_A_DIALOG``).
    """

    overlay = True

    def __init__(
        self,
        app: App,
        kind: str,
        title: str,
        subtitle: str = "",
        then: Callable[[], None] | None = None,
        seed: int = 0,
        dialog_follows: bool = False,
        shaded: bool = False,
    ) -> None:
        super().__init__(app)
        if kind not in KINDS:
            raise ValueError(f"unknown moment {kind!r}; expected one of {', '.join(KINDS)}")
        self.kind = kind
        self.title = title
        self.subtitle = subtitle
        self.then = then
        #: Whether a dialog opens as the moment ends: its shade then ends at the dialog's.
        self.dialog_follows = dialog_follows or kind in BEFORE_A_DIALOG
        #: Whether it comes in over a table already shaded (by a moment just ended that left
        #: a dialog's shade): its shade then grows from there, not from nothing.
        self.shaded = shaded
        self.seconds, self.sound = KINDS[kind]
        self.age = 0.0
        self.finished = False
        count = {"won": 140, "moon": 60}.get(kind, 0)
        self.flakes = flakes(seed, count)

    def enter(self) -> None:
        """Play the moment's sound as it shows (once: a screen over it pauses it)."""
        self.app.sounds.play(self.sound)

    def frame_due_in(self) -> float | None:
        """A moment moves every frame until it ends."""
        return None if self.finished else 0.0

    def finish(self) -> None:
        """End the moment now and go on to what follows it."""
        if self.finished:
            return
        self.finished = True
        self.app.close_scene(self)
        if self.then is not None:
            self.then()

    def handle(self, event: pygame.event.Event) -> bool:
        """A click or a key skips the moment; the screen below may keep the key for later
        (``key_after_skip``). The moment consumes every event, so the screen below does not
        act on it now."""
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            below = self.app.scene_below(self)
            self.finish()
            if below is not None and event.type == pygame.KEYDOWN:
                below.key_after_skip(event)
        return True

    def update(self, dt: float) -> None:
        """Move time on; the moment ends by itself after its length."""
        self.age += dt
        if self.age >= self.seconds:
            self.finish()

    # -- drawing ----------------------------------------------------------------------------

    def _fade(self) -> float:
        """Return how strongly the moment shows: in quickly, out over its last 0.4 s."""
        return max(0.0, min(1.0, self.age / FADE_IN_S, (self.seconds - self.age) / FADE_OUT_S))

    def shade_alpha(self) -> int:
        """Return how dark the table is shaded now: up to ``MOMENT_SHADE`` as the moment comes
        (from the dialog's shade when it comes in ``shaded``), then down as it goes, to nothing
        or, when a dialog follows, to the dialog's shade."""
        fade = self._fade()
        if self.age < FADE_IN_S and self.shaded:
            rest = theme.SHADE[3]
            return round(rest + (MOMENT_SHADE - rest) * fade)
        if self.age < FADE_IN_S or not self.dialog_follows:
            return round(MOMENT_SHADE * fade)
        rest = theme.SHADE[3]
        return round(rest + (MOMENT_SHADE - rest) * fade)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the moment over the table."""
        fade = self._fade()
        layout = self.app.layout
        width, height = surface.get_size()
        title_y = round(height * (0.66 if self.kind == "moon" else 0.5))
        theme.shade(surface, self.shade_alpha())
        band = pygame.Rect(
            0, title_y - layout.px(55), width, layout.px(180 if self.subtitle else 140)
        )
        theme.shade(surface, round(150 * fade), band)
        if self.kind == "moon":
            self._draw_moon(surface, fade)
        elif self.kind == "queen":
            self._draw_queen(surface)
        if self.kind == "won":
            self._draw_confetti(surface, fade)
        colour = theme.DANGER if self.kind in ("queen", "lost") else theme.ACCENT
        px = layout.px(54)
        grow = 0.85 + 0.15 * min(1.0, self.age / 0.3)
        most = round(width * 0.9)
        centre = width // 2
        _faded_text(
            surface,
            self.title,
            max(12, round(px * grow)),
            colour,
            fade,
            True,
            (centre, title_y),
            most,
        )
        if self.subtitle:
            _faded_text(
                surface,
                self.subtitle,
                layout.px(28),
                theme.TEXT,
                fade,
                False,
                (centre, title_y + layout.px(62)),
                most,
            )
        _faded_text(
            surface,
            "Click or press a key to go on",
            layout.px(18),
            theme.TEXT_DIM,
            fade,
            False,
            (centre, title_y + layout.px(92 if self.subtitle else 56)),
            most,
        )

    def _draw_moon(self, surface: pygame.Surface, fade: float) -> None:
        """Draw the moon rising to the upper middle of the window, with twinkling stars."""
        width, height = surface.get_size()
        unit = min(width, height)
        for flake in self.flakes:
            twinkle = 0.5 + 0.5 * math.sin(self.age * 6 + flake.phase)
            radius = max(1, round(unit * 0.004 * flake.size * (0.5 + twinkle)))
            x = round(flake.x * width)
            y = round((flake.delay / 0.8) * height * 0.55)
            pygame.draw.circle(surface, (255, 250, 230), (x, y), radius)
        rise = 1 - (1 - min(1.0, self.age / 1.2)) ** 3
        diameter = max(16, round(unit * 0.3))
        image = moon_image(diameter)
        start_y, end_y = height + diameter, height * 0.36
        centre_y = start_y - rise * (start_y - end_y)
        image.set_alpha(round(255 * fade))
        surface.blit(image, image.get_rect(center=(width // 2, round(centre_y))))

    def _draw_queen(self, surface: pygame.Surface) -> None:
        """Draw the Q♠ springing up in the middle of the window."""
        width, height = surface.get_size()
        art = self.app.card_art()
        face = art.face(QUEEN_OF_SPADES)
        pop = min(1.0, self.age / 0.3)
        scale = 1.0 + 0.6 * math.sin(pop * math.pi / 2) - 0.1 * (1 - math.cos(pop * math.pi))
        size = (round(face.get_width() * scale), round(face.get_height() * scale))
        image = pygame.transform.smoothscale(face, size)
        wobble = math.sin(self.age * 14) * max(0.0, 0.4 - self.age) * 20
        image = pygame.transform.rotate(image, wobble)
        final_height = face.get_height() * 1.5
        centre = (width // 2, round(height * 0.5 - self.app.layout.px(60) - final_height / 2))
        surface.blit(image, image.get_rect(center=centre))

    def _draw_confetti(self, surface: pygame.Surface, fade: float) -> None:
        """Draw confetti falling and swaying (the moon's stars are drawn with the moon)."""
        width, height = surface.get_size()
        unit = min(width, height)
        for flake in self.flakes:
            t = self.age - flake.delay
            if t < 0:
                continue
            y = -unit * 0.02 + t * flake.speed * height
            if y > height:
                continue
            x = flake.x * width + math.sin(t * 3 + flake.phase) * flake.sway * width
            spin = abs(math.cos(t * 5 + flake.phase))
            w = max(2, round(unit * 0.012 * flake.size))
            h = max(1, round(w * 0.5 + w * spin))
            # As the moment goes, each piece shrinks away rather than vanishing at its end.
            w, h = max(1, round(w * fade)), max(1, round(h * fade))
            pygame.draw.rect(surface, flake.colour, (round(x), round(y), w, h))


def _faded_text(
    surface: pygame.Surface,
    text: str,
    px: int,
    colour: tuple[int, int, int],
    fade: float,
    bold: bool,
    centre: tuple[int, int],
    max_width: int,
) -> None:
    """Draw a line of text centred at ``centre``, as opaque as ``fade`` (0..1)."""
    if fade <= 0:
        return
    text, px = fit_line(text, px, max_width, bold)
    image = render_text(text, px, colour, bold)
    if fade < 1:
        image = image.copy()
        image.set_alpha(round(255 * fade))
    surface.blit(image, image.get_rect(center=centre))


register("moment", Moment)
