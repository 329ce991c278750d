"""The stack of screens and the screens by name: what the loop and the app know of a screen.

The loop keeps the screens in a ``SceneStack`` and knows each only as a ``Screen`` (what it
calls); ``game.table.scene.Scene`` is the base every screen is made from, and screens are
opened by the name they ``register`` (``scene_named``). The rules of the stack are told in
``game.table.scene``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import pygame


class Screen(Protocol):
    """What the loop, the stack and the screens over it call on a screen (a
    ``game.table.scene.Scene``)."""

    @property
    def overlay(self) -> bool:
        """Whether the screen is drawn over the one below it."""

    @property
    def owns_reviews(self) -> bool:
        """Whether the screen asks for reviews itself (the coach then waits)."""

    def enter(self) -> None:
        """Called once, when the screen is pushed on the stack."""
        ...

    def leave(self) -> None:
        """Called once, when the screen is removed from the stack."""
        ...

    def pause(self) -> None:
        """Called when another screen is pushed over this one."""
        ...

    def resume(self) -> None:
        """Called when the screens over this one are gone and it is on top again."""
        ...

    def resize(self) -> None:
        """Called after the window changed size."""
        ...

    def handle(self, event: pygame.event.Event) -> bool:
        """React to one input event; return whether it was consumed."""
        ...

    def update(self, dt: float) -> None:
        """Move time on by ``dt`` seconds."""
        ...

    def key_after_skip(self, event: pygame.event.Event) -> None:
        """Take a key that skipped an animation shown over this screen."""
        ...

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the screen; never changes state."""
        ...

    def frame_due_in(self) -> float | None:
        """Return how soon the screen's picture changes by itself, in seconds (or None)."""
        ...


class SceneStack:
    """The scenes in play, top last."""

    def __init__(self) -> None:
        self.scenes: list[Screen] = []

    @property
    def top(self) -> Screen | None:
        """Return the scene getting the input."""
        return self.scenes[-1] if self.scenes else None

    def below(self, scene: Screen) -> Screen | None:
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

    def push(self, scene: Screen) -> None:
        """Put a scene on top, pausing the one it covers."""
        if self.scenes:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        scene.enter()

    def pop(self) -> Screen | None:
        """Remove the top scene; the one below becomes the top again and resumes."""
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.leave()
        if self.scenes:
            self.scenes[-1].resume()
        return scene

    def replace(self, scene: Screen) -> None:
        """Remove every scene and show this one."""
        while self.scenes:
            self.scenes.pop().leave()
        self.push(scene)

    def remove(self, scene: Screen) -> None:
        """Remove a scene wherever it is in the stack."""
        if scene in self.scenes:
            if scene is self.top:
                self.pop()
            else:
                self.scenes.remove(scene)
                scene.leave()

    def visible(self) -> list[Screen]:
        """Return the scenes to draw, bottom first: the top one and the ones under overlays."""
        start = len(self.scenes) - 1
        while start > 0 and self.scenes[start].overlay:
            start -= 1
        return self.scenes[max(start, 0) :]


#: What makes a screen: a scene class, or a function returning a scene; called with the app
#: first, then the screen's own arguments.
SceneFactory = Callable[..., Screen]

#: The screens by name.
SCENES: dict[str, SceneFactory] = {}


def register(name: str, factory: SceneFactory) -> None:
    """Make ``factory`` the screen opened by ``name``; a name belongs to one screen only."""
    known = SCENES.get(name)
    if known is not None and known is not factory:
        raise ValueError(f"a screen is already registered as {name!r}: {known!r}")
    SCENES[name] = factory


def scene_named(name: str, app: object, *args: Any, **kwargs: Any) -> Screen:
    """Return a new screen of the registered ``name``, made with the running table (``App``)
    and these arguments."""
    factory = SCENES.get(name)
    if factory is None:
        raise LookupError(
            f"no screen is registered as {name!r} (known: {', '.join(sorted(SCENES))}); "
            "the screens register when game.table.scenes is imported"
        )
    return factory(app, *args, **kwargs)
