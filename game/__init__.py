"""The game's transports: the pygame table, the terminal harness and the engine protocol."""

import os

# pygame prints a banner on import unless told not to; the game never writes to the console.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
