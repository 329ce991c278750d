"""Where everything sits on the table, computed from the window size alone.

Positions are designed on a 1280×720 table and scaled with the window, so the table keeps its
proportions from a small window to a 4K screen. The scale follows both dimensions: a window
with room to spare one way (a tall window, 800×600) grows everything until the other way is
full, and the rest of the room goes around the centre. Text never gets smaller than
``MIN_TEXT_PX``. Seats go clockwise from the person at the bottom: seat 1 on
the left, seat 2 at the top, seat 3 on the right (passing left gives to seat 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from pygame import Rect

BASE_WIDTH = 1280
BASE_HEIGHT = 720
CARD_ASPECT = 1.4
#: The person's card width and the bots' card width at the base size.
BASE_CARD_WIDTH = 92
BASE_SMALL_CARD_WIDTH = 58
#: The smallest window the design fits at scale 1: the hand between the name plates and the
#: top bar's header and buttons across; the seats, the trick and the lifted hand down.
FIT_WIDTH = 1000
FIT_HEIGHT = 620
#: The smallest text the table draws, in pixels: still readable on any screen.
MIN_TEXT_PX = 13
#: How far a hovered or selected card rises, as a share of its height.
LIFT = 0.22
#: The room between the window's edge and what is drawn along it, at the base size.
EDGE_MARGIN = 14
#: How much larger than the design's the cards of a tall window may grow, and the share of a
#: tall window's extra height (over the design's shape) that goes to them.
MAX_CARD_GROWTH = 2.0
TALL_SHARE = 0.8


@dataclass(frozen=True)
class Layout:
    """Rectangles and sizes for one window size (all in real pixels)."""

    width: int
    height: int
    scale: float
    card_size: tuple[int, int]
    small_card_size: tuple[int, int]
    hand_area: Rect
    opponent_areas: tuple[Rect, Rect, Rect, Rect]
    name_plates: tuple[Rect, ...]
    trick_centres: tuple[tuple[int, int], ...]
    centre: tuple[int, int]
    top_bar: Rect
    message_area: Rect
    action_button: Rect

    @property
    def size(self) -> tuple[int, int]:
        """Return the window size the layout is for."""
        return (self.width, self.height)

    def px(self, logical: float) -> int:
        """Return a length given at the base size in pixels for this window (at least 1)."""
        return max(1, round(logical * self.scale))

    def text(self, logical: float) -> int:
        """Return a text size given at the base size in pixels for this window, kept readable."""
        return max(MIN_TEXT_PX, self.px(logical))

    def hand_positions(self, count: int) -> list[tuple[int, int]]:
        """Return the centres of the person's ``count`` cards, spread and centred."""
        if count <= 0:
            return []
        width = self.card_size[0]
        area = self.hand_area
        step = min(width * 0.72, (area.width - width) / max(1, count - 1))
        span = step * (count - 1)
        left = area.centerx - span / 2
        return [(round(left + i * step), area.centery) for i in range(count)]

    def opponent_positions(self, seat: int, count: int) -> list[tuple[int, int]]:
        """Return the centres of a bot seat's face-down cards, spread along its side."""
        if count <= 0:
            return []
        area = self.opponent_areas[seat]
        vertical = seat in (1, 3)
        length = area.height if vertical else area.width
        card_length = self.small_card_size[1 if vertical else 0]
        step = min(card_length * 0.34, (length - card_length) / max(1, count - 1))
        span = step * (count - 1)
        if vertical:
            top = area.centery - span / 2
            return [(area.centerx, round(top + i * step)) for i in range(count)]
        left = area.centerx - span / 2
        return [(round(left + i * step), area.centery) for i in range(count)]

    def seat_anchor(self, seat: int) -> tuple[int, int]:
        """Return where a seat's cards come from and go to (a deal, a pass, a play)."""
        if seat == 0:
            return self.hand_area.center
        return self.opponent_areas[seat].center

    def panel(self, width: int, height: int, margin: int) -> Rect:
        """Return a panel centred on the window, at most the window less ``margin`` a side.

        A panel that would cover part of a name plate grows (evenly about the centre) to
        cover it whole, so no sliver of a plate shows beside it; growing may reach another
        plate, which it then covers too.
        """
        rect = Rect(
            0, 0, min(width, self.width - 2 * margin), min(height, self.height - 2 * margin)
        )
        rect.center = (self.width // 2, self.height // 2)
        for _ in self.name_plates:  # each pass covers at least one more plate
            cut = [p for p in self.name_plates if rect.colliderect(p) and not rect.contains(p)]
            if not cut:
                break
            grown = rect.unionall(cut)
            half_w = max(rect.centerx - grown.left, grown.right - rect.centerx)
            half_h = max(rect.centery - grown.top, grown.bottom - rect.centery)
            rect = Rect(rect.centerx - half_w, rect.centery - half_h, 2 * half_w, 2 * half_h)
        return rect.clip(Rect(0, 0, self.width, self.height))

    def pile_position(self, seat: int) -> tuple[int, int]:
        """Return where a trick won by ``seat`` is swept to: beside its name plate.

        The pile (a card's size) lies on the table side of the plate, inside the window, below
        the top bar and off the seat's own cards.
        """
        plate = self.name_plates[seat]
        gap = self.px(8)
        pile = Rect(0, 0, *self.card_size)
        if seat == 0:  # the plate is left of the hand: above it
            pile.midbottom = (plate.centerx, plate.top - gap)
        elif seat == 1:  # the plate is under West's cards: to its right
            pile.bottomleft = (plate.right + gap, plate.bottom)
        elif seat == 3:  # the plate is under East's cards: to its left
            pile.bottomright = (plate.left - gap, plate.bottom)
        elif plate.left >= self.opponent_areas[2].right:  # beside North's cards: below it
            pile.midtop = (plate.centerx, plate.bottom + gap)
        else:  # under North's cards: to its right
            pile.topleft = (plate.right + gap, plate.top)
        felt = Rect(0, self.top_bar.bottom, self.width, self.height - self.top_bar.bottom)
        return pile.clamp(felt).center


def trick_spots(
    centre: tuple[int, int],
    card: tuple[int, int],
    room_width: int,
    room_height: int | None = None,
) -> tuple[tuple[int, int], ...]:
    """Return the centres of the four seats' trick cards, none covering another.

    Every card shows its corner index whatever the order of play: West and East lie beside
    North over South when three cards fit across ``room_width``; else North above and South
    below West beside East. A wide, low table (two cards do not fit in ``room_height``) lays
    the trick in a row, West to East, North a little higher than South.
    """
    width, height = card
    gap = max(2, round(width * 0.08))
    cx, cy = centre
    low = room_height is not None and 2 * height + gap > room_height
    if low and 4 * width + 3 * gap <= room_width:
        step = width + gap
        rise = round(height * 0.12)
        return (
            (round(cx + step / 2), cy + rise),
            (round(cx - 1.5 * step), cy),
            (round(cx - step / 2), cy - rise),
            (round(cx + 1.5 * step), cy),
        )
    dx: float = width + gap
    dy: float = (height + gap) / 2
    if 3 * width + 2 * gap > room_width:
        dx, dy = (width + gap) / 2, height + gap
    return (
        (cx, round(cy + dy)),
        (round(cx - dx), cy),
        (cx, round(cy - dy)),
        (round(cx + dx), cy),
    )


def table_scale(width: int, height: int) -> float:
    """Return the scale of the base design for a window of this size.

    A window of the base shape scales by its size (1920×1080 by 1.5). A window with room to
    spare one way scales by the other way's room, up to the design's fitting size
    (``FIT_WIDTH`` × ``FIT_HEIGHT``), but never beyond its larger ratio to the base size.
    """
    ratios = (width / BASE_WIDTH, height / BASE_HEIGHT)
    roomy = min(width / FIT_WIDTH, height / FIT_HEIGHT, max(ratios))
    return max(min(ratios), roomy)


def compute_layout(width: int, height: int) -> Layout:
    """Return the layout of a window of this size (at least 1×1)."""
    width, height = max(1, width), max(1, height)
    scale = table_scale(width, height)

    def px(value: float) -> int:
        return max(1, round(value * scale))

    margin = px(EDGE_MARGIN)
    top_bar = Rect(0, 0, width, max(px(44), round(MIN_TEXT_PX * 3)))
    # A name plate holds two lines: the seat's name, and its points under it.
    plate_w, plate_h = px(200), max(px(48), round(MIN_TEXT_PX * 3.4))
    gap = px(6)
    # A tall window (more height than the design's shape uses) grows the cards into the room
    # and puts the person's name plate above the hand, which then takes the whole width.
    growth = min(MAX_CARD_GROWTH, max(1.0, height / scale / BASE_HEIGHT * TALL_SHARE))
    tall = growth > 1.0
    if tall:
        hand_w = width - 2 * margin
    else:
        hand_w = min(width - 2 * margin - 2 * (plate_w + margin), px(1000))
    card_w = px(BASE_CARD_WIDTH)
    if tall:  # thirteen cards fanned at least 0.42 of a card apart still fit the hand
        card_w = max(card_w, min(round(card_w * growth), int(hand_w / (1 + 0.42 * 12))))
    card = (card_w, round(card_w * CARD_ASPECT))
    small_w = round(px(BASE_SMALL_CARD_WIDTH) * (1 + (growth - 1) / 2))  # half the growth
    small = (small_w, round(small_w * CARD_ASPECT))

    lift = round(card[1] * LIFT)
    hand_area = Rect(0, 0, max(card_w, hand_w), card[1])
    hand_area.midbottom = (width // 2, height - margin)
    # Where the table ends above the hand (and its lifted cards, and in a tall window the
    # person's name plate).
    table_bottom = hand_area.top - lift - (plate_h + gap if tall else 0)

    # The side seats' cards with their name plates below, centred between bar and hand.
    room = table_bottom - top_bar.bottom - 2 * margin
    side_h = max(small[0], min(room - plate_h - gap, px(420)))
    group_top = top_bar.bottom + margin + (room - side_h - plate_h - gap) // 2
    left = Rect(margin, group_top, small[1], side_h)
    right = left.copy()
    right.right = width - margin
    top = Rect(0, 0, min(px(520), width - 2 * (left.width + 3 * margin)), small[1])
    top.midtop = (width // 2, top_bar.bottom + margin)
    opponents = (Rect(hand_area), left, top, right)

    plates = tuple(Rect(0, 0, plate_w, plate_h) for _ in range(4))
    if tall:
        plates[0].bottomleft = (margin, hand_area.top - lift - gap)
    else:
        plates[0].bottomright = (hand_area.left - margin, height - margin)
    plates[1].topleft = (margin, left.bottom + gap)
    plates[2].midleft = (top.right + px(12), top.centery)
    if plates[2].right > width - margin - left.width - margin:
        plates[2].midtop = (top.centerx, top.bottom + gap)
    plates[3].topright = (width - margin, right.bottom + gap)

    table_top = top.bottom
    centre = (width // 2, (table_top + table_bottom) // 2)
    cx, cy = centre
    message_h = px(34)
    room_height = table_bottom - table_top - 2 * (message_h + px(6))  # the message fits below
    room_width = right.left - left.right - 2 * margin
    trick_centres = trick_spots(centre, card, room_width, room_height)

    message_area = Rect(0, 0, min(width - 2 * margin, px(760)), message_h)
    message_area.midbottom = (width // 2, table_bottom - px(6))
    if message_area.collidelist([plates[1], plates[3]]) >= 0:  # keep it between the side plates
        message_area.width = plates[3].left - plates[1].right - 2 * margin
        message_area.centerx = width // 2
    action_button = Rect(0, 0, px(200), px(44))
    action_button.center = (cx, cy)
    return Layout(
        width,
        height,
        scale,
        card,
        small,
        hand_area,
        opponents,
        plates,
        trick_centres,
        centre,
        top_bar,
        message_area,
        action_button,
    )
