"""The felt under the table: a smooth light, without bands even on a 4K screen."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from game.table import theme


def rows(surface: pygame.Surface) -> np.ndarray:
    """Return the surface's pixels as a float (height, width, 3) array."""
    return pygame.surfarray.array3d(surface).transpose(1, 0, 2).astype(np.float64)


@pytest.mark.parametrize("size", [(3840, 2160), (1024, 1280), (1281, 721)])
def test_the_felt_follows_its_light_without_bands(size: tuple[int, int]) -> None:
    """Averaged over 8×8 pixels, the felt is within a fifth of a colour step of the exact
    light: a felt quantised to whole steps shows bands (errors up to half a step)."""
    theme.felt.cache_clear()
    pixels = rows(theme.felt(size))
    width, height = size
    assert pixels.shape == (height, width, 3)
    shade = theme.felt_shade(size).astype(np.float64)
    felt, edge = np.array(theme.FELT, float), np.array(theme.FELT_EDGE, float)
    exact = felt + (edge - felt) * shade[..., None]
    h8, w8 = height // 8 * 8, width // 8 * 8

    def blocks(values: np.ndarray) -> np.ndarray:
        return values[:h8, :w8].reshape(h8 // 8, 8, w8 // 8, 8, 3).mean(axis=(1, 3))

    error = np.abs(blocks(pixels) - blocks(exact))
    assert error.max() <= 0.2, f"a block is {error.max():.2f} of a step off the light"
    # Neighbouring pixels never jump: at most one step per channel from one row to the next.
    assert np.abs(np.diff(pixels, axis=0)).max() <= 1
    assert np.abs(pixels - exact).max() < 1, "the dither strays beyond one step"


def test_the_felt_is_symmetric_and_cached() -> None:
    theme.felt.cache_clear()
    surface = theme.felt((1001, 600))
    pixels = rows(surface)
    assert np.array_equal(pixels, pixels[::-1]) and np.array_equal(pixels, pixels[:, ::-1])
    assert theme.felt((1001, 600)) is surface
    centre, corner = pixels[300, 500], pixels[0, 0]
    assert centre.sum() > corner.sum() + 60, "the centre is lit and the corners dark"
