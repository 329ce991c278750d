"""Hover that waits for the pointer to really move before it chooses anything.

A window opening under the pointer gets a motion event at the pointer's place with no
movement (SDL sends one when the pointer enters it), and a screen opening under a resting
pointer may get the same. If hover followed those, the item that happens to lie under the
pointer would take the keyboard's focus, and Enter would run it: the title menu opened over
"Quit" quit on Enter. A list or menu asks ``HoverGate.moved`` before hover changes its focus.
"""

from __future__ import annotations

import pygame


class HoverGate:
    """Whether the pointer has really moved since a screen opened (then hover may choose)."""

    def __init__(self) -> None:
        self.rest: tuple[int, int] | None = None
        if pygame.display.get_init() and pygame.mouse.get_focused():
            self.rest = pygame.mouse.get_pos()
        self.free = False

    def moved(self, event: pygame.event.Event) -> bool:
        """Return whether a ``MOUSEMOTION`` is the pointer really moving since the screen opened.

        A motion without movement (it only tells where the pointer rests), or one to where the
        pointer rests, is not. Once the pointer has moved, every later motion counts.
        """
        if self.free:
            return True
        pos = tuple(event.pos)
        rel = tuple(getattr(event, "rel", (0, 0)))
        if rel == (0, 0):
            self.rest = (pos[0], pos[1])
            return False
        if pos == self.rest:
            return False
        self.free = True
        return True
