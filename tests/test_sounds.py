"""Sounds: short, quiet int16 stereo, distinct, and a sound board that never fails loudly."""

from __future__ import annotations

import itertools

import numpy as np
import pygame
import pytest

from game.sounds import MAX_PEAK, MAX_SECONDS, SOUND_NAMES, SoundBoard, synthesize


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


def test_board_plays_every_sound_and_mutes(mixer_off, capfd) -> None:
    board = SoundBoard()
    assert board.available
    board.preload()
    for name in SOUND_NAMES:
        board.play(name)
    board.enabled = False
    assert not board.enabled
    for name in SOUND_NAMES:
        board.play(name)
    board.enabled = True
    board.play("win")
    out = capfd.readouterr()
    assert out.out == "" and out.err == ""


def test_board_starts_muted(mixer_off) -> None:
    board = SoundBoard(enabled=False)
    assert not board.enabled
    board.play("deal")
    assert not pygame.mixer.get_init()


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
