"""The compiled kernel and its pure-Python twin give identical results on random positions."""

from __future__ import annotations

import os
import random

import pytest

from core import kernel, kernel_py

compiled = pytest.importorskip("core._kernel", reason="compiled kernel not built")

POSITIONS = 100_000


def test_compiled_kernel_is_loaded_when_required() -> None:
    if os.environ.get("MDH_REQUIRE_COMPILED") != "1":
        pytest.skip("MDH_REQUIRE_COMPILED is not set")
    assert kernel.COMPILED


def _random_position(rng: random.Random) -> tuple[int, int, bool, bool, int]:
    size = rng.randint(1, 13)
    hand = 0
    for card in rng.sample(range(52), size):
        hand |= 1 << card
    led_suit = rng.choice((-1, 0, 1, 2, 3))
    first_trick = rng.random() < 0.3
    if first_trick and led_suit == -1 and rng.random() < 0.8:
        hand |= 1  # the first leader holds the 2♣
    return hand, led_suit, first_trick, rng.random() < 0.5, rng.randrange(64)


def test_legal_mask_agrees_on_many_positions() -> None:
    rng = random.Random(20261122)
    for _ in range(POSITIONS):
        position = _random_position(rng)
        assert compiled.legal_mask(*position) == kernel_py.legal_mask(*position), position


def test_trick_winner_and_points_agree() -> None:
    rng = random.Random(7)
    for _ in range(POSITIONS // 4):
        cards = rng.sample(range(52), 4)
        assert compiled.trick_winner_offset(*cards) == kernel_py.trick_winner_offset(*cards)
        mask = 0
        for card in rng.sample(range(52), rng.randint(0, 20)):
            mask |= 1 << card
        flags = rng.randrange(64)
        assert compiled.trick_points(mask, flags) == kernel_py.trick_points(mask, flags)


def test_random_generator_agrees() -> None:
    state_c = state_p = 12345
    for _ in range(10_000):
        value_c, state_c = compiled.next_random(state_c)
        value_p, state_p = kernel_py.next_random(state_p)
        assert (value_c, state_c) == (value_p, state_p)


@pytest.mark.parametrize("flags", [0, 14, 63, 2 | 8])
def test_random_playouts_agree(flags: int) -> None:
    for seed in range(300):
        assert compiled.random_playout(seed, flags) == kernel_py.random_playout(seed, flags)
    assert compiled.random_playouts(500, 99, flags) == kernel_py.random_playouts(500, 99, flags)


def test_random_playouts_are_valid_hands() -> None:
    for seed in range(500):
        points, shooter = kernel_py.random_playout(seed, 14)
        if shooter >= 0:
            assert sorted(points) == [0, 26, 26, 26]
        else:
            assert sum(points) == 26
