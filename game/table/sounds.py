"""The table's sounds played through pygame's mixer, made at the mixer's rate.

:class:`SoundBoard` plays the sounds ``sound_synthesis`` makes (synthesised by a background
thread), and stays silent (never raising, never printing) when there is no audio device.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
import pygame

from game.table.frame_budget import FrameBudget
from game.table.sound_synthesis import RECIPES, SOUND_NAMES, synthesize

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

__all__ = ["SOUND_NAMES", "SoundBoard", "synthesize"]

#: About the longest the mixer takes to copy a sound's samples (on the frame).
MIXER_COPY_S = 0.002


def _mixer_format(samples: np.ndarray, size: int, channels: int) -> bytes:
    """Return int16 stereo ``samples`` as raw bytes in the mixer's sample format."""
    if channels == 1:
        data: np.ndarray = samples.mean(axis=1).astype(np.int16)
    else:
        data = samples[:, np.arange(channels) % 2]
    if size == 32:
        data = data.astype(np.float32) / 32768
    elif size == -32:
        data = data.astype(np.int32) << 16
    elif size == 16:
        data = (data.astype(np.int32) + 32768).astype(np.uint16)
    elif size == 8:
        data = ((data.astype(np.int32) >> 8) + 128).astype(np.uint8)
    elif size == -8:
        data = (data >> 8).astype(np.int8)
    return np.ascontiguousarray(data).tobytes()


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence what native audio libraries write to the process's error stream."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class SoundBoard:
    """Plays the table's sounds, opening the mixer on first use; silent without an audio device."""

    def __init__(self, enabled: bool = True) -> None:
        self._enabled = bool(enabled)
        self._spec: tuple[int, int, int] | None = None
        self._failed = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        #: The sounds the background thread is synthesising: the rate, the samples to come.
        self._making: dict[str, tuple[int, Future[np.ndarray]]] = {}
        #: Sounds that could not be made: preparing does not wait for them.
        self._broken: set[str] = set()

    @property
    def available(self) -> bool:
        """Return whether sounds can be heard: the mixer opened on an audio device."""
        return self._open()

    @property
    def enabled(self) -> bool:
        """Return whether sounds are on (the player's mute switch)."""
        return self._enabled

    @enabled.setter
    def enabled(self, value: bool) -> None:
        self._enabled = bool(value)
        if not self._enabled and self._spec is not None:
            with contextlib.suppress(Exception):
                pygame.mixer.stop()

    def play(self, name: str) -> None:
        """Play the sound ``name`` unless muted or without audio; unknown names are errors."""
        if name not in RECIPES:
            raise ValueError(f"unknown sound {name!r}; expected one of {', '.join(SOUND_NAMES)}")
        if not self._enabled or not self._open():
            return
        with contextlib.suppress(Exception):
            self._sound(name).play()

    def preload(self, deadline: float | FrameBudget | None = None) -> bool:
        """Have the sounds made so the first of each plays without delay; return whether all
        are ready.

        The samples are synthesised by a background thread (numpy only), asked for at the
        first call with time left; each call hands the mixer those ready. With a ``deadline``
        (a ``time.perf_counter()`` value, or a budget shared with other preparations) it takes
        only those finished, while the budget allows; without one it waits for every sound.
        """
        if not self._open():
            return True
        assert self._spec is not None
        rate = self._spec[0]
        budget = None if deadline is None else FrameBudget.of(deadline)
        missing = [name for name in SOUND_NAMES if name not in self._sounds]
        if budget is None or budget.allows(MIXER_COPY_S):
            for name in missing:
                if name not in self._making and name not in self._broken:
                    self._making[name] = (rate, _synthesiser().submit(synthesize, name, rate))
        for name, (_, samples) in list(self._making.items()):
            if budget is not None and not (_ready(samples, budget) and budget.allows(MIXER_COPY_S)):
                continue
            try:
                self._sound(name)
            except Exception:
                self._broken.add(name)  # preparing stops waiting for it
            self._making.pop(name, None)
            if budget is not None:
                budget.done()
        return all(name in self._sounds or name in self._broken for name in SOUND_NAMES)

    def _sound(self, name: str) -> pygame.mixer.Sound:
        """Return the mixer's copy of a sound, made the first time (from the background
        thread's samples when it has them at the mixer's rate)."""
        sound = self._sounds.get(name)
        if sound is None:
            assert self._spec is not None
            rate, size, channels = self._spec
            made = self._making.pop(name, None)
            if made is not None and made[0] == rate:
                samples = made[1].result()
            else:
                samples = synthesize(name, rate)
            sound = pygame.mixer.Sound(buffer=_mixer_format(samples, size, channels))
            self._sounds[name] = sound
        return sound

    def _open(self) -> bool:
        """Open the mixer if needed and possible; return whether it is open."""
        if self._spec is not None and pygame.mixer.get_init() != self._spec:
            self._spec = None
            self._sounds.clear()
            self._making.clear()
        if self._spec is None and not self._failed:
            try:
                if not pygame.mixer.get_init():
                    with _quiet_stderr():
                        pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
                self._spec = pygame.mixer.get_init()
            except Exception:
                self._spec = None
            self._failed = self._spec is None
        return self._spec is not None


def _ready(samples: Future[np.ndarray], budget: FrameBudget) -> bool:
    """Return whether the background thread has made ``samples``, waiting for them while the
    frame's budget has time left (the thread runs meanwhile: a frame that only drew and
    checked would leave it little time to run in a loop that never waits)."""
    left = budget.deadline - time.perf_counter() - MIXER_COPY_S
    if not samples.done() and left > 0:
        with contextlib.suppress(TimeoutError):  # not made yet: a later frame waits again
            samples.exception(timeout=left)
    return samples.done()


_SYNTHESISER: ThreadPoolExecutor | None = None


def _synthesiser() -> ThreadPoolExecutor:
    """Return the background thread that synthesises sounds (started on first use).

    Synthesis is numpy work on whole arrays, which lets the frame's thread run meanwhile.
    """
    global _SYNTHESISER
    if _SYNTHESISER is None:
        # Imported when first needed, not at launch.
        from concurrent.futures import ThreadPoolExecutor

        _SYNTHESISER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mdh-sounds")
    return _SYNTHESISER
