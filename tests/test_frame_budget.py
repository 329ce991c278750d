"""Preparing ahead a piece at a time: a frame's budget, the card art's and the sounds' use of it.

No test here times anything: each gives a budget that is either long past or far ahead, and
checks which pieces start.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future

import pygame
import pytest

import game.table.card_art as card_art
import game.table.sounds as sounds
from game.table.card_art import CardArt
from game.table.frame_budget import FrameBudget
from game.table.sounds import SOUND_NAMES, SoundBoard

FAR = 60.0


def test_a_piece_longer_than_the_budget_starts_only_as_the_first() -> None:
    budget = FrameBudget(time.perf_counter() + FAR)
    assert budget.allows(10 * FAR), "the first piece always starts while time is left"
    budget.done()
    assert not budget.allows(10 * FAR), "a second long piece waits for the next frame"
    assert budget.allows(0.0)


def test_nothing_starts_once_the_deadline_has_passed() -> None:
    budget = FrameBudget(time.perf_counter() - 1)
    assert not budget.allows(0.0)


def test_callers_given_one_deadline_share_its_budget() -> None:
    deadline = time.perf_counter() + FAR
    first = FrameBudget.of(deadline)
    assert FrameBudget.of(deadline) is first
    assert FrameBudget.of(first) is first
    assert FrameBudget.of(deadline + 1) is not first


def test_card_art_warms_one_slow_piece_a_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every piece expected to take longer than the budget, each call draws one."""
    monkeypatch.setattr(card_art, "_RATES", {})
    monkeypatch.setattr(card_art, "_learn_rate", lambda kind, rate: None)
    monkeypatch.setattr(card_art, "PRIOR_RATE", 1.0)
    art = CardArt(90)
    assert not art.warm(time.perf_counter() + FAR)
    assert art._back is not None and art._shadow is None and art.drawn == 0
    assert not art.warm(time.perf_counter() + FAR)
    assert art._shadow is not None and art.drawn == 0
    for drawn in range(1, 52):
        assert not art.warm(time.perf_counter() + FAR)
        assert art.drawn == drawn
    assert art.warm(time.perf_counter() + FAR)
    assert art.drawn == 52


def test_card_art_warms_every_piece_that_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(card_art, "_RATES", {})
    monkeypatch.setattr(card_art, "_learn_rate", lambda kind, rate: None)
    monkeypatch.setattr(card_art, "PRIOR_RATE", 0.0)
    art = CardArt(90)
    assert art.warm(time.perf_counter() + FAR)
    assert art.drawn == 52


@pytest.fixture
def mixer_off():
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


def test_sounds_are_synthesised_off_the_frames_thread(
    mixer_off: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = sounds.synthesize

    def recording(name: str, rate: int = 44100) -> object:
        threads.append(threading.current_thread().name)
        return real(name, rate)

    monkeypatch.setattr(sounds, "synthesize", recording)
    board = SoundBoard()
    assert board.available
    while not board.preload(time.perf_counter() + FAR):
        time.sleep(0.001)
    assert len(threads) == len(SOUND_NAMES)
    assert threading.current_thread().name not in threads
    assert all(name.startswith("mdh-sounds") for name in threads)


def test_preload_without_a_deadline_waits_for_every_sound(mixer_off: None) -> None:
    board = SoundBoard()
    assert board.preload()
    assert board.preload(time.perf_counter() - 1), "all made: nothing is left to wait for"


def test_no_sound_is_asked_for_once_the_frame_is_spent(
    mixer_off: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[object] = []

    class Recording:
        """Records what the background thread is asked to make, and makes nothing."""

        def submit(self, *job: object) -> Future[object]:
            asked.append(job)
            return Future()

    monkeypatch.setattr(sounds, "_synthesiser", Recording)
    board = SoundBoard()
    assert board.available
    assert not board.preload(time.perf_counter() - 1)
    assert asked == []
    # With time left every sound is asked for (none is ever made here: the frame waits for
    # the first until its short budget is spent).
    assert not board.preload(time.perf_counter() + 0.01)
    assert len(asked) == len(SOUND_NAMES)


def test_a_sound_that_cannot_be_made_does_not_keep_the_preparing_going(
    mixer_off: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = sounds.synthesize

    def failing(name: str, rate: int = 44100) -> object:
        if name == "moon":
            raise RuntimeError("no moon today")
        return real(name, rate)

    monkeypatch.setattr(sounds, "synthesize", failing)
    board = SoundBoard()
    assert board.available
    for _ in range(10_000):
        if board.preload(time.perf_counter() + FAR):
            break
        time.sleep(0.001)
    else:
        pytest.fail("preparing never ended")
    board.play("queen")
    board.play("moon")  # silent, never raising


def test_a_frame_waits_for_a_sound_being_made_only_within_its_budget(
    mixer_off: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sound the thread is making is waited for while the budget lasts, so even a loop that
    never sleeps gives the thread time; once the budget is spent the frame goes on."""
    waits: list[float | None] = []

    class Slow(Future[object]):
        """Samples that are never ready; records how long each wait for them was allowed."""

        def exception(self, timeout: float | None = None) -> BaseException | None:
            waits.append(timeout)
            raise TimeoutError

    class Recording:
        def submit(self, *job: object) -> Future[object]:
            return Slow()

    monkeypatch.setattr(sounds, "_synthesiser", Recording)
    board = SoundBoard()
    assert board.available
    assert not board.preload(time.perf_counter() + FAR)
    assert waits and all(wait is not None and 0 < wait <= FAR for wait in waits)
    waits.clear()
    assert not board.preload(time.perf_counter() - 1)
    assert waits == [], "no waiting once the frame's budget is spent"
