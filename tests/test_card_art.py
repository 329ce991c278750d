"""Card art: exact sizes, distinct faces, real suit glyphs, suit colours and bounded caches."""

from __future__ import annotations

import time

import numpy as np
import pygame
import pytest

from core.cards import CLUBS, DIAMONDS, HEARTS, SPADES, SUIT_SYMBOLS, make_card, parse_card
from game.table.card_art import CARD_ASPECT, CardArt, CardArtCache, CardStyle
from game.table.fonts import MIN_PX, font, render_text

WIDTHS = (40, 71, 150, 300)
MISSING = "\uffff"


@pytest.fixture(scope="module", autouse=True)
def _fonts() -> None:
    pygame.font.init()


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


def rgba(surface: pygame.Surface) -> np.ndarray:
    """Return the surface's pixels as an (n, 4) array."""
    data = np.frombuffer(pixels(surface), dtype=np.uint8)
    return data.reshape(-1, 4)


def opaque_count(surface: pygame.Surface, test) -> int:
    """Count opaque pixels whose (r, g, b) pass ``test``."""
    p = rgba(surface).astype(int)
    r, g, b, a = p[:, 0], p[:, 1], p[:, 2], p[:, 3]
    return int(np.count_nonzero(test(r, g, b) & (a > 200)))


def reddish(r, g, b):
    return (r > 150) & (g < 90) & (b < 90)


def bluish(r, g, b):
    return (b > 150) & (r < 90) & (g < 130)


def greenish(r, g, b):
    return (g > 100) & (r < 70) & (b < 110)


@pytest.mark.parametrize("width", WIDTHS)
def test_every_surface_has_the_card_size(width: int) -> None:
    art = CardArt(width)
    assert art.size == (width, round(width * CARD_ASPECT))
    surfaces = [art.face(0), art.face(51), art.face(parse_card("QS")), art.back()]
    surfaces += [art.shadow(), art.outline((255, 210, 0))]
    for surface in surfaces:
        assert surface.get_size() == art.size


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("style", [CardStyle(), CardStyle(four_colour=True, large_print=True)])
def test_all_52_faces_differ(width: int, style: CardStyle) -> None:
    art = CardArt(width, style)
    images = [pixels(art.face(card)) for card in range(52)] + [pixels(art.back())]
    assert len(set(images)) == 53


