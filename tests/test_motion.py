"""How cards move on the real table: the deal, the pass exchange, the trick and its sweep, and
the "+N" labels, checked frame by frame (and pixel by pixel where it matters) at several sizes.
"""

from __future__ import annotations

import itertools
import math

import pygame
import pytest
from table_driver import Driver, MakeDriver

from core.rules import pass_sender
from game.table.anim import Point
from game.table.card_art import CardArt
from game.table.layout import LIFT, Layout, compute_layout, trick_spots
from game.table.scenes.table import TableScene
from game.table.session import TableSession
from game.table.table_view import DrawnCard, Key

SEED = 20241122
#: The sizes every layout check runs at: common screens, small and tall windows.
SIZES = [
    (640, 480),
    (800, 600),
    (1024, 768),
    (1280, 720),
    (1366, 768),
    (1920, 1080),
    (2560, 1440),
    (3840, 2160),
    (1024, 1280),
    (1080, 1920),
    (800, 1280),
    (2560, 1080),
]
#: The sizes the frame-by-frame checks run at.
FRAME_SIZES = [(1280, 720), (800, 600), (1024, 1280)]


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every new match from the same seed."""
    original = TableSession.new_match.__func__  # type: ignore[attr-defined]

    def seeded(cls: type[TableSession], /, *args: object, **kwargs: object) -> TableSession:
        if kwargs.get("seed") is None:
            kwargs["seed"] = SEED
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(TableSession, "new_match", classmethod(seeded))


def start(drivers: MakeDriver, size: tuple[int, int], speed: str = "normal") -> Driver:
    """Open the table on a new seeded match at ``size`` and ``speed``."""
    driver = drivers(size=size)
    app = driver.app
    app.change_settings(app.settings.with_changes(speed=speed))
    app.start_match()
    return driver


def frame_cards(table: TableScene) -> list[DrawnCard]:
    """Return the cards drawn in the frame just shown."""
    return table.view.cards(table.pointer.lifted())


def card_rect(centre: Point, size: tuple[int, int]) -> pygame.Rect:
    """Return the rectangle of a card of ``size`` centred at ``centre``."""
    rect = pygame.Rect(0, 0, *size)
    rect.center = (round(centre[0]), round(centre[1]))
    return rect


def index_box(art: CardArt) -> pygame.Rect:
    """Return the top-left corner index (rank over suit) of a face, in the card's pixels."""
    height = art.margin_y + art.cap_height + art.index_gap + art.index_suit
    return pygame.Rect(0, 0, math.ceil(art._column[1]), math.ceil(height))


def pass_by_clicks(driver: Driver) -> list[int]:
    """Click three of the person's cards and the pass button; return the passed cards."""
    table = driver.table
    chosen = table.view.shown.hand[-3:]
    for card in chosen:
        driver.click_card(card)
    driver.step()
    driver.click(table.bar.pass_button.rect.center)
    assert not table.session.person_must_pass, driver.describe()
    return chosen


def play_by_clicks(driver: Driver) -> None:
    """Make the person's move (a pass or the first legal card) with the mouse."""
    session = driver.table.session
    if session.person_must_pass:
        pass_by_clicks(driver)
    else:
        driver.click_card(session.legal_cards()[0])


# -- the deal (item 12) -------------------------------------------------------------------


@pytest.mark.parametrize("size", FRAME_SIZES)
def test_the_deck_shows_backs_until_each_card_is_dealt(
    drivers: MakeDriver, size: tuple[int, int]
) -> None:
    driver = start(drivers, size)
    table = driver.table
    deck = compute_layout(*size).centre
    waiting_seen = dealt_seen = 0
    driver.step()
    while table.view.timeline.current is not None and not driver.ready_for_person():
        for drawn in frame_cards(table):
            if drawn.key[0] != "card":
                continue
            if drawn.centre == deck:
                waiting_seen += 1
                assert drawn.card is None, f"{drawn} waits in the deck face up"
            else:
                dealt_seen += 1
        driver.step()
    assert waiting_seen and dealt_seen, (waiting_seen, dealt_seen)


# -- the pass exchange (item 3) -----------------------------------------------------------


