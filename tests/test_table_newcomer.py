"""What a new player tripped on at the table: each case played on the real table, headless.

Pointing at a card and choosing it look different; received cards stay raised until the
first play; the person is "You" in the table's sentences; the top bar says what the table
shows; the Q♠ breaking hearts is a rule one can see; a pass cannot be taken back once the
cards are exchanged; greyed choices say why; the plates label their numbers; a key pressed
during an animation is kept; refusals write cards as the table shows them.
"""

from __future__ import annotations

import pygame
from table_driver import Driver, MakeDriver, open_title

from core import events as ev
from core.cards import QUEEN_OF_SPADES, card_label, parse_card
from game.table import theme
from game.table.pointer import FOCUS_RING
from game.table.scene import scene_named
from game.table.scenes.menu import MenuScene
from game.table.scenes.summary import HandSummary
from game.table.scenes.table import TableScene
from game.tools.scripted import ScriptedTable

SEED = 7


def seeded_table(driver: Driver, seed: int = SEED) -> TableScene:
    """Start a seeded match at the driver's table and return the table."""
    ScriptedTable(driver.app, seed=seed)
    return driver.table


def raised(table: TableScene) -> set[int]:
    """Return the person's cards drawn above their resting place this frame."""
    resting = table.view.hand_targets()
    return {
        drawn.card
        for drawn in table.pointer.hand_cards()
        if drawn.card is not None and drawn.centre[1] < resting[drawn.card][1] - 1
    }


def to_the_pass(driver: Driver, table: TableScene) -> None:
    """Run until the person must choose the cards to pass."""
    driver.run_until(lambda: driver.ready_for_person() and table.session.person_must_pass)


def pass_three(driver: Driver, table: TableScene) -> set[int]:
    """Pass the last three cards of the hand with clicks and Enter; return the cards received."""
    before = set(table.view.shown.hand)
    for card in table.view.shown.hand[-3:]:
        driver.click_card(card)
    driver.key(pygame.K_RETURN)
    assert not table.session.person_must_pass
    driver.run_until(lambda: table.view.idle and table.session.phase == "play")
    return set(table.session.controller.hand(0)) - before


# -- 1: pointing and choosing -------------------------------------------------------------


def test_the_pointed_card_is_ringed_not_raised_and_choosing_raises_it(drivers: MakeDriver) -> None:
    driver = drivers()
    table = seeded_table(driver)
    table.keyboard_focus = True  # as the keys of an earlier hand leave it
    to_the_pass(driver, table)
    driver.step(40)
    assert raised(table) == set(), "a card looks chosen before any was chosen"
    driver.key(pygame.K_RIGHT, frames=40)
    pointed = table.pointer.focus_card()
    assert pointed is not None and pointed not in table.selected
    assert pointed not in raised(table), "the pointed card looks chosen"
    driver.app.draw()
    drawn = {d.card: d for d in table.pointer.hand_cards()}
    rect = pygame.Rect((0, 0), driver.app.layout.card_size)
    rect.center = (round(drawn[pointed].centre[0]), round(drawn[pointed].centre[1]))
    assert FOCUS_RING != theme.ACCENT, "pointing is ringed in the chosen cards' gold"
    assert driver.app.screen.get_at((rect.centerx, rect.top - 1))[:3] == FOCUS_RING
    driver.key(pygame.K_UP, frames=40)
    assert table.selected == [pointed]
    assert pointed in raised(table), "↑ changed nothing visible"
    driver.key(pygame.K_DOWN, frames=40)
    assert table.selected == [] and raised(table) == set()


# -- 3: the cards received ----------------------------------------------------------------


def test_received_cards_stay_raised_until_the_first_play(drivers: MakeDriver) -> None:
    driver = drivers()
    table = seeded_table(driver)
    to_the_pass(driver, table)
    received = pass_three(driver, table)
    assert len(received) == 3
    driver.run_until(driver.ready_for_person)
    driver.step(300)  # long after any glow of the exchange
    assert raised(table) >= received
    glowing = {d.card for d in table.pointer.hand_cards() if d.glow}
    assert glowing == received
    card = table.session.legal_cards()[0]
    driver.click_card(card)
    driver.step(40)
    assert not raised(table) and not any(d.glow for d in table.pointer.hand_cards())


def test_a_click_puts_the_received_cards_down(drivers: MakeDriver) -> None:
    driver = drivers()
    table = seeded_table(driver)
    to_the_pass(driver, table)
    received = pass_three(driver, table)
    driver.run_until(driver.ready_for_person)
    assert raised(table) >= received
    driver.click(driver.app.layout.centre, frames=40)
    assert not raised(table)


# -- 4: "You take", "You play" ------------------------------------------------------------


def test_the_person_is_you_in_the_tables_sentences(drivers: MakeDriver) -> None:
    driver = drivers()
    table = seeded_table(driver)
    queen = card_label(QUEEN_OF_SPADES)
    table._cue("play", ev.CardPlayed(0, QUEEN_OF_SPADES))
    assert table.message is not None and table.message[0] == f"You play the {queen}"
    cards = (parse_card("2S"), QUEEN_OF_SPADES, parse_card("3S"), parse_card("4S"))
    table._cue("trick_taken", ev.TrickWon(0, 3, cards, 13))
    assert table.message[0] == f"You take the {queen}"
    moment = driver.top
    assert getattr(moment, "title", None) == f"You take the {queen}"
    table._cue("play", ev.CardPlayed(1, QUEEN_OF_SPADES))
    assert table.message[0] == f"{table.seat_name(1)} plays the {queen}"
    driver.app.change_settings(driver.app.settings.with_changes(player_name="Ada"))
    table._cue("play", ev.CardPlayed(0, QUEEN_OF_SPADES))
    assert table.message[0] == f"Ada plays the {queen}"


