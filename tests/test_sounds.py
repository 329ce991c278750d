"""Sounds: short, quiet int16 stereo, distinct, and a sound board that never fails loudly."""

from __future__ import annotations

import itertools
from typing import ClassVar

import numpy as np
import pygame
import pytest

from game.table.sound_synthesis import MAX_PEAK, MAX_SECONDS, SOUND_NAMES, synthesize
from game.table.sounds import SoundBoard


@pytest.mark.parametrize("name", SOUND_NAMES)
@pytest.mark.parametrize("rate", [22050, 44100, 48000])
def test_sound_shape_level_and_length(name: str, rate: int) -> None:
    samples = synthesize(name, rate)
    assert samples.dtype == np.int16
    assert samples.ndim == 2 and samples.shape[1] == 2
    assert 0 < len(samples) < MAX_SECONDS * rate
    peak = int(np.max(np.abs(samples.astype(np.int32))))
    assert 0.05 * 32767 < peak <= MAX_PEAK * 32767
    assert abs(int(samples[0, 0])) < 200 and abs(int(samples[-1, 0])) < 200


def test_sounds_are_distinct_and_repeatable() -> None:
    sounds = {name: synthesize(name) for name in SOUND_NAMES}
    for a, b in itertools.combinations(SOUND_NAMES, 2):
        x, y = sounds[a], sounds[b]
        assert x.shape != y.shape or not np.array_equal(x, y), (a, b)
    assert np.array_equal(synthesize("queen"), sounds["queen"])


def test_unknown_sound_is_an_error() -> None:
    with pytest.raises(ValueError):
        synthesize("applause")
    with pytest.raises(ValueError):
        SoundBoard().play("applause")


@pytest.fixture
def mixer_off():
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


class SpySound(pygame.mixer.Sound):
    """A real mixer sound that also records each time it is played."""

    played: ClassVar[list[SpySound]] = []

    def play(self, loops: int = 0, maxtime: int = 0, fade_ms: int = 0) -> pygame.mixer.Channel:
        SpySound.played.append(self)
        return super().play(loops, maxtime, fade_ms)


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[SpySound]:
    """Make the sound board's sounds record their plays; return the record."""
    SpySound.played = []
    monkeypatch.setattr(pygame.mixer, "Sound", SpySound)
    return SpySound.played


def names_played(board: SoundBoard, played: list[SpySound]) -> list[str]:
    """Return the names of the played sounds, in order."""
    names = {id(board._sound(name)): name for name in SOUND_NAMES}
    return [names[id(sound)] for sound in played]


# The queen's sound is long enough (1.4 s) to still be playing when checked.
LONG_SOUND = "queen"


def test_board_plays_every_sound_when_on(
    mixer_off: None, played: list[SpySound], capfd: pytest.CaptureFixture[str]
) -> None:
    board = SoundBoard()
    assert board.available and board.enabled
    board.preload()
    for name in SOUND_NAMES:
        board.play(name)
    assert names_played(board, played) == list(SOUND_NAMES)
    assert pygame.mixer.get_busy()
    assert board._sound(LONG_SOUND).get_num_channels() == 1
    out = capfd.readouterr()
    assert out.out == "" and out.err == ""


def test_muting_silences_what_plays_and_what_follows(
    mixer_off: None, played: list[SpySound]
) -> None:
    board = SoundBoard()
    board.play(LONG_SOUND)
    assert names_played(board, played) == [LONG_SOUND] and pygame.mixer.get_busy()
    board.enabled = False
    assert not board.enabled
    assert not pygame.mixer.get_busy(), "muting did not stop the sound playing"
    for name in SOUND_NAMES:
        board.play(name)
    assert names_played(board, played) == [LONG_SOUND]
    assert not pygame.mixer.get_busy()
    board.enabled = True
    board.play("win")
    assert names_played(board, played) == [LONG_SOUND, "win"]
    assert pygame.mixer.get_busy()


def test_board_starts_muted(mixer_off: None, played: list[SpySound]) -> None:
    board = SoundBoard(enabled=False)
    assert not board.enabled
    for name in SOUND_NAMES:
        board.play(name)
    assert played == []
    assert not pygame.mixer.get_init()
    board.enabled = True
    board.play("deal")
    assert names_played(board, played) == ["deal"]


def test_board_survives_a_missing_audio_device(mixer_off, monkeypatch, capfd) -> None:
    def no_device(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    board = SoundBoard()
    assert not board.available
    for name in SOUND_NAMES:
        board.play(name)
    board.enabled = False
    out = capfd.readouterr()
    assert out.out == "" and out.err == ""


@pytest.mark.parametrize(("frequency", "size", "channels"), [(22050, -16, 1), (48000, 32, 2)])
def test_board_follows_an_open_mixer(mixer_off, frequency: int, size: int, channels: int) -> None:
    pygame.mixer.init(frequency=frequency, size=size, channels=channels)
    spec = pygame.mixer.get_init()
    board = SoundBoard()
    assert board.available
    for name in SOUND_NAMES:
        board.play(name)
    rate, _, got_channels = spec
    sound = board._sound("play")
    expected = len(synthesize("play", rate))
    assert sound.get_length() == pytest.approx(expected / rate, rel=0.01)
    assert got_channels == channels
