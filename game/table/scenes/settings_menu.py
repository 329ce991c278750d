"""The settings screen: each line steps one setting with ←/→ or a click, saved at once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from core.cards import QUEEN_OF_SPADES, card_label
from core.rules import JACK_OF_DIAMONDS_POINTS, MOON_MODES, MOON_POINTS
from game.table.scene import register
from game.table.scenes.menu import MENU_WARM_BUDGET_S, MenuItem, MenuScene
from game.table.store.settings import CARD_BACKS, DIFFICULTIES, SPEEDS
from game.table.wording import SEAT_NAMES

if TYPE_CHECKING:
    from game.table.app import App

END_SCORES = (50, 75, 100, 150)
#: How many finished matches may be kept to replay (0: none are archived, those kept stay).
REPLAYS_KEPT = (0, 10, 25, 50, 100)
#: What happens when someone shoots the moon, in the words the settings show.
MOON_WORDS = {
    "add": f"everyone else +{MOON_POINTS}",
    "subtract": f"shooter −{MOON_POINTS}",
    "auto": f"others +{MOON_POINTS}, or −{MOON_POINTS} to avoid losing",
}
#: The J♦ rule's field, its values, and that they are not in an order.
JACK = ("jack_of_diamonds", (False, True), False)
#: The rule that the Q♠ breaks hearts (on by default): its field, values, and no order.
QUEEN = ("queen_breaks_hearts", (True, False), False)


def signed(points: int) -> str:
    """Return points with their sign, a true minus for negative ones: ``+26``, ``−10``."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def on_off(value: bool) -> str:
    """Return ``on`` or ``off``."""
    return "on" if value else "off"


def step_choice(values: Sequence[Any], current: Any, step: int, wrap: bool = False) -> Any:
    """Return the value ``step`` places from ``current`` among ``values``.

    An ordered list stops at its ends (``wrap`` False): the arrows of "Match to" go no
    further than 50 or 150. With ``wrap`` the list is a cycle, as a click goes round it. A
    number not in the list (from a hand-edited file) steps to its nearest neighbour that way.
    """
    if current in values:
        index = values.index(current) + step
    elif isinstance(current, int) and all(isinstance(value, int) for value in values):
        above = [i for i, value in enumerate(values) if value > current]
        below = [i for i, value in enumerate(values) if value < current]
        index = (above[0] if above else len(values)) if step > 0 else (below[-1] if below else -1)
    else:
        index = 0
    if wrap:
        return values[index % len(values)]
    return values[min(max(index, 0), len(values) - 1)]


def settings_menu(app: App, overlay: bool = False) -> MenuScene:
    """Return the settings menu; changes apply to the next match where they concern rules."""

    def change(**values: Any) -> None:
        app.change_settings(app.settings.with_changes(**values))

    def choice(title: str, name: str, values: Sequence[Any], ordered: bool = True) -> MenuItem:
        def label() -> str:
            return f"{title}: {getattr(app.settings, name)}"

        def stepper(step: int, wrap: bool) -> Callable[[], None]:
            def run() -> None:
                change(**{name: step_choice(values, getattr(app.settings, name), step, wrap)})

            return run

        return MenuItem(label, stepper(1, True), stepper(-1, not ordered), stepper(1, not ordered))

    def toggle(title: str, name: str) -> MenuItem:
        def label() -> str:
            return f"{title}: {on_off(getattr(app.settings, name))}"

        def flip() -> None:
            change(**{name: not getattr(app.settings, name)})

        return MenuItem(label, flip, flip, flip)

    def opponent(seat: int) -> MenuItem:
        def label() -> str:
            return f"{SEAT_NAMES[seat + 1]}: {app.settings.opponents[seat]}"

        def stepper(step: int, wrap: bool) -> Callable[[], None]:
            def run() -> None:
                levels = list(app.settings.opponents)
                levels[seat] = step_choice(DIFFICULTIES, levels[seat], step, wrap)
                change(opponents=tuple(levels))

            return run

        return MenuItem(label, stepper(1, True), stepper(-1, False), stepper(1, False))

    def rule(
        label: Callable[[Any], str], name: str, values: Sequence[Any], ordered: bool = True
    ) -> MenuItem:
        def stepper(step: int, wrap: bool) -> Callable[[], None]:
            def run() -> None:
                rules = app.settings.rules.to_dict()
                rules[name] = step_choice(values, rules[name], step, wrap)
                change(rules=rules)

            return run

        return MenuItem(
            lambda: label(getattr(app.settings.rules, name)),
            stepper(1, True),
            stepper(-1, not ordered),
            stepper(1, not ordered),
        )

    def replays_kept() -> MenuItem:
        def label() -> str:
            kept = app.settings.replays_kept
            return f"Finished matches kept to replay: {kept or 'none'}"

        def stepper(step: int, wrap: bool) -> Callable[[], None]:
            def run() -> None:
                change(
                    replays_kept=step_choice(REPLAYS_KEPT, app.settings.replays_kept, step, wrap)
                )

            return run

        return MenuItem(label, stepper(1, True), stepper(-1, False), stepper(1, False))

    def fullscreen() -> MenuItem:
        return MenuItem(
            lambda: f"Fullscreen: {'on' if app.fullscreen else 'off'}",
            app.toggle_fullscreen,
            app.toggle_fullscreen,
            app.toggle_fullscreen,
        )

    def name() -> MenuItem:
        return MenuItem(
            lambda: f"Your name: {app.settings.player_name}",
            lambda: app.push_scene("name_entry"),
        )

    items = [
        name(),
        opponent(0),
        opponent(1),
        opponent(2),
        choice("Speed", "speed", SPEEDS),
        toggle("Click to continue after each trick", "click_to_continue"),
        toggle("Play forced cards for me", "auto_play_forced"),
        toggle("Finish the hand when no points remain", "end_hand_early"),
        toggle("Sound", "sound"),
        fullscreen(),
        toggle("Four-colour deck", "four_colour"),
        toggle("Large print cards", "large_print"),
        choice("Card back", "card_back", CARD_BACKS),
        rule(lambda mode: f"Shooting the moon: {MOON_WORDS[mode]}", "moon", MOON_MODES, False),
        rule(lambda on: f"J♦ counts {signed(JACK_OF_DIAMONDS_POINTS)}: {on_off(on)}", *JACK),
        rule(lambda on: f"The {card_label(QUEEN_OF_SPADES)} breaks hearts: {on_off(on)}", *QUEEN),
        rule(lambda score: f"Match ends at: {score} points", "end_score", END_SCORES),
        replays_kept(),
        MenuItem("Done", lambda: menu.close()),
    ]
    menu = MenuScene(
        app,
        "Settings",
        items,
        subtitle="← → change a setting · rules apply from the next match",
        overlay=overlay,
        warm_budget_s=MENU_WARM_BUDGET_S,
    )
    return menu


register("settings", settings_menu)
