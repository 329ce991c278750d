"""The ``mdhearts`` program: the table, the terminal harness, the engine server and the tools."""

import os

# pygame prints a banner on import unless told not to; the game never writes to the console.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
