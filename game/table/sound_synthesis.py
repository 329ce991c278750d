"""The table's sounds synthesised with numpy: short, soft and quiet.

:func:`synthesize` makes one sound as 16-bit stereo samples at a given rate, from a recipe of
tones, noise and envelopes (``RECIPES``); the same name and rate always give the same samples.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

SOUND_NAMES = (
    "deal",
    "play",
    "sweep",
    "pass",
    "hearts_broken",
    "queen",
    "moon",
    "illegal",
    "win",
    "lose",
)
MAX_PEAK = 0.5
MAX_SECONDS = 1.5

Mono = np.ndarray
Stereo = np.ndarray


def _frequency(note: str) -> float:
    """Return the frequency of a note name such as ``C5`` or ``Eb4`` (A4 = 440 Hz)."""
    steps = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}[note[0]]
    octave = int(note[-1])
    accidental = note[1:-1]
    steps += accidental.count("#") - accidental.count("b")
    return 440.0 * math.pow(2.0, (steps + 12 * (octave - 4)) / 12)


def _times(seconds: float, rate: int) -> Mono:
    """Return the sample times of ``seconds`` of sound."""
    return np.arange(max(1, round(seconds * rate)), dtype=np.float64) / rate


def _decay(t: Mono, attack: float, tau: float) -> Mono:
    """Return an envelope rising over ``attack`` seconds, then decaying with time ``tau``."""
    rise = np.clip(t / attack, 0.0, 1.0) if attack > 0 else np.ones_like(t)
    return rise * np.exp(-np.maximum(t - attack, 0.0) / tau)


def _noise(seconds: float, rate: int, low: float, high: float, seed: int) -> Mono:
    """Return white noise limited to the band ``low``..``high`` Hz, peak 1."""
    n = max(1, round(seconds * rate))
    spectrum = np.fft.rfft(np.random.default_rng(seed).standard_normal(n))
    freqs = np.fft.rfftfreq(n, 1 / rate)
    spectrum *= (freqs >= low) & (freqs <= high)
    noise = np.fft.irfft(spectrum, n)
    return noise / max(float(np.max(np.abs(noise))), 1e-9)


def _tone(
    freq: float, t: Mono, partials: tuple[tuple[float, float, float], ...], vibrato: float = 0.0
) -> Mono:
    """Return a tone of (ratio, amplitude, decay time) partials at ``freq``, slightly wavering."""
    phase = 2 * np.pi * freq * t
    if vibrato:
        phase += vibrato * np.sin(2 * np.pi * 5.5 * t)
    out = np.zeros_like(t)
    decays: dict[float, Mono] = {}  # partials often share a decay time: each is computed once
    for ratio, amplitude, tau in partials:
        if tau not in decays:
            decays[tau] = np.exp(-t / tau)
        out += amplitude * np.sin(ratio * phase) * decays[tau]
    return out


BELL = ((1.0, 1.0, 0.45), (2.0, 0.45, 0.25), (2.76, 0.3, 0.16), (5.4, 0.12, 0.07))
MARIMBA = ((1.0, 1.0, 0.3), (4.0, 0.25, 0.05), (10.0, 0.06, 0.02))
BRASS = tuple((float(k), 1.0 / k, 2.0) for k in range(1, 9))
REED = ((1.0, 1.0, 3.0), (3.0, 0.33, 3.0), (5.0, 0.2, 3.0), (7.0, 0.14, 3.0), (9.0, 0.1, 3.0))


class _Mix:
    """A stereo buffer that sounds are laid into at a time and a place in the stereo field."""

    def __init__(self, seconds: float, rate: int) -> None:
        self.rate = rate
        self.buffer = np.zeros((max(1, round(seconds * rate)), 2))

    def add(self, mono: Mono, start: float = 0.0, pan: float = 0.5, gain: float = 1.0) -> None:
        """Add ``mono`` from ``start`` seconds; ``pan`` runs from 0 (left) to 1 (right)."""
        first = round(start * self.rate)
        part = mono[: max(0, len(self.buffer) - first)] * gain
        angle = np.clip(pan, 0.0, 1.0) * np.pi / 2
        self.buffer[first : first + len(part), 0] += part * np.cos(angle)
        self.buffer[first : first + len(part), 1] += part * np.sin(angle)

    def pan_across(self, mono: Mono, start: float, pan_from: float, pan_to: float) -> None:
        """Add ``mono`` from ``start`` seconds, moving across the stereo field as it plays."""
        first = round(start * self.rate)
        part = mono[: max(0, len(self.buffer) - first)]
        angle = np.linspace(pan_from, pan_to, len(part)) * np.pi / 2
        self.buffer[first : first + len(part), 0] += part * np.cos(angle)
        self.buffer[first : first + len(part), 1] += part * np.sin(angle)


def _flick(rate: int, seed: int, seconds: float = 0.07) -> Mono:
    """Return the soft brush of one card sliding off the pack."""
    t = _times(seconds, rate)
    brush: Mono = _noise(seconds, rate, 1200, 7000, seed) * _decay(t, 0.003, 0.014)
    return brush


def _deal(rate: int) -> Stereo:
    mix = _Mix(0.08, rate)
    mix.add(_flick(rate, 1), pan=0.55)
    return mix.buffer


def _play(rate: int) -> Stereo:
    mix = _Mix(0.12, rate)
    t = _times(0.12, rate)
    mix.add(_noise(0.12, rate, 900, 6000, 2) * _decay(t, 0.001, 0.007))
    mix.add(np.sin(2 * np.pi * 160 * t) * _decay(t, 0.002, 0.025), gain=0.7)
    return mix.buffer


def _sweep(rate: int) -> Stereo:
    mix = _Mix(0.4, rate)
    t = _times(0.36, rate)
    swell = np.sin(np.pi * np.clip(t / 0.36, 0.0, 1.0)) ** 2
    mix.pan_across(_noise(0.36, rate, 250, 2800, 3) * swell, 0.0, 0.35, 0.75)
    mix.add(_flick(rate, 4), 0.24, 0.7, 0.5)
    return mix.buffer


def _pass(rate: int) -> Stereo:
    mix = _Mix(0.3, rate)
    for i in range(3):
        mix.add(_flick(rate, 10 + i), 0.085 * i, 0.3 + 0.2 * i)
    return mix.buffer


def _hearts_broken(rate: int) -> Stereo:
    mix = _Mix(1.2, rate)
    for start, note, pan in ((0.0, "E6", 0.4), (0.13, "B6", 0.6)):
        t = _times(1.2 - start, rate)
        mix.add(_tone(_frequency(note), t, BELL) * _decay(t, 0.002, 10.0), start, pan)
    return mix.buffer


def _queen(rate: int) -> Stereo:
    mix = _Mix(1.4, rate)
    t = _times(1.4, rate)
    envelope = _decay(t, 0.08, 0.45) * (1 - 0.25 * np.sin(2 * np.pi * 4.0 * t) ** 2)
    for note, pan in (("D2", 0.35), ("Eb2", 0.65), ("Ab2", 0.5)):
        mix.add(_tone(_frequency(note), t, REED) * envelope, pan=pan, gain=0.6)
    return mix.buffer


def _moon(rate: int) -> Stereo:
    mix = _Mix(1.4, rate)
    notes = (("G4", 0.0, 0.11), ("C5", 0.12, 0.11), ("E5", 0.24, 0.11), ("G5", 0.36, 0.2))
    for note, start, length in notes:
        t = _times(length, rate)
        mix.add(_tone(_frequency(note), t, BRASS, 0.02) * _decay(t, 0.015, 0.12), start)
    t = _times(0.84, rate)
    hold = _decay(t, 0.03, 0.35)
    for note, pan in (("C5", 0.3), ("E5", 0.7), ("G5", 0.5), ("C6", 0.5)):
        mix.add(_tone(_frequency(note), t, BRASS, 0.03) * hold, 0.56, pan, 0.6)
    return mix.buffer


def _illegal(rate: int) -> Stereo:
    mix = _Mix(0.26, rate)
    t = _times(0.09, rate)
    envelope = np.clip(t / 0.008, 0, 1) * np.clip((0.09 - t) / 0.03, 0, 1)
    buzz = _tone(_frequency("A2"), t, REED) * envelope
    mix.add(buzz, 0.0)
    mix.add(buzz, 0.14)
    return mix.buffer


def _win(rate: int) -> Stereo:
    mix = _Mix(1.3, rate)
    for i, note in enumerate(("C5", "E5", "G5", "C6", "E6")):
        t = _times(1.3 - 0.1 * i, rate)
        mix.add(_tone(_frequency(note), t, MARIMBA) * _decay(t, 0.002, 10), 0.1 * i, 0.3 + 0.1 * i)
    return mix.buffer


def _lose(rate: int) -> Stereo:
    mix = _Mix(1.4, rate)
    for i, note in enumerate(("G4", "Eb4", "C4")):
        length = 0.7 if i == 2 else 0.32
        t = _times(length, rate)
        bend = 1.0 - (0.03 * t / length if i == 2 else 0.0)
        phase = 2 * np.pi * _frequency(note) * np.cumsum(bend) / rate
        tone = np.sin(phase) + 0.25 * np.sin(3 * phase) + 0.1 * np.sin(5 * phase)
        envelope = _decay(t, 0.02, 0.5) * np.clip((length - t) / 0.08, 0, 1)
        mix.add(tone * envelope, 0.34 * i, 0.5)
    return mix.buffer


RECIPES: dict[str, tuple[Callable[[int], Stereo], float]] = {
    "deal": (_deal, 0.2),
    "play": (_play, 0.3),
    "sweep": (_sweep, 0.2),
    "pass": (_pass, 0.2),
    "hearts_broken": (_hearts_broken, 0.3),
    "queen": (_queen, 0.38),
    "moon": (_moon, 0.36),
    "illegal": (_illegal, 0.18),
    "win": (_win, 0.32),
    "lose": (_lose, 0.3),
}


def synthesize(name: str, rate: int = 44100) -> np.ndarray:
    """Return the sound ``name`` as int16 stereo samples, shape (n, 2), at ``rate`` Hz.

    Every sound is shorter than ``MAX_SECONDS`` and peaks below ``MAX_PEAK`` of full scale.
    """
    if name not in RECIPES:
        raise ValueError(f"unknown sound {name!r}; expected one of {', '.join(SOUND_NAMES)}")
    if rate < 8000:
        raise ValueError(f"sample rate too low: {rate}")
    recipe, level = RECIPES[name]
    samples = recipe(rate)
    fade = min(len(samples), max(1, round(0.004 * rate)))
    samples[:fade] *= np.linspace(0.0, 1.0, fade)[:, None]
    samples[-fade:] *= np.linspace(1.0, 0.0, fade)[:, None]
    peak = float(np.max(np.abs(samples)))
    if peak > 0:
        samples *= min(level, MAX_PEAK) / peak
    return np.round(samples * 32767).astype(np.int16)
