"""The table's panels, header and scaling, on the real table at several window sizes.

The hint panel hides nothing and explains itself; the header says whose turn it is; the
card pointed at is ringed, not raised; the hand summary shows every point card whole; no
message bar shows beside a dialog; small and tall windows get readable cards and text.
"""

from __future__ import annotations

import itertools
import re

import pygame
import pytest
from table_driver import Driver, MakeDriver

from ai.think import ThinkConfig
from core.cards import HEARTS_MASK, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, cards_of
from game.table.bot_requests import InlineBots
from game.table.hint_panel import EXPLANATION, THINKING, hint_lines
from game.table.layout import LIFT, MIN_TEXT_PX, compute_layout
from game.table.match.port import Hint
from game.table.pointer import FOCUS_RING
from game.table.scenes.summary import HandSummary
from game.table.scenes.table import TableScene
from game.tools.scripted import ScriptedTable

SUMMARY_SIZES = [(1280, 720), (2560, 1440), (1024, 1280), (800, 600)]
#: A card written as text (``QS``, ``TH``) rather than with its suit symbol.
CARD_TEXT = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def card_rect(centre: tuple[float, float], size: tuple[int, int]) -> pygame.Rect:
    """Return the rectangle of a card of ``size`` drawn at ``centre``."""
    return pygame.Rect((0, 0), size).move_to(center=(round(centre[0]), round(centre[1])))


