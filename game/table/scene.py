"""Screens as a stack: input goes to the top one first; overlays draw over the one below.

Input flows down the stack from the top and stops at the first scene whose ``handle`` returns
``True`` (it consumed the event); a scene that returns ``False`` lets the scene below be
offered the same event. A screen is modal unless it says otherwise: the base ``handle``
consumes everything, and every screen today consumes whatever it is offered, so only the top
screen acts on input (a moment hands a key that skipped it to the screen below through
``key_after_skip``, which keeps it for later rather than acting on it at once).

A scene is entered once, when it is pushed, and left once, when it is removed; in between it is
paused while another scene is pushed over it and resumed when it is on top again, so work done
on entering is not done again on the way back.

A scene changes its state in ``handle`` and ``update(dt)`` and only reads it in ``draw``, so a
frame is a picture of the state at one moment. The loop draws a frame only when the picture may
have changed: input arrived, or the top scene says through ``frame_due_in`` that it animates or
that one of its timers comes due; otherwise the last frame stays on screen.

Screens open each other by name (``app.push_scene("last_trick", table)`` makes
``scene_named("last_trick", app, table)``), so no screen imports another to show it: each
registers itself when its module is imported, and importing ``game.table.scenes`` imports them
all. The stack and the names live in ``game.table.screen_stack``, which knows a screen only as
a ``Screen`` (so the loop and the app need not import this module); they are named here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.table.screen_stack import SCENES as SCENES
from game.table.screen_stack import SceneFactory as SceneFactory
from game.table.screen_stack import SceneStack as SceneStack
from game.table.screen_stack import register as register
from game.table.screen_stack import scene_named as scene_named

if TYPE_CHECKING:
    from game.table.app import App


class Scene:
    """One screen. ``overlay`` scenes are drawn over the scene below them."""

    overlay = False
    #: Whether the screen asks ``app.reviews`` for reviews itself (the coach then waits).
    owns_reviews = False

    def __init__(self, app: App) -> None:
        self.app = app

    def enter(self) -> None:
        """Called once, when the scene is pushed on the stack."""

    def leave(self) -> None:
        """Called once, when the scene is removed from the stack."""

    def pause(self) -> None:
        """Called when another scene is pushed over this one (it stays on the stack)."""

    def resume(self) -> None:
        """Called when the scenes over this one are gone and it is on top again."""

    def resize(self) -> None:
        """Called after the window changed size (``self.app.layout`` is the new layout)."""

    def handle(self, event: pygame.event.Event) -> bool:
        """React to one input event; return whether it was consumed (``False`` lets the scene
        below be offered it). By default a screen is modal: it consumes every event."""
        return True

    def update(self, dt: float) -> None:
        """Move time on by ``dt`` seconds."""

    def key_after_skip(self, event: pygame.event.Event) -> None:
        """Take a key that skipped an animation shown over this screen (a moment): by default
        skipping was all it did; a screen may keep it to act on afterwards."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; never changes state."""

    def frame_due_in(self) -> float | None:
        """Return how soon this scene's picture changes by itself, in seconds.

        ``0`` while it animates (frames are drawn at the display's pace); a positive time when
        a timer will change it then (a message ending, say: the loop sleeps until then);
        ``None`` when only input changes it (the loop draws nothing until an event arrives).
        Asked of the top scene before and after each ``update``; like ``draw``, it never
        changes state. Work that changes nothing on screen (polling the bots) needs no frame:
        the loop updates the top scene several times a second even while it sleeps.
        """
        return None
