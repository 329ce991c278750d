"""The table's screens: title menu, table, summaries, the review of a hand, replays,
settings, statistics and help.

Importing this package imports every screen, and so registers each by its name
(``game.table.scene.register``); the screens open each other by those names.
"""

from game.table.scenes import (
    last_trick,
    match_result,
    menu,
    moment,
    name_entry,
    pages,
    replays,
    review,
    settings_menu,
    summary,
    table,
    text_page,
    title,
)

__all__ = [
    "last_trick",
    "match_result",
    "menu",
    "moment",
    "name_entry",
    "pages",
    "replays",
    "review",
    "settings_menu",
    "summary",
    "table",
    "text_page",
    "title",
]