def pixels(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    """Return the screen's pixels inside ``rect`` (clipped to the screen)."""
    rect = rect.clip(surface.get_rect())
    return pygame.image.tobytes(surface.subsurface(rect), "RGB")


# -- scaling (window sizes that used to waste room) -------------------------------------------


@pytest.mark.parametrize("size", [(800, 600), (1024, 1280)])
def test_small_and_tall_windows_get_readable_cards_and_text(size: tuple[int, int]) -> None:
    layout = compute_layout(*size)
    assert layout.card_size[0] >= 0.09 * size[0], "the person's cards are too small"
    assert layout.small_card_size[0] >= 0.055 * size[0], "the bots' cards are too small"
    assert MIN_TEXT_PX >= 12 and layout.text(11) >= MIN_TEXT_PX
    for plate in layout.name_plates:
        assert plate.height >= 1.6 * layout.text(15), "a name plate is lower than its text"
    # The whole hand fits the window, with every card's corner showing.
    spots = layout.hand_positions(13)
    width, height = layout.card_size
    hand = card_rect(spots[0], layout.card_size).union(card_rect(spots[-1], layout.card_size))
    assert pygame.Rect(0, 0, *size).contains(hand)
    assert all(b[0] - a[0] >= 0.3 * width for a, b in itertools.pairwise(spots))
    lifted = hand.inflate(0, 2 * round(height * LIFT))
    for plate in layout.name_plates:
        assert not plate.colliderect(lifted) and not plate.colliderect(layout.message_area)


@pytest.mark.parametrize("size", [(800, 600), (1024, 1280)])
def test_the_top_bar_holds_its_words_and_buttons(
    drivers: MakeDriver, size: tuple[int, int]
) -> None:
    driver = drivers(size=size)
    driver.app.start_match()
    table = driver.table
    driver.run_until(driver.ready_for_person)
    screen = pygame.Rect(0, 0, *size)
    for a, b in itertools.pairwise(table.bar.top):
        assert screen.contains(a.rect) and screen.contains(b.rect) and a.rect.right < b.rect.left
    assert table.bar.top[0].rect.height >= 2 * MIN_TEXT_PX


# -- the hand summary and dialogs ---------------------------------------------------------


def card_fans(surface: pygame.Surface, card_height: int) -> list[pygame.Rect]:
    """Return the bounding boxes of the white card faces drawn on the screen (text left out)."""
    white = pygame.mask.from_threshold(surface, (255, 255, 255), (56, 56, 56, 255))
    fans = []
    for part in white.connected_components(minimum=card_height * 4):
        for rect in part.get_bounding_rects():
            if rect.height >= card_height // 2:
                fans.append(rect)
    # A court card's framed middle is a white part of its own, inside its card.
    return [fan for fan in fans if not any(o != fan and o.contains(fan) for o in fans)]


def reach_summary(driver: Driver, seed: int = 7) -> HandSummary:
    """Play a seeded hand on the real table to its summary; return the summary on screen."""
    scripted = ScriptedTable(driver.app, seed)
    assert scripted.at_summary(), driver.describe()
    summary = driver.top
    assert isinstance(summary, HandSummary)
    return summary


def check_point_cards_inside(driver: Driver, summary: HandSummary) -> None:
    """Every point card drawn is whole (not cut) and inside the summary's panel."""
    driver.app.draw()
    height = driver.app.card_art(small=True).size[1]
    fans = card_fans(driver.app.screen, height)
    taken = [cards for cards in summary.taken if cards]
    assert len(fans) == len(taken), (fans, summary.taken)
    panel = summary.panel()
    for fan in fans:
        assert panel.contains(fan), (fan, panel)
        assert fan.height >= height - 2, f"cards cut at the bottom: {fan.height} < {height}"
        assert fan.right <= panel.right - panel.width // 8, "cards run into the points"


@pytest.mark.parametrize("size", SUMMARY_SIZES)
def test_the_summary_shows_every_point_card_inside_its_panel(
    drivers: MakeDriver, size: tuple[int, int]
) -> None:
    driver = drivers(size=size)
    summary = reach_summary(driver)
    check_point_cards_inside(driver, summary)
    panel = summary.panel()
    for plate in driver.app.layout.name_plates:  # no sliver of a plate shows beside the panel
        assert panel.contains(plate) or not panel.colliderect(plate), (plate, panel)
    # A seat that took every heart, the Q♠ and the J♦ fits too.
    everything = [*cards_of(HEARTS_MASK), QUEEN_OF_SPADES, JACK_OF_DIAMONDS]
    summary.taken = [everything, [], [], []]
    check_point_cards_inside(driver, summary)


@pytest.mark.parametrize("dialog", ["hand_summary", "match_over"])
def test_no_message_bar_shows_beside_a_dialog(drivers: MakeDriver, dialog: str) -> None:
    driver = drivers(size=(1280, 720))
    summary = reach_summary(driver)
    table = summary.table
    if dialog == "match_over":
        driver.app.push_scene("match_over", table)
    screen = driver.app.screen
    table.message = None
    driver.app.draw()
    without = pixels(screen, screen.get_rect())
    table.message = ("Hearts are broken", 2.0)
    driver.app.draw()
    assert pixels(screen, screen.get_rect()) == without, "the table's message shows"


# -- the hint panel -----------------------------------------------------------------------


def ask_for_a_hint(driver: Driver) -> TableScene:
    """Run to a trick with two cards on the table, press H and wait for the hint."""
    scripted = ScriptedTable(driver.app, seed=7)
    assert scripted.at_mid_trick(2), driver.describe()
    table = driver.table
    driver.key(pygame.K_h)
    assert table.show_analysis
    driver.run_until(lambda: table.session.hint is not None, 200)
    driver.step(2)
    return table


def what_the_panel_must_not_hide(table: TableScene) -> list[pygame.Rect]:
    """Return the plates, the bots' cards, the trick, the top bar and the message bar."""
    layout = table.app.layout
    rects = [*layout.name_plates, layout.top_bar, layout.message_area]
    hand = set(table.view.shown.hand)
    for drawn in table.view.cards():
        if drawn.card in hand:
            continue  # the hint's card is outlined in the hand
        size = layout.small_card_size if drawn.small else layout.card_size
        if drawn.rotated:
            size = (size[1], size[0])
        rects.append(card_rect(drawn.centre, size))
    return rects


@pytest.mark.parametrize("size", [(1280, 720), (800, 600), (1024, 1280), (2560, 1440)])
def test_the_hint_panel_hides_nothing(drivers: MakeDriver, size: tuple[int, int]) -> None:
    driver = drivers(size=size, bots=InlineBots(ThinkConfig(limit_ms=50)))
    table = ask_for_a_hint(driver)
    screen = driver.app.screen
    rects = what_the_panel_must_not_hide(table)
    driver.app.draw()
    with_panel = [pixels(screen, rect) for rect in rects]
    table.show_analysis = False
    driver.app.draw()
    without = [pixels(screen, rect) for rect in rects]
    bare = pixels(screen, screen.get_rect())
    covered = [rect for rect, a, b in zip(rects, with_panel, without, strict=True) if a != b]
    assert not covered, f"the hint panel covers {covered}"
    table.show_analysis = True
    driver.app.draw()
    assert pixels(screen, screen.get_rect()) != bare, "the panel is not drawn"


def test_the_thinking_message_goes_when_the_hint_comes(drivers: MakeDriver) -> None:
    driver = drivers(bots=InlineBots(ThinkConfig(limit_ms=50)))
    table = ask_for_a_hint(driver)
    assert table.message is None or table.message[0] != THINKING
    driver.key(pygame.K_SPACE)  # played at once: nothing left to think about
    assert table.message is None or table.message[0] != THINKING


def test_the_hint_writes_cards_one_way_and_explains_its_values() -> None:
    hint = Hint(QUEEN_OF_SPADES, {"QS": 2.09, "TH": -1.5, "2C": 0.25, "JD QS AH": 0.0, "AS": 4.0})
    lines = hint_lines(hint, passing=False, text_px=15, width=10_000)
    words = " ".join(line.text for line in lines)
    assert not CARD_TEXT.search(words), words
    assert "Q♠" in lines[0].text and "10♥" in words and "J♦ Q♠ A♥" in words
    assert EXPLANATION in words and "lower is better" in words.lower()
    values = [float(line.value) for line in lines if line.value]
    assert values == sorted(values), "the best (lowest) choice comes first"


# -- the header and the keyboard focus ----------------------------------------------------


def test_the_header_says_whose_turn_it_is(drivers: MakeDriver) -> None:
    driver = drivers(bots=InlineBots(ThinkConfig(limit_ms=50)))
    scripted = ScriptedTable(driver.app, seed=7)
    table = driver.table
    seen: set[str] = set()

    def note() -> None:
        """Check the header against the match, when the table has shown everything."""
        header = table.painter.header()
        controller = table.session.controller
        if controller.phase == "play" and table.view.idle and controller.seats_to_act:
            seat = controller.seats_to_act[0]
            trick = controller.current_trick
            leads = trick is None or not trick.cards
            if seat == 0:
                expected = "Your lead" if leads else "Your turn"
            else:
                expected = f"{table.seat_name(seat)} {'leads' if leads else 'to play'}"
            assert expected in header, (expected, header)
            seen.add(expected.split()[-1])

    assert scripted.run_until(lambda: note() or isinstance(driver.top, HandSummary))
    assert {"lead", "turn", "leads", "play"} <= seen, seen


def test_the_keyboard_card_is_ringed_not_raised(drivers: MakeDriver) -> None:
    driver = drivers()
    scripted = ScriptedTable(driver.app, seed=7)
    assert scripted.at_mid_trick(2)
    table = driver.table
    driver.key(pygame.K_RIGHT, frames=40)
    focused = table.pointer.focus_card()
    assert focused is not None and focused in table.session.legal_cards()
    drawn = {d.card: d for d in table.view.cards(table.pointer.lifted()) if d.card is not None}
    resting = table.view.hand_targets()[focused][1]
    assert abs(drawn[focused].centre[1] - resting) < 1, "the focused card is raised"
    rect = card_rect(drawn[focused].centre, driver.app.layout.card_size)
    driver.app.draw()
    assert driver.app.screen.get_at((rect.centerx, rect.top - 1))[:3] == FOCUS_RING
    driver.move((5, 5))  # the mouse takes over: no ring
    driver.step(40)
    driver.app.draw()
    assert driver.app.screen.get_at((rect.centerx, rect.top - 1))[:3] != FOCUS_RING
