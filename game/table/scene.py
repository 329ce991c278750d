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
all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

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


class SceneStack:
    """The scenes in play, top last."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    @property
    def top(self) -> Scene | None:
        """Return the scene getting the input."""
        return self.scenes[-1] if self.scenes else None

    def below(self, scene: Scene) -> Scene | None:
        """Return the scene just under ``scene``, if it is on the stack above another."""
        if scene not in self.scenes[1:]:
            return None
        return self.scenes[self.scenes.index(scene) - 1]

    def handle(self, event: pygame.event.Event) -> bool:
        """Offer an event to the scenes from the top down until one consumes it; return
        whether one did. A scene removed meanwhile (by one above it) is not offered it."""
        for scene in reversed(list(self.scenes)):
            if scene in self.scenes and scene.handle(event):
                return True
        return False

    def push(self, scene: Scene) -> None:
        """Put a scene on top, pausing the one it covers."""
        if self.scenes:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        scene.enter()

    def pop(self) -> Scene | None:
        """Remove the top scene; the one below becomes the top again and resumes."""
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.leave()
        if self.scenes:
            self.scenes[-1].resume()
        return scene

    def replace(self, scene: Scene) -> None:
        """Remove every scene and show this one."""
        while self.scenes:
            self.scenes.pop().leave()
        self.push(scene)

    def remove(self, scene: Scene) -> None:
        """Remove a scene wherever it is in the stack."""
        if scene in self.scenes:
            if scene is self.top:
                self.pop()
            else:
                self.scenes.remove(scene)
                scene.leave()

    def visible(self) -> list[Scene]:
        """Return the scenes to draw, bottom first: the top one and the ones under overlays."""
        start = len(self.scenes) - 1
        while start > 0 and self.scenes[start].overlay:
            start -= 1
        return self.scenes[max(start, 0) :]


#: What makes a screen: a scene class, or a function returning a scene; called with the app
#: first, then the screen's own arguments.
SceneFactory = Callable[..., Scene]

#: The screens by name.
SCENES: dict[str, SceneFactory] = {}


def register(name: str, factory: SceneFactory) -> None:
    """Make ``factory`` the screen opened by ``name``; a name belongs to one screen only."""
    known = SCENES.get(name)
    if known is not None and known is not factory:
        raise ValueError(f"a screen is already registered as {name!r}: {known!r}")
    SCENES[name] = factory


def scene_named(name: str, app: App, *args: Any, **kwargs: Any) -> Scene:
    """Return a new screen of the registered ``name``, made with these arguments."""
    factory = SCENES.get(name)
    if factory is None:
        raise LookupError(
            f"no screen is registered as {name!r} (known: {', '.join(sorted(SCENES))}); "
            "the screens register when game.table.scenes is imported"
        )
    return factory(app, *args, **kwargs)
