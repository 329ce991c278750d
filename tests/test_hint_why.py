"""The hint is the review's own search of the decision, and says why its move beats the
runner-up, naming the part of the cost that really differs most."""

from __future__ import annotations

import time

import pygame
from table_driver import MakeDriver
from test_review import played_hand

from ai.explain import TEMPLATES
from ai.review import analyse, decision_seed, review_decision, seat_decisions
from core.cards import QUEEN_OF_SPADES, card_label, card_text
from core.rules import RuleSet
from game.table.bot_requests import InlineBots
from game.table.hint_panel import hint_lines
from game.table.hint_requests import (
    CoachedHint,
    ThreadHints,
    coach_hint,
    hint_of,
    runner_up,
)
from game.table.session import TableSession

#: Few deals, so the tests are quick (the hint and the review read the same however many).
SAMPLES = 120
RULES = (RuleSet(), RuleSet(jack_of_diamonds=True), RuleSet(moon="subtract"))


def test_the_hint_is_the_reviews_search_of_the_same_decision() -> None:
    # For every decision of seat 0 in a few hands: the hint recommends one of the review's
    # best choices; a play is searched on the very same deals, so its values are the
    # review's, and the review of the hinted card finds no loss.
    checked = 0
    for seed in range(4):
        controller = played_hand(seed, "normal", RULES[seed % 3])
        for decision in seat_decisions(controller, 0, 1):
            observation = decision.observation
            if decision.kind == "play" and observation.legal_mask().bit_count() == 1:
                continue
            hint = coach_hint(observation, decision.hand, SAMPLES)
            review = review_decision(decision, SAMPLES)
            move = hint.action if isinstance(hint.action, tuple) else (hint.action,)
            assert tuple(sorted(move)) in review.best_choices, (seed, decision.trick)
            if decision.kind == "play":
                label = card_text(decision.chosen[0])
                assert review.chosen_cost == round(hint.values[label], 2)
                assert move == review.best, "a play's hint is the review's best card"
                again = review_decision(type(decision)(decision.hand, observation, move), SAMPLES)
                assert again.loss == 0 and again.best == move
            checked += 1
    assert checked > 40


def largest_difference(rival: object, best: object) -> str:
    """The part whose cost the runner-up pays most more of, from the outcomes' parts."""
    mine, theirs = rival.parts(), best.parts()  # type: ignore[attr-defined]
    return max(mine, key=lambda part: mine[part] - theirs[part])


def test_the_why_names_the_part_that_differs_most_between_the_move_and_the_runner_up() -> None:
    explained = all_close = 0
    templates: set[str] = set()
    for seed in range(6):
        controller = played_hand(seed, "normal", RULES[seed % 3])
        for decision in seat_decisions(controller, 0, 1):
            observation = decision.observation
            if decision.kind == "play" and observation.legal_mask().bit_count() == 1:
                continue
            analysis = analyse(observation, SAMPLES, decision_seed(0, decision))
            hint = hint_of(observation, analysis)
            close = [analysis.candidates[slot] for slot in analysis.best_choices()[1:]]
            assert list(hint.close) == close
            assert hint.why is not None
            for cards in close[:2]:
                assert " ".join(card_label(card) for card in cards) in hint.why
            if len(close) > 2:
                assert f"and {len(close) - 2} more" in hint.why
            rival = runner_up(analysis)
            if rival is None:
                all_close += 1
                assert hint.rival is None and hint.part is None
                assert "within the search's noise" in hint.why
                continue
            explained += 1
            # The runner-up is the cheapest candidate clearly worse than the move.
            worse = [
                slot
                for slot in range(len(analysis.candidates))
                if slot not in analysis.best_choices()
            ]
            assert analysis.costs[rival] == min(analysis.costs[slot] for slot in worse)
            assert hint.rival == analysis.candidates[rival]
            rival_label = " ".join(card_label(card) for card in analysis.candidates[rival])
            assert f"Why not {rival_label}: " in hint.why
            part = largest_difference(analysis.outcomes[rival], analysis.outcomes[analysis.best])
            assert hint.part == part, (seed, decision.trick, hint.why)
            # The sentence is that part's template.
            template = next(
                name
                for name, words in TEMPLATES.items()
                if words.split("{chosen}")[0] in hint.why and name.split("_")[0] == part
            )
            templates.add(template)
    assert explained > 30 and all_close > 0, (explained, all_close)
    assert {"queen", "hearts"} <= templates, templates


def test_the_panel_shows_the_why_under_the_move() -> None:
    hint = CoachedHint(
        QUEEN_OF_SPADES,
        {"QS": 2.0, "8C": 4.1},
        (6,),
        "Why not 8♣: 8♣ keeps your clubs: you end up.",
        "queen",
    )
    lines = hint_lines(hint, passing=False, text_px=15, width=10_000)
    assert lines[0].text == "Hint: play Q♠"
    assert lines[1].text == hint.why
    narrow = hint_lines(hint, passing=False, text_px=15, width=150)
    assert " ".join(line.text for line in narrow[1:5]).startswith("Why not 8♣: 8♣ keeps")
    without = hint_lines(hint, passing=False, text_px=15, width=10_000, with_why=False)
    assert all("Why" not in line.text for line in without)


def test_the_table_hint_comes_with_its_why(drivers: MakeDriver) -> None:
    driver = drivers()
    driver.app.change_settings(driver.app.settings.with_changes(speed="fast"))
    driver.app.start_match()
    driver.run_until(driver.ready_for_person)
    session = driver.table.session
    driver.key(pygame.K_h)
    driver.run_until(lambda: session.hint is not None, 50)
    hint = session.hint
    assert isinstance(hint, CoachedHint) and hint.why is not None
    observation = session.controller.observation(0)
    assert hint == coach_hint(observation, session.controller.hand_number)


def test_a_hint_in_a_thread_arrives_and_a_new_request_drops_the_old_one() -> None:
    session = TableSession.new_match(InlineBots(), ["easy"] * 3, seed=4)
    hints = ThreadHints(samples=SAMPLES)
    observation = session.controller.observation(0)
    first = hints.submit(observation, 1)
    second = hints.submit(observation, 1)
    found: list[tuple[int, CoachedHint]] = []
    deadline = time.monotonic() + 30
    while not found and time.monotonic() < deadline:
        found = hints.poll()
        time.sleep(0.01)
    assert [request for request, _ in found] == [second] and first != second
    assert found[0][1] == coach_hint(observation, 1, SAMPLES)
    hints.submit(observation, 1)
    hints.cancel()
    time.sleep(0.5)
    assert hints.poll() == [], "a cancelled hint is dropped"
