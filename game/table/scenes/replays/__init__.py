"""The replays: the list of finished matches kept, and a kept match stepped through.

The list (a title menu entry, ``replay_list``) shows when each match ended, who played it and
the result, newest first; ↑ ↓ choose one, Enter or a click opens it. The replay
(``replay_page``) steps through every hand with all four hands face up: the deal, the passes,
each trick, the score; ← → step (across hands), ↑ ↓ go to the previous or next hand, Home / End
to the first or last step of the hand, a click on the strip to a step. R (or its button) reviews
the person's decisions in the hand shown, with the same page as at the table. What a step shows
is drawn by ``replay_steps``; the match opened is a ``Replay`` (``replay``).
"""

from game.table.scenes.replays.replay import Replay
from game.table.scenes.replays.replay_list import ReplayList, ended_text, row_cells
from game.table.scenes.replays.replay_page import ReplayPage
from game.table.scenes.replays.replay_steps import ReplayStep

__all__ = ["Replay", "ReplayList", "ReplayPage", "ReplayStep", "ended_text", "row_cells"]