@pytest.mark.parametrize("size", FRAME_SIZES)
def test_received_cards_travel_once_face_down_and_turn_up_on_arrival(
    drivers: MakeDriver, size: tuple[int, int]
) -> None:
    driver = start(drivers, size)
    table = driver.table
    session = table.session
    driver.run_until(lambda: driver.ready_for_person() and session.person_must_pass)
    before = set(table.view.shown.hand)
    direction = session.controller.pass_direction
    pass_by_clicks(driver)
    frames: list[list[DrawnCard]] = []
    driver.run_until(lambda: bool(frames.append(frame_cards(table))) or table.view.idle)
    frames.append(frame_cards(table))
    after = set(table.view.shown.hand)
    received = after - before
    assert len(received) == 3
    layout = driver.app.layout
    sender_spot = layout.seat_anchor(pass_sender(0, direction))
    final = table.view.hand_targets()
    keys: set[Key] = {("card", card) for card in received}
    hand_zone = layout.hand_area.inflate(0, 2 * round(layout.card_size[1] * LIFT))
    for frame in frames:
        for drawn in frame:
            if drawn.card is not None:  # nothing of a bot's is ever shown face up
                assert drawn.card in before | received, drawn
            elif drawn.key not in keys:  # no stand-in back lands in the hand
                assert not card_rect(drawn.centre, layout.card_size).colliderect(hand_zone), drawn
    for card in received:
        track = [d for frame in frames for d in frame if d.key == ("card", card)]
        first = track[0]
        assert first.card is None, f"{first} first appears face up"
        assert math.dist(first.centre, sender_spot) < layout.card_size[0], (first, sender_spot)
        distances = [math.dist(d.centre, final[card]) for d in track]
        assert all(b <= a + 0.5 for a, b in itertools.pairwise(distances)), distances
        faces = [d.card is not None for d in track]
        turned = faces.index(True)
        assert all(faces[turned:]), faces  # turned face up once, and stays up
        assert distances[turned] <= 1, "turned face up before it arrived"
        assert track[-1].squeeze == 1.0


# -- the trick (item 6) -------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_no_trick_card_covers_the_index_of_another_in_any_order(size: tuple[int, int]) -> None:
    layout = compute_layout(*size)
    art = CardArt(layout.card_size[0])
    box = index_box(art)
    for below, above in itertools.permutations(range(4), 2):
        under = card_rect(layout.trick_centres[below], layout.card_size)
        corner = box.move(under.topleft)
        over = card_rect(layout.trick_centres[above], layout.card_size)
        assert not over.colliderect(corner), (size, below, above)


@pytest.mark.parametrize("room", [200, 300, 400])
def test_a_narrow_table_stacks_the_trick_without_covering_a_card(room: int) -> None:
    card = (92, 129)
    spots = trick_spots((500, 500), card, room)
    rects = [card_rect(spot, card) for spot in spots]
    for a, b in itertools.combinations(rects, 2):
        assert not a.colliderect(b), (room, a, b)
    across = rects[0].unionall(rects[1:])
    assert across.width <= max(room, 2 * card[0] + 16), (room, across)


@pytest.mark.parametrize("size", FRAME_SIZES)
def test_every_card_of_a_full_trick_shows_its_index(
    drivers: MakeDriver, size: tuple[int, int]
) -> None:
    driver = start(drivers, size)
    table = driver.table
    view = table.view

    def full_trick_held() -> bool:
        beat = view.timeline.current
        if driver.ready_for_person():
            play_by_clicks(driver)
        return beat is not None and beat.name == "hold" and len(view.shown.trick) == 4

    driver.run_until(full_trick_held)
    driver.step()
    screen = driver.app.screen
    art = driver.app.card_art()
    box = index_box(art)
    for seat, card in view.shown.trick:
        face = art.face(card)
        rect = card_rect(driver.app.layout.trick_centres[seat], art.size)
        for x, y in itertools.product(range(box.width), range(box.height)):
            expected = face.get_at((x, y))
            if expected.a == 255:
                shown = screen.get_at((rect.left + x, rect.top + y))
                assert shown[:3] == expected[:3], (size, seat, card, (x, y))


# -- the sweep (item 11) ------------------------------------------------------------------


