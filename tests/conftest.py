"""Shared test setup: headless SDL, and telemetry and game files kept out of the user's folders."""

import os
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("MDH_TELEMETRY_DIR", tempfile.mkdtemp(prefix="mdh-telemetry-"))
os.environ.setdefault("MDH_HOME", tempfile.mkdtemp(prefix="mdh-home-"))
