"""The settings screen: each line steps one setting with ←/→ or a click, saved at once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from game.table.scene import register
from game.table.scenes.menu import MenuItem, MenuScene
from game.table.store.settings import CARD_BACKS, DIFFICULTIES, SPEEDS

if TYPE_CHECKING:
    from game.table.app import App

MOON_RULES = ("add", "subtract", "auto")
END_SCORES = (50, 75, 100, 150)


def _step(values: Sequence[Any], current: Any, step: int) -> Any:
    index = values.index(current) if current in values else 0
    return values[(index + step) % len(values)]


def settings_menu(app: App, overlay: bool = False) -> MenuScene:
    """Return the settings menu; changes apply to the next match where they concern rules."""

    def change(**values: Any) -> None:
        app.change_settings(app.settings.with_changes(**values))

    def choice(title: str, name: str, values: Sequence[Any]) -> MenuItem:
        def label() -> str:
            return f"{title}: {getattr(app.settings, name)}"

        def stepper(step: int) -> Callable[[], None]:
            return lambda: change(**{name: _step(values, getattr(app.settings, name), step)})

        return MenuItem(label, None, stepper(-1), stepper(1))

    def toggle(title: str, name: str) -> MenuItem:
        def label() -> str:
            return f"{title}: {'on' if getattr(app.settings, name) else 'off'}"

        def flip() -> None:
            change(**{name: not getattr(app.settings, name)})

        return MenuItem(label, flip, flip, flip)

    def opponent(seat: int) -> MenuItem:
        names = ("West", "North", "East")

        def label() -> str:
            return f"{names[seat]}: {app.settings.opponents[seat]}"

        def stepper(step: int) -> Callable[[], None]:
            def run() -> None:
                levels = list(app.settings.opponents)
                levels[seat] = _step(DIFFICULTIES, levels[seat], step)
                change(opponents=tuple(levels))

            return run

        return MenuItem(label, None, stepper(-1), stepper(1))

    def rule(title: str, name: str, values: Sequence[Any]) -> MenuItem:
        def label() -> str:
            value = getattr(app.settings.rules, name)
            shown = ("on" if value else "off") if isinstance(value, bool) else value
            return f"{title}: {shown}"

        def stepper(step: int) -> Callable[[], None]:
            def run() -> None:
                rules = app.settings.rules.to_dict()
                rules[name] = _step(values, rules[name], step)
                change(rules=rules)

            return run

        return MenuItem(label, None, stepper(-1), stepper(1))

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
        rule("Moon", "moon", MOON_RULES),
        rule("J♦ counts −10", "jack_of_diamonds", (False, True)),
        rule("Match to", "end_score", END_SCORES),
    ]
    menu = MenuScene(
        app,
        "Settings",
        items,
        subtitle="← → change a setting · rules apply from the next match",
        overlay=overlay,
    )
    return menu


register("settings", settings_menu)
