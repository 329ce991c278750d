"""The table's layout at every window size: on screen, no overlaps, proportions kept."""

from __future__ import annotations

import itertools

import pytest
from pygame import Rect

from game.table.hand_drawing import hand_page_panel
from game.table.layout import LIFT, compute_layout

SIZES = [
    (640, 480),
    (1024, 768),
    (1280, 720),
    (1366, 768),
    (1600, 900),
    (1920, 1080),
    (2560, 1440),
    (3840, 2160),
    (1080, 1920),
    (2560, 1080),
    (800, 1280),
    (1024, 1280),
]


def _rect(centre: tuple[float, float], size: tuple[int, int]) -> Rect:
    rect = Rect(0, 0, *size)
    rect.center = (round(centre[0]), round(centre[1]))
    return rect


def _hand_rect(layout, count: int = 13) -> Rect:  # type: ignore[no-untyped-def]
    spots = layout.hand_positions(count)
    rect = _rect(spots[0], layout.card_size).union(_rect(spots[-1], layout.card_size))
    lift = round(layout.card_size[1] * LIFT)
    return Rect(rect.left, rect.top - lift, rect.width, rect.height + lift)


def _side_rect(layout, seat: int) -> Rect:  # type: ignore[no-untyped-def]
    size = layout.small_card_size
    if seat in (1, 3):
        size = (size[1], size[0])
    spots = layout.opponent_positions(seat, 13)
    return _rect(spots[0], size).union(_rect(spots[-1], size))


@pytest.mark.parametrize("size", SIZES)
def test_everything_is_on_screen_and_apart(size: tuple[int, int]) -> None:
    layout = compute_layout(*size)
    screen = Rect(0, 0, *size)
    hands = [
        _hand_rect(layout),
        _side_rect(layout, 1),
        _side_rect(layout, 2),
        _side_rect(layout, 3),
    ]
    tricks = [_rect(c, layout.card_size) for c in layout.trick_centres]
    trick_area = tricks[0].unionall(tricks[1:])
    plates = list(layout.name_plates)
    for rect in [*hands, *plates, trick_area, layout.message_area, layout.top_bar]:
        assert screen.contains(rect), (size, rect)
    for a, b in itertools.combinations(hands, 2):
        assert not a.colliderect(b), (size, a, b)
    for hand in hands:
        assert not hand.colliderect(trick_area), (size, hand)
        assert not hand.colliderect(layout.top_bar) or hand is hands[0], (size, hand)
    for a, b in itertools.combinations(plates, 2):
        assert not a.colliderect(b), (size, a, b)
    for plate, hand in itertools.product(plates, hands):
        assert not plate.colliderect(hand), (size, plate, hand)
    for plate in plates:
        assert not plate.colliderect(trick_area), (size, plate)
        assert not plate.colliderect(layout.top_bar), (size, plate)
    assert not layout.message_area.colliderect(trick_area)
    assert not layout.message_area.colliderect(hands[0])


def test_cards_grow_with_the_window_and_keep_their_shape() -> None:
    widths = [
        compute_layout(w, h).card_size[0] for w, h in [(1280, 720), (1920, 1080), (3840, 2160)]
    ]
    assert widths[0] < widths[1] < widths[2]
    assert widths[2] == pytest.approx(3 * widths[0], abs=3)
    for w, h in SIZES:
        cw, ch = compute_layout(w, h).card_size
        assert ch / cw == pytest.approx(1.4, abs=0.02)


def test_hand_stays_centred_as_it_shrinks() -> None:
    layout = compute_layout(1920, 1080)
    for count in range(1, 14):
        spots = layout.hand_positions(count)
        middle = (spots[0][0] + spots[-1][0]) / 2
        assert middle == pytest.approx(layout.width / 2, abs=1)
        assert all(b[0] > a[0] for a, b in itertools.pairwise(spots))


@pytest.mark.parametrize("size", [(1024, 1280), (1080, 1920), (800, 1280)])
def test_a_tall_window_grows_the_cards_and_gives_the_hand_its_width(size: tuple[int, int]) -> None:
    """A tall window's spare height goes to larger cards, not to empty felt; the person's
    name plate sits above the hand, which spreads across the window."""
    layout = compute_layout(*size)
    assert layout.card_size[0] >= 1.3 * layout.px(92), layout.card_size
    hand = _hand_rect(layout)
    assert hand.width >= 0.8 * layout.width, hand
    plate = layout.name_plates[0]
    assert plate.bottom <= hand.top and plate.left == layout.px(14), plate
    # The felt between the north seat's plate and the lifted hand is mostly used: the trick
    # and the message take at least a third of it.
    tricks = [_rect(c, layout.card_size) for c in layout.trick_centres]
    trick_area = tricks[0].unionall(tricks[1:])
    north = layout.name_plates[2].bottom
    assert trick_area.height + layout.message_area.height >= (plate.top - north) / 3


@pytest.mark.parametrize("size", SIZES)
def test_a_hand_page_covers_each_name_plate_whole_or_not_at_all(size: tuple[int, int]) -> None:
    """A page over the table leaves no sliver of a name plate showing at its side."""
    layout = compute_layout(*size)
    panel = hand_page_panel(layout)
    assert Rect(0, 0, *size).contains(panel)
    for plate in layout.name_plates:
        assert panel.contains(plate) or not panel.colliderect(plate), (plate, panel)