@pytest.mark.parametrize("width", WIDTHS)
def test_corners_are_transparent_and_the_middle_opaque(width: int) -> None:
    art = CardArt(width)
    w, h = art.size
    for surface in (art.face(parse_card("AS")), art.face(parse_card("KH")), art.back()):
        for corner in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
            assert surface.get_at(corner).a == 0
        assert surface.get_at((w // 2, h // 2)).a == 255
        assert surface.get_at((w // 2, 0)).a == 255


def test_suit_glyphs_are_real_not_missing_boxes() -> None:
    renders = [pixels(font(48).render(symbol, True, (0, 0, 0))) for symbol in SUIT_SYMBOLS]
    missing = pixels(font(48).render(MISSING, True, (0, 0, 0)))
    assert len(set(renders)) == 4
    assert missing not in renders
    # The check can tell: pygame's default font has no ♠, which renders like a missing glyph.
    default = pygame.font.Font(None, 48)
    assert pixels(default.render("♠", True, (0, 0, 0))) == pixels(
        default.render(MISSING, True, (0, 0, 0))
    )


def test_red_suits_are_red_and_black_suits_are_not() -> None:
    art = CardArt(120)
    for rank in (0, 5, 9, 12):
        assert opaque_count(art.face(make_card(rank, HEARTS)), reddish) > 20
        assert opaque_count(art.face(make_card(rank, DIAMONDS)), reddish) > 20
        assert opaque_count(art.face(make_card(rank, SPADES)), reddish) == 0
        assert opaque_count(art.face(make_card(rank, CLUBS)), reddish) == 0


def test_four_colour_deck() -> None:
    art = CardArt(120, CardStyle(four_colour=True))
    diamond, club = art.face(make_card(5, DIAMONDS)), art.face(make_card(5, CLUBS))
    assert opaque_count(diamond, bluish) > 20
    assert opaque_count(diamond, reddish) == 0
    assert opaque_count(club, greenish) > 20
    assert opaque_count(art.face(make_card(5, HEARTS)), reddish) > 20
    spade = art.face(make_card(5, SPADES))
    assert opaque_count(spade, bluish) == opaque_count(spade, greenish) == 0


def test_large_print_has_a_bigger_index() -> None:
    normal, large = CardArt(150), CardArt(150, CardStyle(large_print=True))
    assert large.cap_height == pytest.approx(normal.cap_height * 1.5)
    card = parse_card("7D")
    assert pixels(large.face(card)) != pixels(normal.face(card))


def test_backs_differ_per_colour() -> None:
    backs = [pixels(CardArt(100, CardStyle(back=back)).back()) for back in ("blue", "red", "green")]
    assert len(set(backs)) == 3
    with pytest.raises(ValueError):
        CardStyle(back="purple")


def test_shadow_is_soft_and_outline_is_a_ring() -> None:
    art = CardArt(100)
    w, h = art.size
    shadow = art.shadow()
    assert 0 < shadow.get_at((w // 2, h // 2)).a < 255
    assert shadow.get_at((0, 0)).a == 0
    ring = art.outline((255, 200, 0))
    assert ring.get_at((w // 2, h // 2)).a == 0
    edge = ring.get_at((w // 2, 1))
    assert edge.a == 255 and (edge.r, edge.g, edge.b) == (255, 200, 0)
    assert art.outline((255, 200, 0)) is ring
    assert art.outline(pygame.Color(0, 120, 255)) is not ring


def test_surfaces_are_cached_per_instance() -> None:
    art = CardArt(80)
    assert art.face(7) is art.face(7)
    assert art.back() is art.back()
    assert art.shadow() is art.shadow()
    with pytest.raises(ValueError):
        art.face(52)


def test_warm_draws_ahead_within_its_time() -> None:
    art = CardArt(90)
    assert not art.warm(time.perf_counter() - 1)
    assert art.warm(time.perf_counter() + 60)
    face = art.face(30)
    assert art.warm(time.perf_counter() - 1)
    assert art.face(30) is face


def test_cache_keeps_only_recent_sizes() -> None:
    cache = CardArtCache(keep=3)
    first = cache.get(100)
    assert cache.get(100) is first
    assert cache.get(100, CardStyle(back="red")) is not first
    for width in (101, 102, 103):
        cache.get(width)
    assert len(cache) == 3
    assert (100, CardStyle()) not in cache
    assert cache.get(100) is not first


def test_faces_convert_to_the_display_format_when_a_window_exists() -> None:
    was_init = pygame.display.get_init()
    pygame.display.init()
    try:
        pygame.display.set_mode((64, 64))
        face = CardArt(60).face(parse_card("QS"))
        assert face.get_flags() & pygame.SRCALPHA
        assert face.get_at((0, 0)).a == 0
    finally:
        if not was_init:
            pygame.display.quit()


def test_fonts_are_cached_and_clamped() -> None:
    assert font(20) is font(20)
    assert font(20, bold=True) is not font(20)
    assert font(1).get_height() == font(MIN_PX).get_height()
    text = render_text("Q♠", 24, (10, 20, 30))
    assert render_text("Q♠", 24, pygame.Color(10, 20, 30)) is text
    assert text.get_flags() & pygame.SRCALPHA


def skin_count(surface: pygame.Surface) -> int:
    """Count the pixels in the colour of a court figure's face."""
    return opaque_count(
        surface, lambda r, g, b: (abs(r - 246) < 6) & (abs(g - 214) < 6) & (b > 170) & (b < 190)
    )


@pytest.mark.parametrize("width", (90, 150, 300))
def test_court_cards_show_a_figure_with_two_faces(width: int) -> None:
    art = CardArt(width)
    w, h = art.size
    for name in ("JD", "QS", "KH"):
        face = art.face(parse_card(name))
        top = face.subsurface((0, 0, w, h // 2))
        bottom = face.subsurface((0, h - h // 2, w, h // 2))
        assert skin_count(top) > 10 and skin_count(bottom) > 10, name
    assert skin_count(art.face(parse_card("TS"))) == 0


def test_kings_queens_and_jacks_are_drawn_differently() -> None:
    art = CardArt(150)
    middles = set()
    for name in ("JS", "QS", "KS"):
        face = art.face(parse_card(name))
        middles.add(pixels(face.subsurface((40, 60, 70, 90))))
    assert len(middles) == 3


def test_large_print_courts_show_their_figure_beside_the_index() -> None:
    """A large-print court overlapped by the next card of a hand still shows its figure
    beside the index: in the left 0.6 of the card (a hand fanned 0.6 to 0.72 of a card apart)
    and in its top half (the rows of every hand on the review page), a jack, a queen and a
    king differ (an empty panel with the suit is the same for all three)."""
    for width in (96, 150):
        art = CardArt(width, CardStyle(large_print=True))
        w, h = art.size
        left = round(w * 0.4)  # right of the corner index, which names the rank anyway
        for shown in ((left, 0, round(w * 0.2), h), (left, 0, w - left, h // 2)):
            faces = [art.face(parse_card(name)).subsurface(shown) for name in ("JS", "QS", "KS")]
            assert len({pixels(face) for face in faces}) == 3, (width, shown)


def test_a_quick_cache_scales_faces_from_a_drawn_size_and_keeps_that_size() -> None:
    """While quick (the frame after a resize), a face not drawn yet is scaled from a size
    already drawn; sizes passed through by a resize are dropped before the drawn one."""
    cache = CardArtCache(keep=2)
    drawn = cache.get(100)
    face = drawn.face(5)
    cache.quick = True
    for width in (110, 120, 130):
        art = cache.get(width)
        stand_in = art.face(5)
        assert stand_in.get_size() == art.size and not art.has_face(5)
        assert not art.warm(time.perf_counter() + 1), "nothing is drawn while quick"
    assert (100, CardStyle()) in cache and drawn.face(5) is face
    cache.quick = False
    exact = cache.get(130).face(5)
    assert cache.get(130).has_face(5) and exact is not stand_in