def seat_cards(layout: Layout, seat: int) -> pygame.Rect:
    """Return the rectangle a seat's thirteen cards cover (the person's raised ones too)."""
    if seat == 0:
        spots = layout.hand_positions(13)
        size = layout.card_size
    else:
        spots = layout.opponent_positions(seat, 13)
        small = layout.small_card_size
        size = (small[1], small[0]) if seat in (1, 3) else small
    rect = card_rect(spots[0], size).union(card_rect(spots[-1], size))
    if seat == 0:
        lift = round(size[1] * LIFT)
        rect.top -= lift
        rect.height += lift
    return rect


@pytest.mark.parametrize("size", SIZES)
def test_a_won_trick_is_swept_beside_the_plate_on_the_table(size: tuple[int, int]) -> None:
    layout = compute_layout(*size)
    screen = pygame.Rect(0, 0, *size)
    for seat in range(4):
        pile = card_rect(layout.pile_position(seat), layout.card_size)
        assert screen.contains(pile), (size, seat, pile)
        assert not pile.colliderect(layout.top_bar), (size, seat, pile)
        assert not pile.colliderect(seat_cards(layout, seat)), (size, seat, pile)
        plate = layout.name_plates[seat]
        reach = max(layout.card_size) + layout.px(16)
        assert pile.inflate(2 * reach, 2 * reach).colliderect(plate), (size, seat, pile, plate)


def test_the_trick_cards_end_their_sweep_at_the_winners_pile(drivers: MakeDriver) -> None:
    driver = start(drivers, (1280, 720))
    table = driver.table
    view = table.view
    last: dict[int, list[DrawnCard]] = {}

    def swept() -> bool:
        if driver.ready_for_person():
            play_by_clicks(driver)
        beat = view.timeline.current
        if beat is not None and beat.name == "collect" and view.shown.leaving:
            winner = view.shown.leaving[0][2]
            leaving = {("card", card) for _, card, _ in view.shown.leaving}
            last[winner] = [d for d in frame_cards(table) if d.key in leaving]
        return len(last) >= 2 and view.idle

    driver.run_until(swept)
    layout = driver.app.layout
    for winner, cards in last.items():
        pile = layout.pile_position(winner)
        for drawn in cards:
            assert math.dist(drawn.centre, pile) < layout.card_size[0] / 4, (winner, drawn)


# -- the "+N" labels (item 8) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "speed"), [((1280, 720), "fast"), ((1024, 1280), "fast"), ((800, 600), "instant")]
)
def test_point_labels_stay_off_the_bar_combine_and_end_with_the_hand(
    drivers: MakeDriver, size: tuple[int, int], speed: str
) -> None:
    driver = start(drivers, size, speed=speed)
    app = driver.app
    table = driver.table
    bar = app.layout.top_bar
    seats_seen: set[int] = set()

    def check_frame() -> None:
        """Check the labels of the frame just drawn (the bar as drawn without them)."""
        if app.top_scene() is not table or not table.gains:
            return
        seats = [gain.seat for gain in table.gains]
        assert len(seats) == len(set(seats)), f"labels pile up: {table.gains}"
        seats_seen.update(seats)
        with_labels = app.screen.subsurface(bar).copy()
        gains, table.gains = table.gains, []
        app.draw()
        table.gains = gains
        without = app.screen.subsurface(bar)
        assert pygame.image.tobytes(with_labels, "RGB") == pygame.image.tobytes(without, "RGB"), (
            f"a label is drawn over the top bar: {gains}"
        )
        rects = [rect for _, rect in table.painter.gain_labels()]
        for a, b in itertools.combinations(rects, 2):
            assert not a.colliderect(b), (a, b)

    driver.after_step.append(check_frame)

    def summary_shown() -> bool:
        if driver.ready_for_person():
            play_by_clicks(driver)
        return driver.summary_shown()

    driver.run_until(summary_shown, max_frames=20_000)
    assert 2 in seats_seen, f"North never took points: {seats_seen}"
    assert table.gains == [], "labels linger into the summary"
    summary = driver.top
    driver.step(5)
    summary.go_on()  # type: ignore[union-attr]
    driver.step()
    assert driver.top is table and table.gains == []