# -- 5: the top bar follows the table -----------------------------------------------------


def test_the_top_bar_says_what_the_table_shows(drivers: MakeDriver) -> None:
    driver = drivers()
    scripted = ScriptedTable(driver.app, seed=SEED)
    table = driver.table
    seen: set[str] = set()

    def check() -> None:
        shown = table.view.shown
        header = table.painter.header()
        if shown.leaving or len(shown.trick) == 4:
            for words in ("to play", "Your turn", "lead"):
                assert words not in header, (header, shown.trick, shown.leaving)
            seen.add("trick")
        elif shown.trick:
            seat = (shown.trick[-1][0] + 1) % 4
            expected = "Your turn" if seat == 0 else f"{table.seat_name(seat)} to play"
            assert expected in header, (expected, header, shown.trick)
            seen.add("turn")

    scripted.run_until(lambda: check() or isinstance(driver.top, HandSummary))
    assert seen == {"trick", "turn"}
    for words in ("to play", "Your turn", "lead"):  # nobody is to play a hand played out
        assert words not in table.painter.header(), table.painter.header()


# -- 8: the Q♠ breaks hearts --------------------------------------------------------------


def test_the_queen_breaking_hearts_is_said_and_shown_in_the_settings(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    table = seeded_table(driver)
    table._cue("hearts_broken", ev.HeartsBroken(2, QUEEN_OF_SPADES))
    assert table.message is not None
    assert table.message[0] == f"The {card_label(QUEEN_OF_SPADES)} breaks hearts"
    table._cue("hearts_broken", ev.HeartsBroken(2, parse_card("5H")))
    assert table.message[0] == "Hearts are broken"

    settings = scene_named("settings", driver.app)
    assert isinstance(settings, MenuScene)
    label = f"The {card_label(QUEEN_OF_SPADES)} breaks hearts"
    [item] = [item for item in settings.items if item.text().startswith(label)]
    assert item.text() == f"{label}: on"
    assert item.select is not None
    item.select()
    assert driver.app.settings.rules.queen_breaks_hearts is False
    assert item.text() == f"{label}: off"


# -- 17: no undo across the exchange ------------------------------------------------------


def test_the_pass_cannot_be_undone_once_the_cards_are_exchanged(drivers: MakeDriver) -> None:
    driver = drivers()
    table = seeded_table(driver)
    to_the_pass(driver, table)
    pass_three(driver, table)
    driver.run_until(driver.ready_for_person)
    session = table.session
    undo = next(button for button in table.bar.top if button.label == "Undo")
    before = driver.record()
    driver.step()
    assert not undo.enabled
    driver.click(undo.rect.center, frames=5)
    assert driver.record() == before
    assert table.message is not None and "exchanged" in table.message[0]
    driver.key(pygame.K_z, pygame.KMOD_LCTRL, frames=5)
    assert driver.record() == before and not session.person_must_pass
    # A card played after the exchange is taken back as before, and no further.
    card = session.legal_cards()[0]
    driver.click_card(card)
    driver.run_until(lambda: driver.ready_for_person() or driver.summary_shown())
    driver.key(pygame.K_z, pygame.KMOD_LCTRL, frames=5)
    assert card in session.controller.hand(0) and session.phase == "play"


# -- 18: greyed choices, plates, keys during animations, cards in refusals ----------------


def test_a_greyed_continue_says_why(drivers: MakeDriver) -> None:
    driver = drivers()
    title = open_title(driver)
    index = driver.menu_index("Continue the match")
    assert not title.items[index].usable()
    driver.click(title._geometry()[1][index].center, frames=2)
    assert driver.top is title and driver.app.running
    assert any("No match is saved" in text for text, _ in driver.app.toasts)


def test_the_name_plates_say_what_their_numbers_are(drivers: MakeDriver) -> None:
    driver = drivers()
    table = seeded_table(driver)
    table.view.shown.taken = [3, 0, 0, 13]
    table.view.shown.totals = [12, 0, 40, 7]
    assert table.painter.plate_score(0) == "+3 · 12 pts"
    assert table.painter.plate_score(1) == "0 pts"
    assert table.painter.plate_score(3) == "+13 · 7 pts"


def test_s_and_l_pressed_during_an_animation_act_when_it_ends(drivers: MakeDriver) -> None:
    driver = drivers()
    table = seeded_table(driver)
    to_the_pass(driver, table)
    pass_three(driver, table)
    session = table.session
    driver.run_until(driver.ready_for_person)
    driver.click_card(session.legal_cards()[0])
    driver.run_until(lambda: len(table.view.shown.trick) == 4)  # the first trick, held
    assert not table.view.idle
    driver.key(pygame.K_l)
    assert driver.top is table and table.message is None
    driver.run_until(lambda: driver.top is not table, 600)
    assert type(driver.top).__name__ == "LastTrick"
    driver.key(pygame.K_ESCAPE, frames=2)
    assert driver.top is table

    # A key that skips a moment over the table is kept too.
    table.flow.moment("queen", "North takes the Q♠")
    assert driver.top is not table
    driver.key(pygame.K_s, frames=2)
    driver.run_until(lambda: type(driver.top).__name__ == "ScoreSheet", 600)


def test_refusals_write_cards_with_their_suit_symbols() -> None:
    from core.controller import Result
    from game.table.match.port import player_message

    refusal = Result(False, error="x", reason="first_lead_two_of_clubs")
    assert player_message(refusal, "") == "The first trick must be led with the 2♣"
    held = Result(False, error="x", reason="card_not_held", details={"card": QUEEN_OF_SPADES})
    assert player_message(held, "") == "You do not hold the Q♠"
